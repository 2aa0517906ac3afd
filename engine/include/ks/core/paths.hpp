#pragma once
// Where Kernelscope's data folders (shaders/, kernels/, assets/) are. Binaries find them relative
// to themselves, so a build tree, an installed tree and a copied tree on another machine all work.

#include <cstddef>
#include <filesystem>
#include <vector>
#include <string_view>
#include <string>

namespace ks::paths {

// The directory holding the running executable (/proc/self/exe).
std::filesystem::path executableDir();

// The data root: `override` if not empty, else $KS_DATA_DIR, else the first of the executable's
// directory and its ancestors (up to four levels) that holds both shaders/ and kernels/.
// Throws ks::Error (Usage) listing where it looked when none is found.
std::filesystem::path dataRoot(const std::filesystem::path& override = {});

// Kernelscope's own folder of a kind the XDG base directory rules name: the cache
// ($XDG_CACHE_HOME/kernelscope, else ~/.cache/kernelscope), the state, history included
// ($XDG_STATE_HOME/kernelscope, else ~/.local/state/kernelscope), and the settings
// ($XDG_CONFIG_HOME/kernelscope, else ~/.config/kernelscope). Empty when neither variable nor
// $HOME is set; callers choose their own fallback.
enum class UserFolder { Cache, State, Config };
std::filesystem::path userFolder(UserFolder kind);

// The executable `name` in a folder of $PATH, else in one of `alsoIn`; empty when none is found.
std::filesystem::path findProgram(std::string_view name, const std::vector<std::filesystem::path>& alsoIn = {});

// The most a text file read by Kernelscope may hold (projects, kernel sources, include files,
// recovery files): 4 MiB, far past any hand-written file and short of what would stall NVRTC.
inline constexpr std::size_t kMaxTextFileBytes = std::size_t(4) << 20;

// Reads a whole regular file of at most `maxBytes`. Throws ks::Error (System) naming the path and
// the reason: the errno text, "is a directory", "is not a regular file (a FIFO)" (FIFOs, devices
// such as /dev/zero and sockets are never read: they could block or never end), or its size
// against the limit. Never blocks on a FIFO.
std::string readFile(const std::filesystem::path& path, std::size_t maxBytes);

// readFile with the text limit.
std::string readTextFile(const std::filesystem::path& path);

} // namespace ks::paths
