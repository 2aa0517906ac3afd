// cuRAND on a device: PyCUDA's test_random and test_curand_wrappers (also at 8 and 16 GB),
// statistics of every generator x distribution x dtype at 10^6 samples (mean and variance within a
// few standard errors), reproducibility (same seed, same bits), odd lengths and misaligned views,
// raw-pointer views.
#include "ks/array/runtime.hpp"
#include "ks/core/error.hpp"
#include "ks/cuda/memory.hpp"
#include "ks/rng/fill.hpp"
#include "ks/rng/generator.hpp"

#include "array_test_support.hpp"

#include <cstdlib>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

namespace {

using ks::array::DeviceArray;
using ks::array::Dims;
using ks::array::DType;
using ks::rng::Generator;
using ks::rng::GeneratorType;

class Random : public ks::test::ArrayTest {
protected:
    // An array poisoned with NaN (floats) or a marker (integers), so unwritten elements show.
    DeviceArray poisoned(std::int64_t n, DType dtype) { return ks::test::poisonedArray(*m_rt, n, dtype); }
};

struct Moments {
    double mean = 0, variance = 0;
    std::size_t nonFinite = 0;
};

template <class T>
Moments moments(const std::vector<T>& v)
{
    Moments m;
    double s = 0, s2 = 0;
    for (T x : v) {
        const double d = double(x);
        if (!std::isfinite(d)) {
            ++m.nonFinite;
            continue;
        }
        s += d;
        s2 += d * d;
    }
    const double n = double(v.size());
    m.mean = s / n;
    m.variance = s2 / n - m.mean * m.mean;
    return m;
}

std::vector<GeneratorType> pyCudaGenerators()
{
    return {GeneratorType::Xorwow,  GeneratorType::Sobol32,          GeneratorType::ScrambledSobol32,
            GeneratorType::Sobol64, GeneratorType::ScrambledSobol64, GeneratorType::Mrg32k3a};
}

} // namespace

TEST_F(Random, PyCudaRandIsInZeroOne)
{
    Generator gen(GeneratorType::Xorwow, 0);
    for (const DType dtype : {DType::Float32, DType::Float64}) {
        const DeviceArray a = ks::rng::rand(gen, *m_rt, Dims{10, 100}, dtype);
        EXPECT_EQ(a.shape(), (Dims{10, 100}));
        if (dtype == DType::Float32) {
            for (float x : a.toHost<float>())
                ASSERT_TRUE(x >= 0 && x < 1) << x;
        } else {
            for (double x : a.toHost<double>())
                ASSERT_TRUE(x >= 0 && x < 1) << x;
        }
    }
}

TEST_F(Random, PyCudaCurandWrappers)
{
    for (const GeneratorType type : pyCudaGenerators()) {
        SCOPED_TRACE(std::string(ks::rng::generatorName(type)));
        Generator gen(type);
        for (const DType dtype : {DType::Float32, DType::Float64}) {
            for (std::int64_t n : {10000, 10001}) {
                DeviceArray a = poisoned(n, dtype);
                ks::rng::fillNormal(gen, a);
                EXPECT_EQ(dtype == DType::Float32 ? moments(a.toHost<float>()).nonFinite
                                                  : moments(a.toHost<double>()).nonFinite,
                          0u);
                DeviceArray l = poisoned(n, dtype);
                ks::rng::fillLogNormal(gen, l, 10.0, 3.0);
            }
            DeviceArray u = poisoned(10000, dtype);
            ks::rng::fillUniform(gen, u);
            if (dtype == DType::Float32) {
                for (float x : u.toHost<float>())
                    ASSERT_TRUE(x >= -1 && x <= 1) << x;
            } else {
                for (double x : u.toHost<double>())
                    ASSERT_TRUE(x >= -1 && x <= 1) << x;
            }
        }
        DeviceArray bits = poisoned(10000, ks::rng::hasNativeBits64(type) ? DType::UInt64 : DType::UInt32);
        ks::rng::fillUniform(gen, bits);
        DeviceArray counts = poisoned(10000, DType::UInt32);
        ks::rng::fillPoisson(gen, counts, 13.0);
        // fill_poisson(a) on 10^6 elements filled with 10: PyCUDA draws each element with its own
        // value as lambda (in-place, float32, float64 and uint32) and asserts nothing (its statistics
        // check is commented out). All lambdas are 10, so the uint32 case is a Poisson(10) fill; the
        // engine's Poisson writes uint32 only, so the float cases have no translation.
        DeviceArray inPlace = DeviceArray::empty(*m_rt, Dims{1000000}, DType::UInt32);
        inPlace.fill(10);
        ks::rng::fillPoisson(gen, inPlace, 10.0);
    }
}

