// On a GPU host: the demo kernel writes the expected colour for every pixel through the texture
// (surface) path and through a buffer path, both read back by GL.
#include "app.hpp"
#include "platform/platforms.hpp"

#include "ks/core/paths.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/module.hpp"
#include "ks/demo/thread_colors_demo.hpp"
#include "ks/gl/objects.hpp"
#include "ks/interop/graphics_resource.hpp"
#include "ks/rtc/compiler.hpp"

#include "test_support.hpp"

#include <ks/thread_colors.cuh>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <vector>

using ks::test::InteropTest;

namespace {

// Every pixel against the host reference; the device's sinf may differ by an ulp, so a channel may
// be off by 2 at most. `redBlueSwapped`: the reference of demoKernelRedBlueSwapped().
void expectDemoImage(const std::vector<std::uint8_t>& px, int w, int h, ks::cuda::Dim3 block, unsigned gridX, float t,
                     bool redBlueSwapped = false)
{
    int worst = 0;
    std::size_t bad = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            ks::Rgba8 want = ks::demoThreadColor(unsigned(x) / block.x, unsigned(y) / block.y, unsigned(x) % block.x,
                                                 unsigned(y) % block.y, block.x, block.y, gridX, t);
            if (redBlueSwapped)
                std::swap(want.r, want.b);
            const std::uint8_t* got = &px[(std::size_t(y) * std::size_t(w) + std::size_t(x)) * 4];
            const int d = std::max({std::abs(got[0] - want.r), std::abs(got[1] - want.g), std::abs(got[2] - want.b),
                                    std::abs(got[3] - want.a)});
            worst = std::max(worst, d);
            bad += d > 2;
        }
    EXPECT_EQ(bad, 0u) << "pixels off by more than 2; worst " << worst;
}

} // namespace

TEST_F(InteropTest, SurfacePathWritesTheExpectedColours)
{
    const auto arch = ks::cuda::queryDevice(0).archName();
    ks::demo::DemoConfig config;
    config.width = 200; // not a multiple of the block: partial blocks at the edges
    config.height = 120;
    config.block = {16, 8, 1};
    ks::demo::ThreadColorsDemo demo(ks::test::sourceDir() / "kernels" / "thread_colors.cu", config, true, arch);
    ASSERT_TRUE(demo.compileResult().ok) << demo.compileResult().log;
    ASSERT_TRUE(demo.running()) << demo.status();
    ASSERT_TRUE(demo.frame(1.25f, m_stream.get())) << demo.status();
    EXPECT_TRUE(demo.timings().valid);
    EXPECT_GT(demo.timings().kernelMs, 0.f);
    std::printf("map %.1f us, unmap %.1f us, kernel %.4f ms\n", demo.timings().mapUs, demo.timings().unmapUs,
                double(demo.timings().kernelMs));

    std::vector<std::uint8_t> px(std::size_t(config.width) * config.height * 4);
    demo.texture().download(GL_RGBA, GL_UNSIGNED_BYTE, px.data(), px.size());
    expectDemoImage(px, config.width, config.height, config.block, demo.grid().x, 1.25f);

    // A refused block shape is reported and the demo keeps running afterwards.
    demo.setBlock({64, 32, 1});
    EXPECT_FALSE(demo.frame(2.f, m_stream.get()));
    EXPECT_NE(demo.status().find("threads per block"), std::string::npos) << demo.status();
    EXPECT_TRUE(demo.running());
    demo.setBlock({32, 4, 1});
    EXPECT_TRUE(demo.frame(2.f, m_stream.get())) << demo.status();
    demo.texture().download(GL_RGBA, GL_UNSIGNED_BYTE, px.data(), px.size());
    expectDemoImage(px, config.width, config.height, {32, 4, 1}, demo.grid().x, 2.f);
}

