// take and put (integer-array indexing) against host references: every integer index dtype, the
// CUB sizes, every axis of a 3-D array in C and transposed layouts, each IndexMode beyond the axis,
// scatters through views, overlapping inputs, and the refusals.
#include "array_layouts.hpp"
#include "array_test_support.hpp"

#include "ks/array/indexing.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

using ks::array::DeviceArray;
using ks::array::Dims;
using ks::array::DType;
using ks::array::IndexMode;
using ks::array::Scalar;
using ks::test::ArrayTest;
using ks::test::landing;

namespace {

// numpy.take on the host for a C-ordered `a` of `shape`.
template <class T>
std::vector<T> takeHost(const std::vector<T>& a, const Dims& shape, const std::vector<std::int64_t>& idx,
                        std::optional<int> axis, IndexMode mode = IndexMode::FromEnd)
{
    const auto t = ks::array::takeAxis(shape, Dims{std::int64_t(idx.size())}, axis);
    const std::int64_t outer = shape.product() / std::max<std::int64_t>(1, t.length * t.inner);
    std::vector<T> out;
    for (std::int64_t o = 0; o < (axis ? outer : 1); ++o)
        for (std::int64_t j : idx)
            for (std::int64_t b = 0; b < t.inner; ++b)
                out.push_back(a[std::size_t((o * t.length + landing(j, t.length, mode)) * t.inner + b)]);
    return out;
}

template <class I> void expectTakeFlat(ks::array::Runtime& rt, DType indexType, std::int64_t n, unsigned seed)
{
    const std::vector<float> a = ks::test::normal<float>(std::size_t(n), seed);
    const long long lo = std::max<long long>(-n, std::numeric_limits<I>::min());
    const long long hi = sizeof(I) == 8 ? n : std::min<long long>(n, (long long)std::numeric_limits<I>::max());
    const std::size_t count = std::size_t(std::max<std::int64_t>(n, 3)) * 2;
    const std::vector<I> idx = n > 0 ? ks::test::integers<I>(count, lo, hi, seed + 1) : std::vector<I>{};
    const DeviceArray ga = ks::array::fromHost(rt, a), gi = ks::array::fromHost(rt, idx);
    ASSERT_EQ(gi.dtype(), indexType);
    const DeviceArray got = take(ga, gi);
    EXPECT_EQ(got.shape(), (Dims{std::int64_t(idx.size())}));
    EXPECT_TRUE(got.isCContiguous());
    const std::vector<std::int64_t> idx64(idx.begin(), idx.end());
    EXPECT_EQ(got.toHost<float>(), takeHost(a, Dims{n}, idx64, std::nullopt))
        << ks::array::dtypeName(indexType) << " indices, n = " << n;
}

// PyCUDA's test_take for one dtype: a = arange(0, 600000, dtype=uint32).astype(dtype), take(a, idx)
// against the downloaded a indexed by the downloaded idx.
template <class T> void expectPyCudaTake(ks::array::Runtime& rt, DType dtype, const DeviceArray& idx)
{
    const DeviceArray a = ks::array::arange(rt, 0, 600000, 1, DType::UInt32).astype(dtype);
    const std::vector<T> aHost = a.toHost<T>();
    const DeviceArray result = take(a, idx);
    std::vector<T> expected;
    for (std::uint32_t j : idx.toHost<std::uint32_t>())
        expected.push_back(aHost[j]);
    EXPECT_EQ(result.toHost<T>(), expected) << ks::array::dtypeName(dtype);
}

} // namespace

// PyCUDA skips test_take and test_take_put on CUDA 12 and newer, where its take read through texture
// references (removed in CUDA 12); the engine's take and put are plain loads and stores, so they run.
TEST_F(ArrayTest, PyCudaTake)
{
    const DeviceArray idx = ks::array::arange(rt(), 0, 10000, 2, DType::UInt32);
    ASSERT_EQ(idx.size(), 5000);
    expectPyCudaTake<float>(rt(), DType::Float32, idx);
    expectPyCudaTake<std::complex<float>>(rt(), DType::Complex64, idx);
}

