// float16 on the device: transfers, casts against the host conversion (ks/core/half.hpp), arithmetic
// in float32 rounded once (numpy's float16 loops), reductions accumulating in float32, fills.
#include "array_test_support.hpp"

#include "ks/array/reduction.hpp"
#include "ks/core/half.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

using ks::Half;
using ks::array::BinaryOp;
using ks::array::DeviceArray;
using ks::array::Dims;
using ks::array::DType;
using ks::array::UnaryOp;
using ks::test::ArrayTest;

namespace {

bool isNanHalf(Half h)
{
    return (h.bits & 0x7C00) == 0x7C00 && (h.bits & 0x03FF) != 0;
}

// Halves of uniform values in [lo, hi) from a fixed seed.
std::vector<Half> randomHalves(std::size_t n, double lo, double hi, unsigned seed)
{
    std::vector<Half> out;
    for (double v : ks::test::uniform<double>(n, lo, hi, seed))
        out.push_back(Half(v));
    return out;
}

} // namespace

// Every bit pattern up and down unchanged; to float32 on the device as on the host.
TEST_F(ArrayTest, Float16EveryBitPatternTransfersAndWidens)
{
    std::vector<Half> all(65536);
    for (std::uint32_t b = 0; b < 65536; ++b)
        all[b] = Half::fromBits(std::uint16_t(b));
    const DeviceArray a = toGpu(all);
    ASSERT_EQ(a.dtype(), DType::Float16);
    EXPECT_EQ(a.toHost<Half>(), all);
    const std::vector<float> wide = a.astype(DType::Float32).toHost<float>();
    std::size_t bad = 0;
    for (std::uint32_t b = 0; b < 65536; ++b) {
        const double want = ks::halfToDouble(std::uint16_t(b));
        bad += std::isnan(want) ? !std::isnan(wide[b]) : double(wide[b]) != want || std::signbit(wide[b]) != std::signbit(want);
    }
    EXPECT_EQ(bad, 0u);
}

// float32 and float64 -> float16 on the device round to nearest even exactly as the host does: every
// midpoint between neighbouring halves and the floats next to it, both signs, overflow included.
TEST_F(ArrayTest, Float16NarrowingMatchesTheHostAtEveryMidpoint)
{
    std::vector<float> f;
    for (double s : {1.0, -1.0})
        for (std::uint16_t lo = 0; lo < 0x7C00; ++lo) {
            const double a = ks::halfToDouble(lo);
            const double b = lo == 0x7BFF ? 65536.0 : ks::halfToDouble(std::uint16_t(lo + 1));
            const float mid = float((a + b) / 2);
            f.push_back(float(s) * mid);
            f.push_back(float(s) * std::nextafter(mid, 0.f));
            f.push_back(float(s) * std::nextafter(mid, 1e9f));
        }
    f.push_back(1e30f);
    f.push_back(std::nanf(""));
    const std::vector<Half> got32 = toGpu(f).astype(DType::Float16).toHost<Half>();
    std::vector<double> d(f.begin(), f.end());
    d.push_back(std::nextafter((1.0 + std::ldexp(1.0, -11)), 2.0)); // just above a midpoint: through float it
    d.push_back(std::nextafter((1.0 + std::ldexp(1.0, -11)), 0.0)); // would be the midpoint itself
    const std::vector<Half> got64 = toGpu(d).astype(DType::Float16).toHost<Half>();
    std::size_t bad = 0;
    for (std::size_t k = 0; k < f.size(); ++k) {
        const std::uint16_t want = ks::doubleToHalf(double(f[k]));
        bad += std::isnan(f[k]) ? !isNanHalf(got32[k]) : got32[k].bits != want;
    }
    for (std::size_t k = 0; k < d.size(); ++k) {
        const std::uint16_t want = ks::doubleToHalf(d[k]);
        bad += std::isnan(d[k]) ? !isNanHalf(got64[k]) : got64[k].bits != want;
    }
    EXPECT_EQ(bad, 0u);
    EXPECT_EQ(got64[d.size() - 2].bits, 0x3C01);
    EXPECT_EQ(got64[d.size() - 1].bits, 0x3C00);
}

