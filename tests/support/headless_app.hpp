#pragma once
// The whole app headless, for the gl tests that drive it: a HeadlessSession, or null with the reason
// where no headless GL context can be made (the test then calls GTEST_SKIP() with it). The session
// records where it draws what tests click (panels/ui_probe.hpp): drawnAt() reads it.

#include "app.hpp"
#include "ks/core/error.hpp"
#include "cli/options.hpp"
#include "panels/ui_probe.hpp"
#include "platform/platforms.hpp"

#include <gtest/gtest.h>
#include <imgui.h>

#include <array>
#include <memory>
#include <string>

namespace ks::test {

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
