// Reductions on a device: ports of PyCUDA's test_gpuarray.py reduction tests (same inputs and
// tolerances), CUB-style size sweeps against host references computed from the downloaded inputs,
// the strided and misaligned paths, and run-to-run reproducibility.
#include "ks/array/reduction.hpp"
#include "ks/array/runtime.hpp"
#include "ks/core/error.hpp"
#include "ks/cuda/driver.hpp"
#include "ks/cuda/memory.hpp"
#include "ks/rng/fill.hpp"

#include "algorithm_test.hpp"
#include "array_test_support.hpp"

#include <algorithm>
#include <complex>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <vector>

namespace {

using ks::array::DeviceArray;
using ks::array::Dims;
using ks::array::DType;

class Reductions : public ks::test::ArrayTest {
protected:
    void SetUp() override
    {
        ArrayTest::SetUp();
        if (!IsSkipped())
            m_gen = ks::rng::Generator(ks::rng::GeneratorType::Philox4x32_10, 1234);
    }
    void TearDown() override
    {
        m_gen = ks::rng::Generator();
        ArrayTest::TearDown();
    }

    // PyCUDA's curand(shape, dtype): uniform [0, 1) floats; for int32, random words.
    DeviceArray curand(const Dims& shape, DType dtype = DType::Float32)
    {
        if (dtype == DType::Int32) {
            DeviceArray a = DeviceArray::empty(*m_rt, shape, DType::UInt32);
            ks::rng::fillUniform(m_gen, a);
            return a.viewAs(DType::Int32);
        }
        return ks::rng::rand(m_gen, *m_rt, shape, dtype);
    }
    template <class T>
    T scalar(const DeviceArray& a)
    {
        const std::vector<T> v = a.toHost<T>();
        EXPECT_EQ(v.size(), 1u);
        return v.empty() ? T{} : v[0];
    }

    bool scalarBool(const DeviceArray& a) { return scalar<std::uint8_t>(a.viewAs(DType::UInt8)) != 0; }

    ks::rng::Generator m_gen;
};

double relError(double got, double want)
{
    return std::abs(got - want) / std::abs(want);
}

} // namespace

// ----- PyCUDA ports

TEST_F(Reductions, PyCudaSum)
{
    const DeviceArray a = curand(Dims{200000});
    const std::vector<float> host = a.toHost<float>();
    double ref = 0;
    for (float v : host)
        ref += v;
    EXPECT_LT(relError(scalar<float>(ks::array::sum(a)), ref), 1e-4);
}

TEST_F(Reductions, PyCudaDotOverItsSeventeenSizes)
{
    for (std::int64_t n : {2, 3, 4, 5, 6, 7, 31, 32, 33, 127, 128, 129, 255, 256, 257, 16384 - 993, 20000}) {
        const DeviceArray a = curand(Dims{n});
        const DeviceArray b = curand(Dims{n});
        const std::vector<float> ha = a.toHost<float>(), hb = b.toHost<float>();
        double ref = 0;
        for (std::size_t i = 0; i < ha.size(); ++i)
            ref += double(ha[i]) * hb[i];
        EXPECT_LT(relError(scalar<float>(ks::array::dot(a, b)), ref), 1e-4) << "n = " << n;
    }
}

TEST_F(Reductions, PyCudaMinMax)
{
    for (const DType dtype : {DType::Float64, DType::Float32, DType::Int32}) {
        const DeviceArray a = curand(Dims{200000}, dtype);
        if (dtype == DType::Float64) {
            const auto h = a.toHost<double>();
            EXPECT_EQ(scalar<double>(ks::array::min(a)), *std::min_element(h.begin(), h.end()));
            EXPECT_EQ(scalar<double>(ks::array::max(a)), *std::max_element(h.begin(), h.end()));
        } else if (dtype == DType::Float32) {
            const auto h = a.toHost<float>();
            EXPECT_EQ(scalar<float>(ks::array::min(a)), *std::min_element(h.begin(), h.end()));
            EXPECT_EQ(scalar<float>(ks::array::max(a)), *std::max_element(h.begin(), h.end()));
        } else {
            const auto h = a.toHost<std::int32_t>();
            EXPECT_EQ(scalar<std::int32_t>(ks::array::min(a)), *std::min_element(h.begin(), h.end()));
            EXPECT_EQ(scalar<std::int32_t>(ks::array::max(a)), *std::max_element(h.begin(), h.end()));
        }
    }
}

