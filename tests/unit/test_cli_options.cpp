// Command-line values out of range: refused before anything runs, exit code 2 (usage), with a
// message naming the flag and what it accepts.
#include "parse_options.hpp"
#include "test_support.hpp"
#include "ks/core/paths.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

namespace {

struct Refusal {
    bool refused = false;
    int exitCode = 0;
    std::string message;
};

Refusal refuse(std::vector<std::string> args)
{
    testing::internal::CaptureStderr();
    testing::internal::CaptureStdout();
    const auto outcome = ks::test::parseOptions(std::move(args));
    Refusal r;
    r.message = testing::internal::GetCapturedStderr() + testing::internal::GetCapturedStdout();
    r.refused = !outcome.options.has_value();
    r.exitCode = outcome.exitCode;
    return r;
}

void expectRefused(const std::vector<std::string>& args, const std::string& says)
{
    std::string joined;
    for (const auto& a : args)
        joined += a + " ";
    SCOPED_TRACE(joined);
    const Refusal r = refuse(args);
    EXPECT_TRUE(r.refused);
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.message.find(says), std::string::npos) << r.message;
}

} // namespace

TEST(BadCommandLine, FramesOutOfRange)
{
    expectRefused({"--frames", "-1"}, "--frames");
    expectRefused({"--frames", "0"}, "--frames");
}

TEST(BadCommandLine, SizesZeroHugeOrNotNumbers)
{
    expectRefused({"--size", "0x0"}, "--size: both numbers must be positive");
    expectRefused({"--size", "100000x100000"}, "--size: 100000x100000 is larger than 16384x16384");
    expectRefused({"--size", "16x16junk"}, "is not two whole numbers");
    expectRefused({"--size", "99999999999x2"}, "is not two whole numbers");
    expectRefused({"--image-size", "20000x10"}, "--image-size: 20000x10 is larger than 16384x16384");
}

TEST(BadCommandLine, BlocksOfNoThreadsOrMoreThanCudaAllows)
{
    expectRefused({"--block", "0,0"}, "--block: '0,0': each number is from 1");
    expectRefused({"--block", "2048,2048"}, "2048,2048 is 4194304 threads per block; CUDA allows at most 1024");
    expectRefused({"--block", "64,32"}, "2048 threads per block");
}

TEST(BadCommandLine, TimeStepMustBeAPositiveNumberOfSeconds)
{
    expectRefused({"--time-step", "nan"}, "--time-step");
    expectRefused({"--time-step", "0"}, "--time-step");
    expectRefused({"--time-step", "-0.5"}, "--time-step");
}

TEST(BadCommandLine, OutputsIntoAMissingFolderOrOntoAFolderAreRefusedUpFront)
{
    expectRefused({"--screenshot", "/nonexistent-ks/dir/x.png"}, "the folder /nonexistent-ks/dir does not exist");
    ks::test::TempDir dir;
    expectRefused({"--screenshot", dir.path().string()}, "is a folder; name a file in it");
    expectRefused({"--project", "p.json", "--timings", "/nonexistent-ks/t.json"}, "--timings");
    expectRefused({"--project", "p.json", "--dump", "a=/nonexistent-ks/a.npy"}, "--dump");
}

TEST(BadCommandLine, GoodValuesStillPass)
{
    const auto outcome = ks::test::parseOptions({"--headless", "--size", "640x360", "--block", "32,32", "--frames",
                                                 "3", "--time-step", "0.02", "--screenshot", "shot.png",
                                                 "--image-size", "200x120"});
    ASSERT_TRUE(outcome.options.has_value());
    EXPECT_EQ(outcome.options->width, 640);
    EXPECT_EQ(outcome.options->block, (std::array<unsigned, 3>{32, 32, 1}));
    EXPECT_EQ(outcome.options->imageSize, (std::array<int, 2>{200, 120}));
}

