// Scans on a device: PyCUDA's test_scan (its nine sizes up to 2^24, in place, inclusive and
// exclusive), CUB-style size sweeps, out of place, float tolerance, a non-commutative operator (order
// matters across tiles), struct values, and reproducibility.
#include "ks/array/runtime.hpp"
#include "ks/array/scan.hpp"
#include "ks/core/error.hpp"
#include "ks/rng/fill.hpp"

#include "array_test_support.hpp"

#include <cmath>
#include <cstring>
#include <optional>
#include <random>
#include <vector>

namespace {

using ks::array::DeviceArray;
using ks::array::Dims;
using ks::array::DType;

class Scans : public ks::test::ArrayTest {};

std::vector<std::int32_t> randomInts(std::size_t n, unsigned seed, int lo, int hi)
{
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> d(lo, hi);
    std::vector<std::int32_t> v(n);
    for (auto& x : v)
        x = d(rng);
    return v;
}

} // namespace

TEST_F(Scans, PyCudaScanNineSizesInPlace)
{
    const ks::array::ExclusiveScanKernel exclusive(*m_rt, "int", "a+b", "0");
    const ks::array::InclusiveScanKernel inclusive(*m_rt, "int", "a+b", "0");
    for (const bool isExclusive : {true, false}) {
        const ks::array::ScanKernel& kernel = isExclusive ? static_cast<const ks::array::ScanKernel&>(exclusive) : inclusive;
        for (std::int64_t n : {10, (1 << 10) - 5, 1 << 10, (1 << 20) - (1 << 18), (1 << 20) - (1 << 18) + 5,
                               (1 << 10) + 5, (1 << 20) + 5, 1 << 20, 1 << 24}) {
            const std::vector<std::int32_t> host = randomInts(std::size_t(n), unsigned(n), 0, 9); // randint(0, 10)
            const DeviceArray data = ks::array::fromHost(*m_rt, host);
            kernel(data);
            const std::vector<std::int32_t> got = data.toHost<std::int32_t>();
            std::int32_t running = 0;
            std::size_t bad = 0, firstBad = 0;
            for (std::size_t i = 0; i < host.size(); ++i) {
                const std::int32_t want = isExclusive ? running : running + host[i];
                running += host[i];
                if (got[i] != want && bad++ == 0)
                    firstBad = i;
            }
            EXPECT_EQ(bad, 0u) << (isExclusive ? "exclusive" : "inclusive") << " n = " << n << " first bad " << firstBad;
        }
    }
}

TEST_F(Scans, SizeSweepOutOfPlaceExactForIntegers)
{
    const ks::array::InclusiveScanKernel inc(*m_rt, "long long", "a+b");
    const ks::array::ExclusiveScanKernel exc(*m_rt, "int", "a > b ? a : b", "(-2147483647 - 1)");
    const std::int64_t tile = inc.tileElements();
    for (std::int64_t n : {std::int64_t(0), std::int64_t(1), std::int64_t(31), std::int64_t(32), std::int64_t(33),
                           tile - 1, tile, tile + 1, 32 * tile + 7, std::int64_t(1 << 26) + 11}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const std::vector<std::int32_t> h32 = randomInts(std::size_t(n), 7, -1000000, 1000000);
        std::vector<std::int64_t> h64(h32.begin(), h32.end());
        for (auto& v : h64)
            v *= 4099; // beyond 32 bits in the running sums
        const DeviceArray in64 = ks::array::fromHost(*m_rt, h64);
        DeviceArray out64 = ks::array::fromHost(*m_rt, std::vector<std::int64_t>(h64.size(), -7)); // poison
        inc(in64, out64);
        const auto g64 = out64.toHost<std::int64_t>();
        std::int64_t s = 0;
        std::size_t bad = 0;
        for (std::size_t i = 0; i < h64.size(); ++i) {
            s += h64[i];
            bad += g64[i] != s;
        }
        EXPECT_EQ(bad, 0u) << "inclusive int64 sum";
        EXPECT_EQ(in64.toHost<std::int64_t>(), h64) << "out of place leaves the input alone";

        const DeviceArray in32 = ks::array::fromHost(*m_rt, h32);
        DeviceArray out32 = ks::array::fromHost(*m_rt, std::vector<std::int32_t>(h32.size(), 12345));
        exc(in32, out32);
        const auto g32 = out32.toHost<std::int32_t>();
        std::int32_t m = std::numeric_limits<std::int32_t>::min();
        bad = 0;
        for (std::size_t i = 0; i < h32.size(); ++i) {
            bad += g32[i] != m;
            m = std::max(m, h32[i]);
        }
        EXPECT_EQ(bad, 0u) << "exclusive running max";
    }
}

