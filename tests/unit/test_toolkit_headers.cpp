// User kernels may include cuRAND's device API and CUB's block-level headers with the default
// include path (CUDA 13 keeps CCCL under include/cccl), and NVRTC's precompiled headers make the
// second compile cheaper without ever serving a stale user header. Real compiles for sm_90.
#include "ks/rtc/compiler.hpp"

#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace ks::rtc;

namespace {

CompileOptions hopper()
{
    CompileOptions o;
    o.arch = "sm_90";
    return o;
}

std::string curandKernel(const std::string& body)
{
    return "#include \"rng_config.cuh\"\n"
           "#include <curand_kernel.h>\n"
           "extern \"C\" __global__ void rng(float* out, unsigned long long seed, int n)\n"
           "{\n"
           "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "    if (i >= n) return;\n"
           "    curandStatePhilox4_32_10_t s;\n"
           "    curand_init(seed, i, 0, &s);\n" +
           body + "}\n";
}

} // namespace

TEST(ToolkitHeaders, CurandKernelCompilesAndPrecompiledHeadersAreReusedButNeverStale)
{
    ks::test::TempDir dir;
    const std::string file = (dir.path() / "rng.cu").string();
    dir.write("rng_config.cuh", "#define RNG_SCALE 4321.0f\n");

    const CompileResult first = compile(curandKernel("    out[i] = curand_uniform(&s) * RNG_SCALE;\n"), file, hopper());
    ASSERT_TRUE(first.ok) << first.log;
    EXPECT_FALSE(first.cubin.empty());
    EXPECT_NE(first.ptx.find(".entry rng"), std::string::npos);
    if (!nvrtcSupportsPch())
        GTEST_SKIP() << "NVRTC " << nvrtcVersionString() << " has no automatic PCH";
    EXPECT_EQ(first.pch, PchUse::Created) << pchUseName(first.pch);
    EXPECT_EQ(first.log.find("precompiled header"), std::string::npos) << "PCH messages are not diagnostics";

    // Only the kernel body changed: the headers' PCH is reused.
    const CompileResult second =
        compile(curandKernel("    out[i] = curand_normal(&s) * RNG_SCALE;\n"), file, hopper());
    ASSERT_TRUE(second.ok) << second.log;
    EXPECT_EQ(second.pch, PchUse::Used) << pchUseName(second.pch);

    // The user's header changed: NVRTC would reuse the old PCH (and the old macro); ours must not.
    dir.write("rng_config.cuh", "#define RNG_SCALE 8765.0f\n");
    const CompileResult third = compile(curandKernel("    out[i] = curand_normal(&s) * RNG_SCALE;\n"), file, hopper());
    ASSERT_TRUE(third.ok) << third.log;
    EXPECT_NE(third.pch, PchUse::Used);
    // 8765.0f is 0f4608F400 in PTX; 4321.0f is 0f45870800.
    EXPECT_NE(third.ptx.find("0f4608F400"), std::string::npos) << "the edited header was not used";
    EXPECT_EQ(third.ptx.find("0f45870800"), std::string::npos) << "a stale precompiled header was used";
}

TEST(ToolkitHeaders, CubBlockReduceCompiles)
{
    const std::string source = "#include <cub/block/block_reduce.cuh>\n"
                               "#include <cub/block/block_scan.cuh>\n"
                               "extern \"C\" __global__ void block_sum(const float* in, float* out)\n"
                               "{\n"
                               "    using Reduce = cub::BlockReduce<float, 128>;\n"
                               "    __shared__ typename Reduce::TempStorage temp;\n"
                               "    const float v = in[blockIdx.x * 128 + threadIdx.x];\n"
                               "    const float total = Reduce(temp).Sum(v);\n"
                               "    if (threadIdx.x == 0) out[blockIdx.x] = total;\n"
                               "}\n";
    const CompileResult r = compile(source, "block_sum.cu", hopper());
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_FALSE(r.cubin.empty());
    EXPECT_NE(r.ptx.find(".entry block_sum"), std::string::npos);
    EXPECT_NE(r.ptx.find(".shared"), std::string::npos) << "CUB's temp storage lives in shared memory";
}

