#include "ks/array/dtype.hpp"

#include "ks/core/error.hpp"
#include "ks/core/numbers.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace ks::array {

namespace {

struct DTypeInfo {
    DTypeKind kind;
    std::size_t size;
    std::string_view name;
    std::string_view cudaName;
};

constexpr DTypeInfo kInfo[kDTypeCount + 1] = {
    {DTypeKind::Bool, 1, "bool", "bool"},
    {DTypeKind::SignedInt, 1, "int8", "signed char"},
    {DTypeKind::SignedInt, 2, "int16", "short"},
    {DTypeKind::SignedInt, 4, "int32", "int"},
    {DTypeKind::SignedInt, 8, "int64", "long long"},
    {DTypeKind::UnsignedInt, 1, "uint8", "unsigned char"},
    {DTypeKind::UnsignedInt, 2, "uint16", "unsigned short"},
    {DTypeKind::UnsignedInt, 4, "uint32", "unsigned int"},
    {DTypeKind::UnsignedInt, 8, "uint64", "unsigned long long"},
    {DTypeKind::Float, 2, "float16", "__half"},
    {DTypeKind::Float, 4, "float32", "float"},
    {DTypeKind::Float, 8, "float64", "double"},
    {DTypeKind::Complex, 8, "complex64", "ks::complex64"},
    {DTypeKind::Complex, 16, "complex128", "ks::complex128"},
    {DTypeKind::Struct, 0, "struct", ""},
};

const DTypeInfo& info(DType t) noexcept
{
    return kInfo[int(t)];
}

DType signedOfSize(std::size_t bytes) noexcept
{
    return bytes <= 1 ? DType::Int8 : bytes == 2 ? DType::Int16 : bytes == 4 ? DType::Int32 : DType::Int64;
}

DType floatOfSize(std::size_t bytes) noexcept
{
    return bytes <= 2 ? DType::Float16 : bytes <= 4 ? DType::Float32 : DType::Float64;
}

DType complexOfRealSize(std::size_t bytes) noexcept
{
    return bytes <= 4 ? DType::Complex64 : DType::Complex128;
}

// The size of the smallest float that holds every value of integer type t exactly, as numpy decides
// it: float16 for 8-bit, float32 for 16-bit, float64 for 32/64-bit.
std::size_t floatSizeForInteger(DType t) noexcept
{
    return itemSize(t) == 1 ? 2 : itemSize(t) == 2 ? 4 : 8;
}

} // namespace

DTypeKind kindOf(DType t) noexcept
{
    return info(t).kind;
}

std::size_t itemSize(DType t) noexcept
{
    return info(t).size;
}

std::string_view dtypeName(DType t) noexcept
{
    return info(t).name;
}

std::string_view cudaTypeName(DType t) noexcept
{
    return info(t).cudaName;
}

