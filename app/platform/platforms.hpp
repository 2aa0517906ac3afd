#pragma once
// The two platforms the same App and ImGui frame draw into.

#include "cli/options.hpp"

#include "ks/io/image.hpp"

#include <memory>

namespace ks::gl {
class Framebuffer;
}

namespace ks::app {

class App;

// The headless platform, one frame at a time: an EGL context (NVIDIA's EGL device, or Mesa's
// software device), ImGui, a framebuffer the size of the window, and the App. For the headless
// runner, tests and benchmarks that drive the App (edits, frames) and look at the result.
// Throws ks::Error (Egl) when no headless GL context can be made. Thread: the creating thread.
class HeadlessSession {
public:
    explicit HeadlessSession(const AppOptions& options);
    ~HeadlessSession();
    HeadlessSession(const HeadlessSession&) = delete;
    HeadlessSession& operator=(const HeadlessSession&) = delete;

    App& app() noexcept;
    // One frame at simulated time framesRendered() * options.timeStep: the App's CUDA work and
    // UI, drawn into the window framebuffer.
    void renderFrame();
    int framesRendered() const noexcept;
    // One frame at the given time and step (the supervised worker's frames follow the shell's clock).
    void renderFrameAt(float timeSeconds, float deltaSeconds);
    // A new window size (framebuffer and ImGui's display size), from the next frame on.
    void resize(int width, int height);
    // Where the next frames draw: `target` (the window's size; the caller keeps it alive while it
    // is set), or the session's own framebuffer (nullptr). The reads below read the same.
    void renderTarget(const gl::Framebuffer* target) noexcept;
    int width() const noexcept;
    int height() const noexcept;
    // The window as drawn by the last frame, RGBA8 rows bottom to top (GL's order), into `dst`
    // (width() * height() * 4 bytes). Waits for GL.
    void readPixelsBottomUp(void* dst);
    // The same into GL buffer `buffer` (a name) at offset 0, without waiting: GL writes it after the frame's
    // commands (fence it before another process reads it).
    void readPixelsInto(unsigned buffer);
    // The window as drawn by the last frame (waits for GL).
    io::Rgba8Image screenshot();

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// Offscreen on EGL's device platform; renders options.frames frames, writes options.screenshot.
// Returns the process exit status.
int runHeadless(const AppOptions& options);

// A GLFW window with a GL 4.5 core context, until the user closes it. The GPU work runs in this
// process (--no-supervise); runSupervisedWindow is the default.
int runWindowed(const AppOptions& options);

// The window as a supervising shell: it owns the window and input, and a worker process
// (runWorker) runs the App headless and sends its frames; a worker that faults, hangs or dies is
// replaced and the user's state restored (docs/architecture.md, "Processes").
int runSupervisedWindow(const AppOptions& options);

// --worker window: the shell's worker; talks to the shell over the inherited channel.
int runWorker(const AppOptions& options);

// --headless --project P: runs the project for options.frames frames without a window and writes
// the screenshot (its views side by side), dumps and timings asked for. Returns the exit status:
// 0, or 1 with a message on stderr when anything failed.
int runProjectHeadless(const AppOptions& options);

// --validate P: checks the project (no GPU needed), prints FILE:LINE:COL: error: message per
// problem; returns 1 when there were any, else 0.
int runValidate(const AppOptions& options);

} // namespace ks::app
