// PyCUDA's test_gpuarray.py ported (the array, arithmetic, view and elementwise-kernel parts; the
// reductions, scans and random numbers are tested with their own code), with PyCUDA's inputs and
// tolerances. numpy's random data becomes seeded host data of the same distribution. Ports carry
// PyCuda in their names; docs/pycuda-conformance.md maps each PyCUDA test to its port.
#include "array_layouts.hpp"
#include "array_test_support.hpp"

#include "ks/core/error.hpp"
#include "ks/core/numbers.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>

using ks::array::BinaryOp;
using ks::array::DeviceArray;
using ks::array::Dims;
using ks::array::DType;
using ks::array::IndexItem;
using ks::array::Order;
using ks::array::Scalar;
using ks::array::Slice;
using ks::array::UnaryOp;
using ks::test::ArrayTest;
using c64 = std::complex<float>;
using c128 = std::complex<double>;

namespace {

const std::vector<float> kOneToTen = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
const std::vector<float> kTenToHundred = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100};

template <class T>
void expectAllClose(const std::vector<T>& expected, const std::vector<T>& actual, double rtol, double atol = 0)
{
    ASSERT_EQ(expected.size(), actual.size());
    for (std::size_t i = 0; i < expected.size(); ++i)
        ASSERT_LE(std::abs(actual[i] - expected[i]), atol + rtol * std::abs(expected[i]))
            << "at " << i << ": " << actual[i] << " vs " << expected[i];
}

// PyCUDA's to_gpu of an F-ordered host array (np.asfortranarray(a), a.copy(order="F"), the .T of a
// C array): a device array with the host array's strides, the host memory copied byte for byte.
// `values` are the elements in C order of `shape`; the memory is laid out column-major from them,
// as numpy holds it, with F strides computed here rather than taken from the engine.
template <class T>
DeviceArray toGpuFortran(ks::array::Runtime& rt, const std::vector<T>& values, const Dims& shape)
{
    const DeviceArray a = ks::array::empty(rt, shape, ks::array::dtypeOf<T>(), ks::array::Order::F);
    std::vector<T> memory(values.size());
    for (std::int64_t i = 0; i < shape.product(); ++i) {
        std::int64_t rem = i, offset = 0, stride = 1;
        std::int64_t index[ks::array::kMaxDims] = {};
        for (int d = shape.size() - 1; d >= 0; --d) {
            index[d] = rem % shape[d];
            rem /= shape[d];
        }
        for (int d = 0; d < shape.size(); ++d) {
            offset += index[d] * stride;
            stride *= shape[d];
        }
        memory[std::size_t(offset)] = values[std::size_t(i)];
    }
    DeviceArray::view(rt, a.storage(), a.dtype(), Dims{shape.product()}, Dims{}, a.offset())
        .copyFromHost(memory.data(), memory.size() * sizeof(T));
    return a;
}

// PyCUDA's reshape(shape, order=) of a contiguous array: a new array over the same memory, dense in
// `order` (GPUArray(shape, gpudata=self.gpudata, order=order)), so the memory is relabelled, not
// read in that index order as numpy's reshape(order=) does. The engine's reshape is numpy's and has
// no order argument; this builds PyCUDA's array with DeviceArray::view, as test_2d_slice_f's port does.
DeviceArray pycudaReshape(const DeviceArray& a, const Dims& shape, ks::array::Order order)
{
    EXPECT_TRUE(a.isCContiguous() || a.isFContiguous()) << "PyCUDA's reshape takes contiguous arrays";
    EXPECT_EQ(shape.product(), a.size());
    return DeviceArray::view(a.runtime(), a.storage(), a.dtype(), shape,
                             ks::array::orderedStrides(shape, a.itemSize(), order), a.offset());
}

} // namespace

TEST_F(ArrayTest, PyCudaPowArray)
{
    const std::vector<float> a = {1, 2, 3, 4, 5};
    const std::vector<double> b = {1, 2, 3, 4, 5};
    DeviceArray ag = toGpu(a), bg = toGpu(b);
    const DeviceArray r = ks::array::power(ag, bg);
    EXPECT_EQ(r.dtype(), DType::Float64);
    std::vector<double> ref;
    for (std::size_t i = 0; i < a.size(); ++i)
        ref.push_back(std::pow(double(a[i]), b[i]));
    expectAllClose(ref, r.toHost<double>(), 1e-6);
    // a **= b (float64 result written into float32, numpy's same_kind)
    ks::array::binaryInto(BinaryOp::Power, ag, bg, ag);
    const auto inPlace = ag.toHost<float>();
    for (std::size_t i = 0; i < a.size(); ++i)
        EXPECT_NEAR(inPlace[i], ref[i], 1e-6 * ref[i]);
}

TEST_F(ArrayTest, PyCudaPowNumber)
{
    for (DType t : {DType::Float32, DType::Float64}) {
        DeviceArray a = toGpu(kOneToTen).astype(t);
        const DeviceArray r = ks::array::power(a, Scalar(2));
        EXPECT_EQ(r.dtype(), t);
        const auto out = r.astype(DType::Float64).toHost<double>();
        ks::array::binaryInto(BinaryOp::Power, a, Scalar(2), a);
        const auto inPlace = a.astype(DType::Float64).toHost<double>();
        for (std::size_t i = 0; i < 10; ++i) {
            EXPECT_NEAR(out[i], kOneToTen[i] * kOneToTen[i], 1e-6 * out[i]);
            EXPECT_NEAR(inPlace[i], kOneToTen[i] * kOneToTen[i], 1e-6 * out[i]);
        }
    }
}

TEST_F(ArrayTest, PyCudaRpowArray)
{
    const double scalar = ks::test::uniform<double>(1, 0, 1, 10)[0];
    const auto a = ks::test::uniform<double>(10, 0, 1, 11);
    DeviceArray ag = toGpu(a);
    std::vector<double> r1, r2, r3;
    for (double x : a) {
        r1.push_back(std::pow(scalar, x));
        r2.push_back(std::pow(x, x));
        r3.push_back(std::pow(x, scalar));
    }
    expectAllClose(r1, ks::array::power(Scalar(scalar), ag).toHost<double>(), 1e-7);
    expectAllClose(r2, ks::array::power(ag, ag).toHost<double>(), 1e-7);
    expectAllClose(r3, ks::array::power(ag, Scalar(scalar)).toHost<double>(), 1e-7);
}

TEST_F(ArrayTest, PyCudaAbs)
{
    const DeviceArray a = -ks::array::arange(rt(), 0, 111, 1, DType::Float32);
    const auto res = a.toHost<float>();
    for (int i = 0; i < 111; ++i)
        ASSERT_LE(res[std::size_t(i)], 0.f);
    const auto absolute = ks::array::abs(a).toHost<float>();
    for (int i = 0; i < 111; ++i)
        ASSERT_EQ(absolute[std::size_t(i)], float(i));
    EXPECT_EQ(a.size(), 111);
}

TEST_F(ArrayTest, PyCudaLen)
{
    // len(a) is the extent of the first axis.
    const DeviceArray a = toGpu(kOneToTen);
    EXPECT_EQ(a.shape(0), 10);
}

TEST_F(ArrayTest, PyCudaMultiplyAndRmulYieldsRightType)
{
    for (int sz : {10, 50000}) {
        const auto a = ks::test::arangeHost<float>(std::size_t(sz));
        const DeviceArray g = toGpu(a);
        const auto doubled = (2 * g).toHost<float>();
        for (int i = 0; i < sz; ++i)
            ASSERT_EQ(doubled[std::size_t(i)], a[std::size_t(i)] * 2);
        const DeviceArray gc = g.astype(DType::Complex64);
        for (c64 scalar : {c64(2, 0), c64(0, 2)}) {
            const DeviceArray r = Scalar(std::complex<double>(scalar)) * gc;
            EXPECT_EQ(r.dtype(), DType::Complex64);
            const auto out = r.toHost<c64>();
            for (int i = 0; i < sz; ++i)
                ASSERT_EQ(out[std::size_t(i)], c64(a[std::size_t(i)], 0) * scalar);
        }
        // 2 * a keeps float32 (a weak scalar), as does float32(2) * a.
        EXPECT_EQ((2 * g).dtype(), DType::Float32);
        EXPECT_EQ((Scalar::typed(DType::Float32, 2) * g).dtype(), DType::Float32);
    }
}

