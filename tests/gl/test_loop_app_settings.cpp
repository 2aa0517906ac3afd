// What a window run keeps between launches (app/loop/app_settings.cpp), on the whole app headless
// with keepSettings on, as a window's GPU process has it: panel places, the layout, hidden panels
// and the editor's options come back in the next run from $XDG_CONFIG_HOME/kernelscope; a run
// without keepSettings (headless, tests, --no-settings) reads and writes nothing; a malformed
// file is set aside, not lost, and the defaults apply; --layout wins over the saved layout.
#include "app.hpp"
#include "app_state.hpp"
#include "cli/options.hpp"
#include "panels/panels.hpp"
#include "platform/platforms.hpp"
#include "supervise/protocol.hpp"
#include "ks/core/paths.hpp"

#include "headless_app.hpp"
#include "test_support.hpp"

#include <imgui.h>
#include <imgui_internal.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <memory>

namespace fs = std::filesystem;

namespace {

bool logged(const ks::app::AppState& s, std::string_view what)
{
    for (const auto& line : s.log.lines) // the test's thread is the only one writing it here
        if (line.text.find(what) != std::string::npos)
            return true;
    return false;
}

class UserSettings : public ::testing::Test {
protected:
    fs::path settingsFile() const { return m_config.path() / "kernelscope" / "settings.json"; }
    // The whole app, three frames in; null (the test skips) without headless GL.
    std::unique_ptr<ks::app::HeadlessSession> open(bool keep, std::string layout = {})
    {
        ks::app::AppOptions options;
        options.headless = true;
        options.width = 1280;
        options.height = 720;
        options.dataDir = ks::test::sourceDir();
        options.keepSettings = keep;
        options.layout = std::move(layout);
        std::string whyNot;
        auto session = ks::test::openHeadlessApp(options, whyNot);
        if (!session) {
            m_skip = "no headless GL: " + whyNot;
            return nullptr;
        }
        for (int i = 0; i < 3; ++i)
            session->renderFrame();
        return session;
    }
    static ImVec2 windowPos(const char* name)
    {
        const ImGuiWindow* w = ImGui::FindWindowByName(name);
        EXPECT_TRUE(w) << name;
        return w ? w->Pos : ImVec2(-1, -1);
    }

    ks::test::TempDir m_config;
    ks::test::ScopedEnv m_env{"XDG_CONFIG_HOME", m_config.path().string()};
    std::string m_skip;
};

TEST_F(UserSettings, PanelPlacesComeBackInTheNextRun)
{
    ImVec2 moved;
    {
        auto session = open(true);
        if (!session)
            GTEST_SKIP() << m_skip;
        const ImVec2 placed = windowPos(ks::app::kDevicePanel);
        moved = ImVec2(placed.x - 140, placed.y - 60);
        ImGui::SetWindowPos(ks::app::kDevicePanel, moved); // as if dragged by its title bar
        session->renderFrame();
        EXPECT_EQ(windowPos(ks::app::kDevicePanel).x, moved.x) << "the layout leaves a moved panel where it is";
    } // the app ends: it writes what changed
    ASSERT_TRUE(fs::exists(settingsFile()));
    const auto saved = nlohmann::json::parse(ks::paths::readTextFile(settingsFile())).get<ks::app::supervise::UiSettings>();
    EXPECT_NE(saved.imguiIni.find("[Window][Device]"), std::string::npos);
    EXPECT_EQ(saved.layout, "standard");

    auto next = open(true);
    ASSERT_TRUE(next);
    EXPECT_EQ(windowPos(ks::app::kDevicePanel).x, moved.x) << "the next run opens the panel where it was left";
    EXPECT_EQ(windowPos(ks::app::kDevicePanel).y, moved.y);
}

TEST_F(UserSettings, LayoutHiddenPanelsAndEditorOptionsAreRead)
{
    ks::app::supervise::UiSettings ui;
    ui.layout = "classroom";
    ui.hiddenPanels = {ks::app::kTimelinePanel};
    ui.editor.zoom = 1.5f;
    ui.editor.syntaxColours = false;
    ui.editor.pauseSeconds = 1.25;
    ui.editor.defines = "N=4";
    fs::create_directories(settingsFile().parent_path());
    std::ofstream(settingsFile()) << nlohmann::json(ui).dump();

    auto session = open(true);
    if (!session)
        GTEST_SKIP() << m_skip;
    const ks::app::AppState& s = session->app().state();
    EXPECT_EQ(s.teach.layout, ks::app::Layout::Classroom);
    EXPECT_EQ(s.menu.hiddenPanels.count(ks::app::kTimelinePanel), 1u);
    EXPECT_FLOAT_EQ(s.editor.zoom, 1.5f);
    EXPECT_FALSE(s.editor.syntaxColours);
    EXPECT_DOUBLE_EQ(s.editor.pauseSeconds, 1.25);
    EXPECT_EQ(s.editor.definesText, "N=4");
    session.reset();

    auto given = open(true, "standard");
    ASSERT_TRUE(given);
    EXPECT_EQ(given->app().state().teach.layout, ks::app::Layout::Standard) << "--layout wins over the saved one";
    EXPECT_FLOAT_EQ(given->app().state().editor.zoom, 1.5f) << "the rest still comes back";
}

TEST_F(UserSettings, RunsWithoutKeepSettingsReadAndWriteNothing)
{
    ks::app::supervise::UiSettings ui;
    ui.editor.zoom = 2.f;
    fs::create_directories(settingsFile().parent_path());
    const std::string text = nlohmann::json(ui).dump();
    std::ofstream(settingsFile()) << text;
    {
        auto session = open(false);
        if (!session)
            GTEST_SKIP() << m_skip;
        EXPECT_FLOAT_EQ(session->app().state().editor.zoom, 1.f) << "headless runs keep the fixed defaults";
        ImGui::SetWindowPos(ks::app::kDevicePanel, ImVec2(3, 3));
        session->renderFrame();
    }
    EXPECT_EQ(ks::paths::readTextFile(settingsFile()), text) << "and leave the file as it was";
}

TEST_F(UserSettings, AMalformedFileIsSetAsideAndTheDefaultsApply)
{
    fs::create_directories(settingsFile().parent_path());
    std::ofstream(settingsFile()) << "{\"layout\": \"classroom\", \"editor\": {\"zoom\": ";
    {
        auto session = open(true);
        if (!session)
            GTEST_SKIP() << m_skip;
        EXPECT_EQ(session->app().state().teach.layout, ks::app::Layout::Standard);
        EXPECT_TRUE(logged(session->app().state(), "settings not restored from")) << "a warning says why";
    }
    fs::path aside = settingsFile();
    aside += ".unreadable";
    ASSERT_TRUE(fs::exists(aside)) << "the unreadable file is kept";
    EXPECT_NE(ks::paths::readTextFile(aside).find("\"zoom\": "), std::string::npos);
    EXPECT_NO_THROW(nlohmann::json::parse(ks::paths::readTextFile(settingsFile()))) << "a good one written in its place";
}

} // namespace
