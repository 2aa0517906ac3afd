// Kernel facts without a device: ptxas' report, PTX parameter layouts, and the whole collection on
// real NVRTC builds, mismatches included; and every kernel the CUDA tests launch compiles for sm_90
// here with facts (discovered parameters, lowered names, PTX layout) that agree, so that the GPU run
// meets no typo. Signatures and type layouts: test_syntax_kernel_signature.cpp.
#include "ks/core/paths.hpp"
#include "ks/rtc/kernel_facts.hpp"

#include "live_kernels.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

using namespace ks::rtc;
using ks::cuda::OccupancyLimits;

namespace {

const KernelFacts* factsOf(const ModuleFacts& m, const std::string& name)
{
    for (const auto& k : m.kernels)
        if (k.name == name)
            return &k;
    return nullptr;
}

std::string problems(const ModuleFacts& m)
{
    std::string s;
    for (const auto& k : m.kernels)
        for (const auto& p : k.problems)
            s += k.name + ": " + p + "\n";
    return s;
}

ModuleFacts build(const std::string& source, const std::string& arch = "sm_90",
                  FastCompile fastCompile = FastCompile::Off)
{
    const auto kernels = ks::syntax::findKernels(source);
    const auto names = nameExpressionsFor(kernels);
    CompileOptions o;
    o.arch = arch;
    o.fastCompile = fastCompile;
    const CompileResult r = compile(source, "facts.cu", o, names);
    EXPECT_TRUE(r.ok) << r.log;
    return collectFacts(kernels, names, r, arch);
}

// Kernels of every shape the scanner knows (a seed of the `signatures` fuzz target, which
// test_syntax_kernel_signature.cpp reads too).
std::string mixed()
{
    return ks::paths::readTextFile(ks::test::sourceDir() / "tests" / "fuzz" / "corpus" / "signatures" / "mixed.cu");
}

} // namespace

TEST(KernelFactsParsing, PtxasReportAttributesSpillsToTheirEntry)
{
    const std::string log = "ptxas info    : 16 bytes gmem\n"
                            "ptxas info    : Compiling entry function 'k2' for 'sm_90'\n"
                            "ptxas info    : Function properties for k2\n"
                            "ptxas         .     32 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                            "ptxas info    : Used 14 registers, used 1 barriers, 24 bytes smem, 380 bytes cmem[0], "
                            "32 bytes cumulative stack size\n"
                            "ptxas info    : Compile time = 3.181 ms\n"
                            "ptxas info    : Function properties for _Z3subf\n"
                            "ptxas         .     8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n"
                            "ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
                            "ptxas info    : Function properties for k\n"
                            "ptxas         .     768 bytes stack frame, 540 bytes spill stores, 548 bytes spill loads\n"
                            "ptxas info    : Used 32 registers, used 0 barriers, 768 bytes cumulative stack size\n";
    const PtxasReport r = parsePtxasReport(log);
    EXPECT_EQ(r.globalBytes, 16);
    ASSERT_EQ(r.kernels.size(), 2u);
    EXPECT_EQ(r.kernels[0].symbol, "k2");
    EXPECT_EQ(r.kernels[0].registers, 14);
    EXPECT_EQ(r.kernels[0].barriers, 1);
    EXPECT_EQ(r.kernels[0].sharedBytes, 24);
    EXPECT_EQ(r.kernels[0].constBytes, 380);
    EXPECT_EQ(r.kernels[0].stackFrameBytes, 32);
    EXPECT_EQ(r.kernels[0].spillStoreBytes, 0) << "the device function's spills are not k2's";
    EXPECT_DOUBLE_EQ(r.kernels[0].ptxasMs, 3.181);
    EXPECT_EQ(r.kernels[1].symbol, "k");
    EXPECT_EQ(r.kernels[1].stackFrameBytes, 768);
    EXPECT_EQ(r.kernels[1].spillStoreBytes, 540);
    EXPECT_EQ(r.kernels[1].spillLoadBytes, 548);
}