TEST_F(ArrayTest, PyCudaMultiplyArray)
{
    DeviceArray a = toGpu(kOneToTen), b = toGpu(kTenToHundred);
    const DeviceArray c = toGpu(std::vector<long long>{2}, Dims{}); // np.array(2): a 0-d int64 array
    EXPECT_EQ(c.ndim(), 0);
    const auto ab = (a * b).toHost<float>(), ba = (b * a).toHost<float>();
    for (std::size_t i = 0; i < 10; ++i) {
        ASSERT_EQ(ab[i], kOneToTen[i] * kTenToHundred[i]);
        ASSERT_EQ(ba[i], kOneToTen[i] * kTenToHundred[i]);
    }
    // A 0-d array is an array, not a weak scalar: float32 * int64 is float64.
    const DeviceArray ac = a * c;
    EXPECT_EQ(ac.dtype(), DType::Float64);
    EXPECT_EQ(ac.shape(), (Dims{10}));
    const auto acv = ac.toHost<double>(), bcv = (b * c).toHost<double>();
    for (std::size_t i = 0; i < 10; ++i) {
        ASSERT_EQ(acv[i], kOneToTen[i] * 2.0);
        ASSERT_EQ(bcv[i], kTenToHundred[i] * 2.0);
    }
    const auto neg = (-a).toHost<float>();
    for (std::size_t i = 0; i < 10; ++i)
        ASSERT_EQ(neg[i], -kOneToTen[i]);
}

TEST_F(ArrayTest, PyCudaUnitMultiplyArray)
{
    // PyCUDA applies unary + and - to the downloaded array (on the host), so this is a round trip
    // compared with assert_allclose(rtol=1e-6), as there.
    const std::vector<float> a = kOneToTen;
    const auto back = toGpu(a).toHost<float>();
    std::vector<float> plusBack, minusBack, plusA, minusA;
    for (std::size_t i = 0; i < a.size(); ++i) {
        plusBack.push_back(+back[i]);
        minusBack.push_back(-back[i]);
        plusA.push_back(+a[i]);
        minusA.push_back(-a[i]);
    }
    expectAllClose(plusA, plusBack, 1e-6);
    expectAllClose(minusA, minusBack, 1e-6);
}

TEST_F(ArrayTest, PyCudaAdditionArrayScalarAndInPlace)
{
    DeviceArray a = toGpu(kOneToTen);
    const DeviceArray b = toGpu(std::vector<float>{1}, Dims{});
    const auto aa = (a + a).toHost<float>(), a1 = (a + 1).toHost<float>(), oneA = (1 + a).toHost<float>();
    const auto ab = (a + b).toHost<float>(), ba = (b + a).toHost<float>(), seven = (7 + a).toHost<float>();
    for (std::size_t i = 0; i < 10; ++i) {
        ASSERT_EQ(aa[i], 2 * kOneToTen[i]);
        ASSERT_EQ(a1[i], kOneToTen[i] + 1);
        ASSERT_EQ(oneA[i], 1 + kOneToTen[i]);
        ASSERT_EQ(ab[i], kOneToTen[i] + 1);
        ASSERT_EQ(ba[i], 1 + kOneToTen[i]);
        ASSERT_EQ(seven[i], 7 + kOneToTen[i]);
    }
    a += a;
    auto out = a.toHost<float>();
    for (std::size_t i = 0; i < 10; ++i)
        ASSERT_EQ(out[i], 2 * kOneToTen[i]);
    DeviceArray s = toGpu(kOneToTen);
    s += 7;
    out = s.toHost<float>();
    for (std::size_t i = 0; i < 10; ++i)
        ASSERT_EQ(out[i], 7 + kOneToTen[i]);
    // numpy's same_kind rule: an int32 array cannot take a float result in place.
    DeviceArray ints = toGpu(std::vector<int>{1, 2, 3});
    EXPECT_THROW(ints += 0.5, ks::Error);
}

TEST_F(ArrayTest, PyCudaSubtractArrayAndScalar)
{
    DeviceArray a = toGpu(kOneToTen), b = toGpu(kTenToHundred), c = toGpu(std::vector<float>{1}, Dims{});
    const auto ab = (a - b).toHost<float>(), ba = (b - a).toHost<float>();
    const auto ac = (a - c).toHost<float>(), ca = (c - a).toHost<float>();
    const auto a7 = (a - 7).toHost<float>(), sevenA = (7 - a).toHost<float>();
    for (std::size_t i = 0; i < 10; ++i) {
        ASSERT_EQ(ab[i], kOneToTen[i] - kTenToHundred[i]);
        ASSERT_EQ(ba[i], kTenToHundred[i] - kOneToTen[i]);
        ASSERT_EQ(ac[i], kOneToTen[i] - 1);
        ASSERT_EQ(ca[i], 1 - kOneToTen[i]);
        ASSERT_EQ(a7[i], kOneToTen[i] - 7);
        ASSERT_EQ(sevenA[i], 7 - kOneToTen[i]);
    }
}

TEST_F(ArrayTest, PyCudaDivideScalarAndArray)
{
    DeviceArray a = toGpu(kOneToTen);
    const auto half = (a / 2).toHost<float>(), inv = (2 / a).toHost<float>();
    for (std::size_t i = 0; i < 10; ++i) {
        ASSERT_EQ(half[i], kOneToTen[i] / 2);
        ASSERT_EQ(inv[i], 2 / kOneToTen[i]);
    }
    DeviceArray x = toGpu(kTenToHundred), y = toGpu(std::vector<float>(10, 10.f));
    const DeviceArray c = toGpu(std::vector<long long>{2}, Dims{});
    const auto xy = (x / y).toHost<float>(), yx = (y / x).toHost<float>();
    const auto xc = (x / c).toHost<double>(), cx = (c / x).toHost<double>();
    for (std::size_t i = 0; i < 10; ++i) {
        ASSERT_LT(std::abs(xy[i] - kTenToHundred[i] / 10), 1e-3);
        ASSERT_LT(std::abs(yx[i] - 10 / kTenToHundred[i]), 1e-3);
        ASSERT_LT(std::abs(xc[i] - kTenToHundred[i] / 2.0), 1e-3);
        ASSERT_LT(std::abs(cx[i] - 2.0 / kTenToHundred[i]), 1e-3);
    }
}

TEST_F(ArrayTest, PyCudaArrayComparisons)
{
    const DeviceArray a = toGpu(std::vector<float>{5, 10}), b = toGpu(std::vector<float>{2, 10});
    EXPECT_EQ((a > b).dtype(), DType::Bool);
    EXPECT_EQ((a > b).toHost<bool>(), (std::vector<bool>{true, false}));
    EXPECT_EQ((b < a).toHost<bool>(), (std::vector<bool>{true, false}));
    EXPECT_EQ((a == b).toHost<bool>(), (std::vector<bool>{false, true}));
    EXPECT_EQ((a != b).toHost<bool>(), (std::vector<bool>{true, false}));
    const DeviceArray c = toGpu(std::vector<float>{5, 10, 1}), d = toGpu(std::vector<float>{2, 10, 2});
    EXPECT_EQ((d <= c).toHost<bool>(), (std::vector<bool>{true, true, false}));
    EXPECT_EQ((c >= d).toHost<bool>(), (std::vector<bool>{true, true, false}));
}

TEST_F(ArrayTest, PyCudaScalarComparisons)
{
    const std::vector<double> a = {1.0, 0.25, 0.1, -0.1, 0.0};
    const DeviceArray g = toGpu(a);
    std::vector<bool> gt, le, eq, eq1;
    for (double x : a) {
        gt.push_back(x > 0.25);
        le.push_back(x <= 0.25);
        eq.push_back(x == 0.25);
        eq1.push_back(x == 1);
    }
    EXPECT_EQ((g > 0.25).toHost<bool>(), gt);
    EXPECT_EQ((g <= 0.25).toHost<bool>(), le);
    EXPECT_EQ((g == 0.25).toHost<bool>(), eq);
    EXPECT_EQ((g == 1).toHost<bool>(), eq1);
    // numpy 2 compares out-of-range Python ints exactly.
    const DeviceArray u = toGpu(std::vector<unsigned char>{0, 200, 255});
    EXPECT_EQ((u < 300).toHost<bool>(), (std::vector<bool>{true, true, true}));
    EXPECT_EQ((u > -1).toHost<bool>(), (std::vector<bool>{true, true, true}));
    const DeviceArray big = toGpu(std::vector<unsigned long long>{~0ull});
    EXPECT_EQ((big > toGpu(std::vector<long long>{-1})).toHost<bool>(), std::vector<bool>{true});
}

TEST_F(ArrayTest, PyCudaNanArithmetic)
{
    const std::size_t size = 1 << 20;
    auto contaminated = [&](unsigned seed) {
        auto v = ks::test::normal<float>(size, seed);
        std::mt19937 rng(seed + 100);
        for (std::size_t i = 0; i < size / 10; ++i)
            v[rng() % size] = std::nanf("");
        return v;
    };
    const auto a = contaminated(1), b = contaminated(2);
    const auto ab = (toGpu(a) * toGpu(b)).toHost<float>();
    for (std::size_t i = 0; i < size; ++i)
        ASSERT_EQ(std::isnan(ab[i]), std::isnan(a[i] * b[i])) << i;
}

