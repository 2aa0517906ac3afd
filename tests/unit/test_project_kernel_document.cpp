// The kernel document: reload when clean, conflict when dirty, nothing overwritten silently,
// atomic saves; the recovery store; the build debouncer.
#include "ks/core/error.hpp"
#include "ks/core/file_watcher.hpp"
#include "ks/core/paths.hpp"
#include "ks/project/debouncer.hpp"
#include "ks/project/kernel_document.hpp"
#include "ks/project/recovery_store.hpp"

#include "test_support.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;
using ks::project::DiskChange;
using ks::project::KernelDocument;
using ks::project::RecoveryStore;

using ks::test::TempDir;
using ks::test::writeFile;

namespace {

// A document of `file` (holding "A") with the edit "mine", after another program wrote "theirs".
KernelDocument openInConflict(const fs::path& file)
{
    writeFile(file, "A");
    KernelDocument doc(file);
    doc.edit("mine");
    writeFile(file, "theirs");
    EXPECT_EQ(doc.syncWithDisk(), DiskChange::Conflict);
    return doc;
}

} // namespace


TEST(KernelDocument, OpensCleanAndTracksEdits)
{
    TempDir dir;
    writeFile(dir.path() / "k.cu", "A");
    KernelDocument doc(dir.path() / "k.cu");
    EXPECT_EQ(doc.text(), "A");
    EXPECT_FALSE(doc.dirty());
    EXPECT_EQ(doc.path(), ks::FileWatcher::normalize(dir.path() / "k.cu"));
    const auto r0 = doc.revision();
    doc.edit("AB");
    EXPECT_TRUE(doc.dirty());
    EXPECT_GT(doc.revision(), r0);
    const auto r1 = doc.revision();
    doc.edit("AB");
    EXPECT_EQ(doc.revision(), r1) << "the same text is no change";
    doc.edit("A");
    EXPECT_FALSE(doc.dirty()) << "typing back to the disk text is clean again";
    EXPECT_THROW(KernelDocument(dir.path() / "missing.cu"), ks::Error);
}

TEST(KernelDocument, ReloadsSilentlyWhenClean)
{
    TempDir dir;
    writeFile(dir.path() / "k.cu", "A");
    KernelDocument doc(dir.path() / "k.cu");
    EXPECT_EQ(doc.syncWithDisk(), DiskChange::None);
    writeFile(dir.path() / "k.cu", "B");
    const auto r = doc.revision();
    EXPECT_EQ(doc.syncWithDisk(), DiskChange::Reloaded);
    EXPECT_EQ(doc.text(), "B");
    EXPECT_FALSE(doc.dirty());
    EXPECT_GT(doc.revision(), r);
    EXPECT_EQ(doc.syncWithDisk(), DiskChange::None) << "one change is reported once";
}

TEST(KernelDocument, ConflictWhenDirtyAndEachResolution)
{
    TempDir dir;
    const fs::path file = dir.path() / "k.cu";
    { // reload from disk: the edits go, the disk version comes in
        KernelDocument doc = openInConflict(file);
        EXPECT_TRUE(doc.conflict());
        EXPECT_EQ(doc.text(), "mine") << "a conflict changes nothing by itself";
        EXPECT_EQ(doc.conflictText(), "theirs");
        EXPECT_FALSE(doc.save()) << "saving during a conflict would overwrite theirs silently";
        EXPECT_EQ(ks::paths::readTextFile(file), "theirs");
        doc.reloadFromDisk();
        EXPECT_FALSE(doc.conflict());
        EXPECT_EQ(doc.text(), "theirs");
        EXPECT_FALSE(doc.dirty());
    }
    { // keep mine: still unsaved, and a later save overwrites deliberately
        KernelDocument doc = openInConflict(file);
        doc.keepMine();
        EXPECT_FALSE(doc.conflict());
        EXPECT_EQ(doc.text(), "mine");
        EXPECT_TRUE(doc.dirty());
        EXPECT_EQ(doc.diskText(), "theirs");
        EXPECT_EQ(ks::paths::readTextFile(file), "theirs");
        EXPECT_TRUE(doc.save());
        EXPECT_EQ(ks::paths::readTextFile(file), "mine");
        EXPECT_FALSE(doc.dirty());
    }
    { // save mine over disk
        KernelDocument doc = openInConflict(file);
        doc.saveMineOverDisk();
        EXPECT_FALSE(doc.conflict());
        EXPECT_FALSE(doc.dirty());
        EXPECT_EQ(ks::paths::readTextFile(file), "mine");
    }
}

