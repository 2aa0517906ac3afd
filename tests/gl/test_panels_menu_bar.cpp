// The Run menu's keys on the whole app, headless (Mesa where there is no GPU: the default demo's
// project still opens and its frame clock runs): Space pauses and resumes, Right and '.' step one
// frame, ']' and '[' double and halve the speed, Ctrl+R restarts; the same keys do nothing to the
// project while a text field has the keyboard. --paused starts the first project paused.
#include "app.hpp"
#include "app_state.hpp"
#include "cli/options.hpp"
#include "ks/pipeline/pipeline.hpp"
#include "ks/scene/session.hpp"
#include "platform/platforms.hpp"

#include "headless_app.hpp"
#include "test_support.hpp"

#include <imgui.h>

#include <memory>

namespace {

constexpr int kSpace = 32, kRight = 262; // GLFW's codes, as the window sends them

class RunKeys : public ::testing::Test {
protected:
    void open(bool paused)
    {
        ks::app::AppOptions options;
        options.headless = true;
        options.width = 1280;
        options.height = 720;
        options.dataDir = ks::test::sourceDir();
        options.paused = paused;
        std::string whyNot;
        m_session = ks::test::openHeadlessApp(options, whyNot);
        if (!m_session)
            GTEST_SKIP() << "no headless GL: " << whyNot;
        ImGuiIO& io = ImGui::GetIO();
        io.KeyMap[ImGuiKey_A] = 'A';
        io.KeyMap[ImGuiKey_Space] = kSpace;
        io.KeyMap[ImGuiKey_RightArrow] = kRight;
        frames(3);
        ASSERT_TRUE(m_session->app().state().project.session) << "the default demo opens as a project";
    }
    ks::pipeline::Pipeline& pipeline() { return m_session->app().state().project.session->pipeline(); }
    void frames(int n)
    {
        for (int i = 0; i < n; ++i)
            m_session->renderFrame();
    }
    // `key` down for one frame, up for the next.
    void press(int key, bool ctrl = false) { ks::test::pressKey(*m_session, key, ctrl); }

    std::unique_ptr<ks::app::HeadlessSession> m_session;
};

TEST_F(RunKeys, SpaceStepSpeedAndRestartActOnTheProject)
{
    open(false);
    EXPECT_FALSE(pipeline().paused());
    press(kSpace);
    ASSERT_TRUE(pipeline().paused());
    const std::int64_t held = pipeline().frameIndex();
    frames(5);
    EXPECT_EQ(pipeline().frameIndex(), held) << "paused: no frame runs";
    press(kRight);
    EXPECT_EQ(pipeline().frameIndex(), held + 1) << "Right steps one frame";
    press('.');
    EXPECT_EQ(pipeline().frameIndex(), held + 2) << "'.' steps one frame";
    EXPECT_TRUE(pipeline().paused());
    press(kSpace);
    EXPECT_FALSE(pipeline().paused());
    frames(3);
    EXPECT_GT(pipeline().frameIndex(), held + 2) << "resumed";

    EXPECT_EQ(pipeline().clock().speed(), 1.0);
    press(']');
    EXPECT_EQ(pipeline().clock().speed(), 2.0);
    press('[');
    press('[');
    EXPECT_EQ(pipeline().clock().speed(), 0.5);

    frames(5);
    const std::int64_t before = pipeline().frameIndex();
    ASSERT_GT(before, 3);
    press('R', true);
    frames(1);
    EXPECT_LT(pipeline().frameIndex(), before) << "Ctrl+R restarts the project from frame 0";
}

TEST_F(RunKeys, KeysTypedIntoTheEditorLeaveTheProjectAlone)
{
    open(false);
    auto& tabs = m_session->app().state().editor.tabs;
    ASSERT_FALSE(tabs.empty()) << "the demo's kernel is open in the editor";
    tabs.front()->jumpToLine = 1; // the source takes the keyboard
    frames(2);
    ASSERT_TRUE(ImGui::GetIO().WantTextInput);
    press(kSpace);
    press('.');
    press(']');
    EXPECT_FALSE(pipeline().paused()) << "Space typed into the source does not pause";
    EXPECT_EQ(pipeline().clock().speed(), 1.0);
}

TEST_F(RunKeys, PausedStartsTheFirstProjectPausedAfterFrameZero)
{
    open(true);
    EXPECT_TRUE(pipeline().paused());
    // Frame 0 ran; then the views panel sized the viewport-sized image to the view, and that new
    // storage holds nothing until a frame writes it, so one more frame ran (without it the paused
    // view stayed black on a GPU). Then no other.
    const std::int64_t first = pipeline().frameIndex(); // the next frame's index
    EXPECT_EQ(first, 2);
    frames(5);
    EXPECT_EQ(pipeline().frameIndex(), first);
    press(kSpace);
    frames(2);
    EXPECT_GT(pipeline().frameIndex(), first);
}

} // namespace
