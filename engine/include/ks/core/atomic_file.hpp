#pragma once
// Writing a file so that a reader (or a crash) sees the old content or the new, never half of it.

#include <filesystem>
#include <initializer_list>
#include <string_view>

namespace ks::paths {

// Writes `content` to a temporary file in `path`'s directory, flushes it to disk, gives it the
// permissions of the file it replaces (0644 for a new file) and renames it over `path`. The
// directory must exist. Throws ks::Error (System) naming the step and path; on failure `path` is
// untouched and the temporary file removed. A `path` that exists and is neither a file nor a
// symbolic link (a folder, a device, a FIFO) is refused, not replaced; a symbolic link is replaced
// by the file, never written through.
void writeFileAtomically(const std::filesystem::path& path, std::string_view content);
// The same for content in several pieces, written one after the other (a header and a large body
// without copying them together).
void writeFileAtomically(const std::filesystem::path& path, std::initializer_list<std::string_view> pieces);

} // namespace ks::paths
