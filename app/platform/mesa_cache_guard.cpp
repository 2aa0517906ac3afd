#include "mesa_cache_guard.hpp"

#include "ks/core/log.hpp"

#include <sys/statvfs.h>

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

} // namespace

void guardMesaShaderCache()
{
    if (std::getenv("MESA_SHADER_CACHE_DISABLE"))
        return;
    const std::optional<fs::path> folder = mesaShaderCacheFolder();
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

} // namespace ks::app