std::optional<DType> parseDType(std::string_view name) noexcept
{
    struct Alias {
        std::string_view name;
        DType type;
    };
    static constexpr Alias kAliases[] = {
        {"bool", DType::Bool},
        {"bool_", DType::Bool},
        {"?", DType::Bool},
        {"int8", DType::Int8},
        {"i1", DType::Int8},
        {"char", DType::Int8},
        {"signed char", DType::Int8},
        {"int16", DType::Int16},
        {"i2", DType::Int16},
        {"short", DType::Int16},
        {"short int", DType::Int16},
        {"int32", DType::Int32},
        {"i4", DType::Int32},
        {"int", DType::Int32},
        {"signed", DType::Int32},
        {"signed int", DType::Int32},
        {"int64", DType::Int64},
        {"i8", DType::Int64},
        {"long", DType::Int64},
        {"long int", DType::Int64},
        {"long long", DType::Int64},
        {"long long int", DType::Int64},
        {"int64_t", DType::Int64},
        {"ptrdiff_t", DType::Int64},
        {"int8_t", DType::Int8},
        {"int16_t", DType::Int16},
        {"int32_t", DType::Int32},
        {"uint8", DType::UInt8},
        {"u1", DType::UInt8},
        {"unsigned char", DType::UInt8},
        {"uint8_t", DType::UInt8},
        {"uint16", DType::UInt16},
        {"u2", DType::UInt16},
        {"unsigned short", DType::UInt16},
        {"unsigned short int", DType::UInt16},
        {"uint16_t", DType::UInt16},
        {"uint32", DType::UInt32},
        {"u4", DType::UInt32},
        {"unsigned", DType::UInt32},
        {"unsigned int", DType::UInt32},
        {"uint32_t", DType::UInt32},
        {"uint64", DType::UInt64},
        {"u8", DType::UInt64},
        {"unsigned long", DType::UInt64},
        {"unsigned long int", DType::UInt64},
        {"unsigned long long", DType::UInt64},
        {"unsigned long long int", DType::UInt64},
        {"uint64_t", DType::UInt64},
        {"size_t", DType::UInt64},
        {"float16", DType::Float16},
        {"f2", DType::Float16},
        {"e", DType::Float16},
        {"half", DType::Float16},
        {"__half", DType::Float16},
        {"float32", DType::Float32},
        {"f4", DType::Float32},
        {"float", DType::Float32},
        {"single", DType::Float32},
        {"float64", DType::Float64},
        {"f8", DType::Float64},
        {"double", DType::Float64},
        {"complex64", DType::Complex64},
        {"c8", DType::Complex64},
        {"ks::complex64", DType::Complex64},
        {"ks::complex<float>", DType::Complex64},
        {"pycuda::complex<float>", DType::Complex64},
        {"complex128", DType::Complex128},
        {"c16", DType::Complex128},
        {"complex", DType::Complex128},
        {"ks::complex128", DType::Complex128},
        {"ks::complex<double>", DType::Complex128},
        {"pycuda::complex<double>", DType::Complex128},
    };
    for (const Alias& a : kAliases)
        if (a.name == name)
            return a.type;
    return std::nullopt;
}

DType realType(DType t) noexcept
{
    if (t == DType::Complex64)
        return DType::Float32;
    if (t == DType::Complex128)
        return DType::Float64;
    return t;
}

DType complexType(DType t) noexcept
{
    if (isComplex(t))
        return t;
    if (t == DType::Float16 || t == DType::Float32)
        return DType::Complex64;
    return DType::Complex128;
}

DType inexactType(DType t) noexcept
{
    if (isInexact(t))
        return t;
    return floatOfSize(t == DType::Bool ? 4 : std::max<std::size_t>(4, floatSizeForInteger(t)));
}

DType arithmeticType(DType t) noexcept
{
    return t == DType::Float16 ? DType::Float32 : t;
}

DType promoteTypes(DType a, DType b) noexcept
{
    if (a == b)
        return a;
    if (a == DType::Struct || b == DType::Struct)
        return DType::Struct;
    const DTypeKind ka = kindOf(a), kb = kindOf(b);
    // Order so that `a` is the "lower" kind: Bool < SignedInt/UnsignedInt < Float < Complex.
    auto rank = [](DTypeKind k) {
        switch (k) {
        case DTypeKind::Bool: return 0;
        case DTypeKind::SignedInt:
        case DTypeKind::UnsignedInt: return 1;
        case DTypeKind::Float: return 2;
        case DTypeKind::Complex:
        case DTypeKind::Struct: return 3;
        }
        return 0;
    };
    if (rank(ka) > rank(kb))
        return promoteTypes(b, a);
    const std::size_t sa = itemSize(a), sb = itemSize(b);
    switch (kb) {
    case DTypeKind::Bool: return DType::Bool; // both bool
    case DTypeKind::SignedInt:
    case DTypeKind::UnsignedInt: {
        if (ka == DTypeKind::Bool)
            return b;
        if (ka == kb)
            return sa >= sb ? a : b;
        // One signed, one unsigned.
        const DType s = ka == DTypeKind::SignedInt ? a : b;
        const DType u = ka == DTypeKind::SignedInt ? b : a;
        if (itemSize(s) > itemSize(u))
            return s;
        if (itemSize(u) == 8)
            return DType::Float64;
        return signedOfSize(itemSize(u) * 2);
    }
    case DTypeKind::Float: {
        if (ka == DTypeKind::Bool)
            return b;
        if (ka == DTypeKind::Float)
            return floatOfSize(std::max(sa, sb));
        return floatOfSize(std::max(sb, floatSizeForInteger(a)));
    }
    case DTypeKind::Complex: {
        if (ka == DTypeKind::Bool)
            return b;
        const std::size_t realB = sb / 2;
        if (ka == DTypeKind::Complex)
            return complexOfRealSize(std::max(sa / 2, realB));
        if (ka == DTypeKind::Float)
            return complexOfRealSize(std::max(sa, realB));
        return complexOfRealSize(std::max(realB, floatSizeForInteger(a)));
    }
    case DTypeKind::Struct: return DType::Struct;
    }
    return b;
}