TEST_F(ArrayTest, PyCudaElwiseKernel)
{
    const auto ha = ks::test::uniform<float>(50, 0, 1, 20), hb = ks::test::uniform<float>(50, 0, 1, 21);
    const DeviceArray a = toGpu(ha), b = toGpu(hb);
    const ks::array::ElementwiseKernel linComb("float a, float *x, float b, float *y, float *z", "z[i] = a*x[i] + b*y[i]",
                                               "linear_combination");
    DeviceArray c = ks::array::full(rt(), {50}, std::nan(""), DType::Float32);
    linComb(rt(), {5, a, 6, b, c});
    const auto diff = (c - (5 * a + 6 * b)).toHost<float>();
    EXPECT_LT(ks::test::normDiff(diff, std::vector<float>(50, 0.f)), 1e-5);
    // Second use of the same kernel: no compile, no module load.
    const auto before = rt().stats();
    linComb(rt(), {5, a, 6, b, c});
    EXPECT_EQ(rt().stats().modulesLoaded, before.modulesLoaded);
    EXPECT_EQ(rt().stats().kernelHits, before.kernelHits + 1);
    // Wrong argument kinds and types are clear errors.
    EXPECT_THROW(linComb(rt(), {5, a, 6, b}), ks::Error);
    EXPECT_THROW(linComb(rt(), {a, a, 6, b, c}), ks::Error);
    EXPECT_THROW(linComb(rt(), {5, a.astype(DType::Float64), 6, b, c}), ks::Error);
    EXPECT_THROW(linComb(rt(), {5, a.slice(Slice::from(0, 2)), 6, b, c}), ks::Error);
}

TEST_F(ArrayTest, PyCudaRangedElwiseKernel)
{
    const ks::array::ElementwiseKernel setToSeven("float *z", "z[i] = 7", "set_to_seven");
    const Slice slices[] = {Slice::range(5, 20000), Slice::range(5, 20000, 17), Slice::range(3000, 5, -1),
                            Slice::range(1000, -1)};
    for (const Slice& s : slices) {
        DeviceArray a = ks::array::zeros(rt(), {50000}, DType::Float32);
        std::vector<float> ref(50000, 0.f);
        const auto r = ks::array::normalizeSlice(s, 50000);
        for (std::int64_t k = 0; k < r.count; ++k)
            ref[std::size_t(r.start + k * r.step)] = 7;
        ks::array::ElementwiseCall call;
        call.slice = s;
        setToSeven(rt(), {a}, call);
        EXPECT_EQ(ks::test::normDiff(ref, a.toHost<float>()), 0.0);
    }
    // range= is taken as given.
    DeviceArray a = ks::array::zeros(rt(), {100}, DType::Float32);
    ks::array::ElementwiseCall call;
    call.range = Slice::range(10, 20, 3);
    setToSeven(rt(), {a}, call);
    const auto out = a.toHost<float>();
    for (int i = 0; i < 100; ++i)
        ASSERT_EQ(out[std::size_t(i)], (i >= 10 && i < 20 && (i - 10) % 3 == 0) ? 7.f : 0.f) << i;
}

TEST_F(ArrayTest, PyCudaArangeOnesAndComplexZeros)
{
    EXPECT_EQ(ks::array::arange(rt(), 0, 12, 1, DType::Float32).toHost<float>(), ks::test::arangeHost<float>(12));
    EXPECT_EQ(ks::array::arange(rt(), 0, 10000, 2, DType::UInt32).size(), 5000);
    EXPECT_EQ(ks::array::arange(rt(), 3, -3, -2, DType::Int32).toHost<int>(), (std::vector<int>{3, 1, -1}));
    const DeviceArray ones = ks::array::ones(rt(), {10}, DType::Float64);
    EXPECT_EQ(ones.dtype(), DType::Float64);
    EXPECT_EQ(ones.toHost<double>(), std::vector<double>(10, 1.0));
    EXPECT_EQ(ks::array::linspace(rt(), 0, 1, 5).toHost<double>(), (std::vector<double>{0, 0.25, 0.5, 0.75, 1}));
    EXPECT_EQ(ks::array::linspace(rt(), 0, 1, 4, false).toHost<double>(), (std::vector<double>{0, 0.25, 0.5, 0.75}));
    EXPECT_EQ(ks::array::linspace(rt(), 2, 3, 1).toHost<double>(), std::vector<double>{2});
    EXPECT_EQ(ks::array::zeros(rt(), {3}, DType::Complex64).toHost<c64>(), std::vector<c64>(3));
    // numpy's zeros/ones default to float64; ours default to float32 (documented difference).
    EXPECT_EQ(ks::array::zeros(rt(), {10}).dtype(), DType::Float32);
}

TEST_F(ArrayTest, PyCudaStackAndConcatenate)
{
    for (bool fortran : {false, true})
        for (int dims = 0; dims <= 2; ++dims) {
            Dims shape;
            for (int d = 0; d < dims; ++d)
                shape.push_back(2);
            const int axis = fortran ? -1 : 0;
            const std::size_t n = std::size_t(shape.product());
            const auto hx = ks::test::uniform<double>(n, 0, 1, 30 + dims), hy = ks::test::uniform<double>(n, 0, 1, 40 + dims);
            // An F-ordered device array: the transpose of a C array of the reversed shape.
            auto make = [&](const std::vector<double>& h) {
                if (!fortran)
                    return toGpu(h, shape);
                Dims reversed;
                for (int d = dims - 1; d >= 0; --d)
                    reversed.push_back(shape[d]);
                return toGpu(h, reversed).transpose();
            };
            const DeviceArray x = make(hx), y = make(hy);
            const DeviceArray s = ks::array::stack({x, y}, axis);
            // Reference: np.stack along axis 0 or -1 of the C-order values of x and y.
            const auto vx = x.toHost<double>(), vy = y.toHost<double>();
            std::vector<double> ref;
            if (axis == 0) {
                ref = vx;
                ref.insert(ref.end(), vy.begin(), vy.end());
            } else {
                for (std::size_t i = 0; i < n; ++i) {
                    ref.push_back(vx[i]);
                    ref.push_back(vy[i]);
                }
            }
            Dims expectShape = shape;
            expectShape.insert(axis == 0 ? 0 : dims, 2);
            EXPECT_EQ(s.shape(), expectShape);
            EXPECT_EQ(s.toHost<double>(), ref);
        }

    const auto ha = ks::test::uniform<float>(5 * 15 * 20, 0, 1, 50), hb = ks::test::uniform<float>(4 * 15 * 20, 0, 1, 51),
               hc = ks::test::uniform<float>(3 * 15 * 20, 0, 1, 52);
    const DeviceArray cat =
        ks::array::concatenate({toGpu(ha, {5, 15, 20}), toGpu(hb, {4, 15, 20}), toGpu(hc, {3, 15, 20})});
    std::vector<float> ref = ha;
    ref.insert(ref.end(), hb.begin(), hb.end());
    ref.insert(ref.end(), hc.begin(), hc.end());
    EXPECT_EQ(cat.shape(), (Dims{12, 15, 20}));
    EXPECT_EQ(cat.toHost<float>(), ref);
    // Along axis 1, with dtype promotion.
    const DeviceArray m = ks::array::concatenate({toGpu(std::vector<int>{1, 2, 3, 4}, {2, 2}),
                                                  toGpu(std::vector<float>{9, 8}, {2, 1})},
                                                 1);
    EXPECT_EQ(m.dtype(), DType::Float64);
    EXPECT_EQ(m.toHost<double>(), (std::vector<double>{1, 2, 9, 3, 4, 8}));
    EXPECT_THROW(ks::array::concatenate({toGpu(ha, {5, 15, 20}), toGpu(hb, {4, 20, 15})}), ks::Error);
}

