// Scans on a device: PyCUDA's test_scan (its nine sizes up to 2^24, in place, inclusive and
// exclusive), CUB-style size sweeps, out of place, float tolerance, a non-commutative operator (order
// matters across tiles), struct values, and reproducibility.
//
// The scan's two kernels (ScanKernel::takesVectorPath): the vector kernel (16-byte loads and stores,
// 4- and 8-byte values, aligned arrays) and the general one must give the same exact results over
// CUB-style size sweeps, inclusive and exclusive, in place and out of place, for sums and for
// non-commutative operators of 4 and 8 bytes (order kept inside chunks, across chunks, warps and
// tiles); misaligned views take the general kernel; floats are reproducible on each path.
#include "ks/array/runtime.hpp"
#include "ks/array/scan.hpp"
#include "ks/core/error.hpp"
#include "ks/cuda/memory.hpp"
#include "ks/rng/fill.hpp"

#include "algorithm_test.hpp"
#include "array_test_support.hpp"

#include <algorithm>
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

TEST_F(Scans, PyCudaBigArrayScan)
{
    // 2^32 + 12 uint8 ones scanned modulo 256, in place: 64-bit sizes in a user scan. The result is
    // np.tile(np.roll(np.arange(256), -1), n // 256) (element i is (i + 1) % 256) followed by 1..12.
    const std::size_t n = (std::size_t(1) << 32) + 12;
    if (ks::cuda::memoryInfo().freeBytes < n + (std::size_t(1) << 30))
        GTEST_SKIP() << "needs " << ks::cuda::formatBytes(n + (std::size_t(1) << 30)) << " of free device memory";
    const ks::array::InclusiveScanKernel cumsum(*m_rt, "unsigned char", "(a+b) & 0b11111111");
    DeviceArray d = ks::array::zeros(*m_rt, Dims{std::int64_t(n)}, DType::UInt8);
    d.fill(1);
    cumsum(d);
    const std::vector<std::uint8_t> result = d.toHost<std::uint8_t>();
    const std::size_t tiled = n / 256 * 256;
    std::size_t bad = 0, firstBad = 0;
    for (std::size_t i = 0; i < tiled; ++i)
        if (result[i] != std::uint8_t((i + 1) & 255) && bad++ == 0)
            firstBad = i;
    EXPECT_EQ(bad, 0u) << "first wrong element " << firstBad << " is " << int(result[firstBad]);
    const std::vector<std::uint8_t> tail(result.begin() + (std::ptrdiff_t(1) << 32), result.end());
    EXPECT_EQ(tail, (std::vector<std::uint8_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
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
    bool operator==(const Affine&) const = default;
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

namespace {

class ScanPaths : public ks::test::ArrayTest {};

// Sizes around the edges of both kernels' tiles (the general and the vector kernel tile
// differently) and of the look-back's 32-tile windows.
std::vector<std::int64_t> sweep(const ks::array::ScanKernel& scan, bool large)
{
    std::vector<std::int64_t> v = {0, 1, 2, 3, 4, 5, 31, 32, 33, 255, 256, 257, 1023, 1024, 1025, std::int64_t(1) << 20};
    for (const std::int64_t tile : {std::int64_t(scan.tileElements()), std::int64_t(scan.vectorTileElements())}) {
        if (tile == 0)
            continue;
        for (const std::int64_t n : {tile - 1, tile, tile + 1, 2 * tile - 3, 2 * tile, 31 * tile, 32 * tile + 7,
                                     33 * tile + 1})
            v.push_back(n);
    }
    if (large) {
        v.push_back(std::int64_t(1) << 24);
        v.push_back((std::int64_t(1) << 24) + 5);
    }
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

template <class T>
std::vector<T> randomValues(std::size_t n, unsigned seed, long long lo, long long hi)
{
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<long long> d(lo, hi);
    std::vector<T> v(n);
    for (auto& x : v)
        x = T(d(rng));
    return v;
}

// Runs `kernel` on the vector path (when allowed) and on the general path into poisoned outputs,
// out of place and in place, and compares all four with `want`.
template <class T>
void expectBothPaths(ks::array::Runtime& rt, ks::array::ScanKernel& kernel, const std::vector<T>& in,
                     const std::vector<T>& want, T poison)
{
    const DeviceArray input = ks::array::fromHost(rt, in);
    for (const bool vector : {true, false}) {
        SCOPED_TRACE(vector ? "vector path" : "general path");
        kernel.setVectorPath(vector);
        const DeviceArray out = ks::array::fromHost(rt, std::vector<T>(in.size(), poison));
        if (!in.empty()) {
            EXPECT_EQ(kernel.takesVectorPath(input.data(), out.data()),
                      vector && ks::array::scanHasVectorKernel(sizeof(T)));
        }
        kernel(input, out);
        const std::vector<T> got = out.toHost<T>();
        std::size_t bad = 0, first = 0;
        for (std::size_t i = 0; i < got.size(); ++i)
            if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0 && bad++ == 0)
                first = i;
        EXPECT_EQ(bad, 0u) << "out of place, first bad element " << first << " of " << got.size();
        EXPECT_EQ(input.toHost<T>() == in, true) << "the input is left alone";

        const DeviceArray data = ks::array::fromHost(rt, in);
        kernel(data);
        const std::vector<T> inPlace = data.toHost<T>();
        bad = 0;
        for (std::size_t i = 0; i < inPlace.size(); ++i)
            if (std::memcmp(&inPlace[i], &want[i], sizeof(T)) != 0 && bad++ == 0)
                first = i;
        EXPECT_EQ(bad, 0u) << "in place, first bad element " << first;
    }
    kernel.setVectorPath(true);
}

// Host mirrors of ks::test::kAffinePreamble's affine (8 bytes: Affine, above) and affine16 (4 bytes).
struct Affine16 {
    std::uint16_t m, c;
    bool operator==(const Affine16&) const = default;
};

template <class A>
A compose(A a, A b)
{
    using W = decltype(a.m);
    return {W(a.m * b.m), W(a.c * b.m + b.c)};
}

template <class A>
std::vector<A> randomAffine(std::size_t n, unsigned seed)
{
    using W = decltype(A{}.m);
    std::mt19937 rng(seed);
    std::vector<A> v(n);
    for (auto& a : v)
        a = {W(rng() | 1u), W(rng())};
    return v;
}

// A DeviceArray holding `v`'s bytes (struct values ride in an unsigned array of the same size).
template <class A>
DeviceArray structArray(ks::array::Runtime& rt, const std::vector<A>& v)
{
    DeviceArray a = DeviceArray::empty(rt, Dims{std::int64_t(v.size())}, sizeof(A) == 8 ? DType::UInt64 : DType::UInt32);
    if (!v.empty())
        a.copyFromHost(v.data(), v.size() * sizeof(A));
    return a;
}

} // namespace

TEST_F(ScanPaths, Int32SumsInclusiveAndExclusive)
{
    ks::array::InclusiveScanKernel inc(*m_rt, "int", "a+b");
    ks::array::ExclusiveScanKernel exc(*m_rt, "int", "a+b", "0");
    for (const std::int64_t n : sweep(inc, true)) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const auto h = randomValues<std::int32_t>(std::size_t(n), unsigned(n) + 1, -1000, 1000);
        std::vector<std::int32_t> wantInc(h.size()), wantExc(h.size());
        std::int32_t s = 0;
        for (std::size_t i = 0; i < h.size(); ++i) {
            wantExc[i] = s;
            s += h[i];
            wantInc[i] = s;
        }
        expectBothPaths(*m_rt, inc, h, wantInc, std::int32_t(0x7eadbeef));
        expectBothPaths(*m_rt, exc, h, wantExc, std::int32_t(0x7eadbeef));
    }
}

TEST_F(ScanPaths, Int64SumsAndMaxima)
{
    ks::array::InclusiveScanKernel inc(*m_rt, "long long", "a+b");
    ks::array::ExclusiveScanKernel runMax(*m_rt, "long long", "a > b ? a : b", "(-9223372036854775807LL - 1)");
    for (const std::int64_t n : sweep(inc, false)) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const auto h = randomValues<std::int64_t>(std::size_t(n), unsigned(n) + 2, -(1LL << 40), 1LL << 40);
        std::vector<std::int64_t> wantInc(h.size()), wantMax(h.size());
        std::int64_t s = 0, m = std::numeric_limits<std::int64_t>::min();
        for (std::size_t i = 0; i < h.size(); ++i) {
            s += h[i];
            wantInc[i] = s;
            wantMax[i] = m;
            m = std::max(m, h[i]);
        }
        expectBothPaths(*m_rt, inc, h, wantInc, std::int64_t(-7));
        expectBothPaths(*m_rt, runMax, h, wantMax, std::int64_t(-7));
    }
}

TEST_F(ScanPaths, NonCommutativeOperatorsOfFourAndEightBytes)
{
    ks::array::InclusiveScanKernel inc8(*m_rt, "affine", "compose(a, b)", "", ks::test::kAffinePreamble);
    ks::array::ExclusiveScanKernel exc4(*m_rt, "affine16", "compose16(a, b)", "affine16{1, 0}", ks::test::kAffinePreamble);
    ASSERT_EQ(inc8.valueSize(), 8u);
    ASSERT_EQ(exc4.valueSize(), 4u);
    for (const std::int64_t n : sweep(inc8, false)) {
        SCOPED_TRACE("n = " + std::to_string(n));
        for (const bool vector : {true, false}) {
            SCOPED_TRACE(vector ? "vector path" : "general path");
            {
                const auto h = randomAffine<Affine>(std::size_t(n), unsigned(n) + 3);
                inc8.setVectorPath(vector);
                const DeviceArray data = structArray(*m_rt, h);
                inc8(data);
                std::vector<Affine> got(h.size());
                if (n)
                    data.copyToHost(got.data(), got.size() * sizeof(Affine));
                Affine acc{1, 0};
                std::size_t bad = 0;
                for (std::size_t i = 0; i < h.size(); ++i) {
                    acc = compose(acc, h[i]);
                    bad += !(got[i] == acc);
                }
                EXPECT_EQ(bad, 0u) << "8-byte inclusive";
            }
            {
                const auto h = randomAffine<Affine16>(std::size_t(n), unsigned(n) + 4);
                exc4.setVectorPath(vector);
                const DeviceArray in = structArray(*m_rt, h);
                const DeviceArray out = structArray(*m_rt, std::vector<Affine16>(h.size(), Affine16{0xdead, 0xbeef}));
                exc4(in, out);
                std::vector<Affine16> got(h.size());
                if (n)
                    out.copyToHost(got.data(), got.size() * sizeof(Affine16));
                Affine16 acc{1, 0};
                std::size_t bad = 0;
                for (std::size_t i = 0; i < h.size(); ++i) {
                    bad += !(got[i] == acc);
                    acc = compose(acc, h[i]);
                }
                EXPECT_EQ(bad, 0u) << "4-byte exclusive";
            }
        }
    }
}

TEST_F(ScanPaths, MisalignedViewsTakeTheGeneralKernel)
{
    const ks::array::InclusiveScanKernel inc(*m_rt, "int", "a+b");
    const std::int64_t n = 3 * inc.tileElements() + 17;
    const auto h = randomValues<std::int32_t>(std::size_t(n) + 8, 11, -9, 9);
    for (const std::int64_t start : {1, 2, 3, 4}) {
        SCOPED_TRACE("start " + std::to_string(start));
        const DeviceArray base = ks::array::fromHost(*m_rt, h);
        const DeviceArray view = base.slice(ks::array::Slice::range(start, start + n));
        EXPECT_EQ(inc.takesVectorPath(view.data(), view.data()), start % 4 == 0);
        inc(view);
        const auto got = base.toHost<std::int32_t>();
        std::int32_t s = 0;
        for (std::int64_t i = 0; i < n + 8; ++i) {
            const std::size_t k = std::size_t(i);
            if (i < start || i >= start + n) {
                ASSERT_EQ(got[k], h[k]) << "untouched " << i;
            } else {
                s += h[k];
                ASSERT_EQ(got[k], s) << i;
            }
        }
    }
}

TEST_F(ScanPaths, FloatsReproducibleOnEachPath)
{
    ks::rng::Generator gen(ks::rng::GeneratorType::Philox4x32_10, 404);
    ks::array::InclusiveScanKernel inc(*m_rt, "float", "a+b");
    const std::int64_t n = 5 * inc.tileElements() * 32 + 9; // several look-back windows
    const DeviceArray in = ks::rng::rand(gen, *m_rt, Dims{n});
    const auto h = in.toHost<float>();
    for (const bool vector : {true, false}) {
        SCOPED_TRACE(vector ? "vector path" : "general path");
        inc.setVectorPath(vector);
        std::vector<float> first;
        for (int run = 0; run < 3; ++run) {
            const DeviceArray out = ks::array::fromHost(*m_rt, std::vector<float>(std::size_t(n), std::nanf("")));
            inc(in, out);
            const auto got = out.toHost<float>();
            if (run == 0) {
                first = got;
                double s = 0;
                std::size_t bad = 0;
                for (std::size_t i = 0; i < h.size(); ++i) {
                    s += h[i];
                    bad += !(std::abs(got[i] - s) <= 1e-4 * s + 1e-6);
                }
                EXPECT_EQ(bad, 0u);
            } else {
                EXPECT_EQ(std::memcmp(first.data(), got.data(), got.size() * sizeof(float)), 0) << "same bits, run " << run;
            }
        }
    }
}

TEST_F(ScanPaths, QuarterBillionInt32OnTheVectorPath)
{
    // The bench's size (256M elements: 65536 tiles, the look-back far from tile 0), plus a partial tile.
    const ks::array::InclusiveScanKernel inc(*m_rt, "int", "a+b");
    const std::int64_t n = (std::int64_t(1) << 28) + 3;
    const auto h = randomValues<std::int32_t>(std::size_t(n), 12, -3, 3);
    const DeviceArray in = ks::array::fromHost(*m_rt, h);
    const DeviceArray out = ks::array::fromHost(*m_rt, std::vector<std::int32_t>(std::size_t(n), 0x7eadbeef));
    ASSERT_TRUE(inc.takesVectorPath(in.data(), out.data()));
    inc(in, out);
    const auto got = out.toHost<std::int32_t>();
    std::int32_t s = 0;
    std::size_t bad = 0, first = 0;
    for (std::size_t i = 0; i < h.size(); ++i) {
        s += h[i];
        if (got[i] != s && bad++ == 0)
            first = i;
    }
    EXPECT_EQ(bad, 0u) << "first bad element " << first;
}
