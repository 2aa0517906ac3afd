// Lean cuRAND: a kernel that includes curand_kernel.h and uses neither XORWOW nor MRG32k3a is
// compiled without those generators' skip-ahead tables (NVRTC would emit all 220 KiB of them into
// the module); the kernel's code is the same either way; a kernel that uses them, named or hidden
// from the scan, still gets them. Real compiles for sm_90 (no GPU needed).
#include "ks/rtc/cache.hpp"
#include "ks/rtc/compiler.hpp"
#include "ks/rtc/kernel_facts.hpp"
#include "ks/rtc/minimal_mode.hpp"

#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace ks::rtc;

namespace {

// The default options: sm_90, PCH, lean cuRAND on.
CompileOptions hopper()
{
    return {};
}

// `state` declares the generator state `s`; the kernel draws normals scaled by `scale`.
std::string rngKernel(const std::string& prelude, const std::string& state, const std::string& scale)
{
    return "#include <curand_kernel.h>\n" + prelude +
           "extern \"C\" __global__ void rng(float* out, unsigned long long seed, int n)\n"
           "{\n"
           "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "    if (i >= n) return;\n"
           "    " + state + " s;\n"
           "    curand_init(seed, i, 3, &s);\n"
           "    out[i] = curand_normal(&s) * " + scale + "f + curand_uniform(&s);\n"
           "}\n";
}

// The PTX from the kernel's entry on: the module-scope data (the tables) comes before it.
std::string entryOnward(const std::string& ptx)
{
    const std::size_t at = ptx.find(".visible .entry");
    return at == std::string::npos ? std::string() : ptx.substr(at);
}

bool hasError(const CompileResult& r)
{
    return std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

} // namespace

TEST(LeanCurand, ScanFindsTheGeneratorsThatNeedTables)
{
    EXPECT_EQ(curandTablesUserInText("curandStatePhilox4_32_10_t s; curandStateSobol32_t q;"), "");
    EXPECT_EQ(curandTablesUserInText("// curandState in a comment\n/* XORWOW */ int x = 1;"), "");
    EXPECT_EQ(curandTablesUserInText("curandState s;"), "uses curandState");
    EXPECT_EQ(curandTablesUserInText("curandState_t s;"), "uses curandState_t");
    EXPECT_EQ(curandTablesUserInText("curandStateXORWOW_t s;"), "uses curandStateXORWOW_t");
    EXPECT_EQ(curandTablesUserInText("curandStateMRG32k3a s;"), "uses curandStateMRG32k3a");
    EXPECT_EQ(curandTablesUserInText("unsigned* m = precalc_xorwow_matrix[0];"), "uses precalc_xorwow_matrix");
}

TEST(LeanCurand, BlockerNeedsCurandKernelAndNoGeneratorInTheSourceOrItsHeaders)
{
    ks::test::TempDir dir;
    const std::string file = (dir.path() / "rng.cu").string();
    const CompileOptions o = hopper();
    EXPECT_EQ(curandTablesBlocker("__global__ void k() {}\n", file, o), "does not include curand_kernel.h");
    EXPECT_EQ(curandTablesBlocker(rngKernel("", "curandStatePhilox4_32_10_t", "2.0"), file, o), "");
    EXPECT_EQ(curandTablesBlocker(rngKernel("", "curandState", "2.0"), file, o), "uses curandState");

    dir.write("gen.cuh", "using Gen = curandStateXORWOW_t;\n");
    EXPECT_EQ(curandTablesBlocker(rngKernel("#include \"gen.cuh\"\n", "Gen", "2.0"), file, o),
              "gen.cuh uses curandStateXORWOW_t");

    CompileOptions off = o;
    off.leanCurand = false;
    EXPECT_EQ(curandTablesBlocker(rngKernel("", "curandStatePhilox4_32_10_t", "2.0"), file, off),
              "the lean-cuRAND fast path is off");
}

TEST(LeanCurand, PhiloxKernelLeavesTheTablesOutAndCompilesToTheSameCode)
{
    const std::string source = rngKernel("", "curandStatePhilox4_32_10_t", "3.25");
    const CompileResult lean = compile(source, "rng.cu", hopper());
    ASSERT_TRUE(lean.ok) << lean.log;
    EXPECT_TRUE(lean.curandTablesLeftOut) << lean.curandTablesReason;
    EXPECT_EQ(lean.ptx.find("precalc_xorwow"), std::string::npos);
    EXPECT_EQ(lean.ptx.find("mrg32k3aM"), std::string::npos);
    EXPECT_EQ(lean.ptx.find("ks_curand_"), std::string::npos) << "the left-out tables were referenced";
    EXPECT_LT(lean.ptx.size(), 100u * 1024u);

    CompileOptions keep = hopper();
    keep.leanCurand = false;
    const CompileResult full = compile(source, "rng.cu", keep);
    ASSERT_TRUE(full.ok) << full.log;
    EXPECT_FALSE(full.curandTablesLeftOut);
    EXPECT_EQ(full.curandTablesReason, "the lean-cuRAND fast path is off");
    EXPECT_NE(full.ptx.find("precalc_xorwow_matrix"), std::string::npos) << "NVRTC no longer emits the tables?";
    EXPECT_GT(full.ptx.size(), 10 * lean.ptx.size());

    // The kernel itself is the same: its PTX from the entry on, and ptxas' resources.
    ASSERT_FALSE(entryOnward(lean.ptx).empty());
    EXPECT_EQ(entryOnward(lean.ptx), entryOnward(full.ptx));
    const PtxasReport leanReport = parsePtxasReport(lean.log), fullReport = parsePtxasReport(full.log);
    ASSERT_EQ(leanReport.kernels.size(), 1u);
    ASSERT_EQ(fullReport.kernels.size(), 1u);
    EXPECT_EQ(leanReport.kernels[0].registers, fullReport.kernels[0].registers);
    EXPECT_EQ(leanReport.kernels[0].stackFrameBytes, fullReport.kernels[0].stackFrameBytes);
    EXPECT_LT(leanReport.globalBytes, fullReport.globalBytes);
}

TEST(LeanCurand, NamedXorwowKernelKeepsTheTables)
{
    const CompileResult r = compile(rngKernel("", "curandState", "1.5"), "rng.cu", hopper());
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_FALSE(r.curandTablesLeftOut);
    EXPECT_EQ(r.curandTablesReason, "uses curandState");
    EXPECT_NE(r.ptx.find("precalc_xorwow_matrix"), std::string::npos);
}

TEST(LeanCurand, GeneratorsHiddenFromTheScanFailToLinkAndAreCompiledAgainWithTheTables)
{
    // Token pasting hides the state types from the scan; the lean build then calls the undefined
    // ks_curand_*_left_out() functions and fails to link, and compile() returns the full build.
    const std::string glue = "#define GLUE(a, b) a##b\n";
    const std::string hidden[] = {"GLUE(curandSt, ate)", "GLUE(curandStateMRG, 32k3a_t)"};
    for (const std::string& state : hidden) {
        const std::string source = rngKernel(glue, state, "0.5");
        ASSERT_EQ(curandTablesBlocker(source, "rng.cu", hopper()), "") << state << ": the scan saw through it";
        const CompileResult r = compile(source, "rng.cu", hopper());
        ASSERT_TRUE(r.ok) << state << "\n" << r.log;
        EXPECT_FALSE(hasError(r)) << state;
        EXPECT_FALSE(r.curandTablesLeftOut) << state;
        EXPECT_EQ(r.curandTablesReason, "the build without them failed") << state;
        EXPECT_EQ(r.ptx.find("ks_curand_"), std::string::npos) << state;
        EXPECT_TRUE(r.ptx.find("precalc_xorwow_matrix") != std::string::npos ||
                    r.ptx.find("mrg32k3aM1") != std::string::npos)
            << state;
        EXPECT_GT(r.nvrtcMs, 0.0);
    }
}

TEST(LeanCurand, CacheKeyTellsTheModesApartOnlyWhereTheyDiffer)
{
    CompileOptions lean = hopper();
    CompileOptions keep = hopper();
    keep.leanCurand = false;
    const std::string curand = rngKernel("", "curandStatePhilox4_32_10_t", "2.0");
    EXPECT_NE(CompileCache::key(curand, "rng.cu", lean), CompileCache::key(curand, "rng.cu", keep));
    const std::string plain = "extern \"C\" __global__ void k(float* p) { p[threadIdx.x] = 1.0f; }\n";
    EXPECT_EQ(CompileCache::key(plain, "k.cu", lean), CompileCache::key(plain, "k.cu", keep));
}

TEST(LeanCurand, NvrtcCacheOptionReachesTheOptionList)
{
    CompileOptions o = hopper();
    const auto has = [](const std::vector<std::string>& v) { return std::count(v.begin(), v.end(), "-no-cache"); };
    EXPECT_EQ(has(buildOptionList(o)), 1) << "NVRTC's own cache is off by default (its hits have no ptxas report)";
    o.nvrtcCache = true;
    EXPECT_EQ(has(buildOptionList(o)), 0);
    EXPECT_TRUE(compile("extern \"C\" __global__ void k(float* p) { p[threadIdx.x] = 3.0f; }\n", "k.cu", o).ok);
    o.nvrtcCache = false;
    const CompileResult r = compile("extern \"C\" __global__ void k(float* p) { p[threadIdx.x] = 2.0f; }\n", "k.cu", o);
    EXPECT_TRUE(r.ok) << r.log;
}
