// Reading files people name (projects, kernels, includes, recovery and cache entries): only regular
// files, bounded in size, never a read that blocks or never ends, and a message naming the path and
// the reason.
#include "test_support.hpp"

#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/rtc/include_scanner.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>

namespace fs = std::filesystem;
using ks::paths::readFile;
using ks::paths::readTextFile;

namespace {

std::string refusal(const fs::path& p, std::size_t limit = ks::paths::kMaxTextFileBytes)
{
    try {
        readFile(p, limit);
    } catch (const ks::Error& e) {
        return e.text();
    }
    return "(read)";
}

} // namespace

TEST(ReadFile, ReadsARegularFileWhole)
{
    ks::test::TempDir dir;
    std::string text(100000, 'x');
    text[99999] = '\n';
    EXPECT_EQ(readTextFile(dir.write("a.cu", text)), text);
    EXPECT_EQ(readTextFile(dir.write("empty.cu", "")), "");
}

TEST(ReadFile, AFileAtTheLimitIsReadAndOneByteMoreIsRefusedWithBothSizes)
{
    ks::test::TempDir dir;
    EXPECT_EQ(readFile(dir.write("at.txt", std::string(4096, 'a')), 4096).size(), 4096u);
    const std::string why = refusal(dir.write("over.txt", std::string(4097, 'a')), 4096);
    EXPECT_NE(why.find("over.txt"), std::string::npos) << why;
    EXPECT_NE(why.find("is 4.0 KiB"), std::string::npos) << why;
    EXPECT_NE(why.find("up to 4.0 KiB"), std::string::npos) << why;
}

TEST(ReadFile, ATenMegabyteKernelIsRefusedWithoutBeingRead)
{
    ks::test::TempDir dir;
    const fs::path big = dir.path() / "big.cu";
    ks::test::writeFile(big, "");
    fs::resize_file(big, 10u << 20); // sparse: nothing is written or read
    const std::string why = refusal(big);
    EXPECT_NE(why.find("is 10.0 MiB"), std::string::npos) << why;
    EXPECT_NE(why.find("up to 4.0 MiB"), std::string::npos) << why;
}

TEST(ReadFile, AFolderIsRefusedAsAFolder)
{
    ks::test::TempDir dir;
    const std::string why = refusal(dir.path());
    EXPECT_NE(why.find(dir.path().string()), std::string::npos) << why;
    EXPECT_NE(why.find("is a directory"), std::string::npos) << why;
}

TEST(ReadFile, DevZeroAndAFifoAreRefusedAtOnceNotRead)
{
    ks::test::TempDir dir;
    const fs::path fifo = dir.path() / "pipe.cu";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    fs::create_symlink("/dev/zero", dir.path() / "zero.cu");

    const auto start = std::chrono::steady_clock::now();
    const std::string fifoWhy = refusal(fifo); // no writer: an ordinary open would wait for ever
    const std::string zeroWhy = refusal("/dev/zero");
    const std::string linkWhy = refusal(dir.path() / "zero.cu");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));

    EXPECT_NE(fifoWhy.find("is not a regular file (a FIFO)"), std::string::npos) << fifoWhy;
    EXPECT_NE(zeroWhy.find("/dev/zero: is not a regular file (a character device)"), std::string::npos) << zeroWhy;
    EXPECT_NE(linkWhy.find("zero.cu: is not a regular file (a character device)"), std::string::npos) << linkWhy;
}

TEST(ReadFile, AMissingFileSaysSo)
{
    const std::string why = refusal("/nonexistent/kernel.cu");
    EXPECT_EQ(why, "/nonexistent/kernel.cu: No such file or directory");
}

TEST(ReadFile, AnUnreadableFileSaysPermissionDenied)
{
    if (::geteuid() == 0)
        GTEST_SKIP() << "running as root, which reads files whatever their mode (the gl label's "
                        "StorageTroubleAsNobody.AnUnreadableProjectSaysPermissionDenied runs the app as nobody)";
    ks::test::TempDir dir;
    const fs::path p = dir.write("secret.cu", "x");
    fs::permissions(p, fs::perms::none);
    EXPECT_EQ(refusal(p), p.string() + ": Permission denied");
}

TEST(ReadFile, AnIncludeOfDevZeroAFifoOrAFolderIsNotAFileToTheScanner)
{
    ks::test::TempDir dir;
    fs::create_directories(dir.path() / "folder.cuh");
    ASSERT_EQ(::mkfifo((dir.path() / "pipe.cuh").c_str(), 0600), 0);
    const std::string source =
        "#include \"/dev/zero\"\n#include \"folder.cuh\"\n#include \"pipe.cuh\"\n__global__ void k() {}\n";
    const auto scan = ks::rtc::scanIncludes(source, dir.path() / "main.cu", {}, {});
    ASSERT_EQ(scan.files.size(), 3u);
    for (const auto& f : scan.files)
        EXPECT_TRUE(f.path.empty()) << f.spelled << " resolved to " << f.path; // not found: nothing read
    EXPECT_TRUE(scan.unreadable.empty());
}

// Kernelscope's cache, state and settings folders follow the XDG rules; with neither variable nor $HOME
// there is none (the recent-projects list is then not kept, rather than landing in the temp folder).
TEST(UserFolder, XdgThenHomeThenNone)
{
    ks::test::ScopedEnv cache("XDG_CACHE_HOME", "/x/cache"), state("XDG_STATE_HOME", "/x/state"),
        config("XDG_CONFIG_HOME", "/x/config");
    EXPECT_EQ(ks::paths::userFolder(ks::paths::UserFolder::Cache), fs::path("/x/cache/kernelscope"));
    EXPECT_EQ(ks::paths::userFolder(ks::paths::UserFolder::State), fs::path("/x/state/kernelscope"));
    EXPECT_EQ(ks::paths::userFolder(ks::paths::UserFolder::Config), fs::path("/x/config/kernelscope"));
    ks::test::ScopedEnv noCache("XDG_CACHE_HOME", ""), noState("XDG_STATE_HOME", ""), noConfig("XDG_CONFIG_HOME", ""),
        home("HOME", "/h");
    EXPECT_EQ(ks::paths::userFolder(ks::paths::UserFolder::Cache), fs::path("/h/.cache/kernelscope"));
    EXPECT_EQ(ks::paths::userFolder(ks::paths::UserFolder::State), fs::path("/h/.local/state/kernelscope"));
    EXPECT_EQ(ks::paths::userFolder(ks::paths::UserFolder::Config), fs::path("/h/.config/kernelscope"));
    ks::test::ScopedEnv noHome("HOME", "");
    EXPECT_TRUE(ks::paths::userFolder(ks::paths::UserFolder::Cache).empty());
    EXPECT_TRUE(ks::paths::userFolder(ks::paths::UserFolder::State).empty());
    EXPECT_TRUE(ks::paths::userFolder(ks::paths::UserFolder::Config).empty());
}