TEST_F(ArrayTest, PyCudaReverseAndSlices)
{
    const DeviceArray a = toGpu(kOneToTen);
    const auto rev = a.slice(Slice::reversed()).toHost<float>();
    for (std::size_t i = 0; i < 10; ++i)
        ASSERT_EQ(rev[i], kOneToTen[9 - i]);

    std::mt19937 rng(60);
    const std::size_t sz = 20000;
    const auto h = ks::test::uniform<float>(sz, 0, 1, 61);
    const DeviceArray g = toGpu(h);
    for (int k = 0; k < 200; ++k) {
        const std::int64_t start = rng() % sz, end = start + rng() % (sz - start);
        const auto got = g.slice(Slice::range(start, end)).toHost<float>();
        ASSERT_EQ(got, std::vector<float>(h.begin() + start, h.begin() + end));
    }

    const std::int64_t n = 1000, m = 300;
    const auto h2 = ks::test::uniform<float>(std::size_t(n * m), 0, 1, 62);
    const DeviceArray g2 = toGpu(h2, {n, m});
    // The same memory as an F-ordered (m, n) array (PyCUDA's test_2d_slice_f).
    const DeviceArray f2 = DeviceArray::view(rt(), g2.storage(), DType::Float32, {m, n}, {4, m * 4});
    for (int k = 0; k < 200; ++k) {
        const std::int64_t start = rng() % n, end = start + rng() % (n - start);
        const DeviceArray c = g2.slice(Slice::range(start, end));
        ASSERT_EQ(c.toHost<float>(), std::vector<float>(h2.begin() + start * m, h2.begin() + end * m));
        const DeviceArray f = f2.index({Slice::all(), Slice::range(start, end)});
        ASSERT_EQ(f.toHost<float>(), ks::test::hostView(h2, f2, f));
    }
}

TEST_F(ArrayTest, PyCudaWhereMinimumMaximum)
{
    const DeviceArray a = toGpu(std::vector<long long>{1, 0, -1}), b = toGpu(std::vector<long long>{2, 2, 2}),
                      c = toGpu(std::vector<long long>{3, 3, 3});
    EXPECT_EQ(ks::array::where(a, b, c).toHost<long long>(), (std::vector<long long>{2, 3, 2}));
    EXPECT_EQ(ks::array::where(a, b, Scalar(7.5)).toHost<double>(), (std::vector<double>{2, 7.5, 2}));

    const auto ha = ks::test::uniform<float>(20, 0, 1, 70), hb = ks::test::uniform<float>(20, 0, 1, 71);
    const DeviceArray ga = toGpu(ha), gb = toGpu(hb);
    const auto mx = ks::array::maximum(ga, gb).toHost<float>(), mn = ks::array::minimum(ga, gb).toHost<float>();
    const auto mx0 = ks::array::maximum(ga - 0.5, Scalar(0)).toHost<float>();
    const auto mn0 = ks::array::binary(BinaryOp::Minimum, Scalar(0), ga - 0.5).toHost<float>();
    for (std::size_t i = 0; i < 20; ++i) {
        ASSERT_EQ(mx[i], std::max(ha[i], hb[i]));
        ASSERT_EQ(mn[i], std::min(ha[i], hb[i]));
        ASSERT_EQ(mx0[i], std::max(ha[i] - 0.5f, 0.f));
        ASSERT_EQ(mn0[i], std::min(0.f, ha[i] - 0.5f));
    }
    // NaN propagates (numpy's maximum/minimum, not fmax/fmin).
    const DeviceArray n1 = toGpu(std::vector<float>{std::nanf(""), 1, 2}), n2 = toGpu(std::vector<float>{0, std::nanf(""), 1});
    const auto nm = ks::array::maximum(n1, n2).toHost<float>();
    EXPECT_TRUE(std::isnan(nm[0]));
    EXPECT_TRUE(std::isnan(nm[1]));
    EXPECT_EQ(nm[2], 2.f);
}

TEST_F(ArrayTest, PyCudaAstype)
{
    const auto h = ks::test::uniform<float>(2000, 0, 1, 80);
    const DeviceArray a = toGpu(h);
    const DeviceArray a64 = a.astype(DType::Float64);
    EXPECT_EQ(a64.dtype(), DType::Float64);
    EXPECT_EQ(ks::test::normDiff(a64.toHost<double>(), h), 0.0);
    const auto h64 = ks::test::uniform<double>(2000, 0, 1, 81);
    const auto a32 = toGpu(h64).astype(DType::Float32).toHost<float>();
    double norm = 0;
    for (double x : h64)
        norm += x * x;
    EXPECT_LT(ks::test::normDiff(a32, h64) / std::sqrt(norm), 1e-7);
    // Conversions by C++ rules: truncation toward zero, complex -> real part, -> bool is != 0.
    EXPECT_EQ(toGpu(std::vector<double>{-1.7, 2.9}).astype(DType::Int32).toHost<int>(), (std::vector<int>{-1, 2}));
    EXPECT_EQ(toGpu(std::vector<c64>{{1.5f, 2.f}}).astype(DType::Float32).toHost<float>(), std::vector<float>{1.5f});
    EXPECT_EQ(toGpu(std::vector<float>{0, 0.5f, -2}).astype(DType::Bool).toHost<bool>(),
              (std::vector<bool>{false, true, true}));
}

TEST_F(ArrayTest, PyCudaComplexBits)
{
    for (DType t : {DType::Complex64, DType::Complex128}) {
        const std::size_t n = 20;
        const auto re = ks::test::uniform<double>(n, 0, 1, 90), im = ks::test::uniform<double>(n, 0, 1, 91);
        std::vector<c128> hz;
        for (std::size_t i = 0; i < n; ++i)
            hz.push_back(t == DType::Complex64 ? c128(ks::roundToFloat(re[i]), ks::roundToFloat(im[i])) : c128(re[i], im[i]));
        const DeviceArray z = toGpu(hz).astype(t);
        const auto zr = ks::array::real(z).astype(DType::Float64).toHost<double>();
        const auto zi = ks::array::imag(z).astype(DType::Float64).toHost<double>();
        const auto zc = ks::array::conj(z).astype(DType::Complex128).toHost<c128>();
        EXPECT_EQ(ks::array::real(z).dtype(), ks::array::realType(t));
        // Every digit in a failure's message. (The asan build failed here: GCC 12.2's SLP vectorizer
        // dropped the float rounding of c128(c64(float(re), float(im))); ks::roundToFloat now.)
        auto exact = [](double x) {
            char b[64];
            std::snprintf(b, sizeof b, "%.17g (%a)", x, x);
            return std::string(b);
        };
        for (std::size_t i = 0; i < n; ++i) {
            SCOPED_TRACE(std::string(ks::array::dtypeName(t)) + " element " + std::to_string(i));
            ASSERT_TRUE(zr[i] == hz[i].real()) << "real " << exact(zr[i]) << " != " << exact(hz[i].real());
            ASSERT_TRUE(zi[i] == hz[i].imag()) << "imag " << exact(zi[i]) << " != " << exact(hz[i].imag());
            ASSERT_TRUE(zc[i] == std::conj(hz[i])) << "conj " << exact(zc[i].real()) << ", " << exact(zc[i].imag())
                                                   << " != " << exact(hz[i].real()) << ", " << exact(-hz[i].imag());
        }
        DeviceArray out = z.astype(DType::Complex64);
        ks::array::unaryInto(UnaryOp::Conj, z, out);
        const auto oc = out.toHost<c64>();
        for (std::size_t i = 0; i < n; ++i)
            ASSERT_LT(std::abs(c128(oc[i]) - std::conj(hz[i])), 5e-6);
        EXPECT_TRUE(ks::array::conj(z).isCContiguous());
        // Contiguity is preserved in both orders, with zero and nonzero values. z is 1-D, so it is C-
        // and F-contiguous, and PyCUDA's z.reshape(z.shape, order=...) returns z itself for either
        // order: the engine's reshape to the same shape is that array.
        for (Order order : {Order::C, Order::F}) {
            const auto inOrder = [order](const DeviceArray& x) {
                return order == Order::C ? x.isCContiguous() : x.isFContiguous();
            };
            for (const DeviceArray& zdata :
                 {ks::array::zeros(rt(), z.shape(), ks::array::realType(t), order), z.reshape(z.shape())}) {
                SCOPED_TRACE(std::string(order == Order::C ? "order C, " : "order F, ") + zdata.describe());
                EXPECT_TRUE(inOrder(zdata));
                EXPECT_TRUE(inOrder(ks::array::real(zdata)));
                EXPECT_TRUE(inOrder(ks::array::imag(zdata)));
                EXPECT_TRUE(inOrder(ks::array::conj(zdata)));
            }
        }
    }
}

TEST_F(ArrayTest, PyCudaPassSliceToKernel)
{
    // A hand-written kernel launched on the element address of a[256:-256].
    const auto& twice = rt().kernelFromSource(R"(
extern "C" __global__ void twice(float *a)
{
  const int i = threadIdx.x + blockIdx.x * blockDim.x;
  a[i] *= 2;
}
)",
                                              "twice");
    DeviceArray a = toGpu(std::vector<float>(256 * 256, 1.f));
    const DeviceArray inner = a.slice(Slice::range(256, -256));
    CUdeviceptr p = inner.data();
    void* params[] = {&p};
    rt().launch(twice, {{254, 1, 1}, {256, 1, 1}, 0}, params);
    const auto h = a.toHost<float>();
    EXPECT_EQ((std::vector<float>(h.begin() + 255, h.begin() + 257)), (std::vector<float>{1, 2}));
    EXPECT_EQ((std::vector<float>(h.begin() + 255 * 256 - 1, h.begin() + 255 * 256 + 1)), (std::vector<float>{2, 1}));
}

