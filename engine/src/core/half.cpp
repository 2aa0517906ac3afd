#include "ks/core/half.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ks {

double halfToDouble(std::uint16_t h) noexcept
{
    const int exponent = (h >> 10) & 31;
    const int mantissa = h & 1023;
    double v;
    if (exponent == 0)
        v = std::ldexp(double(mantissa), -24);
    else if (exponent == 31)
        v = mantissa ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    else
        v = std::ldexp(double(mantissa + 1024), exponent - 25);
    return std::copysign(v, (h & 0x8000) ? -1.0 : 1.0);
}

std::uint16_t doubleToHalf(double x) noexcept
{
    const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
    if (std::isnan(x))
        return sign | 0x7E00;
    const double a = std::fabs(x);
    if (a >= 65520.0) // halfway between the largest half (65504) and 65536 rounds to infinity
        return sign | 0x7C00;
    int e = 0;
    (void)std::frexp(a, &e); // a = m * 2^e, m in [0.5, 1): a in [2^(e-1), 2^e)
    const int exponent = std::max(e - 1, -14);
    // In units of the spacing of halves at this exponent; for subnormals, 2^-24. nearbyint rounds to
    // nearest even (the default rounding mode, which nothing in Kernelscope changes). A result of
    // 2048 (or 1024 for a subnormal) carries into the exponent field.
    const double units = std::nearbyint(std::ldexp(a, 10 - exponent));
    if (a < std::ldexp(1.0, -14))
        return sign | std::uint16_t(units);
    return sign | std::uint16_t(((exponent + 15) << 10) + int(units) - 1024);
}

} // namespace ks
