#pragma once
// Writing a file so that a reader (or a crash) sees the old content or the new, never half of it.

#include <filesystem>
#include <string_view>

namespace ks::paths {

// Writes `content` to a temporary file in `path`'s directory, flushes it to disk, gives it the
// permissions of the file it replaces (0644 for a new file) and renames it over `path`. The
// directory must exist. Throws ks::Error (System) naming the step and path; on failure `path` is
// untouched and the temporary file removed.
void writeFileAtomically(const std::filesystem::path& path, std::string_view content);

} // namespace ks::paths
