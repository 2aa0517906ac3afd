// Names of recordings: their format from the name, and the next name that writes over nothing; and
// --record reaching only the first GPU process of a supervised window.
#include "cli/options.hpp"
#include "loop/recording_target.hpp"
#include "supervise/shell_link.hpp"

#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;

TEST(RecordingTarget, FormatFollowsTheName)
{
    EXPECT_EQ(ks::app::recordingFormatOf("clip.mp4"), 0);
    EXPECT_EQ(ks::app::recordingFormatOf("clip.MP4"), 0);
    EXPECT_EQ(ks::app::recordingFormatOf("a/b/clip.gif"), 1);
    EXPECT_EQ(ks::app::recordingFormatOf("frames"), 2);
    EXPECT_EQ(ks::app::recordingFormatOf("frames.d"), 2);
}

TEST(RecordingTarget, TheNextNameWritesOverNothing)
{
    ks::test::TempDir dir;
    const fs::path clip = dir.path() / "clip.mp4";
    EXPECT_EQ(ks::app::nextFreeRecordingTarget(clip), clip) << "nothing there yet";
    dir.write("clip.mp4", "x");
    EXPECT_EQ(ks::app::nextFreeRecordingTarget(clip), dir.path() / "clip-2.mp4");
    dir.write("clip-2.mp4", "x");
    fs::create_symlink(dir.path() / "nowhere", dir.path() / "clip-3.mp4"); // a dangling link is taken too
    EXPECT_EQ(ks::app::nextFreeRecordingTarget(clip), dir.path() / "clip-4.mp4");
    fs::create_directory(dir.path() / "frames");
    EXPECT_EQ(ks::app::nextFreeRecordingTarget(dir.path() / "frames"), dir.path() / "frames-2");
}

TEST(RecordingTarget, OnlyTheFirstGpuProcessOfAWindowGetsRecord)
{
    ks::app::AppOptions options;
    options.rawArgs = {"--frames", "40", "--record", "out.mp4", "--size", "640x360", "--record-every=2"};
    const auto c = ks::app::ShellLink::windowConfig(options, "kernelscope");
    EXPECT_EQ(c.firstArgs, (std::vector<std::string>{"--record", "out.mp4", "--record-every=2"}));
    EXPECT_EQ(c.args, (std::vector<std::string>{"--frames", "40", "--size", "640x360", "--worker", "window"}));
}

// --tour opens the guided tour in the first GPU process only: one that replaces it after a fault
// does not open the tour again over the class's work.
TEST(RecordingTarget, OnlyTheFirstGpuProcessOfAWindowOpensTheTour)
{
    ks::app::AppOptions options;
    options.rawArgs = {"--tour", "--layout", "classroom", "--tour=3"};
    const auto c = ks::app::ShellLink::windowConfig(options, "kernelscope");
    EXPECT_EQ(c.firstArgs, (std::vector<std::string>{"--tour", "--tour=3"}));
    EXPECT_EQ(c.args, (std::vector<std::string>{"--layout", "classroom", "--worker", "window"}));
}
