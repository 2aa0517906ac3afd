#pragma once
// The two platforms the same App and ImGui frame draw into.

#include "options.hpp"

#include "ks/image/png.hpp"

#include <memory>

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
    // The window as drawn by the last frame (waits for GL).
    image::Rgba8Image screenshot();

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// Offscreen on EGL's device platform; renders options.frames frames, writes options.screenshot.
// Returns the process exit status.
int runHeadless(const AppOptions& options);

// A GLFW window with a GL 4.5 core context, until the user closes it.
int runWindowed(const AppOptions& options);

// --headless --project P: runs the project for options.frames frames without a window and writes
// the screenshot (its views side by side), dumps and timings asked for. Returns the exit status:
// 0, or 1 with a message on stderr when anything failed.
int runProjectHeadless(const AppOptions& options);

// --validate P: checks the project (no GPU needed), prints FILE:LINE:COL: error: message per
// problem; returns 1 when there were any, else 0.
int runValidate(const AppOptions& options);

} // namespace ks::app