TEST(KernelFactsParsing, PtxEntriesGiveParameterSizesAndAlignments)
{
    const std::string ptx = ".visible .entry plain(\n"
                            "\t.param .u64 .ptr .global .align 1 plain_param_0,\n"
                            "\t.param .align 1 .b8 plain_param_1[3],\n"
                            "\t.param .align 16 .b8 plain_param_2[32],\n"
                            "\t.param .f64 plain_param_3\n"
                            ")\n.maxntid 128, 2, 1\n{\n}\n"
                            ".visible .entry empty()\n{\n}\n";
    const auto entries = parsePtxEntries(ptx);
    ASSERT_EQ(entries.size(), 2u);
    EXPECT_EQ(entries[0].symbol, "plain");
    ASSERT_EQ(entries[0].params.size(), 4u);
    EXPECT_TRUE(entries[0].params[0].pointer);
    EXPECT_EQ(entries[0].params[0].size, 8u);
    EXPECT_EQ(entries[0].params[0].align, 8u) << ".align after .ptr is the pointee's";
    EXPECT_EQ(entries[0].params[1].size, 3u);
    EXPECT_EQ(entries[0].params[1].align, 1u);
    EXPECT_EQ(entries[0].params[2].size, 32u);
    EXPECT_EQ(entries[0].params[2].align, 16u);
    EXPECT_EQ(entries[0].params[3].size, 8u);
    EXPECT_EQ(entries[0].maxThreads, 256);
    EXPECT_EQ(entries[1].symbol, "empty");
    EXPECT_TRUE(entries[1].params.empty());
}

TEST(KernelFacts, ARealBuildAgreesWithTheSourceEverywhere)
{
    const ModuleFacts m = build(mixed());
    EXPECT_EQ(problems(m), "");
    EXPECT_GT(m.cubinBytes, 0u);
    EXPECT_GT(m.ptxBytes, 0u);

    const KernelFacts* plain = factsOf(m, "plain");
    ASSERT_TRUE(plain);
    EXPECT_EQ(plain->symbol, "plain");
    EXPECT_TRUE(plain->resourcesKnown);
    EXPECT_GT(plain->resources.registers, 0);
    EXPECT_EQ(plain->ptxParams.size(), 4u);
    EXPECT_EQ(plain->maxThreadsPerBlock, 1024);

    const KernelFacts* bounded = factsOf(m, "outer::inner::bounded");
    ASSERT_TRUE(bounded);
    EXPECT_EQ(bounded->symbol.rfind("_ZN5outer5inner7bounded", 0), 0u) << bounded->symbol;
    EXPECT_EQ(bounded->maxThreadsPerBlock, 128) << "__launch_bounds__(128)";
    EXPECT_EQ(bounded->occupancy(OccupancyLimits::forArch("sm_90"), 256).blocksPerSM, 0);

    const KernelFacts* vectors = factsOf(m, "vectors");
    ASSERT_TRUE(vectors);
    ASSERT_EQ(vectors->ptxParams.size(), 7u);
    EXPECT_EQ(vectors->ptxParams[0].size, 12u);
    EXPECT_EQ(vectors->ptxParams[2].align, 16u);

    // Both instantiations of the template, with their argument types from the lowered names.
    const KernelFacts* f = factsOf(m, "scaled<float, 4>");
    const KernelFacts* d = factsOf(m, "scaled<double, 8>");
    ASSERT_TRUE(f && d) << [&] {
        std::string names;
        for (const auto& k : m.kernels)
            names += k.name + "; ";
        return names;
    }();
    ASSERT_EQ(d->params.size(), 2u);
    EXPECT_EQ(d->params[0].type, "double*");
    EXPECT_EQ(d->ptxParams[1].size, 8u);

    const KernelFacts* cpp = factsOf(m, "cpp_kernel");
    ASSERT_TRUE(cpp);
    EXPECT_EQ(cpp->symbol.rfind("_Z10cpp_kernel", 0), 0u);
}

// Where a driver is installed NVRTC 13 has its own cache, whose hits skip ptxas and so its report:
// with the default options (NVRTC's cache off) the same source built twice keeps its facts.
TEST(KernelFacts, TheSameSourceBuiltTwiceKeepsItsResourceReport)
{
    for (int round = 0; round < 2; ++round) {
        const ModuleFacts m = build(mixed());
        const KernelFacts* plain = factsOf(m, "plain");
        ASSERT_TRUE(plain);
        EXPECT_TRUE(plain->resourcesKnown) << "round " << round;
        EXPECT_GT(plain->resources.registers, 0) << "round " << round;
    }
}

// --Ofast-compile=max keeps device functions as calls (ptxas then reports "Function properties"
// for them too, sinf's among them): the facts must still be the kernels' own.
TEST(KernelFacts, FastCompileBuildsGiveTheSameKernelsAndParameters)
{
    const std::string source =
        mixed() + "extern \"C\" __global__ void calls(float* p) { p[threadIdx.x] = sinf(p[threadIdx.x]); }\n";
    const ModuleFacts full = build(source);
    const ModuleFacts fast = build(source, "sm_90", FastCompile::Max);
    EXPECT_EQ(problems(fast), "");
    ASSERT_TRUE(factsOf(fast, "calls"));
    ASSERT_EQ(fast.kernels.size(), full.kernels.size());
    for (const KernelFacts& k : full.kernels) {
        const KernelFacts* f = factsOf(fast, k.name);
        ASSERT_TRUE(f) << k.name;
        EXPECT_EQ(f->symbol, k.symbol);
        EXPECT_TRUE(f->resourcesKnown) << k.name;
        EXPECT_GT(f->resources.registers, 0) << k.name;
        ASSERT_EQ(f->ptxParams.size(), k.ptxParams.size()) << k.name;
        for (std::size_t i = 0; i < k.ptxParams.size(); ++i)
            EXPECT_EQ(f->ptxParams[i].size, k.ptxParams[i].size) << k.name << " parameter " << i;
    }
}

