#include "platform/mesa_cache_guard.hpp"

#include "ks/core/log.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cstring>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

namespace ks::app {

namespace fs = std::filesystem;

namespace {

// The folder Mesa's shader cache goes in for this environment: $MESA_SHADER_CACHE_DIR, else
// $XDG_CACHE_HOME/mesa_shader_cache, else $HOME/.cache/mesa_shader_cache; nullopt when none is set.
std::optional<fs::path> mesaShaderCacheFolder()
{
    auto set = [](const char* name) -> const char* {
        const char* v = std::getenv(name);
        return v && *v ? v : nullptr;
    };
    if (const char* dir = set("MESA_SHADER_CACHE_DIR"))
        return fs::path(dir);
    if (const char* xdg = set("XDG_CACHE_HOME"))
        return fs::path(xdg) / "mesa_shader_cache";
    if (const char* home = set("HOME"))
        return fs::path(home) / ".cache" / "mesa_shader_cache";
    return std::nullopt;
}

// The free bytes of the file system `folder` (or its nearest existing parent) is on; nullopt when
// that cannot be told.
std::optional<std::uint64_t> freeBytesAt(const fs::path& folder)
{
    fs::path at = folder;
    std::error_code ec;
    while (!at.empty() && !fs::exists(at, ec))
        at = at.has_relative_path() ? at.parent_path() : fs::path();
    struct statvfs st {};
    if (at.empty() || ::statvfs(at.c_str(), &st) != 0)
        return std::nullopt;
    return std::uint64_t(st.f_bavail) * std::uint64_t(st.f_frsize);
}

// The folder of Mesa's cache when it is on (nullopt: turned off, or no folder to cache in).
std::optional<fs::path> activeMesaShaderCacheFolder()
{
    if (std::getenv("MESA_SHADER_CACHE_DISABLE"))
        return std::nullopt;
    return mesaShaderCacheFolder();
}

} // namespace

void guardMesaShaderCache()
{
    const std::optional<fs::path> folder = activeMesaShaderCacheFolder();
    if (!folder)
        return;
    const std::optional<std::uint64_t> room = freeBytesAt(*folder);
    if (!room || *room >= kMesaCacheRoomBytes)
        return;
    ::setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
    log::warning("the file system of " + folder->string() + " has " + std::to_string(*room >> 10) +
                 " KiB free: Mesa's shader cache is off for this run (Mesa stops the process with SIGBUS when its "
                 "cache runs out of room)");
}

void allocateMesaShaderCacheIndex()
{
    const std::optional<fs::path> folder = activeMesaShaderCacheFolder();
    if (!folder)
        return;
    // $MESA_SHADER_CACHE_DIR holds Mesa's own mesa_shader_cache folder; the others are that folder.
    for (const fs::path& index : {*folder / "index", *folder / "mesa_shader_cache" / "index"}) {
        const int fd = ::open(index.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0)
            continue;
        struct stat st {};
        int err = 0;
        if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && std::uint64_t(st.st_blocks) * 512 < std::uint64_t(st.st_size))
            err = ::posix_fallocate(fd, 0, st.st_size);
        ::close(fd);
        if (err)
            log::warning("cannot give Mesa's shader cache index " + index.string() + " its room (" + std::strerror(err) +
                         "): if that disk fills up during this run, Mesa may stop the process with SIGBUS");
        return;
    }
}

} // namespace ks::app