TEST_F(ArrayTest, PyCudaStridePreservation)
{
    // A = np.random.rand(3, 3); AT = A.T is F-contiguous, and to_gpu(AT) keeps its strides.
    const std::vector<double> a = ks::test::uniform<double>(9, 0, 1, 160);
    std::vector<double> at(9); // AT's elements in C order
    for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = 0; j < 3; ++j)
            at[i * 3 + j] = a[j * 3 + i];
    const DeviceArray atGpu = toGpuFortran(rt(), at, Dims{3, 3});
    // PyCUDA prints both arrays' flags; AT's strides are (8, 24).
    EXPECT_TRUE(atGpu.isFContiguous());
    EXPECT_EQ(atGpu.strides(), (Dims{8, 24}));
    expectAllClose(at, atGpu.toHost<double>(), 1e-5, 1e-8); // np.allclose
}

TEST_F(ArrayTest, PyCudaReshapeViewSqueeze)
{
    const DeviceArray a = ks::array::arange(rt(), 0, 128, 1, DType::Float32).reshape({8, 16});
    EXPECT_EQ(a.reshape({4, 32}).shape(), (Dims{4, 32}));
    EXPECT_EQ(a.reshape({-1, 32}).shape(), (Dims{4, 32}));
    EXPECT_EQ(a.reshape({32, -1}).shape(), (Dims{32, 4}));
    EXPECT_EQ(a.reshape({8, -1, 4}).shape(), (Dims{8, 4, 4}));
    EXPECT_THROW(a.reshape({-1, -1, 4}), ks::Error);
    EXPECT_TRUE(a.reshape({4, 32}).isCContiguous());
    EXPECT_EQ(a.reshape({4, 32}).toHost<float>(), ks::test::arangeHost<float>(128));
    // With the order given (PyCUDA's reshape relabels the memory: pycudaReshape), then the default.
    DeviceArray ordered = a.reshape({4, 32}); // order="C" of a C array: numpy's and PyCUDA's agree
    EXPECT_TRUE(ordered.isCContiguous());
    ordered = pycudaReshape(ordered, {4, 32}, Order::F);
    EXPECT_TRUE(ordered.isFContiguous());
    ordered = pycudaReshape(ordered, {4, 32}, Order::F);
    EXPECT_TRUE(ordered.isFContiguous());
    ordered = pycudaReshape(ordered, {4, 32}, Order::C); // PyCUDA's default order is "C"
    EXPECT_TRUE(ordered.isCContiguous());
    EXPECT_EQ(ordered.data(), a.data()) << "PyCUDA's reshape is a view";
    // A non-contiguous reshape copies (numpy), with the values in C order.
    const DeviceArray t = a.transpose();
    const DeviceArray tr = t.reshape({128});
    EXPECT_NE(tr.data(), a.data());
    EXPECT_EQ(tr.toHost<float>(), t.toHost<float>());

    const DeviceArray same = a.viewAs(DType::Float32);
    EXPECT_EQ(same.shape(), a.shape());
    EXPECT_EQ(a.viewAs(DType::Complex64).shape(), (Dims{8, 8}));
    EXPECT_EQ(a.viewAs(DType::Int16).shape(), (Dims{8, 32}));
    const auto c = a.viewAs(DType::Complex64).toHost<c64>();
    EXPECT_EQ(c[3], c64(6, 7));

    const Dims shape{40, 2, 5, 100};
    const auto h = ks::test::uniform<double>(std::size_t(shape.product()), 0, 1, 100);
    const DeviceArray g = toGpu(h, shape);
    const DeviceArray s1 = g.index({Slice::range(0, 1), Slice::range(1, 2), Slice::all(), Slice::all()});
    EXPECT_EQ(s1.shape(), (Dims{1, 1, 5, 100}));
    EXPECT_TRUE(s1.isCContiguous());
    EXPECT_EQ(s1.squeeze().shape(), (Dims{5, 100}));
    EXPECT_TRUE(s1.squeeze().isCContiguous());
    EXPECT_EQ(s1.toHost<double>(), s1.squeeze().toHost<double>());
    const DeviceArray s2 = g.index({Slice::all(), Slice::all(), Slice::range(2, 3), Slice::all()});
    EXPECT_FALSE(s2.isCContiguous());
    EXPECT_EQ(s2.squeeze().shape(), (Dims{40, 2, 100}));
    EXPECT_FALSE(s2.squeeze().isCContiguous());
    EXPECT_EQ(s2.toHost<double>(), s2.squeeze().toHost<double>());
    EXPECT_EQ(s2.toHost<double>(), ks::test::hostView(h, g, s2));
}

TEST_F(ArrayTest, PyCudaViewsTransposeNewaxisCopyGetSet)
{
    const auto hx = ks::test::uniform<float>(50, 0, 1, 110);
    const DeviceArray x = toGpu(hx, {5, 10});
    const DeviceArray y = x.index({Slice::to(3), Slice::to(5)});
    const DeviceArray yv = y; // a second handle on the same view
    EXPECT_EQ(yv.shape(), y.shape());
    EXPECT_EQ(yv.strides(), y.strides());
    EXPECT_EQ(y.toHost<float>(), ks::test::hostView(hx, x, y));

    const auto h3 = ks::test::uniform<float>(10 * 20 * 30, 0, 1, 111);
    const DeviceArray a3 = toGpu(h3, {10, 20, 30});
    EXPECT_EQ(a3.transpose().toHost<float>(), ks::test::hostView(h3, a3, a3.transpose()));
    const DeviceArray na = a3.index({Slice::all(), IndexItem::newAxis()});
    EXPECT_EQ(na.shape(), (Dims{10, 1, 20, 30}));
    EXPECT_EQ(na.strides(), (Dims{2400, 0, 120, 4}));

    struct Case {
        std::int64_t start, stop, step;
    };
    const Case cases[] = {{0, 3, 1}, {1, 2, 1}, {0, 3, 2}, {0, 3, 3}};
    auto check = [&](const DeviceArray& whole, const std::vector<float>& host, std::initializer_list<IndexItem> index) {
        const DeviceArray v = whole.index(index);
        ASSERT_EQ(v.toHost<float>(), ks::test::hostView(host, whole, v));
        ASSERT_EQ(v.copy().toHost<float>(), ks::test::hostView(host, whole, v));
    };
    const auto h33 = ks::test::uniform<float>(81, 0, 1, 112);
    for (const Case& c : cases) {
        const Slice s = Slice::range(c.start, c.stop, c.step);
        check(toGpu(std::vector<float>(h33.begin(), h33.begin() + 9), {3, 3}),
              std::vector<float>(h33.begin(), h33.begin() + 9), {s});
        check(toGpu(std::vector<float>(h33.begin(), h33.begin() + 3), {3, 1}),
              std::vector<float>(h33.begin(), h33.begin() + 3), {s});
        check(toGpu(std::vector<float>(h33.begin(), h33.begin() + 27), {3, 3, 3}),
              std::vector<float>(h33.begin(), h33.begin() + 27), {s, s});
        const std::vector<float> h27(h33.begin(), h33.begin() + 27);
        const DeviceArray base = toGpu(h27, {3, 3, 3});
        const DeviceArray tr = base.transpose({1, 2, 0});
        const DeviceArray v = tr.index({s, Slice::all(), s});
        ASSERT_EQ(v.toHost<float>(), ks::test::hostView(h27, base, v));
        const DeviceArray b4 = toGpu(h33, {3, 3, 3, 3});
        check(b4, h33, {s, Slice::all(), s});
    }

    // get/set of 2-D and transposed 3-D arrays and their sub-blocks.
    const auto n44 = ks::test::normal<double>(16, 113);
    const DeviceArray g44 = toGpu(n44, {4, 4});
    EXPECT_EQ(g44.toHost<double>(), n44);
    const DeviceArray blk = g44.index({Slice::range(1, 3), Slice::range(1, 3)});
    EXPECT_EQ(blk.toHost<double>(), ks::test::hostView(n44, g44, blk));
    const auto n444 = ks::test::normal<double>(64, 114);
    const DeviceArray base444 = toGpu(n444, {4, 4, 4});
    const DeviceArray blk3 = base444.transpose({1, 2, 0}).index({Slice::range(1, 3), Slice::range(1, 3), Slice::range(1, 3)});
    EXPECT_EQ(blk3.toHost<double>(), ks::test::hostView(n444, base444, blk3));
    // Writing through a view (setitem) leaves the rest alone.
    DeviceArray w = toGpu(n44, {4, 4});
    w.index({Slice::range(1, 3), Slice::range(1, 3)}).fill(1729);
    const auto wv = w.toHost<double>();
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c)
            ASSERT_EQ(wv[std::size_t(r * 4 + c)], (r >= 1 && r < 3 && c >= 1 && c < 3) ? 1729 : n44[std::size_t(r * 4 + c)]);
    // PyCUDA's noncontig transpose: views of views.
    const DeviceArray d = ks::array::zeros(rt(), {1000, 15, 2048}, DType::Float32);
    EXPECT_NO_THROW(d.transpose({1, 0, 2}));
    EXPECT_NO_THROW(d.index({Slice::all(), Slice::range(7, 9), Slice::all()}).transpose({1, 0, 2}));
}

