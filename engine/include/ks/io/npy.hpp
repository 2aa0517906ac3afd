#pragma once
// NumPy .npy files: written so that dumped buffers open with numpy.load (format 1.0, little-endian,
// C order), and read as numpy writes them (formats 1.0, 2.0 and 3.0, either byte order, C or
// Fortran order). https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html

#include "ks/io/host_array.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace ks::io {

// The complete header: magic, version 1.0, header length, and the dict
// "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }" padded with spaces and a newline so
// the data starts at a multiple of 64 bytes. `descr` is a numpy dtype string ("<f4", "|u1", "<i8").
std::string npyHeader(const std::string& descr, const std::vector<std::int64_t>& shape);

// Writes header and `bytes` of data. Throws ks::Error (System) naming the path on failure.
void writeNpy(const std::filesystem::path& path, const std::string& descr, const std::vector<std::int64_t>& shape,
              const void* data, std::size_t bytes);
// The same for an array (its dtype's descr, shape and bytes).
void writeNpy(const std::filesystem::path& path, const HostArray& array);

// The array an .npy file holds, in C order and little-endian (big-endian data is swapped,
// fortran_order data transposed). Element types: bool, int8..int64, uint8..uint64, float16/32/64.
// Throws ks::Error naming the file and what is wrong: a file that cannot be read (System); bad magic,
// an unknown version, a header or data shorter than it says, a malformed header dict, an
// unsupported dtype named ("complex64 ('<c8') is not supported") (Usage).
HostArray readNpy(const std::filesystem::path& path);
// The same for the bytes of a file; `name` is the file in messages.
HostArray parseNpy(std::string_view file, std::string_view name);

// What an .npy file holds, from its header alone (the data's size is checked against the file's):
// for learning a shape without reading 256 MiB. Throws as readNpy does.
struct NpyInfo {
    Dtype dtype;
    std::vector<std::int64_t> shape; // as the header says (a Fortran-order file reads as this shape too)
    bool fortranOrder = false;
};
NpyInfo probeNpy(const std::filesystem::path& path);

} // namespace ks::io