namespace {

// test_subset_minmax's index set: every index below l_a except the multiples of `gran` (but 0).
std::vector<std::int32_t> meaningfulIndices(std::int64_t la, std::int64_t gran)
{
    const std::int64_t lm = la - la / gran + 1;
    std::vector<std::int32_t> idx(std::size_t(lm), 0);
    std::int32_t j = 0;
    for (auto& v : idx) {
        v = j;
        ++j;
        if (j % gran == 0)
            ++j;
    }
    return idx;
}

template <class T>
void checkSubsets(const DeviceArray& a, const DeviceArray& idx, const std::vector<std::int32_t>& hidx)
{
    const std::vector<T> h = a.template toHost<T>();
    T lo = std::numeric_limits<T>::max(), hi = std::numeric_limits<T>::lowest();
    double total = 0;
    for (std::int32_t k : hidx) {
        lo = std::min(lo, h[std::size_t(k)]);
        hi = std::max(hi, h[std::size_t(k)]);
        total += double(h[std::size_t(k)]);
    }
    EXPECT_EQ(ks::array::subsetMin(idx, a).template toHost<T>()[0], lo);
    EXPECT_EQ(ks::array::subsetMax(idx, a).template toHost<T>()[0], hi);
    if constexpr (std::is_floating_point_v<T>) {
        EXPECT_LT(relError(ks::array::subsetSum(idx, a, a.dtype()).template toHost<T>()[0], total), 1e-4);
    } else {
        EXPECT_EQ(ks::array::subsetSum(idx, a).template toHost<std::int64_t>()[0], std::int64_t(total));
    }
}

} // namespace

TEST_F(Reductions, PyCudaSubsetMinMaxAndSubsetSum)
{
    const std::vector<std::int32_t> hidx = meaningfulIndices(200000, 5);
    ASSERT_EQ(hidx.size(), 160001u);
    ASSERT_LT(hidx.back(), 200000);
    const DeviceArray idx = ks::array::fromHost(*m_rt, hidx);
    checkSubsets<double>(curand(Dims{200000}, DType::Float64), idx, hidx);
    checkSubsets<float>(curand(Dims{200000}, DType::Float32), idx, hidx);
    checkSubsets<std::int32_t>(curand(Dims{200000}, DType::Int32), idx, hidx);
}

namespace {


struct MinMax {
    float curMin;
    float curMax;
};

} // namespace

TEST_F(Reductions, PyCudaStructReduce)
{
    const DeviceArray a = curand(Dims{20000});
    const auto h = a.toHost<float>();
    const ks::array::ReductionKernel red(*m_rt, {"minmax_collector", "minmax_collector(10000, -10000)", "agg_mmc(a, b)",
                                                 "minmax_collector(x[i], x[i])", "float *x", ks::test::kMinMaxCollectorPreamble, "mmc"});
    EXPECT_EQ(red.valueSize(), sizeof(MinMax));
    EXPECT_FALSE(red.outDType());
    const MinMax mm = red.toHost<MinMax>({a});
    EXPECT_EQ(mm.curMin, *std::min_element(h.begin(), h.end()));
    EXPECT_EQ(mm.curMax, *std::max_element(h.begin(), h.end()));
}

TEST_F(Reductions, PyCudaReduceOut)
{
    const DeviceArray a = curand(Dims{10, 200});
    const auto h = a.toHost<float>();
    const ks::array::ReductionKernel red(*m_rt, {"float", "0", "max(a,b)", "", "float *in", "", "red_out"});
    DeviceArray maxGpu = DeviceArray::empty(*m_rt, Dims{10}, DType::Float32);
    maxGpu.copyFromHost(std::vector<float>(10, -99.f).data(), 10 * sizeof(float)); // poison
    for (std::int64_t i = 0; i < 10; ++i)
        red.into(maxGpu[i], {a[i]});
    const auto got = maxGpu.toHost<float>();
    for (std::size_t i = 0; i < 10; ++i)
        EXPECT_EQ(got[i], *std::max_element(h.begin() + 200 * i, h.begin() + 200 * (i + 1))) << i;
}

