// The inotify watcher sees the ways programs save files (plain write, atomic rename, vim's
// delete-and-recreate) and nothing else in the folder. Generous timeouts, no timing assertions.
#include "ks/core/atomic_file.hpp"
#include "ks/core/error.hpp"
#include "ks/core/file_watcher.hpp"
#include "ks/core/paths.hpp"

#include "test_support.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

using ks::test::TempDir;
using ks::test::writeFile;

namespace {

// Polls until something is reported or `timeout` passes; returns everything reported.
std::vector<fs::path> pollFor(ks::FileWatcher& w, std::chrono::milliseconds timeout = std::chrono::seconds(5))
{
    const auto end = std::chrono::steady_clock::now() + timeout;
    std::vector<fs::path> all;
    while (std::chrono::steady_clock::now() < end) {
        auto got = w.poll();
        all.insert(all.end(), got.begin(), got.end());
        if (!all.empty()) {
            // Let late events of the same save arrive, then collect them too.
            std::this_thread::sleep_for(std::chrono::milliseconds(30));
            got = w.poll();
            all.insert(all.end(), got.begin(), got.end());
            return all;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return all;
}

} // namespace

TEST(FileWatcher, SeesAPlainWrite)
{
    TempDir dir;
    const fs::path file = dir.path() / "kernel.cu";
    writeFile(file, "one");
    ks::FileWatcher w;
    w.watch(file);
    EXPECT_TRUE(w.watching(file));
    EXPECT_TRUE(w.poll().empty());
    writeFile(file, "two");
    const auto changed = pollFor(w);
    ASSERT_EQ(changed.size(), 1u);
    EXPECT_EQ(changed[0], ks::FileWatcher::normalize(file));
    EXPECT_TRUE(w.poll().empty()) << "one change is reported once";
}

TEST(FileWatcher, SeesAnAtomicRenameAndKeepsWatchingAfterIt)
{
    TempDir dir;
    const fs::path file = dir.path() / "kernel.cu";
    writeFile(file, "one");
    ks::FileWatcher w;
    w.watch(file);
    // What VS Code and most editors do: write elsewhere, rename over.
    writeFile(dir.path() / ".kernel.cu.tmp", "two");
    fs::rename(dir.path() / ".kernel.cu.tmp", file);
    auto changed = pollFor(w);
    ASSERT_EQ(changed.size(), 1u) << "the temp file is not watched, the rename target is";
    EXPECT_EQ(changed[0], ks::FileWatcher::normalize(file));
    // The inode was replaced; a second save must still be seen.
    ks::paths::writeFileAtomically(file, "three");
    changed = pollFor(w);
    ASSERT_EQ(changed.size(), 1u);
    EXPECT_EQ(ks::paths::readTextFile(file), "three");
}

TEST(FileWatcher, SeesDeleteAndRecreateCoalesced)
{
    TempDir dir;
    const fs::path file = dir.path() / "kernel.cu";
    writeFile(file, "one");
    ks::FileWatcher w;
    w.watch(file);
    // vim with backupcopy=no: rename the original to a backup, write a new file, delete the backup.
    fs::rename(file, dir.path() / "kernel.cu~");
    writeFile(file, "two");
    fs::remove(dir.path() / "kernel.cu~");
    const auto changed = pollFor(w);
    ASSERT_EQ(changed.size(), 1u) << "several events of one save are reported once";
    EXPECT_EQ(changed[0], ks::FileWatcher::normalize(file));

    fs::remove(file);
    auto gone = pollFor(w);
    ASSERT_EQ(gone.size(), 1u) << "a deletion is reported";
    writeFile(file, "three");
    auto back = pollFor(w);
    ASSERT_EQ(back.size(), 1u) << "the file coming back is reported";
}

TEST(FileWatcher, IgnoresUnrelatedFilesAndUnwatchedOnes)
{
    TempDir dir;
    const fs::path file = dir.path() / "kernel.cu";
    const fs::path other = dir.path() / "other.cu";
    writeFile(file, "one");
    writeFile(other, "one");
    ks::FileWatcher w;
    w.watch(file);
    writeFile(other, "two");
    writeFile(dir.path() / "4913", ""); // vim's probe file
    fs::remove(dir.path() / "4913");
    EXPECT_TRUE(pollFor(w, std::chrono::milliseconds(300)).empty());

    // Two files in one folder share its watch; unwatching one keeps the other.
    w.watch(other);
    w.unwatch(file);
    EXPECT_FALSE(w.watching(file));
    writeFile(file, "three");
    writeFile(other, "three");
    const auto changed = pollFor(w);
    ASSERT_EQ(changed.size(), 1u);
    EXPECT_EQ(changed[0], ks::FileWatcher::normalize(other));
}

TEST(FileWatcher, RefusesAFolderThatDoesNotExist)
{
    ks::FileWatcher w;
    EXPECT_THROW(w.watch("/nonexistent-ks-folder/kernel.cu"), ks::Error);
}

// A save onto a symbolic link replaces the link in its folder; it never writes through the link to
// a file outside (a project folder holding `k.cu -> /etc/...` cannot make a save write there).
TEST(AtomicFile, ASaveOntoASymbolicLinkDoesNotWriteThroughIt)
{
    TempDir inside, outside;
    const fs::path target = outside.path() / "elsewhere.cu";
    writeFile(target, "outside, untouched");
    const fs::path link = inside.path() / "k.cu";
    fs::create_symlink(target, link);
    ks::paths::writeFileAtomically(link, "saved");
    EXPECT_EQ(ks::paths::readTextFile(target), "outside, untouched");
    EXPECT_FALSE(fs::is_symlink(link));
    EXPECT_EQ(ks::paths::readTextFile(link), "saved");
}

TEST(AtomicFile, ReplacesContentAndKeepsPermissions)
{
    TempDir dir;
    const fs::path file = dir.path() / "k.cu";
    writeFile(file, "old");
    fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    ks::paths::writeFileAtomically(file, "new content");
    EXPECT_EQ(ks::paths::readTextFile(file), "new content");
    EXPECT_EQ(fs::status(file).permissions() & fs::perms::all,
              fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    // No temporary file is left behind.
    int entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path()))
        ++entries;
    EXPECT_EQ(entries, 1);
    EXPECT_THROW(ks::paths::writeFileAtomically(dir.path() / "missing" / "k.cu", "x"), ks::Error);
}
