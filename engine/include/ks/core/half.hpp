#pragma once
// IEEE 754 binary16 ("half", numpy's float16, CUDA's __half) on the host, where C++20 has no type
// for it. Conversions are exact where they can be and otherwise round to nearest, ties to even,
// straight from the double (no double rounding through float); they keep infinities, the sign of
// zero and of NaN, and subnormals.
#include <cstdint>

namespace ks {

// The value of binary16 `bits` (exact: every half is a double). A NaN gives a quiet NaN of its sign.
double halfToDouble(std::uint16_t bits) noexcept;
// `x` rounded to the nearest half, ties to even; beyond the largest half (65504) by half a step or
// more, an infinity. A NaN gives the quiet NaN 0x7E00 with x's sign.
std::uint16_t doubleToHalf(double x) noexcept;

// A float16 element in host memory (two bytes, the binary16 bits), what DeviceArray::toHost<Half>
// and fromHost of a std::vector<Half> move. Compares bitwise (so -0 != +0 and a NaN equals itself).
struct Half {
    std::uint16_t bits = 0;

    Half() = default;
    explicit Half(double v) noexcept : bits(doubleToHalf(v)) {}
    static Half fromBits(std::uint16_t b) noexcept
    {
        Half h;
        h.bits = b;
        return h;
    }
    explicit operator double() const noexcept { return halfToDouble(bits); }
    explicit operator float() const noexcept { return float(halfToDouble(bits)); }
    friend bool operator==(Half, Half) = default;
};
static_assert(sizeof(Half) == 2 && alignof(Half) == 2);

} // namespace ks
