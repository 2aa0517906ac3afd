#pragma once
// Unsaved edits kept on disk so that they survive a crash: the app writes a document's text here
// before each build while it has unsaved edits, removes it when the document is saved (or its edits
// are dropped), and offers what it finds at the next start.
//
// One file per original path, in defaultDirectory(): a small header naming the original path, the
// time and the byte count, then the text. Files that do not parse (truncated, foreign) are skipped.
// Thread: one thread uses an instance.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::project {

struct RecoveryEntry {
    std::filesystem::path original; // the edited file
    std::string text;               // the unsaved text
    long long savedAtUnix = 0;      // when it was written, seconds since the epoch
    std::filesystem::path file;     // the recovery file itself
};

class RecoveryStore {
public:
    // `directory` is created on the first write.
    explicit RecoveryStore(std::filesystem::path directory = defaultDirectory());

    // $XDG_STATE_HOME/kernelscope/recovery, else ~/.local/state/kernelscope/recovery.
    static std::filesystem::path defaultDirectory();

    // Keeps `text` as the unsaved edits of `original` (atomically replacing an older copy).
    // Returns false, having logged why, when it cannot be written: a failed recovery write must
    // not stop a build.
    bool write(const std::filesystem::path& original, std::string_view text);
    // Forgets the edits of `original`. Harmless when there are none.
    void remove(const std::filesystem::path& original);

    std::optional<RecoveryEntry> find(const std::filesystem::path& original) const;
    // Every readable entry, oldest first.
    std::vector<RecoveryEntry> list() const;

    const std::filesystem::path& directory() const noexcept { return m_directory; }
    // The recovery file of `original` (whether or not it exists).
    std::filesystem::path fileFor(const std::filesystem::path& original) const;

    // Parses a recovery file's content; nullopt when it is not one (or is truncated).
    static std::optional<RecoveryEntry> parse(std::string_view content);
    static std::string format(const std::filesystem::path& original, std::string_view text, long long savedAtUnix);

private:
    std::filesystem::path m_directory;
};

} // namespace ks::project
