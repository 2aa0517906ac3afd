#pragma once
// Data on the host, typed: what the readers and generators of ks/io/data_source.hpp, ks/io/npy.hpp
// and ks/io/image.hpp return, before it goes into a buffer or texture. The bytes are C order
// (the last index varies fastest) and little-endian whatever the file was.

#include "ks/io/dtype.hpp"

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::io {

struct HostArray {
    Dtype dtype;
    std::vector<std::int64_t> shape; // () is one scalar
    std::vector<std::uint8_t> bytes; // elementCount() * dtype.size

    std::int64_t elementCount() const noexcept; // product of shape; 1 for ()
    // "float64 (1000,)", "uint8 (480, 640, 4)"
    std::string describe() const;

    // Element `i` (flat, C order) as T, which must be the C++ type of dtype (bool for b1, float for
    // f4, std::uint16_t for u2 and for f2's bits...). Throws ks::Error (Usage) on a size mismatch or an
    // index out of range.
    template <class T>
    T at(std::size_t i) const
    {
        checkAccess(sizeof(T), i);
        T v;
        std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
        return v;
    }
    // Element `i` as a double, whatever the dtype (int64 beyond 2^53 rounds).
    double value(std::size_t i) const;

private:
    void checkAccess(std::size_t size, std::size_t i) const;
};

// The largest data file the readers read whole (npy, raw, images): 8 GiB.
inline constexpr std::size_t kMaxDataFileBytes = std::size_t(8) << 30;

// numpy's repr of a shape: "(1000, 3)", "(5,)", "()".
std::string shapeText(const std::vector<std::int64_t>& shape);

// product(shape) * dtype.size; nullopt when a dimension is negative or the product overflows 2^62.
std::optional<std::uint64_t> byteCount(Dtype dtype, const std::vector<std::int64_t>& shape) noexcept;

// Accepts `data` for an element of `scalar` x `components` (1..4) as is, or throws ks::Error (Usage)
// naming both sides: "a.npy holds float64 (1000,), the buffer is float32". It accepts the same
// scalar type when components is 1 or the last dimension equals components ((N, 4) float32 for a
// float4 buffer). `source` names the data ("a.npy"), `target` what it fills ("the buffer",
// "texture 'albedo'"). Nothing is converted: see convert().
void requireElement(const HostArray& data, std::string_view source, Dtype scalar, int components,
                    std::string_view target = "the buffer");

enum class Scale {
    Keep,      // values kept: uint8 200 -> float 200.0, float 3.7 -> int 3
    Normalize, // integers as fixed point, GL's unorm/snorm: uint8 255 <-> 1.0, int8 -127 <-> -1.0
};

// `data` with each element converted to `to`, asked for explicitly (a uint8 image into a float
// buffer). Floats to integers truncate toward zero after scaling; every value outside the target's
// range saturates to its nearest end, NaN becomes 0; to bool, anything not zero is 1. The shape is
// kept. float16 is IEEE binary16 (rounded to nearest even).
HostArray convert(const HostArray& data, Dtype to, Scale scale = Scale::Keep);

// Reverses the bytes of each element: big-endian data to little-endian.
void swapByteOrder(HostArray& array) noexcept;

// One value of type `to` at `out` (dtype.size bytes, little-endian) from a double, converted as
// convert() with Scale::Keep does. What generated data and numbers are written with.
void storeValue(double value, Dtype to, std::uint8_t* out) noexcept;

} // namespace ks::io
