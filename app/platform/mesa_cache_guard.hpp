#pragma once
// Mesa's on-disk shader cache maps its index file into memory; on a file system with no room left,
// the first store through that mapping stops the process with SIGBUS (seen with Mesa 22.3 and a full
// XDG_CACHE_HOME: "Bus error" before the first frame, where every write of Kernelscope's own says
// "No space left on device" and the run goes on). Called before any GL context is made: when the
// folder Mesa would cache in has less than kMesaCacheRoomBytes free, Mesa's cache is turned off for
// this process (MESA_SHADER_CACHE_DISABLE=true; other drivers ignore it) and the reason logged. A
// MESA_SHADER_CACHE_DISABLE the user set is left alone.
//
// A disk that fills up during the run: Mesa 22.3 (Debian 12) makes its index file with ftruncate,
// so the file is all holes, and maps it; the first store of a new shader's key into a hole needs a
// block of the file system, and with none left the process gets SIGBUS (on tmpfs, reading a hole
// does too). Seen: a view shader reloaded after the disk filled killed the app with exit 135.
// allocateMesaShaderCacheIndex, called once a GL context exists (Mesa has made and mapped the
// file), gives the index its blocks (posix_fallocate: the data stays the same, the holes read as
// the zeros they were); Mesa's other writes are plain writes that fail with ENOSPC, which it
// handles. Where the blocks cannot be had, a warning says the run may stop if the disk fills up.
#include <cstdint>

namespace ks::app {

inline constexpr std::uint64_t kMesaCacheRoomBytes = std::uint64_t(64) << 20;

void guardMesaShaderCache();

// After the first GL context of the process; does nothing where Mesa's multi-file cache index is
// not there (another driver, the cache off, a single-file cache) or has its blocks already.
void allocateMesaShaderCacheIndex();

} // namespace ks::app