// +, *, /, sqrt compute in float32 and round once: the correctly rounded result (float32 has more
// than 2 x 11 + 2 bits, so rounding twice gives the same). Result types follow numpy.
TEST_F(ArrayTest, Float16ArithmeticRoundsOnceLikeNumpy)
{
    const std::size_t n = 100003;
    const std::vector<Half> ha = randomHalves(n, -10, 10, 1);
    std::vector<Half> hb = randomHalves(n, 0.5, 20, 2);
    std::vector<std::int8_t> i8(n);
    std::vector<std::int16_t> i16(n);
    for (std::size_t k = 0; k < n; ++k) {
        i8[k] = std::int8_t(int(k * 37) % 255 - 127);
        i16[k] = std::int16_t(int(k * 7919) % 60000 - 30000);
    }
    const DeviceArray a = toGpu(ha), b = toGpu(hb), c8 = toGpu(i8), c16 = toGpu(i16);

    const DeviceArray sumInt8 = a + c8;
    const DeviceArray scaled = a * 0.1; // a weak Python float: float16(0.1) = 0x2E66, as numpy 2
    const DeviceArray quotient = a / b;
    const DeviceArray root = ks::array::unary(UnaryOp::Sqrt, b);
    const DeviceArray sine = ks::array::unary(UnaryOp::Sin, a);
    const DeviceArray wide = a + c16;
    const DeviceArray less = a < b;
    EXPECT_EQ(sumInt8.dtype(), DType::Float16);
    EXPECT_EQ(scaled.dtype(), DType::Float16);
    EXPECT_EQ(quotient.dtype(), DType::Float16);
    EXPECT_EQ(root.dtype(), DType::Float16);
    EXPECT_EQ(sine.dtype(), DType::Float16);
    ASSERT_EQ(wide.dtype(), DType::Float32);
    ASSERT_EQ(less.dtype(), DType::Bool);

    const auto gSum = sumInt8.toHost<Half>(), gScaled = scaled.toHost<Half>(), gQuot = quotient.toHost<Half>(),
               gRoot = root.toHost<Half>(), gSin = sine.toHost<Half>();
    const auto gWide = wide.toHost<float>();
    const auto gLess = less.toHost<bool>();
    const double tenth = ks::halfToDouble(0x2E66);
    std::size_t bad[7] = {};
    for (std::size_t k = 0; k < n; ++k) {
        const double x = double(ha[k]), y = double(hb[k]);
        bad[0] += gSum[k] != Half(x + i8[k]);
        bad[1] += gScaled[k] != Half(x * tenth);
        bad[2] += gQuot[k] != Half(x / y);
        bad[3] += gRoot[k] != Half(std::sqrt(y));
        // sinf is within 2 ulp of float: at most one step of float16 from the rounded value.
        const double s = double(gSin[k]), want = std::sin(x);
        bad[4] += std::fabs(s - want) > std::ldexp(std::fabs(want), -10) + std::ldexp(1.0, -24);
        bad[5] += gWide[k] != float(x) + float(i16[k]); // exact in float32
        bad[6] += gLess[k] != (x < y);
    }
    for (std::size_t k = 0; k < 7; ++k)
        EXPECT_EQ(bad[k], 0u) << "check " << k;
}

// numpy's float16 sum accumulates in float32: 4096 ones give 4096 (a float16 accumulator stops at
// 2048, where 2048 + 1 rounds back to 2048). The result is float16.
TEST_F(ArrayTest, Float16SumAccumulatesInFloat32)
{
    const DeviceArray ones = ks::array::ones(rt(), Dims{4096}, DType::Float16);
    const DeviceArray s = ks::array::sum(ones);
    ASSERT_EQ(s.dtype(), DType::Float16);
    EXPECT_EQ(s.toHost<Half>()[0].bits, 0x6C00); // 4096
    EXPECT_EQ(ks::array::sum(ones, DType::Float32).toHost<float>()[0], 4096.f);
    const DeviceArray d = ks::array::dot(ones, ones);
    ASSERT_EQ(d.dtype(), DType::Float16);
    EXPECT_EQ(d.toHost<Half>()[0].bits, 0x6C00);

    const std::vector<Half> h = randomHalves(100003, -4, 4, 3);
    const DeviceArray a = toGpu(h);
    double ref = 0, lo = 1e9, hi = -1e9;
    for (Half v : h) {
        ref += double(v);
        lo = std::min(lo, double(v));
        hi = std::max(hi, double(v));
    }
    const double got = double(ks::array::sum(a).toHost<Half>()[0]);
    // float32 partial sums of 1e5 values below 4 in magnitude: far below one float16 step of the total.
    EXPECT_LE(std::fabs(got - ref), std::ldexp(std::fabs(ref), -10) + 0.25) << ref;
    EXPECT_EQ(double(ks::array::min(a).toHost<Half>()[0]), lo);
    EXPECT_EQ(double(ks::array::max(a).toHost<Half>()[0]), hi);
    EXPECT_EQ(ks::array::max(a).dtype(), DType::Float16);
}

TEST_F(ArrayTest, Float16FillsAndArange)
{
    DeviceArray a = DeviceArray::empty(rt(), Dims{1000}, DType::Float16);
    a.fill(2.5);
    EXPECT_EQ(a.toHost<Half>(), std::vector<Half>(1000, Half::fromBits(0x4100)));
    a.fill(1e6); // beyond the largest half: infinity, as numpy's float16(1e6)
    EXPECT_EQ(a.toHost<Half>(), std::vector<Half>(1000, Half::fromBits(0x7C00)));
    a.fill(-3);
    EXPECT_EQ(a.toHost<Half>(), std::vector<Half>(1000, Half(-3.0)));
    const std::vector<Half> r = ks::array::arange(rt(), 0, 2048, 1, DType::Float16).toHost<Half>();
    ASSERT_EQ(r.size(), 2048u);
    std::size_t bad = 0;
    for (std::size_t k = 0; k < r.size(); ++k)
        bad += r[k] != Half(double(k)); // every integer to 2048 is a half
    EXPECT_EQ(bad, 0u);
    const DeviceArray z = ks::array::zeros(rt(), Dims{3, 5}, DType::Float16);
    EXPECT_EQ(z.toHost<Half>(), std::vector<Half>(15, Half(0.0)));
}
