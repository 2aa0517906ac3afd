// The fast paths of rtc::compile (ks/rtc/minimal_mode.hpp). All compiled by NVRTC for sm_90 here
// (no GPU needed).
// - -minimal: which sources take it (a textual scan of the source and its user headers), that a
//   -minimal failure falls back to the full compile with the full compile's diagnostics, and that
//   the cache key and --check output tell the modes apart.
// - Lean cuRAND: a kernel that includes curand_kernel.h and uses neither XORWOW nor MRG32k3a is
//   compiled without those generators' skip-ahead tables (NVRTC would emit all 220 KiB of them into
//   the module); the kernel's code is the same either way; a kernel that uses them, named or hidden
//   from the scan, still gets them.
#include "cli/check_file.hpp"
#include "ks/core/paths.hpp"
#include "ks/rtc/cache.hpp"
#include "ks/rtc/compiler.hpp"
#include "ks/rtc/kernel_facts.hpp"
#include "ks/rtc/minimal_mode.hpp"

#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace ks;
using namespace ks::rtc;

namespace {

const char* kPlain = R"(// no textures here: "text" in a comment, tex2D in a comment too
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i] * 1.0e-1f;
}
)";

// Names a runtime type through token pasting: the scan cannot see it, -minimal fails, the full
// compile succeeds.
const char* kPastedRuntimeType = R"(#define GLUE(a, b) a##b
extern "C" __global__ void status(int* out)
{
    GLUE(cu, daError_t) e = GLUE(cu, daSuccess);
    out[threadIdx.x] = int(e) + 7;
}
)";

const char* kBroken = R"(extern "C" __global__ void broken(float* p)
{
    int unused = 3;
    p[threadIdx.x] = undefined_name;
}
)";

rtc::CompileOptions hopper()
{
    rtc::CompileOptions o;
    o.arch = "sm_90";
    o.autoMinimal = true; // the fast path is opt-in (see CompileOptions::autoMinimal)
    o.includePaths.push_back((test::sourceDir() / "kernels" / "include").string());
    return o;
}

bool sameDiagnostics(const std::vector<rtc::Diagnostic>& a, const std::vector<rtc::Diagnostic>& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].file != b[i].file || a[i].line != b[i].line || a[i].column != b[i].column ||
            a[i].severity != b[i].severity || a[i].code != b[i].code || a[i].message != b[i].message)
            return false;
    return true;
}

// ptxas's log less its "Compile time = ..." lines, which differ from run to run.
std::string withoutTimes(const std::string& log)
{
    std::string kept;
    std::size_t start = 0;
    while (start < log.size()) {
        std::size_t end = log.find('\n', start);
        end = end == std::string::npos ? log.size() : end + 1;
        if (log.substr(start, end - start).find("Compile time =") == std::string::npos)
            kept += log.substr(start, end - start);
        start = end;
    }
    return kept;
}

} // namespace

TEST(MinimalMode, TheTextScanFindsWhatMinimalLeavesOut)
{
    EXPECT_EQ(rtc::minimalBlockerInText(kPlain), "");
    EXPECT_EQ(rtc::minimalBlockerInText("float v = tex2D<float>(t, 0.5f, 0.5f);"), "uses tex2D");
    EXPECT_EQ(rtc::minimalBlockerInText("surf2Dwrite(v, s, 0, 0);"), "uses surf2Dwrite");
    EXPECT_EQ(rtc::minimalBlockerInText("void k(cudaTextureObject_t t);"), "uses cudaTextureObject_t");
    EXPECT_EQ(rtc::minimalBlockerInText("cudaMalloc(&p, 4);"), "uses cudaMalloc");
    EXPECT_EQ(rtc::minimalBlockerInText("child<<<1, 32>>>(p);"), "launches a kernel from device code");
    EXPECT_EQ(rtc::minimalBlockerInText("#if CUDART_VERSION > 12000\n#endif"), "uses CUDART_VERSION");
    EXPECT_EQ(rtc::minimalBlockerInText("#ifdef __CUDACC_RTC_MINIMAL__\n#endif"), "uses __CUDACC_RTC_MINIMAL__");
    EXPECT_EQ(rtc::minimalBlockerInText("auto e = make_cudaExtent(1, 2, 3);"), "uses make_cudaExtent");
    // Numbers, comments and names that merely contain the prefixes do not count.
    EXPECT_EQ(rtc::minimalBlockerInText("float a = 0x1e + 2.5e3f; int mytex = 1; /* cudaMalloc */ // surf\n"), "");
}

