// NVRTC compiles (ks/rtc/compiler.hpp) for sm_90 on any machine (no GPU needed):
// - User kernels may include cuRAND's device API and CUB's block-level headers with the default
//   include path (CUDA 13 keeps CCCL under include/cccl), and NVRTC's precompiled headers make the
//   second compile cheaper without ever serving a stale user header.
// - The default demo's kernel compiles, and its colour function makes blocks and threads tell apart.
#include "ks/core/paths.hpp"
#include "ks/pipeline/infer.hpp"
#include "ks/render/image_view.hpp"
#include "ks/rtc/compiler.hpp"
#include "ks/syntax/kernel_signature.hpp"

#include "test_support.hpp"

#include <ks_device/thread_colors.cuh>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>

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

namespace {

int diff(ks::Rgba8 a, ks::Rgba8 b)
{
    return std::abs(a.r - b.r) + std::abs(a.g - b.g) + std::abs(a.b - b.b);
}

} // namespace

TEST(DemoKernel, CompilesForHopperWithoutAGpu)
{
    const auto file = ks::test::sourceDir() / "kernels" / "thread_colors.cu";
    ks::rtc::CompileOptions options;
    options.arch = "sm_90";
    options.includePaths.push_back((ks::test::sourceDir() / "kernels" / "include").string());
    const ks::rtc::CompileResult r = ks::rtc::compile(ks::paths::readTextFile(file), "thread_colors.cu", options);
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_GT(r.cubin.size(), 1000u);
    EXPECT_NE(r.ptx.find(".entry thread_colors_surface"), std::string::npos);
    EXPECT_NE(r.ptx.find(".entry thread_colors_buffer"), std::string::npos);
    EXPECT_NE(r.ptx.find("sust."), std::string::npos) << "the surface kernel must store through a surface";
}

TEST(DemoKernel, CompileErrorIsAValueWithTheUsersLine)
{
    ks::rtc::CompileOptions options;
    const std::string source = "extern \"C\" __global__ void k(float* p)\n{\n    p[threadIdx.x] = undefined_name;\n}\n";
    const ks::rtc::CompileResult r = ks::rtc::compile(source, "broken.cu", options);
    EXPECT_FALSE(r.ok);
    ASSERT_FALSE(r.diagnostics.empty()) << r.log;
    EXPECT_EQ(r.diagnostics[0].file, "broken.cu");
    EXPECT_EQ(r.diagnostics[0].line, 3);
    EXPECT_EQ(r.diagnostics[0].column, 22);
    EXPECT_EQ(r.diagnostics[0].severity, ks::rtc::Severity::Error);
    EXPECT_NE(r.diagnostics[0].message.find("undefined_name"), std::string::npos);
    EXPECT_TRUE(r.cubin.empty());
}

TEST(DemoColors, NeighbouringBlocksDifferAndOutlinesAreDark)
{
    const unsigned gridX = 48;
    std::set<int> hues;
    for (unsigned by = 0; by < 4; ++by)
        for (unsigned bx = 0; bx < 4; ++bx) {
            const ks::Rgba8 c = ks::demoThreadColor(bx, by, 8, 8, 16, 16, gridX, 0.f);
            hues.insert(c.r * 65536 + c.g * 256 + c.b);
            EXPECT_EQ(c.a, 255);
            if (bx > 0) {
                EXPECT_GT(diff(c, ks::demoThreadColor(bx - 1, by, 8, 8, 16, 16, gridX, 0.f)), 30);
            }
        }
    EXPECT_EQ(hues.size(), 16u);
    const ks::Rgba8 inside = ks::demoThreadColor(3, 2, 8, 8, 16, 16, gridX, 0.f);
    const ks::Rgba8 edge = ks::demoThreadColor(3, 2, 0, 8, 16, 16, gridX, 0.f);
    EXPECT_LT(edge.r + edge.g + edge.b, (inside.r + inside.g + inside.b) / 2);
}

TEST(DemoColors, ThreadIdxBrightensAcrossTheBlockAndTimeAnimates)
{
    const ks::Rgba8 left = ks::demoThreadColor(1, 1, 1, 5, 16, 16, 8, 0.f);
    const ks::Rgba8 right = ks::demoThreadColor(1, 1, 15, 5, 16, 16, 8, 0.f);
    EXPECT_GT(right.r + right.g + right.b, left.r + left.g + left.b);
    EXPECT_GT(diff(ks::demoThreadColor(1, 1, 5, 5, 16, 16, 8, 0.f), ks::demoThreadColor(1, 1, 5, 5, 16, 16, 8, 0.8f)), 5);
}

