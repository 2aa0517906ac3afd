// The Philox fill kernels of ks::rng::Generator (FillPath::Kernels): every element equals cuRAND's
// device API at the documented offset (reference kernels in philox_reference.cu), the position
// advances by whole Philox blocks so successive fills continue the sequence, alignment and length
// change nothing, statistics hold at 10^6 samples, and FillPath::CurandHost still reaches cuRAND's
// host generator.
#include "ks/array/runtime.hpp"
#include "ks/core/error.hpp"
#include "ks/rng/fill.hpp"
#include "ks/rng/generator.hpp"

#include "array_test_support.hpp"
#include "philox_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace {

using ks::array::DeviceArray;
using ks::array::Dims;
using ks::array::DType;
using ks::rng::FillPath;
using ks::rng::Generator;
using ks::rng::GeneratorType;

enum Kind { kUniform = 0, kNormal = 1, kLogNormal = 2 };

class PhiloxFills : public ks::test::ArrayTest {
protected:
    DeviceArray poisoned(std::int64_t n, DType dtype) { return ks::test::poisonedArray(*m_rt, n, dtype); }

    cudaStream_t stream() const { return reinterpret_cast<cudaStream_t>(m_rt->stream()); }

    static void fill(Generator& gen, const DeviceArray& a, Kind kind, double mean, double stddev)
    {
        if (kind == kUniform)
            ks::rng::fillUniform(gen, a);
        else if (kind == kNormal)
            ks::rng::fillNormal(gen, a, mean, stddev);
        else
            ks::rng::fillLogNormal(gen, a, mean, stddev);
    }

    // The device-API reference for `n` elements of `dtype` starting at Philox block `block`.
    DeviceArray reference(std::int64_t n, DType dtype, std::uint64_t seed, std::uint64_t block, Kind kind, double mean,
                          double stddev)
    {
        DeviceArray r = poisoned(n, dtype);
        m_rt->synchronize();
        cudaError_t e = cudaSuccess;
        if (dtype == DType::Float32)
            e = ks::test::philoxReferenceFloat(r.ptr<float>(), n, seed, block, kind, float(mean), float(stddev), stream());
        else if (dtype == DType::Float64)
            e = ks::test::philoxReferenceDouble(r.ptr<double>(), n, seed, block, kind, mean, stddev, stream());
        else
            e = ks::test::philoxReferenceBits(r.ptr<std::uint32_t>(), n, seed, block, stream());
        EXPECT_EQ(e, cudaSuccess) << cudaGetErrorString(e);
        return r;
    }
};

std::uint64_t perBlock(DType dtype)
{
    return dtype == DType::Float64 ? 2 : 4;
}

// Element-wise agreement: bits for uniform values and words, a relative 1e-6 (float) or 1e-14
// (double) for normals (the same formula compiled in two kernels may contract differently; float
// normals take their own logarithm). Log-normals are compared by their logarithms, the normal
// values they are exp of: exp turns an absolute difference d there into a relative d here, which in
// the far tail (mean + stddev * z of 8 or more) exceeds 1e-6 for a difference of a few ulp.
template <class T>
void expectAgree(const std::vector<T>& got, const std::vector<T>& want, bool exact, bool logScale = false)
{
    ASSERT_EQ(got.size(), want.size());
    const double tol = sizeof(T) == 8 ? 1e-14 : 1e-6;
    std::size_t bad = 0, first = got.size();
    for (std::size_t i = 0; i < got.size(); ++i) {
        double g = double(got[i]), w = double(want[i]);
        if (logScale)
            g = std::log(g), w = std::log(w);
        const bool ok = exact ? std::memcmp(&got[i], &want[i], sizeof(T)) == 0
                              : (std::isfinite(g) && std::abs(g - w) <= tol * (1 + std::abs(w)));
        if (!ok && bad++ == 0)
            first = i;
    }
    EXPECT_EQ(bad, 0u) << "first at " << first << ": " << double(got[first]) << " vs " << double(want[first]);
}

void expectSame(const DeviceArray& a, const DeviceArray& b, bool exact, bool logScale = false)
{
    if (a.dtype() == DType::Float32)
        expectAgree(a.toHost<float>(), b.toHost<float>(), exact, logScale);
    else if (a.dtype() == DType::Float64)
        expectAgree(a.toHost<double>(), b.toHost<double>(), exact, logScale);
    else
        expectAgree(a.toHost<std::uint32_t>(), b.toHost<std::uint32_t>(), true);
}

} // namespace