TEST_F(InteropTest, BufferPathWritesTheExpectedColours)
{
    const int w = 130, h = 70;
    const ks::cuda::Dim3 block{32, 8, 1};
    const ks::cuda::Dim3 grid{(w + 31) / 32, (h + 7) / 8, 1};
    ks::rtc::CompileOptions options;
    options.arch = ks::cuda::queryDevice(0).archName();
    options.includePaths.push_back((ks::test::sourceDir() / "kernels" / "include").string());
    const auto compiled = ks::rtc::compile(
        ks::paths::readTextFile(ks::test::sourceDir() / "kernels" / "thread_colors.cu"), "thread_colors.cu", options);
    ASSERT_TRUE(compiled.ok) << compiled.log;
    ks::cuda::Module module(compiled.cubin.data());
    ks::cuda::Function kernel = module.function("thread_colors_buffer");

    // Poison the buffer, so an unwritten pixel cannot pass.
    std::vector<std::uint8_t> poison(std::size_t(w) * h * 4, 0xCD);
    ks::gl::Buffer buffer(poison.size(), poison.data());
    auto resource =
        ks::interop::GraphicsResource::registerBuffer(buffer.name(), ks::interop::RegisterFlags::WriteDiscard);
    {
        ks::interop::ScopedMap map({&resource}, m_stream.get());
        std::size_t bytes = 0;
        CUdeviceptr p = map.pointer(0, &bytes);
        ASSERT_EQ(bytes, poison.size());
        int width = w, height = h;
        float t = 0.5f;
        void* params[] = {&p, &width, &height, &t};
        kernel.launch({grid, block, 0}, m_stream.get(), params);
    }
    std::vector<std::uint8_t> px(poison.size());
    buffer.download(px.data(), px.size());
    expectDemoImage(px, w, h, block, grid.x, 0.5f);
}

TEST_F(InteropTest, TheCudaDeviceRendersTheGlContext)
{
    const std::vector<int> devices = ks::cuda::glDeviceOrdinals();
    ASSERT_FALSE(devices.empty());
    EXPECT_EQ(devices[0], 0);
}

// Hot swap: a build replaces the running kernel only when it compiled, loaded and holds the
// kernel; otherwise the last good kernel keeps drawing (checked pixel by pixel each time, at a new
// time, so a frame that drew nothing cannot pass).
TEST_F(InteropTest, AFailedEditKeepsTheLastGoodKernelAndAGoodEditReplacesIt)
{
    ks::rtc::CompileOptions options;
    options.arch = ks::cuda::queryDevice(0).archName();
    options.includePaths.push_back((ks::test::sourceDir() / "kernels" / "include").string());
    auto build = [&](const std::string& source) {
        return std::make_shared<const ks::rtc::CompileResult>(ks::rtc::compile(source, "thread_colors.cu", options));
    };
    ks::demo::DemoConfig config;
    config.width = 150;
    config.height = 90;
    config.block = {16, 8, 1};
    ks::demo::ThreadColorsDemo demo(config, true);
    EXPECT_FALSE(demo.running()) << "nothing runs before the first build";
    EXPECT_FALSE(demo.frame(0.f, m_stream.get()));
    std::vector<std::uint8_t> px(std::size_t(config.width) * config.height * 4);
    auto draw = [&](float t) {
        ASSERT_TRUE(demo.frame(t, m_stream.get())) << demo.status();
        demo.texture().download(GL_RGBA, GL_UNSIGNED_BYTE, px.data(), px.size());
    };

    ASSERT_EQ(demo.load(build(ks::test::demoKernelSource()), "thread_colors_surface"), ks::demo::LoadOutcome::Swapped);
    EXPECT_EQ(demo.moduleGeneration(), 1u);
    draw(0.5f);
    EXPECT_EQ(demo.lastFrameGeneration(), 1u);
    expectDemoImage(px, config.width, config.height, config.block, demo.grid().x, 0.5f);

    // A compile error: nothing changes but the message.
    const auto broken = build(ks::test::demoKernelMissingSemicolon());
    ASSERT_FALSE(broken->ok);
    EXPECT_EQ(demo.load(broken, "thread_colors_surface"), ks::demo::LoadOutcome::BuildFailed);
    EXPECT_EQ(demo.moduleGeneration(), 1u);
    EXPECT_FALSE(demo.compileResult().ok) << "the compile log shows the failed build";
    draw(1.5f);
    expectDemoImage(px, config.width, config.height, config.block, demo.grid().x, 1.5f);

    // It builds but lacks the kernel: it does not load, the old one keeps running.
    EXPECT_EQ(demo.load(build(ks::test::demoKernelRedBlueSwapped()), "no_such_kernel"),
              ks::demo::LoadOutcome::LoadFailed);
    EXPECT_FALSE(demo.lastLoadError().empty());
    draw(2.5f);
    expectDemoImage(px, config.width, config.height, config.block, demo.grid().x, 2.5f);

    // A good edit: the next frame draws with the new kernel.
    EXPECT_EQ(demo.load(build(ks::test::demoKernelRedBlueSwapped()), "thread_colors_surface"),
              ks::demo::LoadOutcome::Swapped);
    EXPECT_EQ(demo.moduleGeneration(), 2u);
    draw(3.5f);
    EXPECT_EQ(demo.lastFrameGeneration(), 2u);
    expectDemoImage(px, config.width, config.height, config.block, demo.grid().x, 3.5f, true);
}

