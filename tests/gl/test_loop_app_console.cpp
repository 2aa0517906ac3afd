// The Console's plumbing on the whole app headless, where no kernel runs (Mesa): with
// captureDeviceOutput on (a window's GPU process has it), what reaches the process's standard
// output between frames is shown as lines of the frame, the panel opens with the first line,
// a line without its end waits for it, and the newest lines travel to the next GPU process in the
// snapshot. Device printf itself, named by stage, is tested on a GPU (tests/interop).
#include "app.hpp"
#include "app_state.hpp"
#include "cli/options.hpp"
#include "panels/panels.hpp"
#include "platform/platforms.hpp"

#include "headless_app.hpp"
#include "test_support.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <unistd.h>

#include <string>

namespace {

void writeStdout(const std::string& text)
{
    ASSERT_EQ(::write(1, text.data(), text.size()), ssize_t(text.size()));
}

bool panelActive(const char* name)
{
    const ImGuiWindow* w = ImGui::FindWindowByName(name);
    return w && w->Active;
}

} // namespace

TEST(Console, StandardOutputBecomesLinesAndThePanelOpensWithTheFirst)
{
    ks::app::AppOptions options;
    options.headless = true;
    options.width = 1280;
    options.height = 720;
    options.dataDir = ks::test::sourceDir();
    options.captureDeviceOutput = true;
    std::string whyNot;
    auto session = ks::test::openHeadlessApp(options, whyNot);
    if (!session)
        GTEST_SKIP() << "no headless GL: " << whyNot;
    const ks::app::AppState& s = session->app().state();
    session->renderFrame();
    ASSERT_TRUE(s.console.capturing);
    EXPECT_TRUE(s.console.lines.empty());
    EXPECT_FALSE(panelActive(ks::app::kConsolePanel)) << "no panel before any output";

    writeStdout("block 0 thread 0: x = 1\nblock 0 thread 1: x = 2\nblock 0 ");
    session->renderFrame();
    ASSERT_EQ(s.console.lines.size(), 2u);
    EXPECT_EQ(s.console.lines[0].text, "block 0 thread 0: x = 1");
    EXPECT_EQ(s.console.lines[1].text, "block 0 thread 1: x = 2");
    EXPECT_TRUE(s.console.lines[0].stage.empty()) << "not from a stage that was waited for";
    writeStdout("thread 2: x = 3\n");
    session->renderFrame();
    ASSERT_EQ(s.console.lines.size(), 3u);
    EXPECT_EQ(s.console.lines[2].text, "block 0 thread 2: x = 3") << "a line waits for its end";
    session->renderFrame();
    EXPECT_TRUE(panelActive(ks::app::kConsolePanel)) << "the panel opens with the first line";
    const ImGuiWindow* log = ImGui::FindWindowByName(ks::app::kCompileLogPanel);
    const ImGuiWindow* console = ImGui::FindWindowByName(ks::app::kConsolePanel);
    ASSERT_TRUE(log && console);
    EXPECT_NEAR(console->Pos.y, log->Pos.y + log->Size.y, 2.f) << "below the compile log, in its place";

    const ks::app::supervise::AppSnapshot snap = session->app().snapshot();
    ASSERT_EQ(snap.console.size(), 3u) << "to the next GPU process";
    EXPECT_EQ(snap.console[2].text, "block 0 thread 2: x = 3");
}

TEST(Console, PastItsBoundTheOldestLinesGoAndAreCounted)
{
    ks::app::ConsoleState c;
    std::string text;
    for (std::size_t i = 0; i < ks::app::ConsoleState::kMaxLines + 25; ++i)
        text += "line " + std::to_string(i) + "\n";
    c.add(7, "paint", text);
    EXPECT_EQ(c.lines.size(), ks::app::ConsoleState::kMaxLines);
    EXPECT_EQ(c.dropped, 25u);
    EXPECT_EQ(c.lines.front().text, "line 25");
    EXPECT_EQ(c.lines.back().frame, 7);
    EXPECT_EQ(c.lines.back().stage, "paint");
}

// The printf buffer chosen in the Options popup is the editor's setting: kept in the settings file
// and in the snapshot for the next GPU process, which applies it. Without a CUDA device (Mesa) the
// driver's size stays unknown (0); the GPU side is tests/interop/test_loop_app_console.cpp.
TEST(Console, PrintfBufferChosenIsKeptForTheNextProcess)
{
    ks::app::AppOptions options;
    options.headless = true;
    options.width = 1280;
    options.height = 720;
    options.dataDir = ks::test::sourceDir();
    std::string whyNot;
    auto session = ks::test::openHeadlessApp(options, whyNot);
    if (!session)
        GTEST_SKIP() << "no headless GL: " << whyNot;
    if (session->app().state().cuda)
        GTEST_SKIP() << "a CUDA device is here: this test is of the settings alone";
    session->app().setPrintfBuffer(std::size_t(8) << 20);
    session->renderFrame();
    const ks::app::supervise::AppSnapshot snap = session->app().snapshot();
    EXPECT_EQ(snap.ui.editor.printfBuffer, std::uint64_t(8) << 20);
    EXPECT_EQ(session->app().state().console.printfBuffer, 0u) << "no driver to ask";
    EXPECT_FALSE(session->app().restartRequest()) << "nothing to replace without CUDA";
    session.reset();

    auto next = ks::test::openHeadlessApp(options, whyNot);
    ASSERT_TRUE(next) << whyNot;
    EXPECT_EQ(next->app().state().editor.printfBuffer, 0u);
    ks::app::supervise::Restore r;
    r.state = snap;
    next->app().restore(r);
    EXPECT_EQ(next->app().state().editor.printfBuffer, std::size_t(8) << 20) << "the next process takes the choice";
}