TEST_F(PhiloxFills, PhiloxUsesTheKernelsByDefault)
{
    EXPECT_TRUE(Generator(GeneratorType::Philox4x32_10, 1).usesKernels());
    EXPECT_FALSE(Generator(GeneratorType::Philox4x32_10, 1, FillPath::CurandHost).usesKernels());
    EXPECT_FALSE(Generator(GeneratorType::Xorwow, 1).usesKernels());
}

TEST_F(PhiloxFills, EveryElementMatchesTheDeviceApi)
{
    const std::uint64_t seed = 0x0123456789abcdefULL; // both key words non-zero
    for (const DType dtype : {DType::Float32, DType::Float64, DType::UInt32}) {
        for (const Kind kind : {kUniform, kNormal, kLogNormal}) {
            if (dtype == DType::UInt32 && kind != kUniform)
                continue;
            for (const std::int64_t n : {1, 2, 3, 4, 5, 7, 8, 9, 255, 256, 1023, 1024, 1025, 4097, 1000003}) {
                SCOPED_TRACE(std::string(ks::array::dtypeName(dtype)) + " kind " + std::to_string(kind) + " n " +
                             std::to_string(n));
                Generator gen(GeneratorType::Philox4x32_10, seed);
                // Start mid-sequence: a fill of 13 elements first.
                fill(gen, poisoned(13, dtype), kind, 0.0, 1.0);
                const std::uint64_t block = gen.philoxBlock();
                EXPECT_EQ(block, (13 + perBlock(dtype) - 1) / perBlock(dtype));
                const double mean = kind == kLogNormal ? 0.25 : 2.0, stddev = kind == kLogNormal ? 0.5 : 3.0;
                const DeviceArray a = poisoned(n, dtype);
                fill(gen, a, kind, mean, stddev);
                EXPECT_EQ(gen.philoxBlock(), block + (std::uint64_t(n) + perBlock(dtype) - 1) / perBlock(dtype));
                expectSame(a, reference(n, dtype, seed, block, kind, mean, stddev), kind == kUniform, kind == kLogNormal);
            }
        }
    }
}

TEST_F(PhiloxFills, LargeNormalFillsLoopOverTheirCappedGrid)
{
    // Float normals run from a grid of at most 16 blocks per SM that loops (more than 17M elements
    // on a 132-SM device loop at least twice); every element must still be the device API's.
    const std::uint64_t seed = 77;
    const std::int64_t n = 40000003; // odd: the last Philox block is partial
    for (const Kind kind : {kNormal, kLogNormal}) {
        SCOPED_TRACE("kind " + std::to_string(kind));
        Generator gen(GeneratorType::Philox4x32_10, seed);
        fill(gen, poisoned(5, DType::Float32), kind, 0.0, 1.0);
        const std::uint64_t block = gen.philoxBlock();
        const DeviceArray a = poisoned(n, DType::Float32);
        fill(gen, a, kind, 0.5, 1.5);
        expectSame(a, reference(n, DType::Float32, seed, block, kind, 0.5, 1.5), false, kind == kLogNormal);
    }
}

TEST_F(PhiloxFills, SuccessiveFillsContinueTheSequence)
{
    for (const DType dtype : {DType::Float32, DType::Float64}) {
        SCOPED_TRACE(std::string(ks::array::dtypeName(dtype)));
        const std::int64_t v = std::int64_t(perBlock(dtype));
        Generator one(GeneratorType::Philox4x32_10, 5), two(GeneratorType::Philox4x32_10, 5);
        const DeviceArray whole = poisoned(8 * v, dtype);
        ks::rng::fillNormal(one, whole);
        // 2 blocks and a part of a third, then the rest: the second fill starts at block 3.
        const DeviceArray first = poisoned(2 * v + 1, dtype), second = poisoned(5 * v, dtype);
        ks::rng::fillNormal(two, first);
        ks::rng::fillNormal(two, second);
        EXPECT_EQ(two.philoxBlock(), 8u);
        expectSame(first, whole.slice(ks::array::Slice::to(2 * v + 1)).copy(), true);
        expectSame(second, whole.slice(ks::array::Slice::range(3 * v, 8 * v)).copy(), true);
        // Reseed restarts; another seed gives other numbers.
        two.reseed(5);
        EXPECT_EQ(two.philoxBlock(), 0u);
        const DeviceArray again = poisoned(8 * v, dtype);
        ks::rng::fillNormal(two, again);
        expectSame(again, whole, true);
        Generator other(GeneratorType::Philox4x32_10, 6);
        ks::rng::fillNormal(other, again);
        if (dtype == DType::Float32)
            EXPECT_NE(again.toHost<float>(), whole.toHost<float>());
        else
            EXPECT_NE(again.toHost<double>(), whole.toHost<double>());
    }
}

