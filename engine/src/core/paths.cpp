#include "ks/core/paths.hpp"

#include "ks/core/error.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <cstdio>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ks::paths {

namespace fs = std::filesystem;

fs::path executableDir()
{
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::current_path() : exe.parent_path();
}

fs::path userFolder(UserFolder kind)
{
    struct Where {
        const char* variable;
        fs::path underHome;
    };
    const Where where = kind == UserFolder::Cache   ? Where{"XDG_CACHE_HOME", ".cache"}
                        : kind == UserFolder::State ? Where{"XDG_STATE_HOME", fs::path(".local") / "state"}
                                                    : Where{"XDG_CONFIG_HOME", ".config"};
    if (const char* xdg = std::getenv(where.variable); xdg && *xdg)
        return fs::path(xdg) / "kernelscope";
    if (const char* home = std::getenv("HOME"); home && *home)
        return fs::path(home) / where.underHome / "kernelscope";
    return {};
}

fs::path findProgram(std::string_view name, const std::vector<fs::path>& alsoIn)
{
    std::vector<fs::path> dirs;
    const char* path = std::getenv("PATH");
    std::string_view list = path ? path : "/usr/bin:/bin";
    while (true) {
        const std::size_t colon = list.find(':');
        const std::string_view dir = list.substr(0, colon);
        dirs.emplace_back(dir.empty() ? std::string_view(".") : dir);
        if (colon == std::string_view::npos)
            break;
        list.remove_prefix(colon + 1);
    }
    dirs.insert(dirs.end(), alsoIn.begin(), alsoIn.end());
    for (const fs::path& dir : dirs) {
        const fs::path candidate = dir / name;
        if (::access(candidate.c_str(), X_OK) == 0)
            return candidate;
    }
    return {};
}

static bool isDataRoot(const fs::path& p)
{
    std::error_code ec;
    return fs::is_directory(p / "shaders", ec) && fs::is_directory(p / "kernels", ec);
}

fs::path dataRoot(const fs::path& override)
{
    if (!override.empty()) {
        if (!isDataRoot(override))
            throwUsage("dataRoot", "--data-dir " + override.string() + " holds no shaders/ and kernels/ folders");
        return fs::absolute(override);
    }
    if (const char* env = std::getenv("KS_DATA_DIR"); env && *env) {
        if (!isDataRoot(env))
            throwUsage("dataRoot", std::string("KS_DATA_DIR=") + env + " holds no shaders/ and kernels/ folders");
        return fs::absolute(env);
    }
    std::string looked;
    fs::path dir = executableDir();
    for (int up = 0; up <= 4 && !dir.empty(); ++up) {
        if (isDataRoot(dir))
            return dir;
        if (isDataRoot(dir / "share" / "kernelscope"))
            return dir / "share" / "kernelscope";
        looked += (looked.empty() ? "" : ", ") + dir.string();
        if (dir == dir.parent_path())
            break;
        dir = dir.parent_path();
    }
    throwUsage("dataRoot", "cannot find Kernelscope's shaders/ and kernels/ folders (looked in " + looked +
                               "); pass --data-dir or set KS_DATA_DIR");
}

static const char* fileKind(mode_t mode)
{
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a file";
}

static std::string sizeText(std::size_t bytes)
{
    char text[48];
    if (bytes >= (std::size_t(1) << 20))
        std::snprintf(text, sizeof text, "%.1f MiB", double(bytes) / double(1 << 20));
    else if (bytes >= 1024)
        std::snprintf(text, sizeof text, "%.1f KiB", double(bytes) / 1024.0);
    else
        std::snprintf(text, sizeof text, "%zu bytes", bytes);
    return text;
}

std::string readFile(const fs::path& path, std::size_t maxBytes)
{
    auto fail = [&](int err, const std::string& why) -> Error {
        return Error(ErrorDomain::System, "read", err, "", path.string() + ": " + why);
    };
    // O_NONBLOCK: opening a FIFO with no writer must not wait; fstat then refuses it.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        const int err = errno;
        throw fail(err, std::strerror(err));
    }
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int err = errno;
        throw fail(err, std::strerror(err));
    }
    if (S_ISDIR(st.st_mode))
        throw fail(EISDIR, "is a directory, not a file");
    if (!S_ISREG(st.st_mode))
        throw fail(EINVAL, std::string("is not a regular file (") + fileKind(st.st_mode) + "); only files are read");
    if (std::uint64_t(st.st_size) > maxBytes)
        throw fail(EFBIG, "is " + sizeText(std::size_t(st.st_size)) + "; Kernelscope reads files of up to " +
                              sizeText(maxBytes) + " here");
    std::string text;
    text.resize(std::size_t(st.st_size));
    std::size_t have = 0;
    for (;;) {
        if (have == text.size()) {
            if (text.size() > maxBytes) // grew while being read
                throw fail(EFBIG, "grew past " + sizeText(maxBytes) + " while being read");
            text.resize(text.size() + 4096);
        }
        const ssize_t n = ::read(fd, text.data() + have, text.size() - have);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            const int err = errno;
            throw fail(err, std::strerror(err));
        }
        if (n == 0)
            break;
        have += std::size_t(n);
    }
    text.resize(have);
    return text;
}

std::string readTextFile(const fs::path& path)
{
    return readFile(path, kMaxTextFileBytes);
}

} // namespace ks::paths
