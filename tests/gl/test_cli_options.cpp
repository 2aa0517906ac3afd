// `kernelscope --version`: the version and the commit it was built from, then the versions of what
// it runs on, one per line; exit 0. Runs the app binary (test::appBinary()), on Mesa's software GL
// here and on the GPU hosts' EGL device.
#include "test_support.hpp"

#include "ks/core/paths.hpp"
#include "ks/proc/child_process.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <regex>
#include <string>

namespace fs = std::filesystem;
using namespace std::chrono_literals;

TEST(VersionOutput, NamesTheCommitAndWhatItRunsOn)
{
    if (!fs::exists(ks::test::appBinary()))
        GTEST_SKIP() << "no app binary at " << ks::test::appBinary() << " (set KS_KERNELSCOPE)";
    ks::test::TempDir dir;
    const fs::path out = dir.path() / "version.txt";
    ks::proc::ChildProcess child = ks::proc::ChildProcess::spawn(
        {"/bin/sh", {"-c", "exec '" + ks::test::appBinary().string() + "' --version > '" + out.string() + "' 2> '" + (dir.path() / "errors.txt").string() + "'"}, {}, -1});
    const std::optional<ks::proc::ExitStatus> status = child.wait(60s);
    ASSERT_TRUE(status) << "--version did not end within 60 s";
    const std::string text = ks::paths::readTextFile(out);
    EXPECT_EQ(status->code, 0) << text;
    EXPECT_EQ(ks::paths::readTextFile(dir.path() / "errors.txt"), "") << "--version says nothing on stderr";
    EXPECT_TRUE(std::regex_search(text, std::regex(R"(^kernelscope \d+\.\d+\.\d+ \(commit ([0-9a-f]{12}(-dirty)?|unknown)\)\n)")))
        << text;
    EXPECT_TRUE(std::regex_search(text, std::regex(R"(\nCUDA toolkit \(built with\): \d+\.\d\n)"))) << text;
    EXPECT_TRUE(std::regex_search(text, std::regex(R"(\nCUDA driver: (\d+\.\d, \d+ device|not found))"))) << text;
    EXPECT_TRUE(std::regex_search(text, std::regex(R"(\nNVRTC: \d+\.\d+\n)"))) << text;
    EXPECT_TRUE(std::regex_search(text, std::regex(R"(\nOpenGL: \d\.\d)"))) << "no GL version (a headless EGL context): " << text;
    EXPECT_TRUE(std::regex_search(text, std::regex(R"(\nDear ImGui: 1\.\d+)"))) << text;
    EXPECT_TRUE(std::regex_search(text, std::regex(R"(\nGLFW: 3\.)"))) << text;
}
