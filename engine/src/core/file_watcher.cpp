#include "ks/core/file_watcher.hpp"

#include "ks/core/error.hpp"
#include "ks/core/log.hpp"

#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace ks {

namespace fs = std::filesystem;

void FileDescriptorTraits::destroy(int fd) noexcept
{
    if (::close(fd) != 0)
        log::warning(std::string("close(") + std::to_string(fd) + ") failed: " + std::strerror(errno));
}

namespace {

// What counts as "the file changed": its content was written and closed, a file was renamed onto
// its name (atomic save), it appeared, or it went away (deleted, renamed to a backup). IN_MODIFY is
// left out on purpose: it fires mid-write, and a reader would see half a file.
constexpr std::uint32_t kDirectoryMask =
    IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF;

} // namespace

fs::path FileWatcher::normalize(const fs::path& file)
{
    std::error_code ec;
    fs::path absolute = fs::absolute(file, ec);
    return (ec ? file : absolute).lexically_normal();
}

FileWatcher::FileWatcher() : m_fd(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC))
{
    if (m_fd.empty())
        throw Error(ErrorDomain::System, "inotify_init1", errno, "", std::strerror(errno));
}

void FileWatcher::watch(const fs::path& file)
{
    const fs::path path = normalize(file);
    const fs::path directory = path.parent_path();
    // inotify returns the existing descriptor for a directory already watched, so this also
    // finds the entry to add the name to.
    const int wd = ::inotify_add_watch(m_fd.get(), directory.c_str(), kDirectoryMask);
    if (wd < 0)
        throw Error(ErrorDomain::System, "inotify_add_watch", errno, "",
                    directory.string() + " (watching " + path.filename().string() + "): " + std::strerror(errno));
    Directory& d = m_directories[wd];
    d.path = directory;
    d.names.insert(path.filename().string());
}

void FileWatcher::unwatch(const fs::path& file)
{
    const fs::path path = normalize(file);
    for (auto it = m_directories.begin(); it != m_directories.end(); ++it) {
        if (it->second.path != path.parent_path())
            continue;
        it->second.names.erase(path.filename().string());
        if (it->second.names.empty()) {
            ::inotify_rm_watch(m_fd.get(), it->first);
            m_directories.erase(it);
        }
        return;
    }
}

bool FileWatcher::watching(const fs::path& file) const
{
    const fs::path path = normalize(file);
    return std::any_of(m_directories.begin(), m_directories.end(), [&](const auto& entry) {
        return entry.second.path == path.parent_path() && entry.second.names.count(path.filename().string());
    });
}

std::vector<fs::path> FileWatcher::poll()
{
    std::set<fs::path> changed;
    alignas(inotify_event) char buffer[16 * 1024];
    for (;;) {
        const ssize_t n = ::read(m_fd.get(), buffer, sizeof buffer);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno != EAGAIN)
                log::warning(std::string("reading inotify events failed: ") + std::strerror(errno));
            break;
        }
        if (n == 0)
            break;
        for (ssize_t at = 0; at < n;) {
            const auto* e = reinterpret_cast<const inotify_event*>(buffer + at);
            at += ssize_t(sizeof(inotify_event) + e->len);
            if (e->mask & IN_Q_OVERFLOW) {
                // Events were lost: say every watched file may have changed.
                for (const auto& [wd, d] : m_directories)
                    for (const auto& name : d.names)
                        changed.insert(d.path / name);
                continue;
            }
            auto dir = m_directories.find(e->wd);
            if (dir == m_directories.end())
                continue;
            if (e->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)) {
                // The directory itself went away: its files did too. The watch is dead (IN_IGNORED
                // follows); watch() again once the directory is back.
                for (const auto& name : dir->second.names)
                    changed.insert(dir->second.path / name);
                if (e->mask & IN_IGNORED)
                    m_directories.erase(dir);
                continue;
            }
            if (e->len == 0)
                continue;
            const std::string name(e->name);
            if (dir->second.names.count(name))
                changed.insert(dir->second.path / name);
        }
    }
    return {changed.begin(), changed.end()};
}

} // namespace ks
