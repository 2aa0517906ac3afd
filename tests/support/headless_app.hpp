#pragma once
// The whole app headless, for the gl tests that drive it: a HeadlessSession, or null with the reason
// where no headless GL context can be made (the test then calls GTEST_SKIP() with it). The session
// records where it draws what tests click (panels/ui_probe.hpp): drawnAt() reads it.

#include "app.hpp"
#include "ks/core/error.hpp"
#include "cli/options.hpp"
#include "ks/io/image.hpp"
#include "panels/ui_probe.hpp"
#include "platform/platforms.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>
#include <imgui.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

namespace ks::test {

// The whole app headless at width x height on the default demo, its data from the source folder.
inline app::AppOptions headlessOptions(int width, int height)
{
    app::AppOptions options;
    options.headless = true;
    options.width = width;
    options.height = height;
    options.dataDir = sourceDir();
    return options;
}

inline std::unique_ptr<app::HeadlessSession> openHeadlessApp(const app::AppOptions& options, std::string& whyNot)
{
    app::uiProbe() = app::UiProbe{}; // nothing an earlier session drew
    app::uiProbe().enabled = true;
    try {
        return std::make_unique<app::HeadlessSession>(options);
    } catch (const Error& e) {
        if (e.domain() != ErrorDomain::Egl)
            throw;
        whyNot = e.what();
        return nullptr;
    }
}

// The whole app headless at `width` x `height` on `kernel` (the project inferred from it, the file
// in the editor), with this checkout's data and unsaved edits kept under `folder`/recovery.
inline app::AppOptions kernelAppOptions(const std::filesystem::path& kernel, const std::filesystem::path& folder,
                                        int width, int height)
{
    app::AppOptions options;
    options.headless = true;
    options.width = width;
    options.height = height;
    options.dataDir = sourceDir();
    options.kernelSpec = kernel.string();
    options.recoveryDir = folder / "recovery";
    return options;
}

// Where the app last drew `name` (x0, y0, x1, y1; names in panels/ui_probe.hpp); a test failure,
// and zeros, when it was not drawn.
inline std::array<float, 4> drawnAt(const std::string& name)
{
    const auto r = app::uiProbe().find(name);
    EXPECT_TRUE(r) << name << " was drawn";
    return r.value_or(std::array<float, 4>{});
}

// Moves the mouse to the middle of `r` (x0, y0, x1, y1) and clicks the left button there, a frame
// for each step and one after.
inline void clickAt(app::HeadlessSession& session, const std::array<float, 4>& r)
{
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2((r[0] + r[2]) / 2, (r[1] + r[3]) / 2);
    session.renderFrame();
    io.MouseDown[0] = true;
    session.renderFrame();
    io.MouseDown[0] = false;
    session.renderFrame();
    session.renderFrame();
}

// Renders frames of `session` (with a little sleep between) until `done` or `timeout`; returns
// whether done.
template <class Pred>
bool framesUntil(app::HeadlessSession& session, Pred done, std::chrono::milliseconds timeout)
{
    const auto end = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < end) {
        session.renderFrame();
        if (done())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return false;
}

// With KS_KEEP_SCREENSHOTS=DIR, writes the screenshot there for a person to look at.
inline void keepScreenshot(const char* name, const io::Rgba8Image& shot)
{
    if (const char* keep = std::getenv("KS_KEEP_SCREENSHOTS"); keep && *keep)
        io::writePng(std::filesystem::path(keep) / name, shot);
}

// `key` (a platform key code, as io.KeysDown indexes it) down for one frame with Ctrl and Shift as
// given, up for the next.
inline void pressKey(app::HeadlessSession& session, int key, bool ctrl = false, bool shift = false)
{
    ImGuiIO& io = ImGui::GetIO();
    io.KeyCtrl = ctrl;
    io.KeyShift = shift;
    io.KeysDown[key] = true;
    session.renderFrame();
    io.KeysDown[key] = false;
    io.KeyCtrl = io.KeyShift = false;
    session.renderFrame();
}

} // namespace ks::test
