#pragma once
// The element types of a project's buffers and the value types of constants and kernel arguments:
// a CUDA scalar type and a component count (float4 = Float32 x 4). Host side only.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace ks::project {

enum class ScalarType { Int8, UInt8, Int16, UInt16, Int32, UInt32, Int64, UInt64, Float32, Float64 };

struct ValueType {
    ScalarType scalar = ScalarType::Float32;
    int components = 1; // 1..4
    bool color = false; // a float3/float4 edited with a colour picker ("color" in projects)

    std::size_t size() const noexcept;      // bytes
    std::size_t alignment() const noexcept; // CUDA's alignment of the vector type
    friend bool operator==(const ValueType& a, const ValueType& b)
    {
        return a.scalar == b.scalar && a.components == b.components;
    }
};

std::size_t scalarSize(ScalarType s) noexcept;
bool isFloat(ScalarType s) noexcept;
bool isSigned(ScalarType s) noexcept;

// The CUDA name: "float", "float4", "uchar4", "int2", "unsigned int", "double".
std::string cudaTypeName(const ValueType& t);
// numpy's dtype string of the scalar, little-endian: "<f4", "|u1", "<i8".
std::string numpyDescr(ScalarType s);

// Parses CUDA spellings ("float4", "uchar4", "unsigned int", "uint", "int", "double", "long long",
// "unsigned char") and the project's "color" (float4 edited as a colour) and "color3". nullopt when
// unknown.
std::optional<ValueType> parseValueType(std::string_view name);

} // namespace ks::project
