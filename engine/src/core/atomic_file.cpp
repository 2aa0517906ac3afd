#include "ks/core/atomic_file.hpp"

#include "ks/core/error.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

namespace ks::paths {

namespace {

[[noreturn]] void fail(const char* call, const std::filesystem::path& path)
{
    const int code = errno;
    throw Error(ErrorDomain::System, call, code, "", path.string() + ": " + std::strerror(code));
}

} // namespace

void writeFileAtomically(const std::filesystem::path& path, std::string_view content)
{
    writeFileAtomically(path, {content});
}

void writeFileAtomically(const std::filesystem::path& path, std::initializer_list<std::string_view> pieces)
{
    const std::filesystem::path directory = path.has_parent_path() ? path.parent_path() : ".";
    // Only a file (or a symbolic link, which the rename replaces) is replaced: never a device,
    // FIFO, socket or folder (a screenshot to /dev/stdout must not replace /dev/stdout).
    struct stat target {};
    if (::lstat(path.c_str(), &target) == 0 && !S_ISREG(target.st_mode) && !S_ISLNK(target.st_mode))
        throw Error(ErrorDomain::System, "writeFileAtomically", EEXIST, "",
                    path.string() + ": is " + (S_ISDIR(target.st_mode) ? "a folder" : "not a regular file") +
                        "; only files are written");
    // A dot-name next to the target: same filesystem, so rename() is atomic; hidden from listings.
    std::string pattern = (directory / ("." + path.filename().string() + ".ks-XXXXXX")).string();
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    const int fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd < 0)
        fail("mkostemp", path);
    const std::string temp(name.data());
    auto abandon = [&](const char* call) {
        const int code = errno;
        ::close(fd);
        ::unlink(temp.c_str());
        errno = code;
        fail(call, path);
    };
    struct stat existing {};
    const mode_t mode = ::stat(path.c_str(), &existing) == 0 ? (existing.st_mode & 07777) : 0644;
    if (::fchmod(fd, mode) != 0)
        abandon("fchmod");
    for (const std::string_view content : pieces) {
        for (std::size_t written = 0; written < content.size();) {
            const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                abandon("write");
            written += std::size_t(n);
        }
    }
    if (::fsync(fd) != 0)
        abandon("fsync");
    if (::close(fd) != 0) {
        const int code = errno;
        ::unlink(temp.c_str());
        errno = code;
        fail("close", path);
    }
    if (::rename(temp.c_str(), path.c_str()) != 0) {
        const int code = errno;
        ::unlink(temp.c_str());
        errno = code;
        fail("rename", path);
    }
}

} // namespace ks::paths
