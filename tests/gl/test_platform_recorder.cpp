// --record: a headless run's frames as a PNG sequence at a fixed rate (one every N frames of the
// fixed time step), for the whole app and for a project's views; each frame decodes at the run's
// size, and the last recorded frame is the run's own screenshot, pixel for pixel.
#include "ks/core/error.hpp"
#include "ks/io/image.hpp"
#include "cli/options.hpp"
#include "platform/platforms.hpp"

#include "test_support.hpp"

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