TEST_F(ArrayTest, PyCudaTakePut)
{
    // gpuarray.multi_take_put(arrays, dest_indices, src_indices, src_offsets, dest_shape) makes, for
    // each array i, a new array out[i] of dest_shape with
    //     out[i][dest_indices[j]] = arrays[i][src_indices[j] + src_offsets[i]].
    // The engine has no multi-array form: each array is a take and a put. PyCUDA asserts nothing
    // (the test checks that the kernels run, then synchronises); the port also checks the elements
    // written against the host.
    for (std::int64_t n : {5, 17, 333}) {
        const std::int64_t oneFieldSize = 8;
        const DeviceArray bufGpu = ks::array::zeros(rt(), Dims{n * oneFieldSize}, DType::Float32);
        const std::vector<std::uint32_t> dest = {0, 1, 2, 3, 32, 33, 34, 35};
        const std::vector<std::uint32_t> readMap = {7, 6, 5, 4, 3, 2, 1, 0};
        const DeviceArray destIndices = toGpu(dest), readMapGpu = toGpu(readMap);
        std::vector<DeviceArray> out; // arrays=[buf_gpu] * n, src_offsets=[i * one_field_size]
        for (std::int64_t i = 0; i < n; ++i) {
            out.push_back(ks::array::empty(rt(), Dims{96}, DType::Float32)); // dest_shape=(96,)
            put(out.back(), destIndices, take(bufGpu, readMapGpu + Scalar(i * oneFieldSize)));
        }
        rt().synchronize(); // drv.Context.synchronize()

        const std::vector<float> buf = bufGpu.toHost<float>();
        for (std::int64_t i = 0; i < n; ++i) {
            std::vector<float> expected;
            for (std::uint32_t r : readMap)
                expected.push_back(buf[std::size_t(r + i * oneFieldSize)]);
            ASSERT_EQ(take(out[std::size_t(i)], destIndices).toHost<float>(), expected) << "n = " << n << ", array " << i;
        }
    }
}

TEST_F(ArrayTest, TakeFlatForEveryIndexTypeAndSize)
{
    for (std::int64_t n : {0, 1, 31, 32, 33, 255, 256, 257, 100003}) {
        expectTakeFlat<std::int8_t>(rt(), DType::Int8, n, 1);
        expectTakeFlat<std::int16_t>(rt(), DType::Int16, n, 2);
        expectTakeFlat<std::int32_t>(rt(), DType::Int32, n, 3);
        expectTakeFlat<std::int64_t>(rt(), DType::Int64, n, 4);
        expectTakeFlat<std::uint8_t>(rt(), DType::UInt8, n, 5);
        expectTakeFlat<std::uint16_t>(rt(), DType::UInt16, n, 6);
        expectTakeFlat<std::uint32_t>(rt(), DType::UInt32, n, 7);
        expectTakeFlat<std::uint64_t>(rt(), DType::UInt64, n, 8);
    }
}

