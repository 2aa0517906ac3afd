#pragma once
// Watches a set of files for changes made by any program, through inotify.
//
// Each file's DIRECTORY is watched, not the file's inode: editors save atomically (write a temp
// file, rename it over the original; vim renames the original to a backup first), which replaces
// the inode, so a watch on the file itself would go deaf after the first save. Events for other
// names in the same directory are ignored.
//
// poll() never blocks. Called once per frame it notices a write well within 100 ms (inotify queues
// the event at close()/rename(); the delay is one frame). Thread: one thread uses an instance.

#include "ks/core/unique_handle.hpp"

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ks {

struct FileDescriptorTraits {
    using Handle = int;
    static constexpr int empty() { return -1; }
    static void destroy(int fd) noexcept;
};
using UniqueFd = UniqueHandle<FileDescriptorTraits>;

class FileWatcher {
public:
    // Throws ks::Error (System) when inotify cannot be initialised.
    FileWatcher();

    // Starts watching `file` (it need not exist yet; its directory must). Paths are made absolute
    // and lexically normal; poll() reports them in that form. Throws ks::Error (System) when the
    // directory cannot be watched. Watching a file twice is harmless.
    void watch(const std::filesystem::path& file);
    void unwatch(const std::filesystem::path& file);
    bool watching(const std::filesystem::path& file) const;

    // The watched files written, created, replaced (renamed onto), renamed away or deleted since
    // the last call, each once however many events it had (coalesced), in no particular order.
    std::vector<std::filesystem::path> poll();

    // The inotify descriptor, for callers that want to select()/poll() on it.
    int fd() const noexcept { return m_fd.get(); }

    // The form watch() and poll() use for `file`.
    static std::filesystem::path normalize(const std::filesystem::path& file);

private:
    struct Directory {
        std::filesystem::path path;
        std::set<std::string> names; // watched file names in it
    };
    UniqueFd m_fd;
    std::map<int, Directory> m_directories; // by watch descriptor
};

} // namespace ks
