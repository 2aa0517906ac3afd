#include "ks/project/value_type.hpp"

#include <array>

namespace ks::project {

std::size_t scalarSize(ScalarType s) noexcept
{
    switch (s) {
    case ScalarType::Int8:
    case ScalarType::UInt8: return 1;
    case ScalarType::Int16:
    case ScalarType::UInt16: return 2;
    case ScalarType::Int32:
    case ScalarType::UInt32:
    case ScalarType::Float32: return 4;
    case ScalarType::Int64:
    case ScalarType::UInt64:
    case ScalarType::Float64: return 8;
    }
    return 4;
}

bool isFloat(ScalarType s) noexcept
{
    return s == ScalarType::Float32 || s == ScalarType::Float64;
}

bool isSigned(ScalarType s) noexcept
{
    return s == ScalarType::Int8 || s == ScalarType::Int16 || s == ScalarType::Int32 || s == ScalarType::Int64;
}

std::size_t ValueType::size() const noexcept
{
    // CUDA's 3-component vectors are not padded (float3 is 12 bytes, aligned to 4).
    return scalarSize(scalar) * std::size_t(components);
}

std::size_t ValueType::alignment() const noexcept
{
    const std::size_t s = scalarSize(scalar);
    if (components == 2)
        return 2 * s;
    if (components == 4)
        return std::min<std::size_t>(4 * s, 16);
    return s;
}

namespace {

struct ScalarNames {
    ScalarType type;
    const char* vectorBase; // "float" for float2, "uchar" for uchar4
    const char* cudaName;
    const char* numpy;
};

constexpr std::array<ScalarNames, 10> kScalars{{
    {ScalarType::Int8, "char", "signed char", "|i1"},
    {ScalarType::UInt8, "uchar", "unsigned char", "|u1"},
    {ScalarType::Int16, "short", "short", "<i2"},
    {ScalarType::UInt16, "ushort", "unsigned short", "<u2"},
    {ScalarType::Int32, "int", "int", "<i4"},
    {ScalarType::UInt32, "uint", "unsigned int", "<u4"},
    {ScalarType::Int64, "longlong", "long long", "<i8"},
    {ScalarType::UInt64, "ulonglong", "unsigned long long", "<u8"},
    {ScalarType::Float32, "float", "float", "<f4"},
    {ScalarType::Float64, "double", "double", "<f8"},
}};

const ScalarNames& names(ScalarType s)
{
    for (const ScalarNames& n : kScalars)
        if (n.type == s)
            return n;
    return kScalars[8];
}

} // namespace

std::string cudaTypeName(const ValueType& t)
{
    const ScalarNames& n = names(t.scalar);
    if (t.components == 1)
        return n.cudaName;
    return std::string(n.vectorBase) + std::to_string(t.components);
}

std::string numpyDescr(ScalarType s)
{
    return names(s).numpy;
}

std::optional<ValueType> parseValueType(std::string_view name)
{
    if (name == "color" || name == "colour")
        return ValueType{ScalarType::Float32, 4, true};
    if (name == "color3" || name == "colour3")
        return ValueType{ScalarType::Float32, 3, true};
    struct Alias {
        const char* name;
        ScalarType type;
    };
    static constexpr Alias kAliases[] = {
        {"char", ScalarType::Int8},          {"signed char", ScalarType::Int8},
        {"int8_t", ScalarType::Int8},        {"unsigned char", ScalarType::UInt8},
        {"uint8_t", ScalarType::UInt8},      {"short", ScalarType::Int16},
        {"int16_t", ScalarType::Int16},      {"unsigned short", ScalarType::UInt16},
        {"uint16_t", ScalarType::UInt16},    {"int", ScalarType::Int32},
        {"int32_t", ScalarType::Int32},      {"unsigned", ScalarType::UInt32},
        {"unsigned int", ScalarType::UInt32}, {"uint32_t", ScalarType::UInt32},
        {"long long", ScalarType::Int64},    {"long long int", ScalarType::Int64},
        {"int64_t", ScalarType::Int64},      {"unsigned long long", ScalarType::UInt64},
        {"uint64_t", ScalarType::UInt64},    {"size_t", ScalarType::UInt64},
        {"float", ScalarType::Float32},      {"double", ScalarType::Float64},
        {"bool", ScalarType::UInt8},
    };
    for (const Alias& a : kAliases)
        if (name == a.name)
            return ValueType{a.type, 1};
    for (const ScalarNames& n : kScalars) {
        const std::string_view base = n.vectorBase;
        if (name.size() == base.size() + 1 && name.substr(0, base.size()) == base) {
            const char c = name.back();
            if (c >= '1' && c <= '4')
                return ValueType{n.type, c - '0'};
        }
        if (name == base)
            return ValueType{n.type, 1};
    }
    return std::nullopt;
}

} // namespace ks::project