TEST_F(ArrayTest, TakeAlongEveryAxisOfCAndTransposedArrays)
{
    const Dims shape{4, 5, 6};
    const std::vector<int> a = ks::test::integers<int>(120, -1000, 1000, 11);
    const DeviceArray ga = toGpu(a, shape);
    // Indices of shape (2, 3), some negative, in a transposed (non-contiguous) view.
    const std::vector<std::int64_t> raw = {0, -1, 2, 3, -4, 1};
    const DeviceArray gi = toGpu(raw, Dims{3, 2}).transpose();
    std::vector<std::int64_t> idx; // gi's values in C order
    for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 3; ++c)
            idx.push_back(raw[std::size_t(c * 2 + r)]);
    for (int axis : {0, 1, 2, -1}) {
        const DeviceArray got = take(ga, gi, axis);
        Dims expectedShape = shape;
        const int k = axis < 0 ? axis + 3 : axis;
        expectedShape.erase(k);
        expectedShape.insert(k, 3);
        expectedShape.insert(k, 2);
        EXPECT_EQ(got.shape(), expectedShape) << "axis " << axis;
        EXPECT_EQ(got.toHost<int>(), takeHost(a, shape, idx, axis)) << "axis " << axis;
    }
    // The source transposed: take reads it in its own C order.
    const DeviceArray gt = ga.transpose(); // shape (6, 5, 4)
    const std::vector<int> t = gt.copy().toHost<int>();
    EXPECT_EQ(take(gt, gi, 1).toHost<int>(), takeHost(t, Dims{6, 5, 4}, idx, 1));
    EXPECT_EQ(take(gt, gi).toHost<int>(), takeHost(t, Dims{120}, idx, std::nullopt));
    // A 0-d index drops the axis (numpy: a[:, 2]).
    EXPECT_EQ(take(ga, toGpu(std::vector<std::int64_t>{2}, Dims{}), 1).shape(), (Dims{4, 6}));
    // Complex elements.
    const std::vector<std::complex<double>> c = {{1, 2}, {3, 4}, {5, 6}};
    const auto back = take(toGpu(c), toGpu(std::vector<std::int32_t>{2, 0, -1})).toHost<std::complex<double>>();
    EXPECT_EQ(back, (std::vector<std::complex<double>>{{5, 6}, {1, 2}, {5, 6}}));
}

TEST_F(ArrayTest, TakeIndicesBeyondTheAxisLandInsideIt)
{
    const std::vector<double> a = {10, 11, 12, 13, 14, 15, 16};
    const std::vector<std::int64_t> idx = {-100, -8, -7, -1, 0, 6, 7, 100};
    const DeviceArray ga = toGpu(a), gi = toGpu(idx);
    // numpy: mode='wrap' and mode='clip' give exactly these; the default raises where we clamp.
    EXPECT_EQ(take(ga, gi, std::nullopt, IndexMode::Wrap).toHost<double>(),
              (std::vector<double>{15, 16, 10, 16, 10, 16, 10, 12}));
    EXPECT_EQ(take(ga, gi, std::nullopt, IndexMode::Clip).toHost<double>(),
              (std::vector<double>{10, 10, 10, 10, 10, 16, 16, 16}));
    EXPECT_EQ(take(ga, gi, std::nullopt, IndexMode::FromEnd).toHost<double>(),
              (std::vector<double>{10, 10, 10, 16, 10, 16, 16, 16}));
    // Unsigned indices beyond int64's range.
    const DeviceArray huge = toGpu(std::vector<std::uint64_t>{~0ull, 3});
    EXPECT_EQ(take(ga, huge, std::nullopt, IndexMode::FromEnd).toHost<double>(), (std::vector<double>{16, 13}));
    EXPECT_EQ(take(ga, huge, std::nullopt, IndexMode::Wrap).toHost<double>(),
              (std::vector<double>{double(10 + (~0ull % 7)), 13}));
}

