#pragma once
// Where a buffer's or texture's initial data comes from, as users write it on the command line or
// in a project, and the host array it becomes (ks/io/host_array.hpp):
//
//   a.npy                    a NumPy file (ks/io/npy.hpp)
//   photo.png                an image: .png .jpg .jpeg .bmp .tga .gif .psd .hdr .pic .pnm .ppm .pgm
//   dump.raw:f4:480x640      raw little-endian elements: FILE:DTYPE:D0xD1[x...] (">f4": big-endian)
//   zeros  ones  range       generated: 0; 1; 0, 1, 2, ... in C order
//   random  random:SEED      uniform in [0, 1) (integer types: their whole range; bool: 0 or 1)
//   normal  normal:SEED      normal, mean 0 and deviation 1 (floating-point types only)
//   2.5  -1  1e3             every element this number
//   a.npy:convert            any file form with ":convert": its values converted to the target's
//                            element type (as numpy's astype does) where they differ; without it a
//                            type that differs is an error naming both
//
// Generated data and numbers take their dtype and shape from the target (LoadOptions). Random data
// is the same for a seed on every run, compiler and platform: the bits come from SplitMix64 and the
// transforms are Kernelscope's own (uniform: the top 53 bits / 2^53; normal: Marsaglia's polar
// method, whose std::log and std::sqrt are correctly rounded or within an ulp on every libm).

#include "ks/io/host_array.hpp"
#include "ks/io/image.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace ks::io {

enum class DataKind { Npy, Image, Raw, Zeros, Ones, Range, Random, Normal, Number };

// A parsed spec: nothing is read until loadData.
struct DataSpec {
    DataKind kind = DataKind::Zeros;
    std::filesystem::path path;      // Npy, Image, Raw
    Dtype dtype;                     // Raw
    ByteOrder order = ByteOrder::Little; // Raw
    std::vector<std::int64_t> shape; // Raw
    std::uint64_t seed = 0;          // Random, Normal ("random" alone: 0)
    double number = 0;               // Number
    bool convert = false;            // Npy, Image, Raw: ":convert", values converted to the target's type

    friend bool operator==(const DataSpec&, const DataSpec&) = default;
};

// Reads the forms above. Throws ks::Error (Usage) quoting the spec and saying which form was
// expected: "'a.raw:f4' is not a raw data spec: expected FILE:DTYPE:D0xD1[x...], ...".
DataSpec parseDataSpec(std::string_view text);

// The spec in the form parseDataSpec reads (for messages and round trips).
std::string formatDataSpec(const DataSpec& spec);

struct LoadOptions {
    // What generated data and numbers are made as; files bring their own.
    Dtype dtype = Dtype::float32();
    std::vector<std::int64_t> shape;
    ImageOptions image;
};

// Reads or makes the data of `spec`. Throws ks::Error from the reader (naming the file), or for a
// generated kind that `options.dtype` cannot hold (normal into an integer type).
HostArray loadData(const DataSpec& spec, const LoadOptions& options = {});

// What a file spec holds, from its header alone (no data is read): the element type and the shape
// ((height, width) or (height, width, channels) for images, as readImage gives them), and whether
// it is an image. Raw files: their spec's dtype and shape, checked against the file's size.
// Throws as the readers do; generated kinds and numbers have no header (Usage).
struct DataHeader {
    Dtype dtype;
    std::vector<std::int64_t> shape;
    bool image = false;
};
DataHeader probeData(const DataSpec& spec);

// Raw elements of `dtype` in C order, `order` bytes first. Throws ks::Error (Usage) naming the file
// when its size is not product(shape) * dtype.size ("a.raw holds 100 bytes; (64, 64) float32 is
// 16384 bytes"), or (System) when it cannot be read.
HostArray readRaw(const std::filesystem::path& path, Dtype dtype, const std::vector<std::int64_t>& shape,
                  ByteOrder order = ByteOrder::Little);

// Generated data: kind Zeros, Ones, Range, Random or Normal (the seed used by the last two), or
// Number (every element `number`). Values are stored as storeValue() does (saturating). Throws
// ks::Error (Usage) for another kind, a shape whose size overflows, or Normal into a non-float type.
HostArray generate(DataKind kind, Dtype dtype, const std::vector<std::int64_t>& shape, std::uint64_t seed = 0,
                   double number = 0);

} // namespace ks::io