TEST_F(Reductions, MirrorWritesTheResultToPageLockedHostMemoryToo)
{
    // The read-out path of the pipeline's reduce stage: the result lands in the device slot and,
    // from the same kernel, in page-locked host memory, for one block and for many.
    const ks::array::ReductionKernel red(*m_rt, {"float", "0", "a+b", "", "const float *in", "", "mirrored_sum"});
    for (const std::int64_t n : {std::int64_t(100), std::int64_t(3) << 20}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const DeviceArray a = curand(Dims{n});
        const auto h = a.toHost<float>();
        DeviceArray out = DeviceArray::empty(*m_rt, Dims{}, DType::Float32);
        ks::cuda::PinnedHostMemory pinned(sizeof(float));
        const float poison = -12345.f;
        std::memcpy(pinned.get(), &poison, sizeof poison);
        CUdeviceptr mirror = 0;
        KS_CU(cuMemHostGetDevicePointer, &mirror, pinned.get(), 0u);
        const std::vector<ks::array::MapArg> args{a};
        red.launch(out.data(), n, args, mirror);
        const float device = scalar<float>(out); // synchronises the stream
        float host = 0;
        std::memcpy(&host, pinned.get(), sizeof host);
        EXPECT_EQ(host, device);
        double want = 0;
        for (const float v : h)
            want += v;
        EXPECT_LT(relError(device, want), 1e-5);
    }
}

TEST_F(Reductions, QueuedReductionsShareTheStreamsScratchAndGrowIt)
{
    // Reductions queued back to back on one stream reuse the stream's partials block; a wider value
    // type grows it (waiting for queued work that still reads the old one). Each result must have
    // the bits it has when run alone.
    const ks::array::ReductionKernel sum(*m_rt, {"float", "0", "a+b", "", "const float *in", "", "queued_sum"});
    const char* preamble = R"(
struct quad { double s, q, lo, hi; };
__device__ quad make_quad(double s, double q, double lo, double hi) { quad r; r.s = s; r.q = q; r.lo = lo; r.hi = hi; return r; }
__device__ quad agg_quad(quad a, quad b) { return make_quad(a.s + b.s, a.q + b.q, fmin(a.lo, b.lo), fmax(a.hi, b.hi)); }
)";
    const ks::array::ReductionKernel stats(*m_rt, {"quad", "make_quad(0, 0, 1e300, -1e300)", "agg_quad(a, b)",
                                                   "make_quad(in[i], double(in[i]) * in[i], in[i], in[i])",
                                                   "const float *in", preamble, "queued_quad"});
    ASSERT_EQ(stats.valueSize(), 4 * sizeof(double));
    const std::int64_t n = std::int64_t(3) << 20;
    const DeviceArray a = curand(Dims{n});
    const DeviceArray b = curand(Dims{n + 5});
    const std::vector<ks::array::MapArg> argsA{a}, argsB{b};
    DeviceArray out = DeviceArray::empty(*m_rt, Dims{6}, DType::Float64); // sum a, sum b, quad of a
    auto run = [&](int which) {
        if (which == 0)
            sum.launch(out.data(), n, argsA);
        else if (which == 1)
            stats.launch(out.data() + 2 * sizeof(double), n, argsA);
        else
            sum.launch(out.data() + sizeof(double), n + 5, argsB);
    };
    std::vector<double> alone(6);
    KS_CU(cuMemsetD8Async, out.data(), 0xff, 6 * sizeof(double), m_rt->stream()); // float slots: same upper bytes
    for (int which : {0, 1, 2}) {
        run(which);
        const std::vector<double> got = out.toHost<double>(); // synchronises
        if (which == 1)
            std::copy(got.begin() + 2, got.end(), alone.begin() + 2);
        else
            alone[which == 0 ? 0 : 1] = got[which == 0 ? 0 : 1];
    }
    KS_CU(cuMemsetD8Async, out.data(), 0xff, 6 * sizeof(double), m_rt->stream());
    for (int which : {0, 1, 2, 0, 2})
        run(which); // no synchronisation between them
    const std::vector<double> queued = out.toHost<double>();
    EXPECT_EQ(std::memcmp(queued.data(), alone.data(), 6 * sizeof(double)), 0);
    const auto h = a.toHost<float>();
    double s = 0, q = 0;
    for (const float v : h) {
        s += v;
        q += double(v) * v;
    }
    float sumA = 0;
    std::memcpy(&sumA, &queued[0], sizeof sumA);
    EXPECT_LT(relError(sumA, s), 1e-5);
    EXPECT_LT(relError(queued[2], s), 1e-12);
    EXPECT_LT(relError(queued[3], q), 1e-12);
    EXPECT_EQ(queued[4], double(*std::min_element(h.begin(), h.end())));
    EXPECT_EQ(queued[5], double(*std::max_element(h.begin(), h.end())));
}

