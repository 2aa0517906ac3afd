#include "ks/render/axes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ks::render {

AxisTicks niceTicks(double lo, double hi, int target)
{
    AxisTicks t;
    if (lo > hi)
        std::swap(lo, hi);
    const double span = hi - lo;
    if (!std::isfinite(span) || span <= 0 || target < 1)
        return t;
    const double rough = span / double(std::max(1, target));
    const double power = std::pow(10.0, std::floor(std::log10(rough)));
    const double fraction = rough / power;
    const double nice = fraction < 1.5 ? 1 : fraction < 3.5 ? 2 : fraction < 7.5 ? 5 : 10;
    t.step = nice * power;
    // Start at the first multiple of the step at or above lo; allow for rounding at both ends.
    const double eps = t.step * 1e-9;
    for (double k = std::ceil((lo - eps) / t.step);; ++k) {
        const double v = k * t.step;
        if (v > hi + eps || t.values.size() > 1000)
            break;
        t.values.push_back(std::abs(v) < eps ? 0.0 : v);
    }
    return t;
}

std::string tickLabel(double value, double step)
{
    if (std::abs(value) < std::abs(step) * 1e-9)
        value = 0;
    char buf[64];
    const double magnitude = std::max(std::abs(value), std::abs(step));
    if (step > 0 && (magnitude >= 1e6 || magnitude < 1e-3)) {
        if (value == 0)
            return "0";
        // Scientific: as many significant digits as the step needs relative to the value.
        const int digits = std::clamp(
            int(std::floor(std::log10(std::abs(value)))) - int(std::floor(std::log10(step))), 0, 12);
        std::snprintf(buf, sizeof buf, "%.*e", digits, value);
        // Trim "4.0e-06" style zeros: "4e-06".
        std::string s(buf);
        const auto e = s.find('e');
        auto m = s.substr(0, e);
        if (m.find('.') != std::string::npos) {
            while (!m.empty() && m.back() == '0')
                m.pop_back();
            if (!m.empty() && m.back() == '.')
                m.pop_back();
        }
        return m + s.substr(e);
    }
    const int decimals = step > 0 ? std::clamp(int(std::ceil(-std::log10(step) - 1e-9)), 0, 12) : 6;
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    return buf;
}

AxisTicks logTicks(double lo, double hi, int target)
{
    AxisTicks t;
    if (lo > hi)
        std::swap(lo, hi);
    if (!(lo > 0) || !std::isfinite(hi) || lo == hi || target < 1)
        return t;
    const double l0 = std::log10(lo), l1 = std::log10(hi);
    // A relative tolerance, so that a range ending on a decade keeps it despite rounding.
    const double eps = 1e-9;
    auto inside = [&](double v) { return v >= lo * (1 - eps) && v <= hi * (1 + eps); };
    const double first = std::floor(l0 - eps), last = std::ceil(l1 + eps);
    // 1, 2 and 5 of each decade when they come to no more than about `target`.
    if ((l1 - l0) * 3 <= double(target)) {
        for (double e = first; e <= last; ++e)
            for (double m : {1.0, 2.0, 5.0})
                if (const double v = m * std::pow(10.0, e); inside(v))
                    t.values.push_back(v);
        if (t.values.size() >= 2)
            return t;
        t = niceTicks(lo, hi, target);
        t.values.erase(std::remove_if(t.values.begin(), t.values.end(), [](double v) { return v <= 0; }),
                       t.values.end());
        return t;
    }
    // Decades only: every k-th of them, on multiples of k so that 1 stays a tick when it is inside.
    const double k = std::ceil((l1 - l0) / double(target));
    for (double e = std::ceil(first / k) * k; e <= last && t.values.size() <= 1000; e += k)
        if (const double v = std::pow(10.0, e); inside(v))
            t.values.push_back(v);
    return t;
}

std::string logTickLabel(double value, double step)
{
    if (step > 0 || !(value > 0) || !std::isfinite(value))
        return tickLabel(value, step);
    char buf[64];
    if (value >= 0.01 && value < 1e6) {
        std::snprintf(buf, sizeof buf, "%.6g", value);
        return buf;
    }
    // "2e-05" from printf is written "2e-5": the mantissa's digits, the exponent without padding.
    const int e = int(std::floor(std::log10(value) + 1e-9));
    std::snprintf(buf, sizeof buf, "%.6ge%d", value / std::pow(10.0, e), e);
    return buf;
}

} // namespace ks::render