// What a pipeline's random stage does when a run resumes at frame F (a restored GPU process):
// seeking to F fills' worth of blocks draws what the (F+1)-th fill of an uninterrupted run draws.
TEST_F(PhiloxFills, SeekingToABlockDrawsWhatTheFillsBeforeWouldHaveLeft)
{
    for (const DType dtype : {DType::Float32, DType::Float64}) {
        SCOPED_TRACE(std::string(ks::array::dtypeName(dtype)));
        const std::int64_t n = 1001;
        const bool doubles = dtype == DType::Float64;
        EXPECT_EQ(Generator::philoxBlocks(std::size_t(n), doubles), doubles ? 501u : 251u);
        Generator run(GeneratorType::Philox4x32_10, 9);
        const DeviceArray frame = poisoned(n, dtype);
        for (int f = 0; f < 4; ++f)
            ks::rng::fillNormal(run, frame);
        EXPECT_EQ(run.philoxBlock(), 3 * Generator::philoxBlocks(std::size_t(n), doubles) +
                                         Generator::philoxBlocks(std::size_t(n), doubles));
        Generator resumed(GeneratorType::Philox4x32_10, 9);
        resumed.seekPhiloxBlock(3 * Generator::philoxBlocks(std::size_t(n), doubles));
        const DeviceArray fourth = poisoned(n, dtype);
        ks::rng::fillNormal(resumed, fourth);
        expectSame(fourth, frame, true);
    }
    Generator host(GeneratorType::Philox4x32_10, 9, FillPath::CurandHost);
    EXPECT_THROW(host.seekPhiloxBlock(4), ks::Error) << "cuRAND's host generators have no block position";
}

TEST_F(PhiloxFills, AlignmentDoesNotChangeTheNumbers)
{
    // Views starting 1, 2 and 3 elements past a 16-byte boundary take the scalar store path; they
    // must hold exactly what an aligned fill from the same position holds, and nothing around them
    // may be touched.
    for (const std::int64_t start : {1, 2, 3}) {
        for (const std::int64_t n : {1, 6, 4099}) {
            SCOPED_TRACE("start " + std::to_string(start) + " n " + std::to_string(n));
            Generator g1(GeneratorType::Philox4x32_10, 21), g2(GeneratorType::Philox4x32_10, 21);
            const DeviceArray base = poisoned(n + 8, DType::Float32);
            const DeviceArray view = base.slice(ks::array::Slice::range(start, start + n));
            ks::rng::fillUniform(g1, view);
            const DeviceArray aligned = poisoned(n, DType::Float32);
            ks::rng::fillUniform(g2, aligned);
            expectSame(view.copy(), aligned, true);
            const auto h = base.toHost<float>();
            for (std::int64_t i = 0; i < n + 8; ++i)
                ASSERT_EQ(std::isnan(h[std::size_t(i)]), i < start || i >= start + n) << i;
        }
    }
}