TEST_F(ArrayTest, PyCudaZerosLikeEtc)
{
    const Dims shape{16, 16};
    const std::vector<float> a = ks::test::normal<float>(256, 170); // np.random.randn(16, 16) in float32
    const DeviceArray z = toGpu(a, shape);
    const DeviceArray zf = toGpuFortran(rt(), a, shape); // to_gpu(np.asfortranarray(a))
    // np.arange(3 * 4 * 5).reshape(3, 4, 5).swapaxes(1, 2), int64: to_gpu keeps its axis order, so
    // its strides are those of the swapped view of a C array, neither C- nor F-contiguous.
    const DeviceArray zNoncontig = toGpu(ks::test::arangeHost<std::int64_t>(60), Dims{3, 4, 5}).swapAxes(1, 2);
    ASSERT_TRUE(zf.isFContiguous() && !zf.isCContiguous());
    ASSERT_FALSE(zNoncontig.isCContiguous() || zNoncontig.isFContiguous());

    using Like = DeviceArray (*)(const DeviceArray&, std::optional<DType>, Order);
    const std::pair<const char*, Like> funcs[] = {
        {"emptyLike", &ks::array::emptyLike}, {"zerosLike", &ks::array::zerosLike}, {"onesLike", &ks::array::onesLike}};
    const std::pair<const char*, const DeviceArray*> arrays[] = {{"z", &z}, {"zf", &zf}, {"z_noncontig", &zNoncontig}};
    int checked = 0;
    for (const auto& [funcName, func] : funcs) {
        for (const auto& [arrName, arr] : arrays) {
            const bool contig = arr->isCContiguous() || arr->isFContiguous();
            if (!contig)
                continue; // as PyCUDA's test, which skips the non-contiguous array
            SCOPED_TRACE(std::string(funcName) + " of " + arrName);
            ++checked;

            // Output matches the order of the input: order="A", which for a contiguous array is
            // numpy's "K", Order::Keep (Order has no "A").
            DeviceArray newZ = func(*arr, std::nullopt, Order::Keep);
            EXPECT_EQ(newZ.isCContiguous(), arr->isCContiguous());
            EXPECT_EQ(newZ.isFContiguous(), arr->isFContiguous());
            EXPECT_EQ(newZ.dtype(), arr->dtype());
            EXPECT_EQ(newZ.shape(), arr->shape());

            // Force C-ordered output.
            newZ = func(*arr, std::nullopt, Order::C);
            EXPECT_TRUE(newZ.isCContiguous());
            EXPECT_FALSE(newZ.isFContiguous());
            EXPECT_EQ(newZ.dtype(), arr->dtype());
            EXPECT_EQ(newZ.shape(), arr->shape());

            // Force Fortran-ordered output.
            newZ = func(*arr, std::nullopt, Order::F);
            EXPECT_FALSE(newZ.isCContiguous());
            EXPECT_TRUE(newZ.isFContiguous());
            EXPECT_EQ(newZ.dtype(), arr->dtype());
            EXPECT_EQ(newZ.shape(), arr->shape());

            // Change the dtype, but otherwise match order and strides (order="K").
            newZ = func(*arr, DType::Complex64, Order::Keep);
            EXPECT_EQ(newZ.isCContiguous(), arr->isCContiguous());
            EXPECT_EQ(newZ.isFContiguous(), arr->isFContiguous());
            EXPECT_EQ(newZ.dtype(), DType::Complex64);
            EXPECT_EQ(newZ.shape(), arr->shape());
        }
    }
    EXPECT_EQ(checked, 6);
}

TEST_F(ArrayTest, PyCudaLogicalAndOrNot)
{
    const auto hx = ks::test::uniform<double>(40, 0, 1, 120), hy = ks::test::uniform<double>(40, 0, 1, 121);
    const DeviceArray x = toGpu(hx, {10, 4}), y = toGpu(hy, {10, 4});
    const DeviceArray zeros = ks::array::zeros(rt(), {10, 4}, DType::Float64), ones = ks::array::ones(rt(), {10, 4}, DType::Float64);
    for (BinaryOp op : {BinaryOp::LogicalAnd, BinaryOp::LogicalOr}) {
        const bool isAnd = op == BinaryOp::LogicalAnd;
        auto ref = [&](auto other) {
            std::vector<bool> r;
            for (std::size_t i = 0; i < 40; ++i)
                r.push_back(isAnd ? (hx[i] != 0 && other(i) != 0) : (hx[i] != 0 || other(i) != 0));
            return r;
        };
        EXPECT_EQ(ks::array::binary(op, x, y).toHost<bool>(), ref([&](std::size_t i) { return hy[i]; }));
        EXPECT_EQ(ks::array::binary(op, x, ones).toHost<bool>(), ref([](std::size_t) { return 1.0; }));
        EXPECT_EQ(ks::array::binary(op, x, zeros).toHost<bool>(), ref([](std::size_t) { return 0.0; }));
        EXPECT_EQ(ks::array::binary(op, x, Scalar(1.0)).toHost<bool>(), ref([](std::size_t) { return 1.0; }));
        EXPECT_EQ(ks::array::binary(op, x, Scalar(0.0)).toHost<bool>(), ref([](std::size_t) { return 0.0; }));
    }
    std::vector<bool> notX;
    for (double v : hx)
        notX.push_back(!(v != 0));
    EXPECT_EQ(ks::array::logicalNot(x).toHost<bool>(), notX);
    EXPECT_EQ(ks::array::logicalNot(ks::array::zeros(rt(), {10}, DType::Float64)).toHost<bool>(), std::vector<bool>(10, true));
    EXPECT_EQ(ks::array::logicalNot(ks::array::ones(rt(), {10}, DType::Float64)).toHost<bool>(), std::vector<bool>(10, false));
}

TEST_F(ArrayTest, PyCudaSetitemScalar)
{
    DeviceArray a = ks::array::zeros(rt(), {5}, DType::Float64) + 42;
    EXPECT_EQ(a.toHost<double>(), std::vector<double>(5, 42));
    a.index({IndexItem::ellipsis()}).fill(1729);
    EXPECT_EQ(a.toHost<double>(), std::vector<double>(5, 1729));
}

TEST_F(ArrayTest, PyCudaLog10)
{
    for (auto [t, rtol] : {std::pair{DType::Complex64, 1e-6}, std::pair{DType::Complex128, 1e-14}}) {
        const auto re = ks::test::uniform<double>(40, 0, 1, 130), im = ks::test::uniform<double>(40, 0, 1, 131);
        std::vector<c128> z;
        for (std::size_t i = 0; i < 40; ++i)
            z.push_back(t == DType::Complex64 ? c128(ks::roundToFloat(re[i]), ks::roundToFloat(im[i])) : c128(re[i], im[i]));
        const auto out = ks::array::log10(toGpu(z, {10, 4}).astype(t)).astype(DType::Complex128).toHost<c128>();
        for (std::size_t i = 0; i < 40; ++i) {
            const c128 ref = std::log10(z[i]);
            ASSERT_LE(std::abs(out[i] - ref), rtol * std::abs(ref)) << i;
        }
    }
}

