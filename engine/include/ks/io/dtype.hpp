#pragma once
// The scalar type of data read from files or generated on the host (ks/io/host_array.hpp): numpy's
// kinds bool, int, uint and float in the sizes .npy files, raw dumps and images use. Complex,
// strings and objects are not element types of GPU buffers and have no Dtype.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ks::io {

enum class DtypeKind : std::uint8_t { Bool, Int, UInt, Float };

enum class ByteOrder : std::uint8_t { Little, Big };

// One of: b1, i1 u1, i2 u2 f2, i4 u4 f4, i8 u8 f8 (numpy's kind letter and size in bytes). Made by
// the constants below or parseDtype; a Dtype of another kind/size pair is never produced.
struct Dtype {
    DtypeKind kind = DtypeKind::Float;
    std::uint8_t size = 4; // bytes per element

    static constexpr Dtype boolean() { return {DtypeKind::Bool, 1}; }
    static constexpr Dtype int8() { return {DtypeKind::Int, 1}; }
    static constexpr Dtype uint8() { return {DtypeKind::UInt, 1}; }
    static constexpr Dtype int16() { return {DtypeKind::Int, 2}; }
    static constexpr Dtype uint16() { return {DtypeKind::UInt, 2}; }
    static constexpr Dtype float16() { return {DtypeKind::Float, 2}; }
    static constexpr Dtype int32() { return {DtypeKind::Int, 4}; }
    static constexpr Dtype uint32() { return {DtypeKind::UInt, 4}; }
    static constexpr Dtype float32() { return {DtypeKind::Float, 4}; }
    static constexpr Dtype int64() { return {DtypeKind::Int, 8}; }
    static constexpr Dtype uint64() { return {DtypeKind::UInt, 8}; }
    static constexpr Dtype float64() { return {DtypeKind::Float, 8}; }

    // numpy's little-endian dtype string: "<f4", "<i8", "|u1", "|b1".
    std::string descr() const;
    // numpy's name: "bool", "int8", "uint16", "float32", ...
    std::string_view name() const noexcept;

    friend constexpr bool operator==(Dtype, Dtype) = default;
};

// Every Dtype, smallest first (for tests and tables).
inline constexpr Dtype kAllDtypes[] = {
    Dtype::boolean(), Dtype::int8(),  Dtype::uint8(),   Dtype::int16(),  Dtype::uint16(),  Dtype::float16(),
    Dtype::int32(),   Dtype::uint32(), Dtype::float32(), Dtype::int64(), Dtype::uint64(), Dtype::float64(),
};

// Reads a dtype as numpy writes it in .npy headers ("<f4", ">i2", "|u1", "|b1", "?", "f8": an
// optional byte order '<' '>' '|' '=' then a kind letter and size) or as users type it: numpy names
// ("float32", "uint8", "bool", "float16") and the C/CUDA spellings ("float", "double", "half", "int",
// "uint", "unsigned int", "uchar", "unsigned char", "char", "short", "ushort", "long long", ...).
// Note "float" is C's float32 (numpy's "float" is float64) and "u8" numpy's uint64.
// A big-endian descr (">f4") is accepted only when `order` is given, which receives the byte order
// (Little for everything else). nullopt when the text is none of these.
std::optional<Dtype> parseDtype(std::string_view text, ByteOrder* order = nullptr);

// Why a numpy descr that parseDtype refuses is not supported, in words for a message: "complex64
// ('<c8') is not supported", "strings ('<U8') are not supported", "a structured dtype is not
// supported", "'xyz' is not a numpy dtype". Empty when parseDtype accepts it.
std::string unsupportedDtypeReason(std::string_view descr);

} // namespace ks::io
