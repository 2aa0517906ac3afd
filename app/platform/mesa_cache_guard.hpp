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

namespace ks::app {

inline constexpr std::uint64_t kMesaCacheRoomBytes = std::uint64_t(64) << 20;

void guardMesaShaderCache();

} // namespace ks::app