// The same through the whole app, headless on the GPU: edits go through the editor's document and
// the compile service, and land at a frame boundary.
TEST_F(InteropTest, TheAppSwapsEditedKernelsAtFrameBoundaries)
{
    m_egl = ks::gl::EglContext(); // the session makes its own context on this device
    ks::test::TempDir dir;
    ks::test::writeFile(dir.path() / "live.cu", ks::test::demoKernelSource());
    ks::app::AppOptions options;
    options.headless = true;
    options.width = 1000;
    options.height = 640;
    options.imageWidth = 200;
    options.imageHeight = 120;
    options.blockX = 16;
    options.blockY = 8;
    options.timeStep = 0.25f;
    options.dataDir = ks::test::sourceDir();
    options.kernelFile = dir.path() / "live.cu";
    options.recoveryDir = dir.path() / "recovery";
    ks::app::HeadlessSession session(options);
    const ks::app::AppState& s = session.app().state();
    std::vector<std::uint8_t> px(200u * 120u * 4u);
    auto frameAfterBuilds = [&] {
        ASSERT_TRUE(session.app().settleBuilds(std::chrono::seconds(60)));
        session.renderFrame();
        ASSERT_TRUE(s.demo->running()) << s.demo->status();
        s.demo->texture().download(GL_RGBA, GL_UNSIGNED_BYTE, px.data(), px.size());
    };
    auto timeOfLastFrame = [&] { return float(session.framesRendered() - 1) * options.timeStep; };

    frameAfterBuilds();
    EXPECT_EQ(s.demo->moduleGeneration(), 1u);
    expectDemoImage(px, 200, 120, {16, 8, 1}, s.demo->grid().x, timeOfLastFrame());

    ASSERT_TRUE(session.app().editDocument(options.kernelFile, ks::test::demoKernelMissingSemicolon()));
    frameAfterBuilds();
    EXPECT_EQ(s.demo->moduleGeneration(), 1u) << "a failed build swaps nothing";
    EXPECT_FALSE(s.editor.tabs[0]->build.result->ok);
    expectDemoImage(px, 200, 120, {16, 8, 1}, s.demo->grid().x, timeOfLastFrame());

    ASSERT_TRUE(session.app().editDocument(options.kernelFile, ks::test::demoKernelRedBlueSwapped()));
    frameAfterBuilds();
    EXPECT_EQ(s.demo->moduleGeneration(), 2u);
    EXPECT_EQ(s.demo->lastFrameGeneration(), 2u);
    expectDemoImage(px, 200, 120, {16, 8, 1}, s.demo->grid().x, timeOfLastFrame(), true);
}