// --tour opens the guided tour at its first step, --tour=N at step N, and runs the whole app
// headless; a step out of range is refused.
TEST(BadCommandLine, TourOpensAtAStepAndNeedsTheWholeApp)
{
    const auto first = ks::test::parseOptions({"--headless", "--project", "p.json", "--tour"});
    ASSERT_TRUE(first.options.has_value());
    EXPECT_EQ(first.options->tour, 1);
    EXPECT_TRUE(first.options->ui);
    const auto third = ks::test::parseOptions({"--tour=3"});
    ASSERT_TRUE(third.options.has_value());
    EXPECT_EQ(third.options->tour, 3);
    const auto none = ks::test::parseOptions({"--headless", "--project", "p.json"});
    ASSERT_TRUE(none.options.has_value());
    EXPECT_EQ(none.options->tour, 0);
    EXPECT_FALSE(none.options->ui);
    expectRefused({"--tour=-1"}, "--tour");
    expectRefused({"--tour=100"}, "--tour");
    expectRefused({"--headless", "--project", "p.json", "--timings", "t.json", "--tour"}, "--tour open the app");
}

// Device printf reaches the Console wherever the panels are drawn, headless ones included; a headless
// project run without them leaves it on standard output.
TEST(BadCommandLine, DeviceOutputIsCapturedWhereThePanelsAreDrawn)
{
    ks::test::ScopedEnv display("DISPLAY", ":99");
    const auto capture = [](std::vector<std::string> args) {
        const auto parsed = ks::test::parseOptions(std::move(args));
        return parsed.options.has_value() && parsed.options->captureDeviceOutput;
    };
    EXPECT_TRUE(capture({}));
    EXPECT_TRUE(capture({"--project", "p.json"}));
    EXPECT_TRUE(capture({"--worker", "window"}));
    EXPECT_TRUE(capture({"--headless"})) << "the whole app, headless";
    EXPECT_TRUE(capture({"--headless", "--project", "p.json", "--ui"}));
    EXPECT_FALSE(capture({"--headless", "--project", "p.json"}));
    EXPECT_FALSE(capture({"--headless", "--kernel", "k.cu:k"}));
}

TEST(BadCommandLine, TimingsAndDumpsAreNotSilentlyDroppedByTheWholeApp)
{
    expectRefused({"--headless", "--project", "p.json", "--timings", "t.json", "--ui"}, "are for headless project runs");
    expectRefused({"--headless", "--project", "p.json", "--dump", "a=a.npy", "--layout", "classroom"},
                  "are for headless project runs");
}

TEST(BadCommandLine, RecordingNeedsANewOrEmptyFolderAndAHeadlessRun)
{
    ks::test::TempDir dir;
    std::filesystem::create_directories(dir.path() / "full");
    ks::test::writeFile(dir.path() / "full" / "old.png", "x");
    ks::test::writeFile(dir.path() / "a-file", "x");
    expectRefused({"--headless", "--record", (dir.path() / "full").string()}, "holds files already");
    expectRefused({"--headless", "--record", (dir.path() / "a-file").string()}, "is not a folder");
    expectRefused({"--headless", "--record", (dir.path() / "missing" / "rec").string()}, "does not exist");
    expectRefused({"--headless", "--record", (dir.path() / "rec").string(), "--record-every", "0"}, "--record-every");
    EXPECT_EQ(ks::paths::readTextFile(dir.path() / "full" / "old.png"), "x") << "nothing there is replaced";
}

// A video needs its folder and the ffmpeg program; both are checked before anything runs.
TEST(BadCommandLine, RecordingAVideoNeedsItsFolderAndFfmpeg)
{
    ks::test::TempDir dir;
    std::filesystem::create_directories(dir.path() / "clip.mp4");
    expectRefused({"--headless", "--record", (dir.path() / "missing" / "clip.mp4").string()}, "does not exist");
    expectRefused({"--headless", "--record", (dir.path() / "clip.mp4").string()}, "is a folder");
    ::setenv("KS_FFMPEG", (dir.path() / "no-such-ffmpeg").c_str(), 1);
    expectRefused({"--headless", "--record", (dir.path() / "clip.gif").string()}, "KS_FFMPEG names");
    ::unsetenv("KS_FFMPEG");
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "clip.gif")) << "nothing is written";
}
