// --record: a headless run's frames as a PNG sequence at a fixed rate (one every N frames of the
// fixed time step), for the whole app and for a project's views; each frame decodes at the run's
// size, and the last recorded frame is the run's own screenshot, pixel for pixel.
// F12 and Shift+F12: a screenshot of the views and of the window, named by the time, never over
// another file; one that cannot be written says why and the app goes on.
#include "ks/core/error.hpp"
#include "ks/io/image.hpp"
#include "cli/options.hpp"
#include "platform/platforms.hpp"
#include "app.hpp"
#include "app_state.hpp"

#include "headless_app.hpp"

#include "test_support.hpp"

#include <imgui.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::vector<std::string> filesIn(const fs::path& dir)
{
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir))
        names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

// Runs the app headless with `options` (record, screenshot set by the caller); false when there is
// no headless GL (the caller skips).
bool run(ks::app::AppOptions& options, bool project, std::string& skip)
{
    options.headless = true;
    options.dataDir = ks::test::sourceDir();
    try {
        const int rc = project ? ks::app::runProjectHeadless(options) : ks::app::runHeadless(options);
        EXPECT_EQ(rc, 0);
    } catch (const ks::Error& e) {
        if (e.domain() != ks::ErrorDomain::Egl)
            throw;
        skip = std::string("no headless GL: ") + e.what();
        return false;
    }
    return true;
}

void expectSequence(const fs::path& dir, const std::vector<std::string>& names, int width, int height,
                    const fs::path& screenshot)
{
    ASSERT_EQ(filesIn(dir), names);
    for (const std::string& n : names) {
        const ks::io::Rgba8Image frame = ks::io::readPng(dir / n);
        EXPECT_EQ(frame.width, width) << n;
        EXPECT_EQ(frame.height, height) << n;
    }
    const ks::io::Rgba8Image last = ks::io::readPng(dir / names.back());
    const ks::io::Rgba8Image shot = ks::io::readPng(screenshot);
    EXPECT_TRUE(last.pixels == shot.pixels) << "the last recorded frame is the run's screenshot";
}

} // namespace

TEST(Record, TheWholeAppEverySecondFrame)
{
    ks::test::TempDir dir;
    ks::app::AppOptions options;
    options.frames = 6;
    options.width = 320;
    options.height = 200;
    options.record = dir.path() / "rec";
    options.recordEvery = 2;
    options.screenshot = dir.path() / "shot.png";
    std::string skip;
    if (!run(options, false, skip))
        GTEST_SKIP() << skip;
    expectSequence(options.record, {"frame_000002.png", "frame_000004.png", "frame_000006.png"}, 320, 200,
                   options.screenshot);
}

TEST(Record, AProjectsViewsEveryFrame)
{
    ks::test::TempDir dir;
    ks::app::AppOptions options;
    options.frames = 3;
    options.width = 240;
    options.height = 160;
    options.project = ks::test::sourceDir() / "tests" / "projects" / "views_plot.json";
    options.record = dir.path() / "rec";
    options.screenshot = dir.path() / "shot.png";
    std::string skip;
    if (!run(options, true, skip))
        GTEST_SKIP() << skip;
    expectSequence(options.record, {"frame_000001.png", "frame_000002.png", "frame_000003.png"}, 240, 160,
                   options.screenshot);
}

namespace {

constexpr int kF12 = 301; // GLFW's code, as the window sends it

// `key` down for one frame (with Shift when asked), up for the next.
void press(ks::app::HeadlessSession& session, int key, bool shift = false)
{
    ImGuiIO& io = ImGui::GetIO();
    io.KeyShift = shift;
    io.KeysDown[key] = true;
    session.renderFrame();
    io.KeysDown[key] = false;
    io.KeyShift = false;
    session.renderFrame();
}

} // namespace

TEST(Screenshot, F12SavesTheViewsAndShiftF12TheWindow)
{
    ks::test::TempDir dir;
    ks::app::AppOptions options;
    options.headless = true;
    options.width = 1280;
    options.height = 720;
    options.dataDir = ks::test::sourceDir();
    options.screenshotDir = dir.path();
    std::string whyNot;
    auto session = ks::test::openHeadlessApp(options, whyNot);
    if (!session)
        GTEST_SKIP() << "no headless GL: " << whyNot;
    for (int i = 0; i < 3; ++i)
        session->renderFrame();
    const std::array<float, 4> views = session->app().state().record.viewportRect;
    ASSERT_GT(views[2] - views[0], 16.f) << "the Views panel drew its picture";

    press(*session, kF12);
    std::vector<std::string> names = filesIn(dir.path());
    ASSERT_EQ(names.size(), 1u);
    EXPECT_EQ(names[0].rfind("kernelscope-", 0), 0u) << names[0];
    EXPECT_EQ(fs::path(names[0]).extension(), ".png");
    const ks::io::Rgba8Image viewsShot = ks::io::readPng(dir.path() / names[0]);
    EXPECT_EQ(viewsShot.width, int(views[2]) - int(views[0]));
    EXPECT_EQ(viewsShot.height, int(views[3]) - int(views[1]));
    EXPECT_NE(session->app().state().record.shotNote.find("saved a screenshot of the views"), std::string::npos)
        << session->app().state().record.shotNote;
    EXPECT_NE(session->app().statusLine().size(), 0u);

    press(*session, kF12, true);
    names = filesIn(dir.path());
    ASSERT_EQ(names.size(), 2u) << "a second screenshot in the same second does not write over the first";
    bool window = false;
    for (const std::string& n : names) {
        const ks::io::Rgba8Image shot = ks::io::readPng(dir.path() / n);
        window = window || (shot.width == 1280 && shot.height == 720);
    }
    EXPECT_TRUE(window) << "Shift+F12: the whole window";

    // A folder that cannot be written: the app says why and goes on.
    session.reset();
    options.screenshotDir = dir.path() / "missing" / "folder";
    session = ks::test::openHeadlessApp(options, whyNot);
    ASSERT_TRUE(session);
    session->renderFrame();
    press(*session, kF12);
    EXPECT_EQ(session->app().state().record.shot, ks::app::RecordState::Shot::None);
    EXPECT_EQ(session->app().state().record.shotNote.rfind("no screenshot", 0), 0u)
        << session->app().state().record.shotNote;
    session->renderFrame();
}
