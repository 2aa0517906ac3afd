// Plot axis ticks (ks/render/axes.hpp): nice steps of 1, 2 or 5 times a power of ten, ticks inside
// the range, and labels with the digits the step needs.
#include "ks/render/axes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using ks::render::niceTicks;
using ks::render::tickLabel;

namespace {

void expectTicks(double lo, double hi, double step, std::vector<double> values)
{
    const auto t = niceTicks(lo, hi, 5);
    EXPECT_DOUBLE_EQ(t.step, step) << lo << ".." << hi;
    ASSERT_EQ(t.values.size(), values.size()) << lo << ".." << hi;
    for (std::size_t i = 0; i < values.size(); ++i)
        EXPECT_NEAR(t.values[i], values[i], step * 1e-9) << lo << ".." << hi << " tick " << i;
}

} // namespace

TEST(Axes, NiceStepsAndTicksInsideTheRange)
{
    expectTicks(0, 1, 0.2, {0, 0.2, 0.4, 0.6, 0.8, 1});
    expectTicks(0, 999999, 200000, {0, 200000, 400000, 600000, 800000});
    expectTicks(-1, 1, 0.5, {-1, -0.5, 0, 0.5, 1});
    expectTicks(0, 4e-6, 1e-6, {0, 1e-6, 2e-6, 3e-6, 4e-6});
    expectTicks(3.7, 9.2, 1, {4, 5, 6, 7, 8, 9});
    expectTicks(1, 0, 0.2, {0, 0.2, 0.4, 0.6, 0.8, 1}); // either order
    // Every tick within the range, the step one of 1, 2, 5 times a power of ten, for many ranges.
    for (double lo : {-1e9, -3.3, 0.0, 1e-7, 17.0})
        for (double span : {1e-6, 0.37, 1.0, 42.0, 7e8}) {
            const auto t = niceTicks(lo, lo + span, 5);
            ASSERT_GT(t.step, 0);
            const double m = t.step / std::pow(10.0, std::floor(std::log10(t.step) + 1e-12));
            EXPECT_TRUE(std::abs(m - 1) < 1e-9 || std::abs(m - 2) < 1e-9 || std::abs(m - 5) < 1e-9) << t.step;
            EXPECT_GE(t.values.size(), 2u) << lo << " + " << span;
            EXPECT_LE(t.values.size(), 11u);
            for (double v : t.values) {
                EXPECT_GE(v, lo - t.step * 1e-6);
                EXPECT_LE(v, lo + span + t.step * 1e-6);
            }
        }
}

TEST(Axes, EmptyOrNonFiniteRangesHaveNoTicks)
{
    EXPECT_TRUE(niceTicks(2, 2).values.empty());
    EXPECT_TRUE(niceTicks(0, std::numeric_limits<double>::infinity()).values.empty());
    EXPECT_TRUE(niceTicks(std::numeric_limits<double>::quiet_NaN(), 1).values.empty());
}

TEST(Axes, LabelsCarryTheDigitsTheStepNeeds)
{
    EXPECT_EQ(tickLabel(0.25, 0.05), "0.25");
    EXPECT_EQ(tickLabel(0.2, 0.2), "0.2");
    EXPECT_EQ(tickLabel(1500, 500), "1500");
    EXPECT_EQ(tickLabel(-3, 1), "-3");
    EXPECT_EQ(tickLabel(-1e-17, 0.5), "0.0"); // rounding noise at zero is zero, never "-0"
    EXPECT_EQ(tickLabel(4e-6, 1e-6), "4e-06");
    EXPECT_EQ(tickLabel(2.5e-6, 5e-7), "2.5e-06");
    EXPECT_EQ(tickLabel(2.5e9, 5e8), "2.5e+09");
    EXPECT_EQ(tickLabel(0, 1e-6), "0");
}