DType resultType(DType a, DType b) noexcept
{
    return promoteTypes(a, b);
}

DType resultType(DType array, const Scalar& s)
{
    if (!s.weak())
        return promoteTypes(array, s.dtype());
    DType r = array;
    switch (s.kind()) {
    case Scalar::Kind::Bool: r = array; break;
    case Scalar::Kind::Int: r = array == DType::Bool ? DType::Int64 : array; break;
    case Scalar::Kind::Float:
        r = isInteger(array) || array == DType::Bool ? DType::Float64 : array;
        break;
    case Scalar::Kind::Complex:
        r = complexType(array);
        break;
    }
    if (s.kind() == Scalar::Kind::Int && isInteger(r) && !s.fitsIn(r))
        throwUsage("resultType", "Python integer " + s.toString() + " out of bounds for " + std::string(dtypeName(r)) +
                                     " (numpy 2 / NEP 50: a scalar must fit the array's integer type; use "
                                     "Scalar::typed or astype to choose a wider type)");
    return r;
}

// ----- Scalar

Scalar Scalar::typed(DType dtype, Scalar value)
{
    Scalar s = value;
    switch (kindOf(dtype)) {
    case DTypeKind::Bool:
        s = Scalar(value.asBool());
        break;
    case DTypeKind::SignedInt: {
        // Wrap to the type's width as a C++ conversion would.
        std::int64_t v = value.asInt64();
        switch (dtype) {
        case DType::Int8: v = std::int8_t(v); break;
        case DType::Int16: v = std::int16_t(v); break;
        case DType::Int32: v = std::int32_t(v); break;
        default: break;
        }
        s = Scalar(v);
        break;
    }
    case DTypeKind::UnsignedInt: {
        std::uint64_t v = value.asUInt64();
        switch (dtype) {
        case DType::UInt8: v = std::uint8_t(v); break;
        case DType::UInt16: v = std::uint16_t(v); break;
        case DType::UInt32: v = std::uint32_t(v); break;
        default: break;
        }
        s = Scalar(v);
        break;
    }
    case DTypeKind::Float:
        s = Scalar(dtype == DType::Float16   ? halfToDouble(doubleToHalf(value.asDouble()))
                   : dtype == DType::Float32 ? roundToFloat(value.asDouble())
                                             : value.asDouble());
        break;
    case DTypeKind::Complex: {
        std::complex<double> c = value.asComplex();
        if (dtype == DType::Complex64)
            c = std::complex<double>(roundToFloat(c.real()), roundToFloat(c.imag())); // not float(): numbers.hpp says why
        s = Scalar(c);
        break;
    }
    case DTypeKind::Struct:
        throwUsage("Scalar::typed", "a number cannot be a struct element (fill struct arrays with fillElement)");
    }
    s.m_strong = dtype;
    return s;
}

DType Scalar::dtype() const noexcept
{
    if (m_strong)
        return *m_strong;
    switch (m_kind) {
    case Kind::Bool: return DType::Bool;
    case Kind::Int:
        return m_isUnsignedValue && m_uint > std::uint64_t(std::numeric_limits<std::int64_t>::max()) ? DType::UInt64
                                                                                                   : DType::Int64;
    case Kind::Float: return DType::Float64;
    case Kind::Complex: return DType::Complex128;
    }
    return DType::Float64;
}

bool Scalar::asBool() const noexcept
{
    switch (m_kind) {
    case Kind::Bool:
    case Kind::Int: return m_isUnsignedValue ? m_uint != 0 : m_int != 0;
    case Kind::Float: return m_real != 0;
    case Kind::Complex: return m_real != 0 || m_imag != 0;
    }
    return false;
}

std::int64_t Scalar::asInt64() const noexcept
{
    switch (m_kind) {
    case Kind::Bool:
    case Kind::Int: return m_isUnsignedValue ? std::int64_t(m_uint) : m_int;
    case Kind::Float:
    case Kind::Complex:
        if (!(std::fabs(m_real) < 9.2e18))
            return m_real != m_real ? 0 : (m_real > 0 ? std::numeric_limits<std::int64_t>::max()
                                                      : std::numeric_limits<std::int64_t>::min());
        return std::int64_t(m_real);
    }
    return 0;
}

