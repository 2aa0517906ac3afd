// The default demo's kernel compiles with NVRTC on any machine (no GPU needed), and its colour
// function makes blocks and threads tell apart.
#include "ks/core/paths.hpp"
#include "ks/pipeline/infer.hpp"
#include "ks/rtc/compiler.hpp"
#include "ks/syntax/kernel_signature.hpp"
#include "ks/render/image_view.hpp"

#include "test_support.hpp"

#include <ks_device/thread_colors.cuh>

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>

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