TEST(ToolkitHeaders, OptionsReachNvrtc)
{
    const std::string source = "extern \"C\" __global__ void k(float* p)\n"
                               "{\n"
                               "#if !defined(SCALE) || !defined(FLAG)\n"
                               "#error defines missing\n"
                               "#endif\n"
                               "#if __cplusplus < 202002L\n"
                               "#error not C++20\n"
                               "#endif\n"
                               "    p[threadIdx.x] = __sinf(p[threadIdx.x]) * SCALE + sinf(p[0]);\n"
                               "}\n";
    CompileOptions o = hopper();
    o.defines = {"SCALE=3.5f", "FLAG"};
    o.cppStandard = "c++20";
    const CompileResult plain = compile(source, "opts.cu", o);
    ASSERT_TRUE(plain.ok) << plain.log;
    o.fastMath = true;
    o.lineInfo = true;
    const CompileResult fast = compile(source, "opts.cu", o);
    ASSERT_TRUE(fast.ok) << fast.log;
    EXPECT_NE(fast.ptx.find("\t.loc\t"), std::string::npos) << "-lineinfo emits .loc directives";
    EXPECT_EQ(plain.ptx.find("\t.loc\t"), std::string::npos);
    EXPECT_NE(fast.ptx, plain.ptx) << "fast math changes sinf";
    o.debug = true;
    const CompileResult debug = compile(source, "opts.cu", o);
    ASSERT_TRUE(debug.ok) << debug.log;
    EXPECT_NE(debug.ptx.find(".debug"), std::string::npos) << "-G emits debug sections";
}

TEST(ToolkitHeaders, FastCompileLevelsBuildAndMaxKeepsCallsThatFullOptimizationInlines)
{
    for (const char* name : {"off", "min", "mid", "max"})
        EXPECT_EQ(fastCompileName(parseFastCompile(name).value()), name);
    EXPECT_FALSE(parseFastCompile("fast"));
    const auto has = [](const std::vector<std::string>& list, const std::string& option) {
        return std::find(list.begin(), list.end(), option) != list.end();
    };
    CompileOptions o = hopper();
    const std::vector<std::string> defaults = buildOptionList(o);
    EXPECT_TRUE(std::none_of(defaults.begin(), defaults.end(),
                             [](const std::string& s) { return s.rfind("--Ofast-compile", 0) == 0; }));
    o.fastCompile = FastCompile::Mid;
    EXPECT_TRUE(has(buildOptionList(o), "--Ofast-compile=mid"));
    o.debug = true;
    EXPECT_FALSE(has(buildOptionList(o), "--Ofast-compile=mid")) << "-G and --Ofast-compile conflict; -G wins";

    const std::string source = "__device__ float twice(float v) { return v * 2.f; }\n"
                               "extern \"C\" __global__ void k(float* p)\n"
                               "{\n"
                               "    p[threadIdx.x] = twice(sinf(p[threadIdx.x]));\n"
                               "}\n";
    std::string offPtx, maxPtx;
    for (FastCompile level : kFastCompileLevels) {
        CompileOptions l = hopper();
        l.fastCompile = level;
        const CompileResult r = compile(source, "fast.cu", l);
        ASSERT_TRUE(r.ok) << fastCompileName(level) << ": " << r.log;
        EXPECT_FALSE(r.cubin.empty()) << fastCompileName(level);
        if (level == FastCompile::Off)
            offPtx = r.ptx;
        if (level == FastCompile::Max)
            maxPtx = r.ptx;
    }
    EXPECT_EQ(offPtx.find("call.uni"), std::string::npos) << "full optimization inlines sinf and twice";
    EXPECT_NE(maxPtx.find("call.uni"), std::string::npos) << "--Ofast-compile=max keeps calls";
}