namespace {

// test_curand_wrappers_8gb / _16gb: PyCUDA's wrappers at 2^31 elements of 4 bytes (8gb: beyond the
// signed 32-bit range) or 2^32 of 4 bytes and 2^31 of 8 bytes (16gb: beyond the unsigned range).
// Differences, each forced by what the engine offers: int32 takes the raw words as uint32 (the same
// bytes); the Sobol64 family gives 64-bit words, so its raw fills write the same bytes as half as
// many uint64; fill_poisson's float arrays (a per-element lambda) have no translation, and its
// uint32 array, all tens, is a Poisson(10) fill. The uniform values are checked in [-1, 1] and the
// Poisson fraction of 9s against scipy's pmf(9, 10) = 0.12511 within 0.005, as there.
void curandWrappersAtScale(ks::array::Runtime& rt, bool sixteen)
{
    const std::int64_t two31 = std::int64_t(1) << 31, two32 = std::int64_t(1) << 32;
    auto count = [&](DType dtype) { return sixteen && dtype != DType::Float64 ? two32 : two31; };
    const std::vector<DType> dtypes =
        sixteen ? std::vector<DType>{DType::Float32, DType::Float64, DType::Int32, DType::UInt32}
                : std::vector<DType>{DType::Float32, DType::Int32, DType::UInt32};
    for (const GeneratorType type : pyCudaGenerators()) {
        SCOPED_TRACE(std::string(ks::rng::generatorName(type)));
        Generator gen(type);
        for (const DType dtype : dtypes) {
            SCOPED_TRACE(std::string(ks::array::dtypeName(dtype)));
            const std::int64_t s = count(dtype);
            const bool isFloat = dtype == DType::Float32 || dtype == DType::Float64;
            if (isFloat) {
                for (const std::int64_t n : {s, s + 1}) {
                    ks::rng::fillNormal(gen, DeviceArray::empty(rt, Dims{n}, dtype));
                    ks::rng::fillLogNormal(gen, DeviceArray::empty(rt, Dims{n}, dtype), 10.0, 3.0);
                }
            }
            const DeviceArray x = DeviceArray::empty(rt, Dims{s}, dtype);
            if (isFloat)
                ks::rng::fillUniform(gen, x);
            else
                ks::rng::fillUniform(gen, x.viewAs(ks::rng::hasNativeBits64(type) ? DType::UInt64 : DType::UInt32));
            if (isFloat) {
                std::size_t outside = 0;
                auto check = [&](const auto& values) {
                    for (const auto v : values)
                        outside += !(v >= -1 && v <= 1);
                };
                if (dtype == DType::Float32)
                    check(x.toHost<float>());
                else
                    check(x.toHost<double>());
                EXPECT_EQ(outside, 0u) << "uniform values outside [-1, 1]";
            }
        }
        ks::rng::fillPoisson(gen, DeviceArray::empty(rt, Dims{sixteen ? two32 : two31}, DType::UInt32), 13.0);
        DeviceArray a = DeviceArray::empty(rt, Dims{count(DType::UInt32)}, DType::UInt32);
        a.fill(10);
        ks::rng::fillPoisson(gen, a, 10.0);
        std::size_t nines = 0;
        for (const std::uint32_t v : a.toHost<std::uint32_t>())
            nines += v == 9;
        EXPECT_NEAR(double(nines) / double(a.size()), 0.12511, 0.005);
    }
}

} // namespace

