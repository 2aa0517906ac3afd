#pragma once
// Whole numbers read from text that Kernelscope did not write (compiler logs, PTX, sources): the
// leading decimal digits of `text`, saturated at `limit` rather than thrown on (std::stoi throws
// std::out_of_range for a 12-digit line number in a hostile log). No digits: 0.
#include <cstdint>
#include <limits>
#include <string_view>

namespace ks {

inline std::int64_t leadingNumber(std::string_view text, std::int64_t limit = std::numeric_limits<int>::max())
{
    std::int64_t v = 0;
    for (char c : text) {
        if (c < '0' || c > '9')
            break;
        v = v * 10 + (c - '0');
        if (v >= limit)
            return limit;
    }
    return v;
}

inline int leadingInt(std::string_view text) { return int(leadingNumber(text)); }

// double(float(x)): x rounded to the nearest float, through a volatile the optimiser cannot see
// past. GCC 12.2's SLP vectorizer (-O2) drops the rounding when two such values are paired, as in
// std::complex<double>(float(re), float(im)), which it compiles to (re, im).
inline double roundToFloat(double x)
{
    volatile float f = static_cast<float>(x);
    return f;
}

} // namespace ks