TEST_F(ArrayTest, PyCudaBinaryOpsWithUnequalDtypes)
{
    const DType types[] = {DType::Int32, DType::Int64, DType::Float32, DType::Float64, DType::Complex64, DType::Complex128};
    auto random = [&](DType t, unsigned seed) {
        // PyCUDA's get_random_array: floats in [0, 1), ints in [-42, 42), complex = 1j*real + real.
        std::vector<c128> v;
        const auto a = ks::test::uniform<double>(40, 0, 1, seed), b = ks::test::uniform<double>(40, 0, 1, seed + 1);
        const auto ints = ks::test::integers<double>(40, -42, 42, seed);
        for (std::size_t i = 0; i < 40; ++i) {
            if (ks::array::isInteger(t))
                v.emplace_back(ints[i], 0);
            else if (t == DType::Float32)
                v.emplace_back(float(a[i]), 0);
            else if (t == DType::Float64)
                v.emplace_back(a[i], 0);
            else if (t == DType::Complex64)
                v.emplace_back(float(b[i]), float(a[i]));
            else
                v.emplace_back(b[i], a[i]);
        }
        return v;
    };
    const BinaryOp ops[] = {BinaryOp::Add, BinaryOp::Subtract, BinaryOp::Multiply, BinaryOp::TrueDivide};
    unsigned seed = 140;
    for (DType lt : types)
        for (DType rtp : types)
            for (BinaryOp op : ops) {
                const auto l = random(lt, seed), r = random(rtp, seed + 7);
                seed += 2;
                const DeviceArray lg = toGpu(l, {10, 4}).astype(lt), rg = toGpu(r, {10, 4}).astype(rtp);
                const DeviceArray res = ks::array::binary(op, lg, rg);
                DType expected = ks::array::promoteTypes(lt, rtp);
                if (op == BinaryOp::TrueDivide && !ks::array::isInexact(expected))
                    expected = DType::Float64;
                ASSERT_EQ(res.dtype(), expected) << ks::array::dtypeName(lt) << " " << ks::array::dtypeName(rtp);
                ASSERT_EQ(res.shape(), (Dims{10, 4}));
                const auto out = res.astype(DType::Complex128).toHost<c128>();
                for (std::size_t i = 0; i < 40; ++i) {
                    c128 ref;
                    switch (op) {
                    case BinaryOp::Add: ref = l[i] + r[i]; break;
                    case BinaryOp::Subtract: ref = l[i] - r[i]; break;
                    case BinaryOp::Multiply: ref = l[i] * r[i]; break;
                    default: ref = l[i] / r[i]; break;
                    }
                    if (std::abs(ref) == INFINITY || ref != ref)
                        continue; // integer division by zero in the random data
                    ASSERT_LE(std::abs(out[i] - ref), 5e-5 * std::abs(ref) + 1e-12)
                        << ks::array::dtypeName(lt) << " " << ks::array::opName(op) << " " << ks::array::dtypeName(rtp)
                        << " at " << i;
                }
            }
}

TEST_F(ArrayTest, MulAdd)
{
    // PyCUDA's mul_add / _axpbyz: a*x + b*y in one pass.
    const auto hx = ks::test::uniform<float>(1000, -1, 1, 150), hy = ks::test::uniform<float>(1000, -1, 1, 151);
    const DeviceArray x = toGpu(hx), y = toGpu(hy);
    const DeviceArray z = ks::array::mulAdd(2.5, x, -3, y);
    EXPECT_EQ(z.dtype(), DType::Float32);
    const auto out = z.toHost<float>();
    // The device may fuse a*x + b*y into an FMA: compare within a couple of float32 ulps.
    for (std::size_t i = 0; i < hx.size(); ++i)
        ASSERT_NEAR(out[i], 2.5 * hx[i] - 3.0 * hy[i], 2.5e-7 * (2.5 * std::abs(hx[i]) + 3 * std::abs(hy[i]))) << i;
    const DeviceArray mixed = ks::array::mulAdd(2, x, 1, toGpu(std::vector<double>(1000, 0.5)));
    EXPECT_EQ(mixed.dtype(), DType::Float64);
    EXPECT_NEAR(mixed.toHost<double>()[7], 2.0 * double(hx[7]) + 0.5, 1e-15);
}

TEST_F(ArrayTest, PyCudaBigArrayElementwise)
{
    // 2^32 uint8 elements: 64-bit indices in a user kernel.
    const std::size_t n = std::size_t(1) << 32;
    if (ks::cuda::memoryInfo().freeBytes < n + (std::size_t(1) << 30))
        GTEST_SKIP() << "needs 5 GiB of free device memory";
    const ks::array::ElementwiseKernel k("unsigned char* d_arr", "d_arr[i] = (unsigned char) (i & 0b11111111)",
                                         "mod_linspace");
    DeviceArray d = ks::array::empty(rt(), {std::int64_t(n)}, DType::UInt8);
    d.fill(7); // poison: 7 is a valid value only at i % 256 == 7
    k(rt(), {d});
    std::vector<unsigned char> host(n);
    d.copyToHost(host.data(), n);
    for (std::size_t i = 0; i < n; ++i)
        if (host[i] != (unsigned char)(i & 255))
            FAIL() << "element " << i << " is " << int(host[i]);
    // A built-in op past 2^32 too: d += 1 wraps at 256.
    d += 1;
    const DeviceArray tail = d.slice(Slice::from(std::int64_t(n) - 3));
    EXPECT_EQ(tail.toHost<unsigned char>(), (std::vector<unsigned char>{254, 255, 0}));
}

// ElementwiseKernel's vector entry (16-byte Vecs when every array is indexed only at [i]): the tails
// of every size, misaligned views on the scalar entry, conditional stores keeping unwritten
// elements, `i` itself, one array under two names, and 16 bytes per thread for uint8.
TEST_F(ArrayTest, PyCudaCopyStrides)
{
    // inducer/pycuda#403: a = np.random.randn(22, 33).copy(order="f") keeps its strides on the device
    // and through copy().
    const Dims shape{22, 33};
    const std::vector<double> a = ks::test::normal<double>(22 * 33, 180); // C order of the shape
    const Dims aStrides{8, 22 * 8};                                     // a.strides
    const DeviceArray aDev = toGpuFortran(rt(), a, shape);
    EXPECT_EQ(aDev.strides(), aStrides);
    const DeviceArray aDev2 = aDev.copy();
    EXPECT_EQ(aDev2.strides(), aStrides);
    EXPECT_NE(aDev2.data(), aDev.data());
    EXPECT_EQ(aDev2.toHost<double>(), a); // np.array_equal
}

TEST_F(ArrayTest, ElwiseKernelVectorEntryMatchesTheScalarLoop)
{
    const ks::array::ElementwiseKernel linComb("float a, float *x, float b, float *y, float *z", "z[i] = a*x[i] + b*y[i]",
                                               "ks_vec_lin");
    ASSERT_EQ(linComb.vectorPlan().width, 4);
    const ks::array::ElementwiseKernel clip("float *x, float *z", "if (x[i] > 0) z[i] = x[i] + (float)i", "ks_vec_clip");
    ASSERT_EQ(clip.vectorPlan().width, 4);
    for (const std::int64_t n : {1, 3, 4, 5, 1023, 4099, (1 << 20) + 3}) {
        SCOPED_TRACE(n);
        // Small integers in float: a*x + b*y is exact, so any contraction gives the same bits.
        std::vector<float> hx(std::size_t(n + 1)), hy(std::size_t(n + 1));
        for (std::size_t k = 0; k < hx.size(); ++k) {
            hx[k] = float(int(k * 7 % 23) - 11);
            hy[k] = float(int(k * 5 % 19) - 9);
        }
        const DeviceArray x = toGpu(hx), y = toGpu(hy);
        for (const int offset : {0, 1}) { // offset 1: 4-byte aligned views take the scalar entry
            SCOPED_TRACE(offset);
            const DeviceArray xv = x.slice(Slice::range(offset, offset + n)), yv = y.slice(Slice::range(offset, offset + n));
            DeviceArray z = toGpu(std::vector<float>(std::size_t(n + 1), -1000.f));
            const DeviceArray zv = z.slice(Slice::range(offset, offset + n));
            linComb(rt(), {2, xv, 3, yv, zv});
            const auto got = z.toHost<float>();
            std::size_t bad = 0;
            for (std::int64_t k = 0; k < n; ++k)
                bad += got[std::size_t(k + offset)] != 2 * hx[std::size_t(k + offset)] + 3 * hy[std::size_t(k + offset)];
            EXPECT_EQ(bad, 0u);
            EXPECT_EQ(got[offset == 0 ? std::size_t(n) : 0], -1000.f) << "outside the view untouched";

            DeviceArray w = toGpu(std::vector<float>(std::size_t(n + 1), -1000.f));
            clip(rt(), {xv, w.slice(Slice::range(offset, offset + n))});
            const auto gw = w.toHost<float>();
            bad = 0;
            for (std::int64_t k = 0; k < n; ++k) {
                const float xk = hx[std::size_t(k + offset)];
                bad += gw[std::size_t(k + offset)] != (xk > 0 ? xk + float(k) : -1000.f);
            }
            EXPECT_EQ(bad, 0u) << "conditional stores keep the elements they skip";
        }
    }
    // One array as `a` (written) and `b` (read): b[i] must see a[i]'s store, as in the scalar loop.
    const ks::array::ElementwiseKernel alias("float *a, float *b, float *c", "a[i] = 5; c[i] = b[i]", "ks_vec_alias");
    const DeviceArray shared = toGpu(std::vector<float>(4096, 1.f));
    DeviceArray c = toGpu(std::vector<float>(4096, -1.f));
    alias(rt(), {shared, shared, c});
    EXPECT_EQ(c.toHost<float>(), std::vector<float>(4096, 5.f));
    // uint8: 16 elements per Vec, read-modify-write.
    const ks::array::ElementwiseKernel inc("unsigned char *u", "u[i] += 3", "ks_vec_inc");
    ASSERT_EQ(inc.vectorPlan().width, 16);
    std::vector<unsigned char> hu(100003);
    for (std::size_t k = 0; k < hu.size(); ++k)
        hu[k] = static_cast<unsigned char>(k * 13);
    DeviceArray u = toGpu(hu);
    inc(rt(), {u});
    const auto gu = u.toHost<unsigned char>();
    std::size_t bad = 0;
    for (std::size_t k = 0; k < hu.size(); ++k)
        bad += gu[k] != static_cast<unsigned char>(hu[k] + 3);
    EXPECT_EQ(bad, 0u);
}

