#include "ks/io/host_array.hpp"

#include "ks/core/error.hpp"
#include "ks/core/half.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ks::io {

namespace {

// Little-endian load and store of the low `size` bytes of an integer.
std::uint64_t loadBits(const std::uint8_t* p, std::size_t size) noexcept
{
    std::uint64_t v = 0;
    for (std::size_t b = 0; b < size; ++b)
        v |= std::uint64_t(p[b]) << (8 * b);
    return v;
}

void storeBits(std::uint64_t v, std::size_t size, std::uint8_t* out) noexcept
{
    for (std::size_t b = 0; b < size; ++b)
        out[b] = std::uint8_t(v >> (8 * b));
}

// An element as one of three exact representations.
struct Number {
    enum class Kind { Float, Signed, Unsigned } kind;
    double f = 0;
    std::int64_t i = 0;
    std::uint64_t u = 0;

    double asDouble() const noexcept
    {
        return kind == Kind::Float ? f : kind == Kind::Signed ? double(i) : double(u);
    }
};

Number load(const std::uint8_t* p, Dtype t) noexcept
{
    const std::uint64_t bits = loadBits(p, t.size);
    switch (t.kind) {
    case DtypeKind::Bool: return {Number::Kind::Unsigned, 0, 0, bits != 0 ? 1u : 0u};
    case DtypeKind::UInt: return {Number::Kind::Unsigned, 0, 0, bits};
    case DtypeKind::Int: {
        const unsigned shift = 64 - 8 * t.size; // sign-extend
        return {Number::Kind::Signed, 0, std::int64_t(bits << shift) >> shift, 0};
    }
    case DtypeKind::Float:
        if (t.size == 2)
            return {Number::Kind::Float, halfToDouble(std::uint16_t(bits))};
        if (t.size == 4) {
            float f;
            const auto b32 = std::uint32_t(bits);
            std::memcpy(&f, &b32, 4);
            return {Number::Kind::Float, double(f)};
        }
        double d;
        std::memcpy(&d, &bits, 8);
        return {Number::Kind::Float, d};
    }
    return {Number::Kind::Unsigned};
}

void store(const Number& n, Dtype t, std::uint8_t* out) noexcept
{
    switch (t.kind) {
    case DtypeKind::Bool: {
        const bool nonzero = n.kind == Number::Kind::Float ? n.f != 0 : n.kind == Number::Kind::Signed ? n.i != 0 : n.u != 0;
        out[0] = nonzero ? 1 : 0;
        return;
    }
    case DtypeKind::Float: {
        const double d = n.asDouble();
        if (t.size == 2)
            storeBits(doubleToHalf(d), 2, out);
        else if (t.size == 4) {
            const float f = float(d);
            std::memcpy(out, &f, 4);
        } else
            std::memcpy(out, &d, 8);
        return;
    }
    case DtypeKind::Int: {
        const int bits = 8 * t.size;
        const std::int64_t hi = std::int64_t((std::uint64_t(1) << (bits - 1)) - 1);
        const std::int64_t lo = -hi - 1;
        std::int64_t v = 0;
        if (n.kind == Number::Kind::Signed)
            v = std::clamp(n.i, lo, hi);
        else if (n.kind == Number::Kind::Unsigned)
            v = n.u > std::uint64_t(hi) ? hi : std::int64_t(n.u);
        else if (!std::isnan(n.f))
            v = n.f >= std::ldexp(1.0, bits - 1) ? hi : n.f <= double(lo) ? lo : std::int64_t(n.f);
        storeBits(std::uint64_t(v), t.size, out);
        return;
    }
    case DtypeKind::UInt: {
        const int bits = 8 * t.size;
        const std::uint64_t hi = bits == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
        std::uint64_t v = 0;
        if (n.kind == Number::Kind::Signed)
            v = n.i < 0 ? 0 : std::min(std::uint64_t(n.i), hi);
        else if (n.kind == Number::Kind::Unsigned)
            v = std::min(n.u, hi);
        else if (!std::isnan(n.f) && n.f > 0)
            v = n.f >= std::ldexp(1.0, bits) ? hi : std::uint64_t(n.f);
        storeBits(v, t.size, out);
        return;
    }
    }
}

// The largest value of an integer dtype as a double: the unorm/snorm scale.
double normScale(Dtype t) noexcept
{
    return std::ldexp(1.0, 8 * t.size - (t.kind == DtypeKind::Int ? 1 : 0)) - 1.0;
}

bool isInteger(Dtype t) noexcept { return t.kind == DtypeKind::Int || t.kind == DtypeKind::UInt; }

} // namespace