TEST(MinimalMode, APlainKernelTakesTheFastPathAndCompiles)
{
    // NVRTC's own cache (off by default) would answer the second compile of the same code without
    // running ptxas, and so without its resource report.
    rtc::CompileOptions o = hopper();
    EXPECT_EQ(rtc::minimalBlocker(kPlain, "plain.cu", o), "");
    const rtc::CompileResult fast = rtc::compile(kPlain, "plain.cu", o, {"saxpy"});
    ASSERT_TRUE(fast.ok) << fast.log;
    EXPECT_EQ(fast.mode, rtc::CompileMode::Minimal);
    EXPECT_GT(fast.cubin.size(), 500u);
    EXPECT_NE(fast.ptx.find(".entry saxpy"), std::string::npos);
    ASSERT_EQ(fast.loweredNames.size(), 1u);
    EXPECT_EQ(fast.loweredNames[0], "saxpy");

    // The full compile produces the same code and the same resource report.
    rtc::CompileOptions fullOptions = o;
    fullOptions.autoMinimal = false;
    const rtc::CompileResult full = rtc::compile(kPlain, "plain.cu", fullOptions, {"saxpy"});
    ASSERT_TRUE(full.ok) << full.log;
    EXPECT_EQ(full.mode, rtc::CompileMode::Full);
    EXPECT_EQ(full.fullReason, "the -minimal fast path is off");
    EXPECT_EQ(fast.ptx, full.ptx);
    EXPECT_EQ(withoutTimes(fast.log), withoutTimes(full.log));
    EXPECT_TRUE(sameDiagnostics(fast.diagnostics, full.diagnostics));
}

TEST(MinimalMode, TheSurfaceKernelTakesTheFullPath)
{
    const auto file = test::sourceDir() / "kernels" / "thread_colors.cu";
    const std::string source = paths::readTextFile(file);
    const rtc::CompileOptions o = hopper();
    const std::string why = rtc::minimalBlocker(source, "thread_colors.cu", o);
    EXPECT_NE(why, "");
    const rtc::CompileResult r = rtc::compile(source, "thread_colors.cu", o);
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_EQ(r.mode, rtc::CompileMode::Full);
    EXPECT_EQ(r.fullReason, why);
    EXPECT_NE(r.ptx.find("sust."), std::string::npos);
}

TEST(MinimalMode, AUserHeaderThatUsesTexturesSendsTheIncluderToTheFullPath)
{
    const auto dir = std::filesystem::temp_directory_path() / ("ks-minimal-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    {
        std::ofstream(dir / "sample.cuh") << "__device__ float sample(cudaTextureObject_t t) { return tex1Dfetch<float>(t, 0); }\n";
    }
    const std::string source = "#include \"sample.cuh\"\nextern \"C\" __global__ void k(cudaTextureObject_t t, float* o) "
                               "{ o[0] = sample(t); }\n";
    const rtc::CompileOptions o = hopper();
    EXPECT_EQ(rtc::minimalBlocker(source, (dir / "k.cu").string(), o), "uses cudaTextureObject_t");
    // Without the source's own mention, only the header tells.
    const std::string quiet = "#include \"sample.cuh\"\nextern \"C\" __global__ void k(float* o) { o[0] = 1.f; }\n";
    EXPECT_EQ(rtc::minimalBlocker(quiet, (dir / "k.cu").string(), o), "sample.cuh uses cudaTextureObject_t");
    EXPECT_NE(rtc::minimalBlocker("#include <cuda_runtime.h>\n", "k.cu", o), "");
    EXPECT_NE(rtc::minimalBlocker("#include <cub/cub.cuh>\n", "k.cu", o), "");
    EXPECT_EQ(rtc::minimalBlocker("#include <curand_kernel.h>\n", "k.cu", o), "");
    std::filesystem::remove_all(dir);
}

TEST(MinimalMode, AKernelThatOnlyFailsUnderMinimalCompilesWithoutAnError)
{
    const rtc::CompileOptions o = hopper();
    ASSERT_EQ(rtc::minimalBlocker(kPastedRuntimeType, "pasted.cu", o), "");
    rtc::CompileOptions forced = o;
    forced.minimal = true;
    ASSERT_FALSE(rtc::compile(kPastedRuntimeType, "pasted.cu", forced).ok) << "the test needs a -minimal failure";

    const rtc::CompileResult r = rtc::compile(kPastedRuntimeType, "pasted.cu", o, {"status"});
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_EQ(r.mode, rtc::CompileMode::FullAfterMinimal);
    EXPECT_EQ(r.fullReason, "-minimal failed");
    EXPECT_TRUE(r.diagnostics.empty()) << r.log;
    EXPECT_EQ(r.log.find("error"), std::string::npos) << r.log;
    EXPECT_NE(r.ptx.find(".entry status"), std::string::npos);
}