TEST_F(Scans, FloatScansWithinToleranceAndReproducible)
{
    ks::rng::Generator gen(ks::rng::GeneratorType::Philox4x32_10, 99);
    const ks::array::InclusiveScanKernel inc(*m_rt, "float", "a+b");
    for (std::int64_t n : {std::int64_t(1), std::int64_t(4097), std::int64_t(1 << 24)}) {
        const DeviceArray in = ks::rng::rand(gen, *m_rt, Dims{n});
        const auto h = in.toHost<float>();
        DeviceArray out = DeviceArray::empty(*m_rt, Dims{n}, DType::Float32);
        inc(in, out);
        const auto got = out.toHost<float>();
        double s = 0;
        std::size_t bad = 0;
        for (std::size_t i = 0; i < h.size(); ++i) {
            s += h[i];
            bad += std::abs(got[i] - s) > 1e-4 * s + 1e-6;
        }
        EXPECT_EQ(bad, 0u) << "n = " << n;
        DeviceArray again = DeviceArray::empty(*m_rt, Dims{n}, DType::Float32);
        inc(in, again);
        const auto got2 = again.toHost<float>();
        EXPECT_EQ(std::memcmp(got.data(), got2.data(), got.size() * sizeof(float)), 0) << "same bits every run";
    }
    const ks::array::ExclusiveScanKernel dexc(*m_rt, "double", "a+b", "0");
    const DeviceArray d = ks::rng::rand(gen, *m_rt, Dims{(1 << 22) + 3}, DType::Float64);
    const auto hd = d.toHost<double>();
    dexc(d);
    const auto gd = d.toHost<double>();
    double s = 0;
    std::size_t bad = 0;
    for (std::size_t i = 0; i < hd.size(); ++i) {
        bad += std::abs(gd[i] - s) > 1e-10 * s + 1e-12;
        s += hd[i];
    }
    EXPECT_EQ(bad, 0u) << "double exclusive, wide (unpacked) tile states";
}

namespace {

// Affine maps x -> m*x + c composed left to right: associative, not commutative, so any tile
// combined out of order shows. Integer arithmetic wraps identically on host and device.
const char* kAffine = R"(
struct affine { unsigned m; unsigned c; };
__device__ affine compose(affine a, affine b) { affine r; r.m = a.m * b.m; r.c = a.c * b.m + b.c; return r; }
)";
struct Affine {
    std::uint32_t m, c;
};

} // namespace

TEST_F(Scans, NonCommutativeOperatorKeepsTileOrder)
{
    const ks::array::InclusiveScanKernel scan(*m_rt, "affine", "compose(a, b)", "", kAffine);
    EXPECT_EQ(scan.valueSize(), sizeof(Affine));
    const std::int64_t n = 40 * scan.tileElements() + 123;
    std::mt19937 rng(5);
    std::vector<Affine> h(static_cast<std::size_t>(n));
    for (auto& a : h)
        a = {std::uint32_t(rng() | 1u), std::uint32_t(rng())};
    DeviceArray data = DeviceArray::empty(*m_rt, Dims{n}, DType::UInt64);
    data.copyFromHost(h.data(), h.size() * sizeof(Affine));
    scan.launch(data.data(), data.data(), n);
    std::vector<Affine> got(h.size());
    data.copyToHost(got.data(), got.size() * sizeof(Affine));
    Affine acc = h[0];
    std::size_t bad = got[0].m != acc.m || got[0].c != acc.c;
    for (std::size_t i = 1; i < h.size(); ++i) {
        acc = {acc.m * h[i].m, acc.c * h[i].m + h[i].c};
        bad += got[i].m != acc.m || got[i].c != acc.c;
    }
    EXPECT_EQ(bad, 0u);
}

TEST_F(Scans, BadArgumentsAreClearErrors)
{
    const ks::array::InclusiveScanKernel scan(*m_rt, "int", "a+b");
    const DeviceArray f = DeviceArray::empty(*m_rt, Dims{10}, DType::Float32);
    EXPECT_THROW(scan(f), ks::Error);
    const DeviceArray i = DeviceArray::empty(*m_rt, Dims{10}, DType::Int32);
    EXPECT_THROW(scan(i.slice(ks::array::Slice::range(0, 5)), i.slice(ks::array::Slice::range(2, 7))), ks::Error);
    EXPECT_THROW(ks::array::ExclusiveScanKernel(*m_rt, "int", "a+b", ""), ks::Error);
    const DeviceArray empty = DeviceArray::empty(*m_rt, Dims{0}, DType::Int32);
    EXPECT_NO_THROW(scan(empty));
}

TEST_F(Scans, StridedViewsScanInCOrder)
{
    const ks::array::InclusiveScanKernel scan(*m_rt, "int", "a+b");
    const std::vector<std::int32_t> h = randomInts(1001, 3, -50, 50);
    const DeviceArray base = ks::array::fromHost(*m_rt, h);
    const DeviceArray everyOther = base.slice(ks::array::Slice::from(0, 2)); // 501 elements, in place
    scan(everyOther);
    const auto got = base.toHost<std::int32_t>();
    std::int32_t s = 0;
    for (std::size_t i = 0; i < h.size(); ++i) {
        if (i % 2 == 0) {
            s += h[i];
            ASSERT_EQ(got[i], s) << i;
        } else {
            ASSERT_EQ(got[i], h[i]) << "untouched " << i;
        }
    }
    // cumsum of a transposed 2-D view follows the view's C order.
    const DeviceArray m = ks::array::fromHost(*m_rt, std::vector<std::int32_t>(h.begin(), h.begin() + 12), Dims{3, 4});
    const auto c = ks::array::cumsum(m.transpose()).toHost<std::int32_t>();
    std::int32_t t = 0;
    std::size_t k = 0;
    for (int col = 0; col < 4; ++col)
        for (int row = 0; row < 3; ++row) {
            t += h[std::size_t(row * 4 + col)];
            EXPECT_EQ(c[k++], t);
        }
}