TEST_F(Random, PyCudaCurandWrappers8gb)
{
    const std::size_t need = std::size_t(9) << 30;
    if (ks::cuda::memoryInfo().freeBytes < need)
        GTEST_SKIP() << "needs " << ks::cuda::formatBytes(need) << " of free device memory";
    curandWrappersAtScale(*m_rt, false);
}

TEST_F(Random, PyCudaCurandWrappers16gb)
{
    // Over 4 minutes on an H200 (the 8 GB one: 99 s): left to runs that ask for it.
    const char* big = std::getenv("KS_BIG_TESTS");
    if (!big || std::string(big) != "1")
        GTEST_SKIP() << "takes over 4 minutes (16 GB of numbers, copied back several times); KS_BIG_TESTS=1 runs it";
    const std::size_t need = std::size_t(17) << 30;
    if (ks::cuda::memoryInfo().freeBytes < need)
        GTEST_SKIP() << "needs " << ks::cuda::formatBytes(need) << " of free device memory";
    curandWrappersAtScale(*m_rt, true);
}

TEST_F(Random, StatisticsOfEveryGeneratorAndDistribution)
{
    const std::int64_t n = 1000000;
    const double se = 1.0 / std::sqrt(double(n)); // standard error factor
    for (const GeneratorType type : ks::rng::kAllGeneratorTypes) {
        SCOPED_TRACE(std::string(ks::rng::generatorName(type)));
        Generator gen(type, 42);
        for (const DType dtype : {DType::Float32, DType::Float64}) {
            SCOPED_TRACE(std::string(ks::array::dtypeName(dtype)));
            auto stats = [&](const DeviceArray& a) {
                return dtype == DType::Float32 ? moments(a.toHost<float>()) : moments(a.toHost<double>());
            };
            DeviceArray a = poisoned(n, dtype);
            ks::rng::fillUniform(gen, a);
            Moments m = stats(a);
            EXPECT_EQ(m.nonFinite, 0u);
            EXPECT_NEAR(m.mean, 0.5, 6 * std::sqrt(1.0 / 12) * se);
            EXPECT_NEAR(m.variance, 1.0 / 12, 6 * std::sqrt(1.0 / 180) * se); // var of U^2 terms

            ks::rng::fillNormal(gen, a, 2.0, 3.0);
            m = stats(a);
            EXPECT_EQ(m.nonFinite, 0u);
            EXPECT_NEAR(m.mean, 2.0, 6 * 3.0 * se);
            EXPECT_NEAR(m.variance, 9.0, 6 * std::sqrt(2.0) * 9.0 * se);

            const double mu = 0.0, sigma = 0.5;
            ks::rng::fillLogNormal(gen, a, mu, sigma);
            m = stats(a);
            const double wantMean = std::exp(mu + sigma * sigma / 2);
            const double wantVar = (std::exp(sigma * sigma) - 1) * std::exp(2 * mu + sigma * sigma);
            EXPECT_EQ(m.nonFinite, 0u);
            EXPECT_NEAR(m.mean, wantMean, 6 * std::sqrt(wantVar) * se);
            EXPECT_NEAR(m.variance, wantVar, 0.03 * wantVar);
        }
        DeviceArray counts = poisoned(n, DType::UInt32);
        ks::rng::fillPoisson(gen, counts, 13.0);
        const Moments p = moments(counts.toHost<std::uint32_t>());
        EXPECT_NEAR(p.mean, 13.0, 6 * std::sqrt(13.0) * se);
        EXPECT_NEAR(p.variance, 13.0, 6 * std::sqrt(2 * 169.0 + 13.0) * se);

        if (ks::rng::hasNativeBits64(type)) {
            DeviceArray bits = poisoned(n, DType::UInt64);
            ks::rng::fillUniform(gen, bits);
            const Moments b = moments(bits.toHost<std::uint64_t>());
            const double half = std::ldexp(1.0, 63);
            EXPECT_NEAR(b.mean / half, 1.0, 6 * std::sqrt(1.0 / 3) * se);
        } else {
            DeviceArray bits = poisoned(n, DType::UInt32);
            ks::rng::fillUniform(gen, bits);
            const Moments b = moments(bits.toHost<std::uint32_t>());
            const double half = std::ldexp(1.0, 31);
            EXPECT_NEAR(b.mean / half, 1.0, 6 * std::sqrt(1.0 / 3) * se);
            EXPECT_NEAR(b.variance / (half * half), 1.0 / 3, 6 * std::sqrt(4.0 / 45) * se);
        }
    }
}