TEST(MinimalMode, ABrokenKernelReportsTheFullCompilesDiagnostics)
{
    const rtc::CompileOptions o = hopper();
    const rtc::CompileResult r = rtc::compile(kBroken, "broken.cu", o);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.mode, rtc::CompileMode::FullAfterMinimal);
    rtc::CompileOptions fullOptions = o;
    fullOptions.autoMinimal = false;
    const rtc::CompileResult full = rtc::compile(kBroken, "broken.cu", fullOptions);
    EXPECT_FALSE(full.ok);
    EXPECT_EQ(r.log, full.log);
    EXPECT_TRUE(sameDiagnostics(r.diagnostics, full.diagnostics)) << r.log;
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_EQ(r.diagnostics[0].line, 4);
    EXPECT_NE(r.diagnostics[0].message.find("undefined_name"), std::string::npos);
    EXPECT_EQ(r.log.find("minimal"), std::string::npos) << r.log;
}

TEST(MinimalMode, TheCacheKeyAndCheckOutputTellTheModesApart)
{
    const rtc::CompileOptions o = hopper();
    rtc::CompileOptions fullOptions = o;
    fullOptions.autoMinimal = false;
    EXPECT_NE(rtc::CompileCache::key(kPlain, "plain.cu", o, {}), rtc::CompileCache::key(kPlain, "plain.cu", fullOptions, {}));

    const auto dir = std::filesystem::temp_directory_path() / ("ks-minimal-cache-" + std::to_string(::getpid()));
    {
        rtc::CompileCache cache(dir);
        const auto compiled = cache.request(kPlain, "plain.cu", o);
        ASSERT_TRUE(compiled.result->ok);
        EXPECT_EQ(compiled.result->mode, rtc::CompileMode::Minimal);
    }
    rtc::CompileCache fresh(dir);
    const auto fromDisk = fresh.request(kPlain, "plain.cu", o);
    EXPECT_EQ(fromDisk.source, rtc::CacheSource::Disk);
    EXPECT_EQ(fromDisk.result->mode, rtc::CompileMode::Minimal);
    const auto full = fresh.request(kPlain, "plain.cu", fullOptions);
    EXPECT_EQ(full.source, rtc::CacheSource::Compiled);
    EXPECT_EQ(full.result->mode, rtc::CompileMode::Full);
    EXPECT_EQ(fresh.request(kPlain, "plain.cu", fullOptions).result->fullReason, "the -minimal fast path is off");
    std::filesystem::remove_all(dir);
}

namespace {

// The default options: sm_90, PCH, lean cuRAND on.
CompileOptions defaultOptions()
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
    const CompileOptions o = defaultOptions();
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
    const CompileResult lean = compile(source, "rng.cu", defaultOptions());
    ASSERT_TRUE(lean.ok) << lean.log;
    EXPECT_TRUE(lean.curandTablesLeftOut) << lean.curandTablesReason;
    EXPECT_EQ(lean.ptx.find("precalc_xorwow"), std::string::npos);
    EXPECT_EQ(lean.ptx.find("mrg32k3aM"), std::string::npos);
    EXPECT_EQ(lean.ptx.find("ks_curand_"), std::string::npos) << "the left-out tables were referenced";
    EXPECT_LT(lean.ptx.size(), 100u * 1024u);

    CompileOptions keep = defaultOptions();
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
    const CompileResult r = compile(rngKernel("", "curandState", "1.5"), "rng.cu", defaultOptions());
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
        ASSERT_EQ(curandTablesBlocker(source, "rng.cu", defaultOptions()), "") << state << ": the scan saw through it";
        const CompileResult r = compile(source, "rng.cu", defaultOptions());
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
    CompileOptions lean = defaultOptions();
    CompileOptions keep = defaultOptions();
    keep.leanCurand = false;
    const std::string curand = rngKernel("", "curandStatePhilox4_32_10_t", "2.0");
    EXPECT_NE(CompileCache::key(curand, "rng.cu", lean), CompileCache::key(curand, "rng.cu", keep));
    const std::string plain = "extern \"C\" __global__ void k(float* p) { p[threadIdx.x] = 1.0f; }\n";
    EXPECT_EQ(CompileCache::key(plain, "k.cu", lean), CompileCache::key(plain, "k.cu", keep));
}

TEST(LeanCurand, NvrtcCacheOptionReachesTheOptionList)
{
    CompileOptions o = defaultOptions();
    const auto has = [](const std::vector<std::string>& v) { return std::count(v.begin(), v.end(), "-no-cache"); };
    EXPECT_EQ(has(buildOptionList(o)), 1) << "NVRTC's own cache is off by default (its hits have no ptxas report)";
    o.nvrtcCache = true;
    EXPECT_EQ(has(buildOptionList(o)), 0);
    EXPECT_TRUE(compile("extern \"C\" __global__ void k(float* p) { p[threadIdx.x] = 3.0f; }\n", "k.cu", o).ok);
    o.nvrtcCache = false;
    const CompileResult r = compile("extern \"C\" __global__ void k(float* p) { p[threadIdx.x] = 2.0f; }\n", "k.cu", o);
    EXPECT_TRUE(r.ok) << r.log;
}
