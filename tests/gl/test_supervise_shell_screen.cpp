// The window's frames as the supervising shell gets them (app/supervise/shell_screen.hpp): a real
// worker (kernelscope --worker window) renders the whole app, two frames in flight, and every frame
// the shell copies into its texture is, byte for byte, what the worker rendered (the worker says
// the SHA-256 of its own read-back). Where the shell's GL and the worker's share a device and CUDA
// is there (the GPU hosts), the frames must come through GPU memory both GL contexts import; here
// (Mesa, no CUDA) through the shared CPU memory. The window is resized on the way, so the worker
// makes new frame memory and the shell takes it. On the GPU host the frames are rendered in place
// (into textures on that memory), or read into buffers there with KS_FRAME_BUFFERS=1.
#include "supervise/shell_link.hpp"
#include "supervise/shell_screen.hpp"

#include "test_support.hpp"

#include "ks/core/sha256.hpp"
#include "ks/cuda/driver.hpp"
#include "ks/gl/egl_context.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <string>
#include <vector>

using namespace ks;
using namespace std::chrono_literals;

namespace {

class WindowFrames : public test::GlTest {};

std::string textureSha256(const app::ShellScreen& screen)
{
    std::vector<std::uint8_t> pixels(std::size_t(screen.width()) * screen.height() * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTextureImage(screen.texture(), 0, GL_RGBA, GL_UNSIGNED_BYTE, GLsizei(pixels.size()), pixels.data());
    return Sha256::hex(Sha256::of(std::string_view(reinterpret_cast<const char*>(pixels.data()), pixels.size())));
}

} // namespace

TEST_F(WindowFrames, EveryFrameTheShellShowsIsWhatTheWorkerRendered)
{
    KS_REQUIRE_APP_BINARY();
    // The shell's GL on the GPU the worker computes on (CUDA device 0, as a desktop with one GPU
    // has it): on a host of several GPUs the first EGL device may be another (CUDA_VISIBLE_DEVICES),
    // and frames then rightly come through CPU memory.
    // The old context goes first: the same device gives the same EGL display, which its end
    // terminates (a context made before it would be gone with it).
    if (cuda::driverStatus().available) {
        gl::EglOptions options;
        options.cudaOrdinal = 0;
        m_egl = gl::EglContext();
        m_egl = gl::EglContext(options);
    }
    app::ShellLink::Config config;
    config.executable = test::appBinary();
    config.args = {"--data-dir", test::sourceDir().string(), "--size", "640x360", "--worker", "window"};
    config.framesInFlight = 2;
    config.shellGl = app::ShellScreen::shellGl();
    const bool gpuExpected = config.shellGl && cuda::driverStatus().available;
    app::ShellLink link(config);
    app::ShellScreen screen;

    struct Size {
        int w, h, frames;
    };
    const Size sizes[] = {{640, 360, 8}, {900, 600, 8}, {320, 200, 6}}; // grows, then shrinks
    std::set<std::uint64_t> memories;
    std::vector<std::string> rendered; // each shown frame's hash as the worker rendered it
    int shown = 0, requested = 0, total = 0;
    for (const Size& s : sizes)
        total += s.frames;
    auto sizeOf = [&](int n) {
        for (const Size& s : sizes) {
            if (n < s.frames)
                return s;
            n -= s.frames;
        }
        return sizes[std::size(sizes) - 1];
    };
    for (const auto until = std::chrono::steady_clock::now() + 120s; shown < total && std::chrono::steady_clock::now() < until;) {
        ASSERT_EQ(link.restarts(), 0) << link.lastStatus();
        ASSERT_NE(link.dialog(), app::ShellLink::Dialog::GaveUp) << link.dialogText();
        if (requested < total && link.readyForFrame()) {
            const Size s = sizeOf(requested);
            app::supervise::FrameRequest r;
            r.width = s.w;
            r.height = s.h;
            r.time = requested / 60.0;
            r.dt = 1.0 / 60;
            r.checksum = true;
            screen.finishReading();
            link.requestFrame(r);
            ++requested;
        }
        const std::optional<app::ShellLink::Frame> f = link.pump(20ms);
        if (!f)
            continue;
        const Size s = sizeOf(shown);
        ASSERT_TRUE(screen.take(*f, link)) << "the shell could not take frame " << shown;
        EXPECT_EQ(f->width, s.w);
        EXPECT_EQ(f->height, s.h);
        ASSERT_FALSE(f->sha256.empty());
        const std::string seen = textureSha256(screen);
        std::string stale; // a mismatch that shows an earlier frame says more than two hashes
        for (std::size_t k = 0; k < rendered.size(); ++k)
            if (rendered[k] == seen)
                stale = ": the shell shows frame " + std::to_string(k) + " again";
        EXPECT_EQ(seen, f->sha256) << "frame " << shown << " (" << s.w << "x" << s.h << ", slot " << f->slot << ")"
                                   << stale;
        rendered.push_back(f->sha256);
        EXPECT_EQ(f->gpuMemory != 0, gpuExpected) << "frame " << shown;
        if (f->gpuMemory)
            memories.insert(f->gpuMemory);
        ++shown;
    }
    ASSERT_EQ(shown, total) << link.lastStatus();
    const bool inPlace = gpuExpected && config.shellGl->textures;
    if (inPlace) {
        // Rendered in place: textures of each size, announced with each (the memory of the second
        // size holds the third's too, but the textures are new).
        EXPECT_TRUE(screen.renderedInPlace()) << "frames were read into buffers: " << link.lastStatus();
        EXPECT_EQ(memories.size(), 3u);
    } else if (gpuExpected) {
        // Read into buffers: the 900x600 frames did not fit the first memory; the 320x200 ones fit the second.
        EXPECT_EQ(memories.size(), 2u);
    }
    std::printf("[ frames ] %d frames through %s memory, all as the worker rendered them\n", shown,
                inPlace ? "GPU (rendered in place)" : gpuExpected ? "GPU (read into buffers)" : "CPU");
}
