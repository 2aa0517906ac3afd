#pragma once
// Where Kernelscope's data folders (shaders/, kernels/, assets/) are. Binaries find them relative
// to themselves, so a build tree, an installed tree and a copied tree on another machine all work.

#include <filesystem>
#include <string>

namespace ks::paths {

// The directory holding the running executable (/proc/self/exe).
std::filesystem::path executableDir();

// The data root: `override` if not empty, else $KS_DATA_DIR, else the first of the executable's
// directory and its ancestors (up to four levels) that holds both shaders/ and kernels/.
// Throws ks::Error (Usage) listing where it looked when none is found.
std::filesystem::path dataRoot(const std::filesystem::path& override = {});

// Reads a whole file; throws ks::Error (System) naming the path and errno text on failure.
std::string readTextFile(const std::filesystem::path& path);

} // namespace ks::paths