TEST_F(PhiloxFills, StatisticsAtAMillionSamples)
{
    const std::int64_t n = 1000000 + 3; // a partial last block
    const double se = 1.0 / std::sqrt(double(n));
    for (const FillPath path : {FillPath::Kernels, FillPath::CurandHost}) {
        SCOPED_TRACE(path == FillPath::Kernels ? "kernels" : "cuRAND host API");
        Generator gen(GeneratorType::Philox4x32_10, 31337, path);
        for (const DType dtype : {DType::Float32, DType::Float64}) {
            SCOPED_TRACE(std::string(ks::array::dtypeName(dtype)));
            auto host = [&](const DeviceArray& a) {
                if (dtype == DType::Float32) {
                    const auto f = a.toHost<float>();
                    return std::vector<double>(f.begin(), f.end());
                }
                return a.toHost<double>();
            };
            auto moments = [](const std::vector<double>& v, double& mean, double& var) {
                double s = 0, s2 = 0;
                for (double x : v)
                    s += x, s2 += x * x;
                mean = s / double(v.size());
                var = s2 / double(v.size()) - mean * mean;
            };
            const DeviceArray a = poisoned(n, dtype);
            ks::rng::fillUniform(gen, a);
            std::vector<double> h = host(a);
            const auto [lo, hi] = std::minmax_element(h.begin(), h.end());
            EXPECT_GT(*lo, 0.0) << "uniform is in (0, 1]";
            EXPECT_LE(*hi, 1.0);
            EXPECT_LT(*lo, 1e-4); // a million samples reach both ends
            EXPECT_GT(*hi, 1 - 1e-4);
            double mean = 0, var = 0;
            moments(h, mean, var);
            EXPECT_NEAR(mean, 0.5, 6 * std::sqrt(1.0 / 12) * se);
            EXPECT_NEAR(var, 1.0 / 12, 6 * std::sqrt(1.0 / 180) * se);

            ks::rng::fillNormal(gen, a, -1.0, 2.0);
            h = host(a);
            moments(h, mean, var);
            EXPECT_TRUE(std::all_of(h.begin(), h.end(), [](double x) { return std::isfinite(x); }));
            EXPECT_NEAR(mean, -1.0, 6 * 2.0 * se);
            EXPECT_NEAR(var, 4.0, 6 * std::sqrt(2.0) * 4.0 * se);
            // Third and fourth central moments of a normal: 0 and 3 sigma^4 (catches a broken
            // Box-Muller pairing that the first two moments miss).
            double m3 = 0, m4 = 0;
            for (double x : h) {
                const double d = (x - mean) / 2.0;
                m3 += d * d * d, m4 += d * d * d * d;
            }
            EXPECT_NEAR(m3 / double(n), 0.0, 6 * std::sqrt(15.0) * se);
            EXPECT_NEAR(m4 / double(n), 3.0, 6 * std::sqrt(96.0) * se);
            // Neighbours (one Box-Muller pair, and across pairs) are uncorrelated.
            for (std::size_t lag : {1u, 2u, 3u, 4u}) {
                double c = 0;
                for (std::size_t i = 0; i + lag < h.size(); ++i)
                    c += (h[i] - mean) * (h[i + lag] - mean);
                EXPECT_NEAR(c / double(h.size() - lag) / var, 0.0, 6 * se) << "lag " << lag;
            }
        }
        DeviceArray bits = poisoned(n, DType::UInt32);
        ks::rng::fillUniform(gen, bits);
        const auto b = bits.toHost<std::uint32_t>();
        double s = 0;
        std::size_t ones[32] = {};
        for (std::uint32_t w : b) {
            s += double(w);
            for (int k = 0; k < 32; ++k)
                ones[k] += (w >> k) & 1u;
        }
        EXPECT_NEAR(s / double(n) / std::ldexp(1.0, 31), 1.0, 6 * std::sqrt(1.0 / 3) * se);
        for (int k = 0; k < 32; ++k)
            EXPECT_NEAR(double(ones[k]) / double(n), 0.5, 6 * 0.5 * se) << "bit " << k;
    }
}

TEST_F(PhiloxFills, HostApiPathIsCuRandsOwnSequence)
{
    // The two paths are different sequences of the same generator; the host path repeats itself.
    Generator kernels(GeneratorType::Philox4x32_10, 8), host1(GeneratorType::Philox4x32_10, 8, FillPath::CurandHost),
        host2(GeneratorType::Philox4x32_10, 8, FillPath::CurandHost);
    const DeviceArray a = poisoned(4096, DType::Float32), b = poisoned(4096, DType::Float32),
                      c = poisoned(4096, DType::Float32);
    ks::rng::fillUniform(kernels, a);
    ks::rng::fillUniform(host1, b);
    ks::rng::fillUniform(host2, c);
    EXPECT_EQ(b.toHost<float>(), c.toHost<float>());
    EXPECT_NE(a.toHost<float>(), b.toHost<float>());
    EXPECT_EQ(host1.philoxBlock(), 0u) << "the host path does not move the kernel position";
}