TEST_F(Reductions, AnyAllNanEmptyAndLarge)
{
    auto check = [&](const std::vector<float>& v) {
        const DeviceArray a = ks::array::fromHost(*m_rt, v);
        const bool anyRef = std::any_of(v.begin(), v.end(), [](float x) { return x != 0; });
        const bool allRef = std::all_of(v.begin(), v.end(), [](float x) { return x != 0; });
        const DeviceArray r = ks::array::any(a);
        EXPECT_EQ(r.dtype(), DType::Bool);
        EXPECT_EQ(scalarBool(r), anyRef) << v.size();
        EXPECT_EQ(scalarBool(ks::array::all(a)), allRef) << v.size();
    };
    check(std::vector<float>(10, 1.f)); // np.ones(10)
    check({0.f});                       // np.zeros(1)
    check({1.f});                       // np.ones(1)
    check({3.f, 0.f, 2.f, 5.f, 1.f, 7.f, 0.5f, 2.f, 9.f, 4.f});
    check({std::nanf(""), 0.f});
    check({});
    std::vector<float> mostlyZero(100003, 0.f);
    mostlyZero[77777] = -2.f;
    check(mostlyZero);
    mostlyZero.assign(100003, 1.f);
    mostlyZero[100002] = 0.f;
    check(mostlyZero);
}

namespace {

// np.array(values, dtype) for the dtypes of test_any/test_all, converted on the host.
DeviceArray hostArray(ks::array::Runtime& rt, const std::vector<double>& values, DType dtype)
{
    switch (dtype) {
    case DType::Bool: {
        std::vector<std::uint8_t> v;
        for (double x : values)
            v.push_back(x != 0 ? 1 : 0);
        return ks::array::fromHost(rt, v).viewAs(DType::Bool);
    }
    case DType::Int32: return ks::array::fromHost(rt, std::vector<std::int32_t>(values.begin(), values.end()));
    case DType::Float32: return ks::array::fromHost(rt, std::vector<float>(values.begin(), values.end()));
    default: return ks::array::fromHost(rt, values);
    }
}

// Which elements are nonzero, read back on the host (a bool element is its byte, as numpy reads it).
std::vector<bool> hostNonzero(const DeviceArray& a)
{
    std::vector<bool> out;
    auto collect = [&](const auto& values) {
        for (auto x : values)
            out.push_back(x != 0);
    };
    switch (a.dtype()) {
    case DType::Bool: collect(a.viewAs(DType::UInt8).toHost<std::uint8_t>()); break;
    case DType::Int32: collect(a.toHost<std::int32_t>()); break;
    case DType::Float32: collect(a.toHost<float>()); break;
    default: collect(a.toHost<double>()); break;
    }
    return out;
}

// test_any and test_all: np.ones(10), np.zeros(1), np.ones(1), np.empty(10) (whatever the memory
// holds; the reference reads it back) and the eight arrays of itertools.product([0, 1], [0, 1],
// [0, 1]), each in int32, bool, float32 and float64; the result equals numpy's and is a bool.
template <class Reduce, class Reference>
void checkAnyOrAll(ks::array::Runtime& rt, Reduce reduce, Reference reference)
{
    for (const DType dtype : {DType::Int32, DType::Bool, DType::Float32, DType::Float64}) {
        SCOPED_TRACE(std::string(ks::array::dtypeName(dtype)));
        // Array 3 is PyCUDA's np.empty, its bytes set here (0x5a each: a bool byte other than 0 and 1,
        // a nonzero number of every dtype) rather than left as whatever the allocation held, so the
        // case is the same every run and compute-sanitizer's initcheck has nothing to report.
        DeviceArray empty = DeviceArray::empty(rt, Dims{10}, dtype);
        KS_CU(cuMemsetD8Async, empty.data(), 0x5a, std::size_t(empty.nbytes()), rt.stream());
        std::vector<DeviceArray> arrays = {hostArray(rt, std::vector<double>(10, 1), dtype), hostArray(rt, {0}, dtype),
                                           hostArray(rt, {1}, dtype), empty};
        for (int bits = 0; bits < 8; ++bits)
            arrays.push_back(hostArray(rt, {double(bits >> 2 & 1), double(bits >> 1 & 1), double(bits & 1)}, dtype));
        for (std::size_t k = 0; k < arrays.size(); ++k) {
            // For bool, array 3's bytes are other than 0 and 1, which numpy reads as true; a failure
            // there alone says the kernel reads such a byte otherwise.
            SCOPED_TRACE(k == 3 ? "array 3 (empty, bytes 0x5a)" : "array " + std::to_string(k));
            const std::vector<bool> nonzero = hostNonzero(arrays[k]);
            const DeviceArray r = reduce(arrays[k]);
            EXPECT_EQ(r.dtype(), DType::Bool);
            EXPECT_EQ(r.shape(), Dims{});
            EXPECT_EQ(r.viewAs(DType::UInt8).toHost<std::uint8_t>(),
                      std::vector<std::uint8_t>{std::uint8_t(reference(nonzero) ? 1 : 0)});
        }
    }
}

} // namespace