TEST_F(Random, SameSeedSameBitsAndReseedRepeats)
{
    for (const GeneratorType type : ks::rng::kAllGeneratorTypes) {
        SCOPED_TRACE(std::string(ks::rng::generatorName(type)));
        Generator g1(type, 77), g2(type, 77);
        DeviceArray a = poisoned(100001, DType::Float32), b = poisoned(100001, DType::Float32);
        ks::rng::fillNormal(g1, a);
        ks::rng::fillNormal(g2, b);
        const auto ha = a.toHost<float>(), hb = b.toHost<float>();
        EXPECT_EQ(std::memcmp(ha.data(), hb.data(), ha.size() * 4), 0);
        g1.reseed(77);
        ks::rng::fillNormal(g1, b);
        const auto hc = b.toHost<float>();
        EXPECT_EQ(std::memcmp(ha.data(), hc.data(), ha.size() * 4), 0) << "reseed restarts the sequence";
        Generator g3(type, 78);
        ks::rng::fillNormal(g3, b);
        const auto hd = b.toHost<float>();
        EXPECT_NE(std::memcmp(ha.data(), hd.data(), ha.size() * 4), 0) << "another seed, other numbers";
    }
}

TEST_F(Random, OddLengthsMisalignedViewsAndRawPointers)
{
    Generator gen(GeneratorType::Philox4x32_10, 3);
    DeviceArray base = poisoned(1001, DType::Float32);
    // Elements 1..999: starts off the pair alignment, odd length.
    const DeviceArray inner = base.slice(ks::array::Slice::range(1, 1000));
    ks::rng::fillNormal(gen, inner);
    const auto h = base.toHost<float>();
    EXPECT_TRUE(std::isnan(h[0]));
    EXPECT_TRUE(std::isnan(h[1000]));
    for (std::size_t i = 1; i < 1000; ++i)
        ASSERT_TRUE(std::isfinite(h[i])) << i;
    // A view over a raw device pointer, as a GL buffer mapped for this frame would be.
    DeviceArray owner = poisoned(4097, DType::Float64);
    const DeviceArray raw = DeviceArray::view(*m_rt, owner.data(), DType::Float64, Dims{4097});
    ks::rng::fillLogNormal(gen, raw, 0.0, 1.0);
    for (double x : owner.toHost<double>())
        ASSERT_TRUE(std::isfinite(x) && x > 0) << x;
}

TEST_F(Random, UndefinedRequestsAreUsageErrors)
{
    Generator sobol64(GeneratorType::Sobol64);
    Generator philox(GeneratorType::Philox4x32_10);
    EXPECT_THROW(ks::rng::fillPoisson(philox, poisoned(10, DType::Float32), 2.0), ks::Error);
    EXPECT_THROW(ks::rng::fillUniform(sobol64, poisoned(10, DType::UInt32)), ks::Error);
    EXPECT_THROW(ks::rng::fillUniform(philox, poisoned(10, DType::UInt64)), ks::Error);
    EXPECT_THROW(ks::rng::fillNormal(philox, poisoned(10, DType::Int32)), ks::Error);
    EXPECT_THROW(ks::rng::fillPoisson(philox, poisoned(10, DType::UInt32), -1.0), ks::Error);
}

TEST_F(Random, StridedViewsFillOnlyTheirElements)
{
    Generator gen(GeneratorType::Philox4x32_10, 11);
    const DeviceArray base = poisoned(2001, DType::Float32);
    ks::rng::fillNormal(gen, base.slice(ks::array::Slice::from(1, 2))); // odd elements
    const auto h = base.toHost<float>();
    for (std::size_t i = 0; i < h.size(); ++i)
        ASSERT_EQ(std::isnan(h[i]), i % 2 == 0) << i;
}