TEST(FitKeepAspect, CentresAndKeepsTheRatio)
{
    const ks::render::FitRect wide = ks::render::fitKeepAspect(768, 512, 1000, 500);
    EXPECT_FLOAT_EQ(wide.height, 500.f);
    EXPECT_FLOAT_EQ(wide.width, 750.f);
    EXPECT_FLOAT_EQ(wide.x, 125.f);
    EXPECT_FLOAT_EQ(wide.y, 0.f);
    const ks::render::FitRect tall = ks::render::fitKeepAspect(100, 100, 200, 400);
    EXPECT_FLOAT_EQ(tall.width, 200.f);
    EXPECT_FLOAT_EQ(tall.y, 100.f);
    EXPECT_FLOAT_EQ(ks::render::fitKeepAspect(0, 10, 10, 10).width, 0.f);
}

// The edits the live-kernel tests and the edit-to-pixels bench make to the demo kernel: the
// red/blue swap compiles for Hopper (so the GPU tests cannot fail on a typo), the dropped ';'
// fails at the line after the one that lost it, with the likely cause marked.
TEST(DemoKernel, TheLiveEditVariantsCompileOrFailAsIntended)
{
    ks::rtc::CompileOptions options;
    options.arch = "sm_90";
    options.includePaths.push_back((ks::test::sourceDir() / "kernels" / "include").string());
    const auto swapped = ks::rtc::compile(ks::test::demoKernelRedBlueSwapped(), "thread_colors.cu", options);
    ASSERT_TRUE(swapped.ok) << swapped.log;
    EXPECT_NE(swapped.ptx.find(".entry thread_colors_surface"), std::string::npos);

    int causeLine = 0;
    const auto broken = ks::rtc::compile(ks::test::demoKernelMissingSemicolon(&causeLine), "thread_colors.cu", options);
    EXPECT_FALSE(broken.ok);
    bool error = false, cause = false;
    for (const auto& d : broken.diagnostics) {
        error |= d.severity == ks::rtc::Severity::Error && !d.likelyCause && d.line == causeLine + 1;
        cause |= d.likelyCause && d.line == causeLine;
    }
    EXPECT_TRUE(error) << broken.log;
    EXPECT_TRUE(cause) << broken.log;
}


// The default demo is the project inferred from its kernel, like any kernel the user opens: the
// surface becomes a texture shown as an image, width and height its extents, time the built-in,
// and the launch 16 x 16 blocks covering the texture (the kernel indexes in 2-D).
TEST(DemoKernel, TheDefaultDemoIsTheProjectInferredFromItsKernel)
{
    const auto file = ks::test::sourceDir() / "kernels" / "thread_colors.cu";
    ks::pipeline::InferOptions o;
    o.kernel = "thread_colors_surface";
    const ks::pipeline::Inference inf = ks::pipeline::inferProject(file, ks::paths::readTextFile(file), o);
    ASSERT_TRUE(inf.ok()) << (inf.problems.empty() ? "" : inf.problems[0].format());
    std::vector<std::string> bound;
    for (const auto& b : inf.bindings)
        bound.push_back(b.param + " -> " + b.bound);
    EXPECT_EQ(bound, (std::vector<std::string>{"out -> texture out", "width -> width of out", "height -> height of out",
                                               "time -> builtin time"}));
    const ks::project::Project& p = *inf.project;
    ASSERT_EQ(p.stages.size(), 1u);
    EXPECT_EQ(p.stages[0].kernel, "thread_colors_surface");
    EXPECT_EQ(p.stages[0].block, (std::array<unsigned, 3>{16, 16, 1}));
    EXPECT_EQ(p.stages[0].cover, "out");
    ASSERT_EQ(p.views.size(), 1u);
    EXPECT_EQ(p.views[0].source, "out");
    EXPECT_EQ(p.views[0].kind, ks::project::ViewKind::Image);
    ASSERT_NE(p.resource("out"), nullptr);
    EXPECT_TRUE(p.resource("out")->isTexture());
}

// Whether a build prints from the device is found once, when it is compiled (the app waits for
// such a kernel's printf output); a function merely named like vprintf is not printf.
TEST(CompileResultFacts, CallsPrintfIsFoundAtCompileTime)
{
    const CompileResult prints =
        compile("extern \"C\" __global__ void k(int v) { printf(\"%d\\n\", v); }\n", "p.cu", hopper());
    ASSERT_TRUE(prints.ok) << prints.log;
    EXPECT_TRUE(prints.callsPrintf);
    const CompileResult quiet = compile("__device__ int my_vprintf(int v) { return v + 1; }\n"
                                        "extern \"C\" __global__ void k(int* p) { p[0] = my_vprintf(p[1]); }\n",
                                        "q.cu", hopper());
    ASSERT_TRUE(quiet.ok) << quiet.log;
    EXPECT_FALSE(quiet.callsPrintf);
}