TEST_F(Reductions, PyCudaAny)
{
    checkAnyOrAll(
        *m_rt, [](const DeviceArray& a) { return ks::array::any(a); },
        [](const std::vector<bool>& v) { return std::find(v.begin(), v.end(), true) != v.end(); });
}

TEST_F(Reductions, PyCudaAll)
{
    checkAnyOrAll(
        *m_rt, [](const DeviceArray& a) { return ks::array::all(a); },
        [](const std::vector<bool>& v) { return std::find(v.begin(), v.end(), false) == v.end(); });
}

TEST_F(Reductions, PyCudaSubsetSum)
{
    // l_a = 2000, gran = 5; a = np.random.uniform(0, 10, l_a).astype(dtype); np.allclose against
    // a[indices].sum(). PyCUDA runs it twice, the second time with a memory-pool allocator whose
    // single use it asserts; results here come from the runtime's pool and take no allocator.
    const std::vector<std::int32_t> hidx = meaningfulIndices(2000, 5);
    const DeviceArray idx = ks::array::fromHost(*m_rt, hidx);
    const std::vector<double> u = ks::test::uniform<double>(2000, 0, 10, 160);
    for (const DType dtype : {DType::Float64, DType::Float32, DType::Int32}) {
        std::vector<double> values; // u.astype(dtype), held exactly in double
        for (double x : u)
            values.push_back(dtype == DType::Float64   ? x
                             : dtype == DType::Float32 ? double(float(x))
                                                       : double(std::int32_t(x)));
        const DeviceArray a = dtype == DType::Float64 ? ks::array::fromHost(*m_rt, values)
                              : dtype == DType::Float32
                                  ? ks::array::fromHost(*m_rt, std::vector<float>(values.begin(), values.end()))
                                  : ks::array::fromHost(*m_rt, std::vector<std::int32_t>(values.begin(), values.end()));
        double ref = 0;
        for (std::int32_t k : hidx)
            ref += values[std::size_t(k)];
        const double got = scalar<double>(ks::array::subsetSum(idx, a).astype(DType::Float64));
        EXPECT_LE(std::abs(got - ref), 1e-8 + 1e-5 * std::abs(ref)) << ks::array::dtypeName(dtype); // np.allclose
    }
}

// ----- CUB-style sweeps: exact for integers, tolerances for floats, inputs downloaded for the host.