// ----- The layout matrix on the GPU: every row of arrayEntryPoints() over every layout of layoutNames().
namespace ks::test {
namespace {

// A refusal names the layout: as describeLayout() says it, or in numpy's words.
bool namesLayout(const std::string& message, const LayoutView& lv)
{
    if (message.find(lv.view.describeLayout()) != std::string::npos)
        return true;
    if (lv.layout == "0-size")
        return message.find("zero-size") != std::string::npos;
    if (lv.layout == "0-d")
        return message.find("zero-dimensional") != std::string::npos;
    return false;
}

bool refuses(const EntryPoint& e, const LayoutView& lv)
{
    if (e.role == Role::Writes && lv.view.isBroadcast())
        return true;
    if (e.role == Role::ReadsContiguous && !lv.view.isCContiguous())
        return true;
    return e.alsoRefuses && e.alsoRefuses(lv.layout);
}

class ArrayLayouts : public ArrayTest, public ::testing::WithParamInterface<std::string> {};

TEST_P(ArrayLayouts, MatchNumpyOrRefuseNamingTheLayout)
{
    const auto& rows = arrayEntryPoints();
    const auto row = std::find_if(rows.begin(), rows.end(), [&](const EntryPoint& e) { return e.name == GetParam(); });
    ASSERT_NE(row, rows.end());
    for (const std::string& layout : layoutNames()) {
        SCOPED_TRACE(row->name + " on a " + layout + " view");
        const LayoutView lv = makeLayout(rt(), layout);
        const bool refusal = refuses(*row, lv);
        try {
            row->run(rt(), lv);
            rt().synchronize();
            if (refusal)
                ADD_FAILURE() << "ran; a " << lv.view.describeLayout() << " view should be refused";
        } catch (const ks::Error& e) {
            if (!refusal)
                ADD_FAILURE() << "refused: " << e.what();
            else
                EXPECT_TRUE(namesLayout(e.what(), lv)) << "the refusal does not name the layout ("
                                                       << lv.view.describeLayout() << "): " << e.what();
        }
    }
}

std::vector<std::string> rowNames()
{
    std::vector<std::string> out;
    for (const EntryPoint& e : arrayEntryPoints())
        out.push_back(e.name);
    return out;
}

// "DeviceArray::operator+=" -> "DeviceArray_operator_plus_eq", "ScanKernel::operator() (into the view)"
// -> "ScanKernel_operator_call_into_the_view": gtest names are identifiers.
std::string testName(const ::testing::TestParamInfo<std::string>& info)
{
    static const std::pair<char, const char*> words[] = {{'+', "plus"}, {'-', "minus"}, {'*', "times"},
                                                         {'/', "slash"}, {'%', "percent"}, {'=', "eq"},
                                                         {'<', "lt"},   {'>', "gt"},    {'!', "not"}};
    std::string spaced;
    for (std::size_t k = 0; k < info.param.size(); ++k) {
        const char c = info.param[k];
        if (std::isalnum(static_cast<unsigned char>(c))) {
            spaced += c;
        } else if (info.param.compare(k, 2, "()") == 0) {
            spaced += " call ";
            ++k;
        } else {
            spaced += ' ';
            for (const auto& [symbol, word] : words)
                if (c == symbol)
                    spaced += std::string(word) + ' ';
        }
    }
    std::string out;
    for (char c : spaced)
        if (c != ' ')
            out += c;
        else if (!out.empty() && out.back() != '_')
            out += '_';
    while (!out.empty() && out.back() == '_')
        out.pop_back();
    return out;
}

INSTANTIATE_TEST_SUITE_P(EveryEntryPoint, ArrayLayouts, ::testing::ValuesIn(rowNames()), testName);

} // namespace
} // namespace ks::test

// Fortran-order creation, and the copies and *Like of an F-order array keeping its order, with their
// values (PyCUDA's test_zeros_like_etc and test_copy_strides, ported above, check the layouts).
TEST_F(ArrayTest, FortranOrderCreationCopiesAndLikes)
{
    using ks::array::Order;
    const Dims shape{5, 7, 3};
    const std::size_t n = 105;
    for (Order order : {Order::C, Order::F}) {
        const DeviceArray arrays[] = {ks::array::zeros(rt(), shape, DType::Float64, order),
                                      ks::array::ones(rt(), shape, DType::Int32, order),
                                      ks::array::full(rt(), shape, Scalar(2.5), DType::Float32, order),
                                      ks::array::empty(rt(), shape, DType::Float32, order)};
        for (const DeviceArray& a : arrays) {
            EXPECT_TRUE(order == Order::F ? a.isFContiguous() && !a.isCContiguous() : a.isCContiguous())
                << a.describe() << " strides " << a.strides().toString();
            EXPECT_EQ(a.shape(), shape);
        }
        EXPECT_EQ(arrays[0].toHost<double>(), std::vector<double>(n, 0.0));
        EXPECT_EQ(arrays[1].toHost<std::int32_t>(), std::vector<std::int32_t>(n, 1));
        EXPECT_EQ(arrays[2].toHost<float>(), std::vector<float>(n, 2.5f));
    }
    // Distinct values (host in C order of the shape) in an F-order array.
    const std::vector<float> host = ks::test::normal<float>(n, 31);
    DeviceArray a = ks::array::empty(rt(), shape, DType::Float32, Order::F);
    a.copyFromHost(host.data(), host.size() * sizeof(float));
    EXPECT_EQ(a.toHost<float>(), host);
    // The memory itself is in F order: element (i, j, k) at i + 5 j + 35 k.
    const std::vector<float> memory = DeviceArray::view(rt(), a.data(), DType::Float32, Dims{105}).toHost<float>();
    for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 7; ++j)
            for (int k = 0; k < 3; ++k)
                ASSERT_EQ(memory[std::size_t(i + 5 * j + 35 * k)], host[std::size_t((i * 7 + j) * 3 + k)]);

    const DeviceArray kept = a.copy();
    EXPECT_EQ(kept.strides(), a.strides());
    EXPECT_EQ(kept.toHost<float>(), host);
    const DeviceArray inC = a.copy(Order::C);
    EXPECT_TRUE(inC.isCContiguous());
    EXPECT_EQ(inC.toHost<float>(), host);
    EXPECT_TRUE(ks::array::emptyLike(a).isFContiguous());
    EXPECT_TRUE(ks::array::emptyLike(a, std::nullopt, Order::C).isCContiguous());
    const DeviceArray z = ks::array::zerosLike(a, DType::Float64);
    EXPECT_TRUE(z.isFContiguous());
    EXPECT_EQ(z.dtype(), DType::Float64);
    EXPECT_EQ(z.toHost<double>(), std::vector<double>(n, 0.0));
    const DeviceArray o = ks::array::onesLike(a);
    EXPECT_TRUE(o.isFContiguous());
    EXPECT_EQ(o.toHost<float>(), std::vector<float>(n, 1.f));
    EXPECT_EQ(ks::array::onesLike(a, DType::Complex64, Order::C).toHost<c64>(), std::vector<c64>(n, c64(1, 0)));
    // Like a transposed (F-contiguous) view of a C array: F again.
    EXPECT_TRUE(ks::array::zerosLike(inC.transpose()).isCContiguous() == false);
    EXPECT_TRUE(ks::array::zerosLike(inC.transpose()).isFContiguous());

    // Arithmetic with F arrays, an assignment between them, and a fill of one.
    std::vector<float> twice = host;
    for (float& v : twice)
        v *= 2;
    EXPECT_EQ((a + kept).toHost<float>(), twice);
    EXPECT_EQ((a + inC).toHost<float>(), twice);
    DeviceArray target = ks::array::zeros(rt(), shape, DType::Float32, Order::F);
    target.assign(a * 2.f);
    EXPECT_EQ(target.toHost<float>(), twice);
    target.fill(Scalar(4));
    EXPECT_EQ(target.toHost<float>(), std::vector<float>(n, 4.f));
    EXPECT_EQ(a.toHost<float>(), host) << "the source changed";
}