std::int64_t HostArray::elementCount() const noexcept
{
    std::int64_t n = 1;
    for (std::int64_t d : shape)
        n *= d;
    return n;
}

std::string HostArray::describe() const { return std::string(dtype.name()) + " " + shapeText(shape); }

double HostArray::value(std::size_t i) const
{
    checkAccess(dtype.size, i);
    return load(bytes.data() + i * dtype.size, dtype).asDouble();
}

void HostArray::checkAccess(std::size_t size, std::size_t i) const
{
    if (size != dtype.size)
        throwUsage("HostArray::at", "an element of " + describe() + " is " + std::to_string(dtype.size) +
                                        " bytes, not " + std::to_string(size));
    if (i >= bytes.size() / dtype.size)
        throwUsage("HostArray::at", "element " + std::to_string(i) + " of " + describe() + " is out of range");
}

std::string shapeText(const std::vector<std::int64_t>& shape)
{
    std::string s = "(";
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += std::to_string(shape[i]) + (shape.size() == 1 ? "," : i + 1 < shape.size() ? ", " : "");
    return s + ")";
}

std::optional<std::uint64_t> byteCount(Dtype dtype, const std::vector<std::int64_t>& shape) noexcept
{
    constexpr std::uint64_t kLimit = std::uint64_t(1) << 62;
    std::uint64_t n = dtype.size;
    for (std::int64_t d : shape) {
        if (d < 0)
            return std::nullopt;
        if (d != 0 && n > kLimit / std::uint64_t(d))
            return std::nullopt;
        n *= std::uint64_t(d);
    }
    return n;
}

void requireElement(const HostArray& data, std::string_view source, Dtype scalar, int components,
                    std::string_view target)
{
    const std::string want = std::string(scalar.name()) + (components > 1 ? " x " + std::to_string(components) : "");
    if (components < 1 || components > 4)
        throwUsage("requireElement", std::string(target) + " has " + std::to_string(components) +
                                         " components; an element has 1 to 4");
    if (data.dtype != scalar)
        throwUsage("requireElement", std::string(source) + " holds " + data.describe() + ", " + std::string(target) +
                                         " is " + want + " (add \":convert\" to the data, " + std::string(source) +
                                         ":convert, to convert its values)");
    if (components > 1 && (data.shape.empty() || data.shape.back() != components))
        throwUsage("requireElement", std::string(source) + " holds " + data.describe() + ", " + std::string(target) +
                                         " is " + want + ": the last dimension must be " + std::to_string(components));
}

HostArray convert(const HostArray& data, Dtype to, Scale scale)
{
    const auto count = std::size_t(data.bytes.size() / data.dtype.size);
    HostArray out{to, data.shape, std::vector<std::uint8_t>(count * to.size)};
    const bool normFrom = scale == Scale::Normalize && isInteger(data.dtype);
    const bool normTo = scale == Scale::Normalize && isInteger(to);
    for (std::size_t i = 0; i < count; ++i) {
        Number n = load(data.bytes.data() + i * data.dtype.size, data.dtype);
        if (normFrom || normTo) {
            double v = n.asDouble();
            if (normFrom)
                v = std::max(v / normScale(data.dtype), -1.0);
            if (normTo)
                v = std::rint(std::clamp(v, to.kind == DtypeKind::Int ? -1.0 : 0.0, 1.0) * normScale(to));
            n = {Number::Kind::Float, v};
        }
        store(n, to, out.bytes.data() + i * to.size);
    }
    return out;
}

void swapByteOrder(HostArray& array) noexcept
{
    const std::size_t size = array.dtype.size;
    for (std::size_t i = 0; size > 1 && i + size <= array.bytes.size(); i += size)
        std::reverse(array.bytes.begin() + std::ptrdiff_t(i), array.bytes.begin() + std::ptrdiff_t(i + size));
}

void storeValue(double value, Dtype to, std::uint8_t* out) noexcept { store({Number::Kind::Float, value}, to, out); }

} // namespace ks::io