TEST_F(Reductions, SizeSweepIntegersExactFloatsWithinTolerance)
{
    const std::int64_t sizes[] = {0, 1, 31, 32, 33, 255, 256, 257, 4095, 4096, 4097,
                                  256 * 16 * 132 * 8 + 5, (1 << 24) + 3};
    for (std::int64_t n : sizes) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const DeviceArray i32 = curand(Dims{n}, DType::Int32);
        const auto hi = i32.toHost<std::int32_t>();
        std::int64_t isum = 0;
        for (auto v : hi)
            isum += v;
        EXPECT_EQ(scalar<std::int64_t>(ks::array::sum(i32)), isum);
        if (n > 0) {
            EXPECT_EQ(scalar<std::int32_t>(ks::array::min(i32)), *std::min_element(hi.begin(), hi.end()));
            EXPECT_EQ(scalar<std::int32_t>(ks::array::max(i32)), *std::max_element(hi.begin(), hi.end()));
        }

        const DeviceArray f = curand(Dims{n});
        const DeviceArray g = curand(Dims{n});
        const auto hf = f.toHost<float>(), hg = g.toHost<float>();
        double fsum = 0, fdot = 0;
        for (std::size_t k = 0; k < hf.size(); ++k) {
            fsum += hf[k];
            fdot += double(hf[k]) * hg[k];
        }
        const float gotSum = scalar<float>(ks::array::sum(f));
        const float gotDot = scalar<float>(ks::array::dot(f, g));
        // Inputs in [0, 1): relative error of a tree sum is a few float epsilons times log n.
        EXPECT_NEAR(gotSum, fsum, 1e-5 * fsum + 1e-6);
        EXPECT_NEAR(gotDot, fdot, 1e-5 * fdot + 1e-6);
        if (n > 0) {
            EXPECT_EQ(scalar<float>(ks::array::max(f)), *std::max_element(hf.begin(), hf.end()));
            const DeviceArray d = ks::array::sum(f, DType::Float64);
            EXPECT_NEAR(scalar<double>(d), fsum, 1e-9 * fsum);
        }
    }
}

TEST_F(Reductions, MisalignedAndStridedViewsTakeTheirPaths)
{
    const std::int64_t n = 300001;
    const DeviceArray base = curand(Dims{n});
    const auto h = base.toHost<float>();
    auto ref = [&](std::int64_t start, std::int64_t step) {
        double s = 0;
        for (std::int64_t i = start; i < n; i += step)
            s += h[std::size_t(i)];
        return s;
    };
    // Offset by one element: not 16-byte aligned, so the scalar stage 1 runs.
    const DeviceArray shifted = base.slice(ks::array::Slice::from(1));
    EXPECT_NEAR(scalar<float>(ks::array::sum(shifted)), ref(1, 1), 1e-5 * ref(1, 1));
    // Every third element: the strided walk.
    const DeviceArray third = base.slice(ks::array::Slice::from(0, 3));
    EXPECT_NEAR(scalar<float>(ks::array::sum(third)), ref(0, 3), 1e-5 * ref(0, 3));
    // Reversed: negative stride.
    const DeviceArray reversed = base.slice(ks::array::Slice::reversed());
    EXPECT_EQ(scalar<float>(ks::array::max(reversed)), *std::max_element(h.begin(), h.end()));
    // 2-D transposed view of a (300, 1000) block.
    const DeviceArray m = base.slice(ks::array::Slice::to(300000)).reshape(Dims{300, 1000}).transpose();
    EXPECT_FALSE(m.isCContiguous());
    EXPECT_NEAR(scalar<float>(ks::array::sum(m)), ref(0, 1) - h[300000], 1e-5 * ref(0, 1));
    EXPECT_NEAR(scalar<float>(ks::array::dot(m, m)), [&] {
        double s = 0;
        for (std::int64_t i = 0; i < 300000; ++i)
            s += double(h[std::size_t(i)]) * h[std::size_t(i)];
        return s;
    }(), 1e-5 * 1e5);
}

TEST_F(Reductions, NanPropagatesThroughMinAndMaxAndEmptyIsAnError)
{
    std::vector<float> v(10000, 0.5f);
    v[1234] = std::nanf("");
    const DeviceArray a = ks::array::fromHost(*m_rt, v);
    EXPECT_TRUE(std::isnan(scalar<float>(ks::array::min(a))));
    EXPECT_TRUE(std::isnan(scalar<float>(ks::array::max(a))));
    const DeviceArray empty = DeviceArray::empty(*m_rt, Dims{0}, DType::Float32);
    EXPECT_THROW(ks::array::min(empty), ks::Error);
    EXPECT_EQ(scalar<float>(ks::array::sum(empty)), 0.f);
}