std::uint64_t Scalar::asUInt64() const noexcept
{
    switch (m_kind) {
    case Kind::Bool:
    case Kind::Int: return m_isUnsignedValue ? m_uint : std::uint64_t(m_int);
    case Kind::Float:
    case Kind::Complex:
        if (m_real < 0)
            return std::uint64_t(asInt64());
        if (!(m_real < 1.8e19))
            return m_real != m_real ? 0 : std::numeric_limits<std::uint64_t>::max();
        return std::uint64_t(m_real);
    }
    return 0;
}

double Scalar::asDouble() const noexcept
{
    switch (m_kind) {
    case Kind::Bool:
    case Kind::Int: return m_isUnsignedValue ? double(m_uint) : double(m_int);
    case Kind::Float:
    case Kind::Complex: return m_real;
    }
    return 0;
}

std::complex<double> Scalar::asComplex() const noexcept
{
    return m_kind == Kind::Complex ? std::complex<double>(m_real, m_imag) : std::complex<double>(asDouble(), 0);
}

bool Scalar::fitsIn(DType t) const noexcept
{
    if (m_kind != Kind::Int || !isInteger(t))
        return true;
    const std::size_t bits = itemSize(t) * 8;
    if (isUnsigned(t)) {
        if (!m_isUnsignedValue && m_int < 0)
            return false;
        const std::uint64_t v = asUInt64();
        return bits == 64 || v < (std::uint64_t(1) << bits);
    }
    if (m_isUnsignedValue)
        return m_uint <= (std::uint64_t(1) << (bits - 1)) - 1;
    const std::int64_t lo = bits == 64 ? std::numeric_limits<std::int64_t>::min() : -(std::int64_t(1) << (bits - 1));
    const std::int64_t hi = bits == 64 ? std::numeric_limits<std::int64_t>::max() : (std::int64_t(1) << (bits - 1)) - 1;
    return m_int >= lo && m_int <= hi;
}

void Scalar::store(DType t, void* out) const noexcept
{
    auto put = [out](auto v) { std::memcpy(out, &v, sizeof v); };
    switch (t) {
    case DType::Bool: put(std::uint8_t(asBool() ? 1 : 0)); break;
    case DType::Int8: put(std::int8_t(asInt64())); break;
    case DType::Int16: put(std::int16_t(asInt64())); break;
    case DType::Int32: put(std::int32_t(asInt64())); break;
    case DType::Int64: put(asInt64()); break;
    case DType::UInt8: put(std::uint8_t(asUInt64())); break;
    case DType::UInt16: put(std::uint16_t(asUInt64())); break;
    case DType::UInt32: put(std::uint32_t(asUInt64())); break;
    case DType::UInt64: put(asUInt64()); break;
    case DType::Float16: put(doubleToHalf(asDouble())); break;
    case DType::Float32: put(float(asDouble())); break;
    case DType::Float64: put(asDouble()); break;
    case DType::Complex64: { // through asComplex: an integer or bool scalar keeps its value in m_int
        const std::complex<double> c = asComplex();
        const float v[2] = {float(c.real()), float(c.imag())};
        std::memcpy(out, v, sizeof v);
        break;
    }
    case DType::Complex128: {
        const std::complex<double> c = asComplex();
        const double v[2] = {c.real(), c.imag()};
        std::memcpy(out, v, sizeof v);
        break;
    }
    case DType::Struct: break; // no bytes: callers refuse struct elements first
    }
}

std::string Scalar::toString() const
{
    std::string v;
    switch (m_kind) {
    case Kind::Bool: v = asBool() ? "True" : "False"; break;
    case Kind::Int: v = m_isUnsignedValue ? std::to_string(m_uint) : std::to_string(m_int); break;
    case Kind::Float: {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.17g", m_real);
        v = buf;
        break;
    }
    case Kind::Complex: {
        char buf[96];
        std::snprintf(buf, sizeof buf, "(%.17g%+.17gj)", m_real, m_imag);
        v = buf;
        break;
    }
    }
    if (m_strong)
        return std::string(dtypeName(*m_strong)) + "(" + v + ")";
    return v;
}

} // namespace ks::array