TEST_F(ArrayTest, PutFlatAlongAnAxisAndThroughViews)
{
    for (std::int64_t n : {1, 31, 32, 33, 257, 100003}) {
        std::vector<float> a = ks::test::normal<float>(std::size_t(n), 21);
        std::vector<std::int64_t> perm(static_cast<std::size_t>(n));
        std::iota(perm.begin(), perm.end(), 0);
        std::shuffle(perm.begin(), perm.end(), std::mt19937_64(22));
        perm.resize(std::size_t(std::max<std::int64_t>(1, n / 2)));
        for (std::size_t k = 0; k < perm.size(); k += 2)
            perm[k] -= n; // every other index from the end
        const std::vector<double> values = ks::test::normal<double>(perm.size(), 23);
        DeviceArray ga = toGpu(a);
        put(ga, toGpu(perm), toGpu(values)); // float64 values into float32
        for (std::size_t k = 0; k < perm.size(); ++k)
            a[std::size_t(landing(perm[k], n, IndexMode::FromEnd))] = float(values[k]);
        EXPECT_EQ(ga.toHost<float>(), a) << "n = " << n;
    }
    // a[:, [4, 0]] = [[1], [2], [3]] into a transposed (3, 5) view of a (5, 3) array.
    const std::vector<int> base = ks::test::arangeHost<int>(15);
    DeviceArray b = toGpu(base, Dims{5, 3});
    put(b.transpose(), toGpu(std::vector<std::int64_t>{4, 0}), toGpu(std::vector<int>{1, 2, 3}, Dims{3, 1}), 1);
    std::vector<int> expected = base;
    for (int r = 0; r < 3; ++r) // view (r, c) is base (c, r)
        expected[std::size_t(4 * 3 + r)] = expected[std::size_t(0 * 3 + r)] = r + 1;
    EXPECT_EQ(b.toHost<int>(), expected);
    // A scalar, with Wrap, into every other element of a strided view.
    DeviceArray c = ks::array::zeros(rt(), Dims{10}, DType::Int32);
    put(c.slice(ks::array::Slice::range(0, 10, 2)), toGpu(std::vector<std::int8_t>{6, -1}), Scalar(9), std::nullopt,
        IndexMode::Wrap);
    EXPECT_EQ(c.toHost<int>(), (std::vector<int>{0, 0, 9, 0, 0, 0, 0, 0, 9, 0}));
}

TEST_F(ArrayTest, PutReadsOverlappingInputsBeforeWriting)
{
    const std::vector<float> a = ks::test::arangeHost<float>(8);
    DeviceArray ga = toGpu(a);
    // a[[0, 1, 2, 3]] = a[::-1][:4] (7, 6, 5, 4), read before any element is written.
    put(ga, toGpu(std::vector<std::int32_t>{0, 1, 2, 3}),
        ga.slice(ks::array::Slice::reversed()).slice(ks::array::Slice::to(4)));
    EXPECT_EQ(ga.toHost<float>(), (std::vector<float>{7, 6, 5, 4, 4, 5, 6, 7}));
    // Integer indices held in the array written.
    DeviceArray gi = toGpu(std::vector<std::int32_t>{3, 2, 1, 0});
    put(gi, gi, Scalar(-1));
    EXPECT_EQ(gi.toHost<std::int32_t>(), (std::vector<std::int32_t>{-1, -1, -1, -1}));
}

TEST_F(ArrayTest, TakeAndPutRefuseWhatNumpyRefuses)
{
    const DeviceArray a = toGpu(ks::test::arangeHost<float>(6), Dims{2, 3});
    const DeviceArray idx = toGpu(std::vector<std::int64_t>{0, 1});
    EXPECT_THROW(take(a, toGpu(std::vector<float>{0, 1})), ks::UsageError);              // float indices
    EXPECT_THROW(take(a, ks::array::zeros(rt(), Dims{2}, DType::Bool)), ks::UsageError); // a mask
    EXPECT_THROW(take(a, idx, 2), ks::UsageError);                                       // AxisError
    EXPECT_THROW(take(ks::array::empty(rt(), Dims{0, 3}), idx, 0), ks::UsageError);      // empty axis
    EXPECT_EQ(take(ks::array::empty(rt(), Dims{0, 3}), idx, 1).shape(), (Dims{0, 2}));
    EXPECT_THROW(put(a.broadcastTo(Dims{4, 2, 3}), idx, Scalar(1)), ks::UsageError); // broadcast view
    EXPECT_THROW(put(a, idx, toGpu(std::vector<float>{1, 2, 3})), ks::UsageError);   // (3,) to (2,)
}