TEST(KernelDocument, SaveRefusesAChangeItHasNotSeen)
{
    TempDir dir;
    const fs::path file = dir.path() / "k.cu";
    writeFile(file, "A");
    KernelDocument doc(file);
    doc.edit("mine");
    writeFile(file, "theirs"); // the watcher's event is not handled yet
    EXPECT_FALSE(doc.save());
    EXPECT_TRUE(doc.conflict());
    EXPECT_EQ(ks::paths::readTextFile(file), "theirs");
}

TEST(KernelDocument, SavesAtomicallyAndItsOwnSaveIsNoChange)
{
    TempDir dir;
    const fs::path file = dir.path() / "k.cu";
    writeFile(file, "A");
    KernelDocument doc(file);
    doc.edit("B");
    ASSERT_TRUE(doc.save());
    EXPECT_EQ(ks::paths::readTextFile(file), "B");
    EXPECT_FALSE(doc.dirty());
    EXPECT_EQ(doc.syncWithDisk(), DiskChange::None) << "the watcher's event for our own save";
    // Only the file itself in the folder: no temporary left behind.
    int entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path()))
        ++entries;
    EXPECT_EQ(entries, 1);
}

TEST(KernelDocument, DeletedAndRecreated)
{
    TempDir dir;
    const fs::path file = dir.path() / "k.cu";
    writeFile(file, "A");
    KernelDocument doc(file);
    fs::remove(file);
    EXPECT_EQ(doc.syncWithDisk(), DiskChange::Deleted);
    EXPECT_EQ(doc.text(), "A") << "the text stays";
    EXPECT_TRUE(doc.dirty()) << "it is no longer on disk";
    EXPECT_EQ(doc.syncWithDisk(), DiskChange::None) << "reported once";
    writeFile(file, "A2");
    EXPECT_EQ(doc.syncWithDisk(), DiskChange::Reloaded) << "no edits were made: take the new file";
    EXPECT_EQ(doc.text(), "A2");
    EXPECT_FALSE(doc.dirty());

    fs::remove(file);
    EXPECT_EQ(doc.syncWithDisk(), DiskChange::Deleted);
    doc.edit("mine");
    writeFile(file, "theirs");
    EXPECT_EQ(doc.syncWithDisk(), DiskChange::Conflict);

    KernelDocument other(file);
    fs::remove(file);
    EXPECT_EQ(other.syncWithDisk(), DiskChange::Deleted);
    EXPECT_TRUE(other.save()) << "saving a deleted file writes it back";
    EXPECT_EQ(ks::paths::readTextFile(file), "theirs");
    EXPECT_FALSE(other.dirty());
}

TEST(RecoveryStore, DefaultDirectoryFollowsXdg)
{
    const char* old = std::getenv("XDG_STATE_HOME");
    const std::string saved = old ? old : "";
    setenv("XDG_STATE_HOME", "/tmp/ks-state", 1);
    EXPECT_EQ(RecoveryStore::defaultDirectory(), fs::path("/tmp/ks-state/kernelscope/recovery"));
    unsetenv("XDG_STATE_HOME");
    const char* home = std::getenv("HOME");
    if (home && *home) {
        EXPECT_EQ(RecoveryStore::defaultDirectory(), fs::path(home) / ".local/state/kernelscope/recovery");
    }
    if (old)
        setenv("XDG_STATE_HOME", saved.c_str(), 1);
}

