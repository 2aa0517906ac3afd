#pragma once
// NumPy .npy files (format 1.0), so that dumped buffers open with numpy.load. Little-endian data;
// C order. https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace ks::io {

// The complete header: magic, version 1.0, header length, and the dict
// "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }" padded with spaces and a newline so
// the data starts at a multiple of 64 bytes. `descr` is a numpy dtype string ("<f4", "|u1", "<i8").
std::string npyHeader(const std::string& descr, const std::vector<std::int64_t>& shape);

// Writes header and `bytes` of data. Throws ks::Error (System) naming the path on failure.
void writeNpy(const std::filesystem::path& path, const std::string& descr, const std::vector<std::int64_t>& shape,
              const void* data, std::size_t bytes);

} // namespace ks::io
