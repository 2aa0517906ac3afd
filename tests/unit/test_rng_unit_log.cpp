// The logarithm behind the Philox normal fills (ks/rng/unit_log.hpp), on the host with the same float
// operations the kernel runs: within 1 ulp of the exact logarithm over cuRAND's uniform samples.
#include "ks/rng/unit_log.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

namespace {

// |got - want| in units of the float ulp at `want`.
double ulpsFrom(float got, double want)
{
    int exponent = 0;
    std::frexp(want, &exponent);
    return std::abs(double(got) - want) / std::ldexp(1.0, exponent - 24);
}

float curandUniform(std::uint32_t x)
{
    return std::fmaf(float(x), 2.3283064e-10f, 2.3283064e-10f / 2); // cuRAND's u = x 2^-32 + 2^-33
}

} // namespace

TEST(UnitLog, WithinOneUlpOverCurandsSamples)
{
    // Every 251st sample (17 million), plus both ends and the region near u = 1 exhaustively.
    double worst = 0;
    std::uint64_t worstAt = 0, checked = 0;
    auto check = [&](std::uint64_t x) {
        const float u = curandUniform(std::uint32_t(x));
        const float got = ks::rng::logUnitInterval(u);
        if (u == 1.0f) {
            EXPECT_EQ(got, 0.0f) << x;
            return;
        }
        const double e = ulpsFrom(got, std::log(double(u)));
        if (e > worst)
            worst = e, worstAt = x;
        ++checked;
    };
    for (std::uint64_t x = 0; x < (std::uint64_t(1) << 32); x += 251)
        check(x);
    for (std::uint64_t x = 0; x < (1u << 20); ++x) {
        check(x);
        check((std::uint64_t(1) << 32) - 1 - x);
    }
    EXPECT_GT(checked, 17000000u);
    EXPECT_LE(worst, 1.0) << "at x = " << worstAt;
}

TEST(UnitLog, ExactPowersOfTwoAndTheReductionEdges)
{
    for (int k = 1; k <= 33; ++k) // log(2^-k) = -k ln 2, rounded once
        EXPECT_LE(ulpsFrom(ks::rng::logUnitInterval(std::ldexp(1.0f, -k)), -k * std::log(2.0)), 0.5) << k;
    for (const float u : {2.0f / 3.0f, std::nextafter(2.0f / 3.0f, 0.0f), std::nextafter(2.0f / 3.0f, 1.0f), 1.0f / 3.0f,
                          0.999999940f, 0.5f})
        EXPECT_LE(ulpsFrom(ks::rng::logUnitInterval(u), std::log(double(u))), 1.0) << u;
}
