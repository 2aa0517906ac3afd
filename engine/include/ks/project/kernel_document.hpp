#pragma once
// A kernel source file open for editing: the text the user sees, and what is on disk.
//
// The document never overwrites the file or the user's edits silently. When the file changes on
// disk (another editor saved it) and there are no unsaved edits, it reloads; when there are
// unsaved edits it enters a conflict that the user resolves: reload from disk, keep theirs, or save
// theirs over the disk version. save() writes atomically (temporary file + rename) and refuses,
// entering the conflict instead, when the disk changed since the document last saw it.
//
// GUI-free; one thread uses an instance.

#include <cstdint>
#include <filesystem>
#include <string>

namespace ks::project {

// What syncWithDisk() found.
enum class DiskChange {
    None,     // the file holds what the document last loaded or saved (or an unreadable moment)
    Reloaded, // it changed and there were no unsaved edits: text() is the new content
    Conflict, // it changed while there were unsaved edits: text() is untouched; see conflict()
    Deleted,  // it is gone: text() is kept and the document is dirty (saving writes it back)
};

class KernelDocument {
public:
    // Reads `path` (made absolute). Throws ks::Error (System) when it cannot be read.
    explicit KernelDocument(const std::filesystem::path& path);

    const std::filesystem::path& path() const noexcept { return m_path; }
    const std::string& text() const noexcept { return m_text; }
    // Increases whenever text() changes (an edit, a reload, a restore): builds key on it.
    std::uint64_t revision() const noexcept { return m_revision; }
    // Unsaved: the text differs from the disk version, or the file is gone from disk.
    bool dirty() const noexcept { return m_missing || m_text != m_diskText; }

    // The user's edit.
    void edit(std::string text);

    // The disk content and modification time the document last loaded or saved (its base).
    const std::string& diskText() const noexcept { return m_diskText; }
    std::filesystem::file_time_type diskTime() const noexcept { return m_diskTime; }
    bool missingOnDisk() const noexcept { return m_missing; }

    // Looks at the file (call it when a watcher says it changed, or now and then) and acts as the
    // class comment says. Repeated calls for one change report it once.
    DiskChange syncWithDisk();

    // The file changed on disk while there were unsaved edits; `conflictText()` is the disk version.
    bool conflict() const noexcept { return m_conflict; }
    const std::string& conflictText() const noexcept { return m_conflictText; }
    // Resolutions. Each ends the conflict.
    void reloadFromDisk(); // the disk version replaces the edits
    void keepMine();       // the edits stay unsaved; the disk version becomes the base
    void saveMineOverDisk(); // writes the edits over the disk version (throws like save())

    // Writes text() atomically. Returns false without writing, and enters the conflict, when the
    // file changed on disk since the document last saw it. Throws ks::Error (System) when writing
    // fails (the document stays dirty).
    bool save();

private:
    struct DiskVersion {
        bool exists = false;
        bool readable = false;
        std::string text;
        std::filesystem::file_time_type time{};
    };
    DiskVersion readDisk() const;
    void setText(std::string text);
    void adoptDisk(const DiskVersion& disk);

    std::filesystem::path m_path;
    std::string m_text;
    std::string m_diskText;
    std::filesystem::file_time_type m_diskTime{};
    bool m_missing = false;
    bool m_conflict = false;
    std::string m_conflictText;
    std::uint64_t m_revision = 1;
};

} // namespace ks::project
