// IEEE binary16 on the host (ks/core/half.hpp): every one of the 65536 bit patterns, and every rounding
// boundary between neighbouring halves.
#include "ks/core/half.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

namespace {

bool isNanBits(std::uint16_t h)
{
    return (h & 0x7C00) == 0x7C00 && (h & 0x03FF) != 0;
}

} // namespace

// Every half is exact as a float: half -> float -> half gives the same bits (a NaN stays a NaN of
// its sign), and the value is what the fields say.
TEST(CoreHalf, EveryBitPatternRoundTripsThroughFloat)
{
    for (std::uint32_t b = 0; b < 65536; ++b) {
        const auto h = std::uint16_t(b);
        const double d = ks::halfToDouble(h);
        const float f = float(d);
        const int exponent = (h >> 10) & 31, mantissa = h & 1023;
        const double sign = (h & 0x8000) ? -1.0 : 1.0;
        ASSERT_EQ(std::signbit(d), (h & 0x8000) != 0) << std::hex << b;
        if (isNanBits(h)) {
            ASSERT_TRUE(std::isnan(f)) << std::hex << b;
            const std::uint16_t back = ks::doubleToHalf(f);
            ASSERT_TRUE(isNanBits(back)) << std::hex << b;
            ASSERT_EQ(back & 0x8000, h & 0x8000) << std::hex << b;
            continue;
        }
        ASSERT_EQ(double(f), d) << std::hex << b; // exact in float
        if (exponent == 31)
            ASSERT_EQ(d, sign * std::numeric_limits<double>::infinity()) << std::hex << b;
        else if (exponent == 0)
            ASSERT_EQ(d, sign * mantissa * std::ldexp(1.0, -24)) << std::hex << b;
        else
            ASSERT_EQ(d, sign * (1.0 + mantissa / 1024.0) * std::ldexp(1.0, exponent - 15)) << std::hex << b;
        ASSERT_EQ(ks::doubleToHalf(f), h) << std::hex << b;
        ASSERT_EQ(ks::Half(double(f)).bits, h) << std::hex << b;
        ASSERT_EQ(float(ks::Half::fromBits(h)), f) << std::hex << b;
    }
}

// Between each pair of neighbouring finite halves of one sign (subnormals and the step from the
// largest half to infinity included): the midpoint goes to the one with the even mantissa, and the
// floats just below and just above it to the nearer one.
TEST(CoreHalf, EveryMidpointRoundsToNearestEven)
{
    for (std::uint16_t sign : {std::uint16_t(0), std::uint16_t(0x8000)}) {
        for (std::uint16_t lo = 0; lo < 0x7C00; ++lo) {
            const std::uint16_t hi = lo + 1; // 0x7C00 (infinity) after the largest half 0x7BFF
            const double a = std::fabs(ks::halfToDouble(lo));
            // Above the largest half, infinity's "neighbour" is 2^16 for the rounding rule.
            const double b = hi == 0x7C00 ? 65536.0 : ks::halfToDouble(hi);
            const double mid = (a + b) / 2; // exact: two halves' mean needs at most 12 bits
            const float midF = float(mid);
            ASSERT_EQ(double(midF), mid) << std::hex << lo;
            const double s = sign ? -1.0 : 1.0;
            const std::uint16_t even = (lo & 1) == 0 ? lo : hi;
            ASSERT_EQ(ks::doubleToHalf(s * mid), sign | even) << std::hex << lo;
            ASSERT_EQ(ks::doubleToHalf(s * double(std::nextafter(midF, 0.f))), sign | lo) << std::hex << lo;
            ASSERT_EQ(ks::doubleToHalf(s * double(std::nextafter(midF, 1e9f))), sign | hi) << std::hex << lo;
            // From a double, with no rounding through float on the way (0.5 ulp of float below the
            // midpoint would round up to it through float).
            ASSERT_EQ(ks::doubleToHalf(s * std::nextafter(mid, 0.0)), sign | lo) << std::hex << lo;
            ASSERT_EQ(ks::doubleToHalf(s * std::nextafter(mid, 1e9)), sign | hi) << std::hex << lo;
        }
    }
}

TEST(CoreHalf, SpecialValues)
{
    EXPECT_EQ(ks::doubleToHalf(0.0), 0x0000);
    EXPECT_EQ(ks::doubleToHalf(-0.0), 0x8000);
    EXPECT_EQ(ks::doubleToHalf(1.0), 0x3C00);
    EXPECT_EQ(ks::doubleToHalf(65504.0), 0x7BFF);
    EXPECT_EQ(ks::doubleToHalf(65519.99), 0x7BFF);
    EXPECT_EQ(ks::doubleToHalf(65520.0), 0x7C00);
    EXPECT_EQ(ks::doubleToHalf(1e300), 0x7C00);
    EXPECT_EQ(ks::doubleToHalf(-std::numeric_limits<double>::infinity()), 0xFC00);
    EXPECT_EQ(ks::doubleToHalf(std::ldexp(1.0, -24)), 0x0001);  // smallest subnormal
    EXPECT_EQ(ks::doubleToHalf(std::ldexp(1.0, -25)), 0x0000);  // half of it: ties to even (0)
    EXPECT_EQ(ks::doubleToHalf(std::ldexp(1.5, -25)), 0x0001);
    EXPECT_EQ(ks::doubleToHalf(std::ldexp(1.0, -14)), 0x0400); // smallest normal
    EXPECT_EQ(ks::doubleToHalf(1e-300), 0x0000);
    EXPECT_EQ(ks::doubleToHalf(-1e-300), 0x8000);
    EXPECT_EQ(ks::doubleToHalf(std::numeric_limits<double>::quiet_NaN()), 0x7E00);
    EXPECT_EQ(ks::doubleToHalf(-std::numeric_limits<double>::quiet_NaN()), 0xFE00);
    EXPECT_EQ(ks::doubleToHalf(0.1), 0x2E66);
    EXPECT_EQ(ks::halfToDouble(0x3555), 0.333251953125);
    EXPECT_NE(ks::Half(0.0), ks::Half(-0.0)); // bitwise
}
