// Plot axis ticks (ks/render/axes.hpp): nice steps of 1, 2 or 5 times a power of ten, ticks inside
// the range, and labels with the digits the step needs.
#include "ks/render/axes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

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

// Log axes: decades inside the range (either order), with 2 and 5 between where few are shown,
// every k-th decade where many are (1 kept), niceTicks inside a decade that holds none of those;
// labels short ("1e-3", "0.01", "100", "1e6").
TEST(Axes, LogTicksAtDecadesAndTheirLabels)
{
    using ks::render::logTickLabel;
    using ks::render::logTicks;
    auto expectValues = [](const ks::render::AxisTicks& t, std::vector<double> values) {
        ASSERT_EQ(t.values.size(), values.size());
        for (std::size_t i = 0; i < values.size(); ++i)
            EXPECT_NEAR(t.values[i], values[i], values[i] * 1e-12) << "tick " << i;
    };
    expectValues(logTicks(1e-3, 1e3, 8), {1e-3, 1e-2, 0.1, 1, 10, 100, 1000});
    EXPECT_EQ(logTicks(1e-3, 1e3, 8).step, 0);
    expectValues(logTicks(1e3, 1e-3, 8), {1e-3, 1e-2, 0.1, 1, 10, 100, 1000});
    expectValues(logTicks(1e-3, 1e3, 5), {1e-2, 1, 100}); // every second decade
    expectValues(logTicks(0.9, 110, 7), {1, 2, 5, 10, 20, 50, 100});
    expectValues(logTicks(0.9, 110, 5), {1, 10, 100}); // 2 and 5 too would be too many
    expectValues(logTicks(3e-7, 2e8, 5), {1e-6, 1e-3, 1, 1e3, 1e6});
    const auto deep = logTicks(3.12, 3.37, 5); // no 1, 2 or 5 inside: niceTicks
    EXPECT_GT(deep.step, 0);
    EXPECT_GE(deep.values.size(), 2u);
    for (double v : deep.values) {
        EXPECT_GE(v, 3.12);
        EXPECT_LE(v, 3.37);
    }
    EXPECT_TRUE(logTicks(0, 10).values.empty());
    EXPECT_TRUE(logTicks(-1, 10).values.empty());
    EXPECT_TRUE(logTicks(1, std::numeric_limits<double>::infinity()).values.empty());
    EXPECT_TRUE(logTicks(5, 5).values.empty());

    EXPECT_EQ(logTickLabel(1e-3, 0), "1e-3");
    EXPECT_EQ(logTickLabel(2e-5, 0), "2e-5");
    EXPECT_EQ(logTickLabel(0.01, 0), "0.01");
    EXPECT_EQ(logTickLabel(0.5, 0), "0.5");
    EXPECT_EQ(logTickLabel(1, 0), "1");
    EXPECT_EQ(logTickLabel(100, 0), "100");
    EXPECT_EQ(logTickLabel(500000, 0), "500000");
    EXPECT_EQ(logTickLabel(1e6, 0), "1e6");
    EXPECT_EQ(logTickLabel(5e12, 0), "5e12");
    for (double e = -30; e <= 30; ++e) // every decade's label reads back as its value
        EXPECT_NEAR(std::stod(logTickLabel(std::pow(10.0, e), 0)), std::pow(10.0, e), std::pow(10.0, e) * 1e-9);
    EXPECT_EQ(logTickLabel(3.14, 0.02), "3.14") << "with a step: tickLabel's";
}
