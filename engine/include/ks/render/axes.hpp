#pragma once
// Axis ticks for plot views: "nice" values (1, 2 or 5 times a power of ten) inside a range, and
// their labels written with just the digits the step needs. Plain math, no GL.

#include <string>
#include <vector>

namespace ks::render {

struct AxisTicks {
    double step = 0;            // between ticks; 0 when the range is empty or not finite
    std::vector<double> values; // ascending, each within [lo, hi]
};

// Ticks inside [lo, hi] (either order), about `target` of them (at least 2 where the range allows).
AxisTicks niceTicks(double lo, double hi, int target = 5);

// A tick's label: fixed notation with the decimals `step` needs ("0.25", "1500", "-3"), scientific
// where that would be long ("4e-06", "2.5e+09"); "0", never "-0".
std::string tickLabel(double value, double step);

// Ticks of a log10 axis over the values [lo, hi] (either order, both > 0): the decades (0.1, 1,
// 10, ...) inside it, every second, third, ... one where there are more than about `target`;
// with 2 and 5 times each decade between them where few decades are shown. Their step is 0. A
// range inside one decade that holds fewer than two of those (a deep zoom) gets niceTicks
// instead, with their step. Nothing for a range that is not positive and finite.
AxisTicks logTicks(double lo, double hi, int target = 5);

// A log tick's label: with step 0 (a decade or a 2 or 5 of one) the short form, fixed from 0.01
// to below a million ("0.01", "0.5", "100") and scientific beyond ("1e-3", "2e6"); with a step, tickLabel's.
std::string logTickLabel(double value, double step);

} // namespace ks::render