TEST_F(Reductions, SameInputSameBitsEveryRun)
{
    const DeviceArray a = curand(Dims{(1 << 25) + 17});
    const float first = scalar<float>(ks::array::sum(a));
    for (int run = 0; run < 5; ++run) {
        const float again = scalar<float>(ks::array::sum(a));
        EXPECT_EQ(std::memcmp(&first, &again, sizeof(float)), 0) << first << " vs " << again;
    }
}

TEST_F(Reductions, SecondUseOfAnExpressionCostsNoCompile)
{
    const DeviceArray a = curand(Dims{1000});
    const ks::array::ReductionKernel first(*m_rt, {"float", "0", "a+b", "x[i]*x[i]", "const float *x", "", "sumsq"});
    const auto misses = m_rt->compileCache().stats().misses;
    const auto loaded = m_rt->stats().modulesLoaded;
    const ks::array::ReductionKernel second(*m_rt, {"float", "0", "a+b", "x[i]*x[i]", "const float *x", "", "sumsq"});
    EXPECT_EQ(m_rt->compileCache().stats().misses, misses);
    EXPECT_EQ(m_rt->stats().modulesLoaded, loaded);
    EXPECT_EQ(scalar<float>(first({a})), scalar<float>(second({a})));
    const auto s0 = m_rt->compileCache().stats().misses;
    (void)ks::array::sum(a);
    (void)ks::array::sum(a);
    EXPECT_LE(m_rt->compileCache().stats().misses, s0 + 1);
}

TEST_F(Reductions, MoreThanTwoToTheThirtyTwoElements)
{
    const std::size_t n = (std::size_t(1) << 32) + 8;
    if (ks::cuda::memoryInfo().freeBytes < n + (std::size_t(1) << 30))
        GTEST_SKIP() << "needs " << ks::cuda::formatBytes(n) << " of free device memory";
    DeviceArray words = DeviceArray::empty(*m_rt, Dims{std::int64_t(n / 4)}, DType::UInt32);
    ks::rng::fillUniform(m_gen, words);
    const DeviceArray bytes = words.viewAs(DType::UInt8);
    ASSERT_EQ(bytes.size(), std::int64_t(n));
    const std::vector<std::uint8_t> h = bytes.toHost<std::uint8_t>();
    std::uint64_t ref = 0;
    for (std::uint8_t v : h)
        ref += v;
    EXPECT_EQ(scalar<std::uint64_t>(ks::array::sum(bytes)), ref);
}

TEST_F(Reductions, PyCudaBigArrayReduction)
{
    // 2^32 + 11 uint8 ones summed modulo 256 by a ReductionKernel: 64-bit sizes in a user reduction.
    const std::size_t n = (std::size_t(1) << 32) + 11;
    if (ks::cuda::memoryInfo().freeBytes < n + (std::size_t(1) << 30))
        GTEST_SKIP() << "needs " << ks::cuda::formatBytes(n + (std::size_t(1) << 30)) << " of free device memory";
    const ks::array::ReductionKernel reduction(
        *m_rt, {"unsigned char", "0", "(a+b) & 0b11111111", "x[i]", "unsigned char* x", "", "big_array_reduction"});
    DeviceArray d = ks::array::zeros(*m_rt, Dims{std::int64_t(n)}, DType::UInt8);
    d.fill(1);
    EXPECT_EQ(int(scalar<std::uint8_t>(reduction({d}))), 11);
}

TEST_F(Reductions, ComplexSumAndDot)
{
    const std::int64_t n = 100003;
    const DeviceArray re = curand(Dims{2 * n});
    const DeviceArray z = re.viewAs(DType::Complex64); // pairs of floats as complex64
    ASSERT_EQ(z.size(), n);
    const auto h = z.toHost<std::complex<float>>();
    std::complex<double> s = 0, d = 0;
    for (const auto& v : h) {
        s += std::complex<double>(v);
        d += std::complex<double>(v) * std::complex<double>(v);
    }
    const auto gotSum = ks::array::sum(z).toHost<std::complex<float>>()[0];
    const auto gotDot = ks::array::dot(z, z).toHost<std::complex<float>>()[0];
    EXPECT_LT(std::abs(std::complex<double>(gotSum) - s) / std::abs(s), 1e-5);
    EXPECT_LT(std::abs(std::complex<double>(gotDot) - d) / std::abs(d), 1e-5);
    EXPECT_THROW(ks::array::min(z), ks::Error);
}