TEST(RecoveryStore, WritesFindsListsAndRemoves)
{
    TempDir dir;
    RecoveryStore store(dir.path() / "recovery"); // created on the first write
    const fs::path a = dir.path() / "a.cu", b = dir.path() / "sub" / "a.cu";
    EXPECT_FALSE(store.find(a));
    EXPECT_TRUE(store.list().empty());
    ASSERT_TRUE(store.write(a, "edits of a\n"));
    ASSERT_TRUE(store.write(b, "edits of the other a"));
    EXPECT_NE(store.fileFor(a), store.fileFor(b)) << "same name, different folders";
    const auto found = store.find(a);
    ASSERT_TRUE(found);
    EXPECT_EQ(found->original, ks::FileWatcher::normalize(a));
    EXPECT_EQ(found->text, "edits of a\n");
    EXPECT_GT(found->savedAtUnix, 0);
    // The recovery file names the original, so a person can find it too.
    EXPECT_NE(ks::paths::readTextFile(found->file).find(a.string()), std::string::npos);
    ASSERT_TRUE(store.write(a, "newer"));
    EXPECT_EQ(store.find(a)->text, "newer");
    EXPECT_EQ(store.list().size(), 2u);
    store.remove(a);
    EXPECT_FALSE(store.find(a));
    EXPECT_EQ(store.list().size(), 1u);
    store.remove(a); // harmless twice
}

TEST(RecoveryStore, SkipsTruncatedAndForeignFiles)
{
    const std::string good = RecoveryStore::format("/x/k.cu", "text\nwith lines\n", 1700000000);
    const auto parsed = RecoveryStore::parse(good);
    ASSERT_TRUE(parsed);
    EXPECT_EQ(parsed->text, "text\nwith lines\n");
    EXPECT_EQ(parsed->original, fs::path("/x/k.cu"));
    EXPECT_EQ(parsed->savedAtUnix, 1700000000);
    EXPECT_FALSE(RecoveryStore::parse(good.substr(0, good.size() - 3))) << "truncated";
    EXPECT_FALSE(RecoveryStore::parse(good + "x")) << "padded";
    EXPECT_FALSE(RecoveryStore::parse("hello")) << "foreign";
    EXPECT_TRUE(RecoveryStore::parse(RecoveryStore::format("/x/k.cu", "", 1))) << "empty text is fine";

    TempDir dir;
    RecoveryStore store(dir.path());
    writeFile(store.fileFor("/x/k.cu"), good.substr(0, good.size() - 1));
    EXPECT_FALSE(store.find("/x/k.cu"));
    EXPECT_TRUE(store.list().empty());
}

TEST(RecoveryStore, AnUnwritableDirectoryIsAValueNotAnException)
{
    TempDir dir;
    writeFile(dir.path() / "file", "x");
    RecoveryStore store(dir.path() / "file" / "recovery"); // a file where the folder should be
    EXPECT_FALSE(store.write(dir.path() / "k.cu", "edits"));
}

TEST(Debouncer, FiresOncePerPauseAfterTheDelay)
{
    ks::project::Debouncer d(0.5); // times exact in binary: the test is about order, not rounding
    EXPECT_FALSE(d.fire(10.0)) << "nothing pending";
    d.touch(1.0);
    EXPECT_TRUE(d.pending());
    EXPECT_FALSE(d.fire(1.25));
    d.touch(1.25); // typing on restarts the wait
    EXPECT_FALSE(d.fire(1.5));
    EXPECT_DOUBLE_EQ(d.dueAt(), 1.75);
    EXPECT_FALSE(d.fire(1.7));
    EXPECT_TRUE(d.fire(1.75));
    EXPECT_FALSE(d.fire(1.8)) << "once per pause";
    EXPECT_FALSE(d.pending());
    d.touch(2.0);
    d.cancel();
    EXPECT_FALSE(d.fire(5.0)) << "cancelled (built by hand)";
    d.setDelay(0.0);
    d.touch(6.0);
    EXPECT_TRUE(d.fire(6.0));
}
