#pragma once
// Element types of device arrays and numpy's type promotion, host side only.
//
// Promotion rules (what `resultType` computes):
// - Array with array: numpy's `np.promote_types`, exactly (int32 + float32 -> float64, uint64 + int64 ->
//   float64, int16 + float32 -> float32, uint8 + int8 -> int16, int8 + float16 -> float16, int16 +
//   float16 -> float32, int32 + float16 -> float64, ...).
// - Array with scalar: NEP 50 / numpy 2. A C++ scalar (bool, any integer, float, double, std::complex)
//   is *weak* like a Python scalar: only its kind (bool / integer / floating / complex) takes part, not
//   its width. So `float32_array * 2.0` is float32, `int32_array * 2.5` is float64 (the default float),
//   `int8_array + 1` is int8, and a value that does not fit the integer result (`uint8_array + 300`,
//   `uint8_array + -1`) is a ks::Error, as numpy 2 raises OverflowError. A scalar made with
//   Scalar::typed(dtype, value) is *strong* (a numpy scalar such as np.float64(2)) and promotes like
//   an array of its dtype.
// - Bool is numpy's bool: one byte holding 0 or 1. Comparisons and logical operations return it.
// - Float16 is IEEE binary16 (CUDA's __half, numpy's float16; ks::Half on the host). Arithmetic on it
//   computes in float32 and rounds the result once to float16, as numpy's float16 loops do (see
//   arithmeticType).

#include "ks/core/half.hpp"

#include <complex>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace ks::array {

enum class DType : std::uint8_t {
    Bool,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Float16,
    Float32,
    Float64,
    Complex64,
    Complex128,
    // An element that is no number (a StructType, ks/array/struct_type.hpp: float3, a user struct).
    // Its size lives with the array, not here: itemSize(Struct) is 0. Not in kAllDTypes.
    Struct,
};

inline constexpr int kDTypeCount = 14;
// All numeric dtypes, in enum order (for tests and tables).
inline constexpr DType kAllDTypes[kDTypeCount] = {
    DType::Bool,    DType::Int8,    DType::Int16,   DType::Int32,     DType::Int64,
    DType::UInt8,   DType::UInt16,  DType::UInt32,  DType::UInt64,    DType::Float16,
    DType::Float32, DType::Float64, DType::Complex64, DType::Complex128,
};

enum class DTypeKind { Bool, SignedInt, UnsignedInt, Float, Complex, Struct };

DTypeKind kindOf(DType t) noexcept;
std::size_t itemSize(DType t) noexcept;
// numpy's name: "bool", "int8", ..., "float32", "complex128".
std::string_view dtypeName(DType t) noexcept;
// The type generated CUDA C++ uses: "bool", "signed char", "short", "int", "long long", "unsigned char",
// ..., "__half", "float", "double", "ks::complex64", "ks::complex128" (the complex types come with the
// device prelude, __half with its float16 part: see devicePrelude in ks/array/kernel_source.hpp).
std::string_view cudaTypeName(DType t) noexcept;
// numpy names ("float32", "f4", "float", "double", "int", "uint8", "float16", "f2", "complex64", "bool",
// ...) and the CUDA C type names above ("float", "unsigned int", "long long", "__half", "half", ...).
// nullopt when unknown. Note:
// "float" is numpy's float64 but C's float32; this parser follows C (it reads kernel signatures).
std::optional<DType> parseDType(std::string_view name) noexcept;

inline bool isBool(DType t) noexcept { return t == DType::Bool; }
inline bool isInteger(DType t) noexcept
{
    return kindOf(t) == DTypeKind::SignedInt || kindOf(t) == DTypeKind::UnsignedInt;
}
inline bool isSigned(DType t) noexcept { return kindOf(t) == DTypeKind::SignedInt; }
inline bool isUnsigned(DType t) noexcept { return kindOf(t) == DTypeKind::UnsignedInt; }
inline bool isFloat(DType t) noexcept { return kindOf(t) == DTypeKind::Float; }
inline bool isComplex(DType t) noexcept { return kindOf(t) == DTypeKind::Complex; }
// Float or complex: what true division and the cumath functions compute in.
inline bool isInexact(DType t) noexcept { return isFloat(t) || isComplex(t); }

// complex64 -> float32, complex128 -> float64; others unchanged (what abs() of a complex gives).
DType realType(DType t) noexcept;
// float16 and float32 -> complex64, float64 -> complex128, complex unchanged, others: complex128.
DType complexType(DType t) noexcept;
// The type numpy computes a math ufunc (sin, sqrt, exp, ...) of input `t` in: 16-bit integers give
// float32, 32- and 64-bit integers float64, floats and complex are unchanged. numpy gives float16 for
// bool and 8-bit integers; we give float32 (a deliberate difference, kept from before float16
// existed here: sin of an int8 array keeps 24 bits instead of 11).
DType inexactType(DType t) noexcept;
// The type arithmetic on values of `t` is carried out in: float32 for float16 (numpy's float16 loops
// and reductions compute in float32 and round each result once to float16), `t` for every other.
DType arithmeticType(DType t) noexcept;

