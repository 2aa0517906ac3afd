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

} // namespace ks::render