TEST(KernelFacts, MismatchesBetweenSourceAndPtxAreReported)
{
    CompileOptions o;
    o.arch = "sm_90";
    const CompileResult r = compile("extern \"C\" __global__ void k(float4 v, float* out) { out[0] = v.w; }\n", "x.cu", o);
    ASSERT_TRUE(r.ok) << r.log;
    // What the scanner would have seen in a source that disagrees with the build.
    const auto wrongType = ks::syntax::findKernels("extern \"C\" __global__ void k(float3 v, float* out) {}\n");
    ModuleFacts m = collectFacts(wrongType, {}, r, "sm_90");
    ASSERT_EQ(m.kernels.size(), 1u);
    ASSERT_EQ(m.kernels[0].problems.size(), 1u);
    EXPECT_NE(m.kernels[0].problems[0].find("parameter 1 'v' (float3): 12 bytes on the host, 16 in the PTX"),
              std::string::npos)
        << m.kernels[0].problems[0];
    const auto wrongCount = ks::syntax::findKernels("extern \"C\" __global__ void k(float4 v) {}\n");
    m = collectFacts(wrongCount, {}, r, "sm_90");
    EXPECT_NE(problems(m).find("declares 1 parameters, the PTX has 2"), std::string::npos) << problems(m);
    const auto missing = ks::syntax::findKernels("extern \"C\" __global__ void gone(int) {}\n");
    m = collectFacts(missing, {}, r, "sm_90");
    EXPECT_NE(problems(m).find("no entry 'gone'"), std::string::npos) << problems(m);
    EXPECT_NE(problems(m).find("k: not found in the source"), std::string::npos) << problems(m);
}

TEST(KernelFacts, SpillsAndSharedMemoryShowInTheResources)
{
    const ModuleFacts m = build("extern \"C\" __global__ void __launch_bounds__(1024, 2) spills(float* p)\n"
                                "{\n"
                                "    float a[64];\n"
                                "    for (int i = 0; i < 64; ++i) a[i] = p[i * threadIdx.x];\n"
                                "    float s = 0;\n"
                                "    for (int i = 0; i < 64; ++i) s += a[(i * 7 + threadIdx.x) % 64] * a[i];\n"
                                "    p[threadIdx.x] = s;\n"
                                "}\n"
                                "extern \"C\" __global__ void tile(float* p)\n"
                                "{\n"
                                "    __shared__ float t[32][33];\n"
                                "    t[threadIdx.y][threadIdx.x] = p[threadIdx.x];\n"
                                "    __syncthreads();\n"
                                "    p[threadIdx.x] = t[threadIdx.x][threadIdx.y];\n"
                                "}\n");
    const KernelFacts* spills = factsOf(m, "spills");
    ASSERT_TRUE(spills);
    EXPECT_GT(spills->resources.stackFrameBytes, 0);
    EXPECT_LE(spills->resources.registers, 32) << "launch bounds (1024, 2) cap registers at 32";
    const KernelFacts* tile = factsOf(m, "tile");
    ASSERT_TRUE(tile);
    EXPECT_EQ(tile->resources.sharedBytes, 32 * 33 * 4);
    EXPECT_EQ(tile->resources.barriers, 1);
}

TEST(LiveKernelSources, AllCompileForHopperWithConsistentFacts)
{
    for (const char* source : ks::test::live_kernels::kAll) {
        const auto kernels = ks::syntax::findKernels(source);
        const auto names = nameExpressionsFor(kernels);
        CompileOptions o;
        o.arch = "sm_90";
        const CompileResult r = compile(source, "live.cu", o, names);
        ASSERT_TRUE(r.ok) << source << "\n" << r.log;
        for (const Diagnostic& d : r.diagnostics)
            ADD_FAILURE() << formatDiagnostic(d);
        const ModuleFacts facts = collectFacts(kernels, names, r, "sm_90");
        ASSERT_FALSE(facts.kernels.empty());
        for (const KernelFacts& k : facts.kernels) {
            EXPECT_FALSE(k.symbol.empty()) << k.name;
            EXPECT_TRUE(k.resourcesKnown) << k.name;
            for (const std::string& p : k.problems)
                ADD_FAILURE() << k.name << ": " << p;
        }
    }
}
