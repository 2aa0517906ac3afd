#pragma once
// A textual #include scanner: which files a CUDA source pulls in, without running a preprocessor.
// The compile cache keys on the content of every file found this way, so an edited header
// misses, and a hit costs a few file reads instead of an NVRTC preprocessing pass.
//
// Rules (and limits, all on the safe side of a cache key):
// - `#include "x"` is looked up in the including file's folder, then the include path in order;
//   `#include <x>` in the include path only (as NVRTC and GCC do).
// - Every directive counts, whatever #if around it says (a header that is switched off still
//   joins the key: a spurious miss at worst, never a stale hit).
// - Comments are skipped; `#include MACRO` (computed includes) cannot be resolved: the directive's
//   text joins the key and IncludeScan::computedIncludes counts them.
// - Files under a toolkit folder (the CUDA include folder, its cccl folder) are not read: the
//   caller keys them by the toolkit and NVRTC versions.
// - An include that is not found joins the key as "absent", so creating the file later misses.

#include "ks/core/sha256.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace ks::rtc {

struct IncludedFile {
    std::string spelled;         // as written, with its delimiters: "common.cuh" or <cub/cub.cuh>
    std::filesystem::path path;  // where it was found; empty when not found
    std::filesystem::path includer; // the file whose directive named it
    bool toolkit = false;        // under a toolkit folder: not read, not followed
    Sha256::Digest digest{};     // of the content (user files only)
};

struct IncludeScan {
    // Every directive found, in the order met (depth first). A file reached twice is listed twice
    // but read and followed once.
    std::vector<IncludedFile> files;
    int computedIncludes = 0;
    // Files that could not be read although they exist (permissions): named, so that callers can
    // refuse to cache rather than key on nothing.
    std::vector<std::filesystem::path> unreadable;

    // Folds the scan (names, where found, content digests) into `hash`.
    void hashInto(Sha256& hash) const;
};

// Scans `source`, known as `fileName` (its folder resolves quoted includes), recursively through
// the files it includes. `includePaths` in search order; `toolkitDirs` are folders whose files are
// not read. Never throws for missing or unreadable files; they are recorded.
IncludeScan scanIncludes(std::string_view source, const std::filesystem::path& fileName,
                         const std::vector<std::string>& includePaths, const std::vector<std::string>& toolkitDirs);

// The include directives of one text, as written ("x.cuh" / <x.cuh> / the macro text): comments
// skipped, continuation lines joined. Exposed for tests.
std::vector<std::string> findIncludeDirectives(std::string_view text);

} // namespace ks::rtc