// What a pipeline's random stage does when a run resumes at frame F on cuRAND's host generator (a
// restored GPU process): one fill tells how many values a fill takes; where rng::seekingIsExact says
// so, seeking to F times that draws what the (F+1)-th fill of an uninterrupted run draws; elsewhere
// (XORWOW's and MRG32k3a's normals, measured) the stage draws the F fills again, which must also
// land there. Odd lengths (a pairwise tail through the scratch buffer), floats and doubles, every
// generator with an offset, and poisson.
TEST_F(Random, ResumingAtAFillGoesOnAsAnUninterruptedRun)
{
    using ks::rng::FillPath;
    struct Case {
        GeneratorType type;
        int distribution; // 0 uniform, 1 normal, 2 log-normal, 3 poisson
        DType dtype;
    };
    std::vector<Case> cases;
    for (const GeneratorType type : ks::rng::kAllGeneratorTypes) {
        if (!ks::rng::supportsOffset(type) || ks::rng::hasNativeBits64(type))
            continue;
        cases.push_back({type, 0, DType::Float32});
        cases.push_back({type, 1, DType::Float64});
        cases.push_back({type, 2, DType::Float32});
        cases.push_back({type, 3, DType::UInt32});
    }
    auto bytes = [](const DeviceArray& a) {
        std::vector<std::uint8_t> out(std::size_t(a.nbytes()));
        if (a.dtype() == DType::Float32)
            std::memcpy(out.data(), a.toHost<float>().data(), out.size());
        else if (a.dtype() == DType::Float64)
            std::memcpy(out.data(), a.toHost<double>().data(), out.size());
        else
            std::memcpy(out.data(), a.toHost<std::uint32_t>().data(), out.size());
        return out;
    };
    int seeks = 0, replays = 0;
    for (const Case& c : cases) {
        const bool pairwise = c.distribution == 1 || c.distribution == 2;
        const bool exact = ks::rng::seekingIsExact(c.type, pairwise);
        SCOPED_TRACE(std::string(ks::rng::generatorName(c.type)) + " distribution " + std::to_string(c.distribution) +
                     " " + std::string(ks::array::dtypeName(c.dtype)) + (exact ? " (seek)" : " (replay)"));
        auto fill = [&](Generator& g, const DeviceArray& a) {
            if (c.distribution == 0)
                ks::rng::fillUniform(g, a);
            else if (c.distribution == 1)
                ks::rng::fillNormal(g, a, 1.0, 2.0);
            else if (c.distribution == 2)
                ks::rng::fillLogNormal(g, a, 0.0, 0.5);
            else
                ks::rng::fillPoisson(g, a, 3.5);
        };
        const std::int64_t n = 1001;
        // The host generator for every fill (a Philox stage's poisson fills are host fills too).
        Generator run(c.type, 21, FillPath::CurandHost);
        const DeviceArray frame = poisoned(n, c.dtype);
        for (int f = 0; f < 4; ++f)
            fill(run, frame);
        Generator resumed(c.type, 21, FillPath::CurandHost);
        const DeviceArray fourth = poisoned(n, c.dtype);
        fill(resumed, fourth);
        const std::uint64_t perFill = resumed.drawn();
        EXPECT_GE(perFill, std::uint64_t(n));
        EXPECT_EQ(run.drawn(), 4 * perFill);
        if (exact) {
            resumed.seekDrawn(3 * perFill);
            ++seeks;
        } else {
            fill(resumed, fourth);
            fill(resumed, fourth);
            ++replays;
        }
        fill(resumed, fourth);
        EXPECT_TRUE(bytes(frame) == bytes(fourth)) << "the resumed fourth fill differs from the uninterrupted run's";
    }
    EXPECT_EQ(replays, 4) << "XORWOW and MRG32k3a normals and log-normals replay; the rest seek";
    std::printf("[ resume ] %d cases seek, %d replay\n", seeks, replays);
    Generator mt(GeneratorType::Mt19937, 1);
    EXPECT_THROW(mt.seekDrawn(10), ks::Error) << "the Mersenne twisters have no offset";
}
