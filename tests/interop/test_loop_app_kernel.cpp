// On a GPU host: the default demo (the project inferred from kernels/thread_colors.cu) writes the
// expected colour for every pixel, takes a new block shape or refuses one beyond the device's
// limits, and swaps edited kernels in at frame boundaries; the buffer kernel of the same file does
// the same through a registered GL buffer. Every picture is read back by GL.
#include "app.hpp"
#include "platform/platforms.hpp"

#include "ks/core/paths.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/module.hpp"
#include "ks/gl/objects.hpp"
#include "ks/interop/graphics_resource.hpp"
#include "ks/rtc/compiler.hpp"

#include "resource_download.hpp"
#include "test_support.hpp"

#include <ks_device/thread_colors.cuh>

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

// The default demo through the whole app, headless on the GPU: it is an ordinary project inferred
// from the kernel (here a copy of it, live.cu), so its launch is the Launch panel's and its edits go
// through the editor's document and the compile service, landing at a frame boundary. A failed
// build keeps the last good kernel drawing (checked pixel by pixel, at a new time each frame, so a
// frame that drew nothing cannot pass).
TEST_F(InteropTest, TheDefaultDemoRunsAsAProjectAndSwapsEditedKernelsAtFrameBoundaries)
{
    m_egl = ks::gl::EglContext(); // the session makes its own context on this device
    ks::test::TempDir dir;
    ks::test::writeFile(dir.path() / "live.cu", ks::test::demoKernelSource());
    ks::app::AppOptions options;
    options.headless = true;
    options.width = 1000;
    options.height = 640;
    options.imageSize = std::array<int, 2>{200, 120}; // not a multiple of the block: partial blocks
    options.block = std::array<unsigned, 3>{16, 8, 1};
    options.timeStep = 0.25f;
    options.dataDir = ks::test::sourceDir();
    options.kernelSpec = (dir.path() / "live.cu").string() + ":thread_colors_surface";
    options.recoveryDir = dir.path() / "recovery";
    ks::app::HeadlessSession session(options);
    ks::app::App& app = session.app();
    const ks::app::AppState& s = app.state();
    ASSERT_TRUE(s.project.session && s.project.kernel) << app.statusLine();
    std::vector<std::uint8_t> px;
    auto frameAfterBuilds = [&] {
        ASSERT_TRUE(app.settleBuilds(std::chrono::seconds(60)));
        session.renderFrame();
        ASSERT_TRUE(s.project.session->pipeline().error().empty()) << s.project.session->pipeline().error();
        px = ks::test::download<std::uint8_t>(*s.project.session, "out");
        ASSERT_EQ(px.size(), 200u * 120u * 4u);
    };
    auto timeOfLastFrame = [&] { return float(s.project.session->pipeline().lastFrameTime()); };
    const auto gridX = [](unsigned blockX) { return (200 + blockX - 1) / blockX; };

    frameAfterBuilds();
    EXPECT_EQ(app.kernelBuilds(), 1u);
    expectDemoImage(px, 200, 120, {16, 8, 1}, gridX(16), timeOfLastFrame());

    // The Launch panel's block: one beyond the device's limit is refused with the limit named, and
    // the running launch goes on; one within it runs from the next frame.
    ks::app::LaunchEdit edit = s.teach.edit;
    edit.block = {64, 32, 1};
    app.teachCommands().setLaunch = edit;
    frameAfterBuilds();
    EXPECT_NE(s.teach.refusal.find("threads per block"), std::string::npos) << s.teach.refusal;
    edit.block = {32, 4, 1};
    app.teachCommands().setLaunch = edit;
    frameAfterBuilds();
    EXPECT_TRUE(s.teach.refusal.empty()) << s.teach.refusal;
    frameAfterBuilds();
    expectDemoImage(px, 200, 120, {32, 4, 1}, gridX(32), timeOfLastFrame());

    ASSERT_TRUE(app.editDocument(dir.path() / "live.cu", ks::test::demoKernelMissingSemicolon()));
    frameAfterBuilds();
    EXPECT_EQ(app.kernelBuilds(), 1u) << "a failed build swaps nothing";
    EXPECT_FALSE(s.editor.tabs[0]->build.result->ok);
    expectDemoImage(px, 200, 120, {32, 4, 1}, gridX(32), timeOfLastFrame());

    ASSERT_TRUE(app.editDocument(dir.path() / "live.cu", ks::test::demoKernelRedBlueSwapped()));
    frameAfterBuilds();
    frameAfterBuilds(); // adopted at the frame boundary after the build finished
    EXPECT_EQ(app.kernelBuilds(), 2u);
    expectDemoImage(px, 200, 120, {32, 4, 1}, gridX(32), timeOfLastFrame(), true);
}