// np.promote_types(a, b). Struct takes part in no promotion (callers refuse it first); with it the
// result is Struct.
DType promoteTypes(DType a, DType b) noexcept;

// A host scalar that takes part in array arithmetic. Weak (the default for C++ values) or strong.
class Scalar {
public:
    enum class Kind { Bool, Int, Float, Complex };

    Scalar(bool v) noexcept : m_kind(Kind::Bool), m_int(v ? 1 : 0) {}
    template <class T>
        requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
    Scalar(T v) noexcept : m_kind(Kind::Int)
    {
        if constexpr (std::is_unsigned_v<T>) {
            m_uint = std::uint64_t(v);
            m_isUnsignedValue = true;
        } else {
            m_int = std::int64_t(v);
        }
    }
    Scalar(float v) noexcept : m_kind(Kind::Float), m_real(v) {}
    Scalar(double v) noexcept : m_kind(Kind::Float), m_real(v) {}
    Scalar(std::complex<float> v) noexcept : m_kind(Kind::Complex), m_real(v.real()), m_imag(v.imag()) {}
    Scalar(std::complex<double> v) noexcept : m_kind(Kind::Complex), m_real(v.real()), m_imag(v.imag()) {}

    // A strong scalar of `dtype` (np.float32(x)): `value` converted as a C++ static_cast would.
    static Scalar typed(DType dtype, Scalar value);

    Kind kind() const noexcept { return m_kind; }
    bool weak() const noexcept { return !m_strong.has_value(); }
    // The dtype of a strong scalar; for a weak one the dtype numpy gives it alone (bool, int64,
    // float64, complex128; a uint64 value above int64's range: uint64).
    DType dtype() const noexcept;

    // The value as each representation (converted as C++ would; complex -> real takes the real part).
    bool asBool() const noexcept;
    std::int64_t asInt64() const noexcept;
    std::uint64_t asUInt64() const noexcept;
    double asDouble() const noexcept;
    std::complex<double> asComplex() const noexcept;

    // Whether the value is representable in integer dtype `t` (always true for non-integer `t`,
    // and for Bool/Float/Complex values).
    bool fitsIn(DType t) const noexcept;

    // The value's bytes as dtype `t` (itemSize(t) bytes written to `out`, at most 16), converted
    // with C++ conversions (numpy's casting="unsafe").
    void store(DType t, void* out) const noexcept;

    // "2", "-1", "2.5", "(1+2j)", "float32(2.5)" (for messages).
    std::string toString() const;

private:
    Kind m_kind;
    bool m_isUnsignedValue = false;
    std::int64_t m_int = 0;
    std::uint64_t m_uint = 0;
    double m_real = 0, m_imag = 0;
    std::optional<DType> m_strong;
};

// numpy's result type of an operation on two arrays of dtypes a and b: promoteTypes(a, b).
DType resultType(DType a, DType b) noexcept;
// numpy 2's result type of an array of `array` dtype with a scalar (NEP 50 for weak scalars).
// Throws ks::Error when a weak integer scalar does not fit the integer result (numpy: OverflowError).
DType resultType(DType array, const Scalar& scalar);

// Whether dtypeOf<T>() names a dtype: bool, the integers, float, double, their std::complex, ks::Half.
template <class T>
constexpr bool hasDType() noexcept
{
    using U = std::remove_cv_t<T>;
    return std::is_arithmetic_v<U> || std::is_same_v<U, Half> || std::is_same_v<U, std::complex<float>> ||
           std::is_same_v<U, std::complex<double>>;
}

// The dtype of a C++ type: dtypeOf<float>() == DType::Float32, std::complex<double> -> Complex128,
// ks::Half -> Float16.
template <class T>
constexpr DType dtypeOf() noexcept
{
    using U = std::remove_cv_t<T>;
    if constexpr (std::is_same_v<U, bool>)
        return DType::Bool;
    else if constexpr (std::is_same_v<U, Half>)
        return DType::Float16;
    else if constexpr (std::is_same_v<U, float>)
        return DType::Float32;
    else if constexpr (std::is_same_v<U, double>)
        return DType::Float64;
    else if constexpr (std::is_same_v<U, std::complex<float>>)
        return DType::Complex64;
    else if constexpr (std::is_same_v<U, std::complex<double>>)
        return DType::Complex128;
    else if constexpr (std::is_integral_v<U> && std::is_signed_v<U>) {
        static_assert(sizeof(U) <= 8);
        return sizeof(U) == 1 ? DType::Int8 : sizeof(U) == 2 ? DType::Int16 : sizeof(U) == 4 ? DType::Int32 : DType::Int64;
    } else if constexpr (std::is_integral_v<U> && std::is_unsigned_v<U>) {
        static_assert(sizeof(U) <= 8);
        return sizeof(U) == 1 ? DType::UInt8
               : sizeof(U) == 2 ? DType::UInt16
               : sizeof(U) == 4 ? DType::UInt32
                                : DType::UInt64;
    } else {
        static_assert(sizeof(U) == 0, "no dtype for this type");
        return DType::Bool;
    }
}

} // namespace ks::array
