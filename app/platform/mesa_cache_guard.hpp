#pragma once
// Mesa's on-disk shader cache maps its index file into memory; on a file system with no room left,
// the first store through that mapping stops the process with SIGBUS (seen with Mesa 22.3 and a full
// XDG_CACHE_HOME: "Bus error" before the first frame, where every write of Kernelscope's own says
// "No space left on device" and the run goes on). Called before any GL context is made: when the
// folder Mesa would cache in has less than kMesaCacheRoomBytes free, Mesa's cache is turned off for
// this process (MESA_SHADER_CACHE_DISABLE=true; other drivers ignore it) and the reason logged. A
// MESA_SHADER_CACHE_DISABLE the user set is left alone. A disk that fills up during the run is not
// covered.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace ks::app {

inline constexpr std::uint64_t kMesaCacheRoomBytes = std::uint64_t(64) << 20;

// The folder Mesa's shader cache goes in for this environment: $MESA_SHADER_CACHE_DIR, else
// $XDG_CACHE_HOME/mesa_shader_cache, else $HOME/.cache/mesa_shader_cache; nullopt when none is set.
std::optional<std::filesystem::path> mesaShaderCacheFolder();
// The free bytes of the file system `folder` (or its nearest existing parent) is on; nullopt when
// that cannot be told.
std::optional<std::uint64_t> freeBytesAt(const std::filesystem::path& folder);
// Does the above; returns the warning it logged (empty: the cache was left as it was).
std::string guardMesaShaderCache();

} // namespace ks::app
