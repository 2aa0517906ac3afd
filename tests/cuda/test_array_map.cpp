// The element-wise engine beyond PyCUDA's tests: CUB-style size sweeps over the vectorised,
// unaligned and strided kernels with poisoned outputs, broadcasting, overlap, numpy's integer
// semantics, views of foreign memory, the loaded-kernel cache, and error messages.
#include "array_test_support.hpp"

#include "ks/array/map.hpp"
#include "ks/cuda/memory.hpp"

#include <climits>
#include <cstring>

using ks::array::BinaryOp;
using ks::array::DeviceArray;
using ks::array::Dims;
using ks::array::DType;
using ks::array::Scalar;
using ks::array::Slice;
using ks::test::ArrayTest;
using c64 = std::complex<float>;

namespace {

const std::int64_t kSweep[] = {0, 1, 31, 32, 33, 255, 256, 257, 1 << 20, 3000017};

} // namespace

TEST_F(ArrayTest, SizeSweepMulAddVectorUnalignedAndStrided)
{
    for (std::int64_t n : kSweep) {
        // Inputs twice as long so that offset and strided views of n elements exist.
        const auto hx = ks::test::uniform<float>(std::size_t(2 * n + 2), -1, 1, unsigned(n) + 1);
        const auto hy = ks::test::uniform<float>(std::size_t(2 * n + 2), -1, 1, unsigned(n) + 2);
        const DeviceArray x = toGpu(hx), y = toGpu(hy);
        struct Layout {
            const char* name;
            DeviceArray xv, yv;
        };
        const Layout layouts[] = {
            {"contiguous (vector path)", x.slice(Slice::range(0, n)), y.slice(Slice::range(0, n))},
            {"offset by one (scalar path)", x.slice(Slice::range(1, n + 1)), y.slice(Slice::range(1, n + 1))},
            {"step 2 (strided path)", x.slice(Slice::range(0, 2 * n, 2)), y.slice(Slice::range(1, 2 * n + 1, 2))},
            {"reversed (strided path)", x.slice(Slice::range(0, n)).slice(Slice::reversed()), y.slice(Slice::range(0, n))},
        };
        for (const Layout& l : layouts) {
            ASSERT_EQ(l.xv.size(), n) << l.name;
            DeviceArray out = ks::array::full(rt(), {n}, std::nan(""), DType::Float32);
            ks::array::mulAddInto(2.5, l.xv, -1.5, l.yv, out);
            const auto got = out.toHost<float>();
            const auto xs = l.xv.toHost<float>(), ys = l.yv.toHost<float>();
            for (std::int64_t i = 0; i < n; ++i) {
                const double ref = 2.5 * xs[std::size_t(i)] - 1.5 * ys[std::size_t(i)];
                ASSERT_NEAR(got[std::size_t(i)], ref, 3e-7 * (2.5 * std::abs(xs[std::size_t(i)]) + 1.5 * std::abs(ys[std::size_t(i)])))
                    << l.name << " n " << n << " at " << i;
            }
        }
    }
}

TEST_F(ArrayTest, SizeSweepIntegerAndDoubleKinds)
{
    for (std::int64_t n : kSweep) {
        // int8 wraps like numpy (16 elements per vector access).
        const auto ha = ks::test::integers<signed char>(std::size_t(n), -128, 128, 7), hb = ks::test::integers<signed char>(std::size_t(n), -128, 128, 8);
        DeviceArray out = ks::array::full(rt(), {n}, Scalar(99), DType::Int8);
        ks::array::binaryInto(BinaryOp::Add, toGpu(ha), toGpu(hb), out);
        const auto got = out.toHost<signed char>();
        for (std::int64_t i = 0; i < n; ++i)
            ASSERT_EQ(got[std::size_t(i)], (signed char)(ha[std::size_t(i)] + hb[std::size_t(i)])) << "n " << n << " at " << i;
        // float64 sin, and a uint16 -> float32 cast of a strided view.
        const auto hd = ks::test::uniform<double>(std::size_t(n), -5, 5, 9);
        const auto sd = ks::array::sin(toGpu(hd)).toHost<double>();
        for (std::int64_t i = 0; i < n; ++i)
            ASSERT_NEAR(sd[std::size_t(i)], std::sin(hd[std::size_t(i)]), 1e-15) << "n " << n << " at " << i;
        const auto hu = ks::test::integers<unsigned short>(std::size_t(2 * n), 0, 65536, 10);
        const auto cast = toGpu(hu).slice(Slice::from(1, 2)).astype(DType::Float32).toHost<float>();
        for (std::int64_t i = 0; i < n; ++i)
            ASSERT_EQ(cast[std::size_t(i)], float(hu[std::size_t(2 * i + 1)])) << "n " << n << " at " << i;
    }
}

TEST_F(ArrayTest, BroadcastingAndTwoDimensionalStrides)
{
    const auto hcol = ks::test::uniform<float>(3, 0, 1, 200), hrow = ks::test::uniform<float>(4, 0, 1, 201);
    const DeviceArray col = toGpu(hcol, {3, 1}), row = toGpu(hrow);
    const DeviceArray sum = col + row;
    EXPECT_EQ(sum.shape(), (Dims{3, 4}));
    const auto s = sum.toHost<float>();
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c)
            ASSERT_EQ(s[std::size_t(r * 4 + c)], hcol[std::size_t(r)] + hrow[std::size_t(c)]);
    EXPECT_THROW(toGpu(hcol) + row, ks::Error);
    try {
        (void)(toGpu(hcol) + row);
    } catch (const ks::Error& e) {
        EXPECT_NE(std::string(e.what()).find("could not be broadcast together with shapes (3,) (4,)"), std::string::npos)
            << e.what();
    }
    // A transposed 2-D operand with a column slice: strided kernel, rank 2 after collapsing.
    const auto hm = ks::test::uniform<float>(37 * 53, 0, 1, 202);
    const DeviceArray m = toGpu(hm, {37, 53});
    const DeviceArray v = m.transpose().slice(1, Slice::range(2, 30, 3));
    const auto got = (v * 2).toHost<float>();
    const auto ref = ks::test::hostView(hm, m, v);
    for (std::size_t i = 0; i < ref.size(); ++i)
        ASSERT_EQ(got[i], ref[i] * 2);
}

TEST_F(ArrayTest, TransposedOperandsRunTiledAndMatchTheHost)
{
    ks::test::LaunchRecorder recorder;
    ks::array::Runtime r(optionsWith(recorder));
    // Element (i, j) of a view in C order, from its host base.
    auto expectView = [](const auto& got, const auto& ref, const std::string& what) {
        ASSERT_EQ(got.size(), ref.size()) << what;
        for (std::size_t i = 0; i < ref.size(); ++i)
            ASSERT_EQ(got[i], ref[i]) << what << " at " << i;
    };

    // copy() in C order of a transposed 70x45 float32 view: partial tiles on both axes.
    const auto hf = ks::test::uniform<float>(70 * 45, -1, 1, 230);
    const DeviceArray f = ks::array::fromHost(r, std::span<const float>(hf), Dims{70, 45});
    const DeviceArray ft = f.transpose();
    const DeviceArray fc = ft.copy(ks::array::Order::C);
    EXPECT_EQ(recorder.last(), ks::array::kMapTiledKernel);
    EXPECT_TRUE(fc.isCContiguous());
    expectView(fc.toHost<float>(), ks::test::hostView(hf, f, ft), "copy of f32 transposed");

    // astype of a transposed int16 view (2-byte elements), 33 x 1000.
    std::vector<std::int16_t> hs(33 * 1000);
    for (std::size_t i = 0; i < hs.size(); ++i)
        hs[i] = std::int16_t(int(i * 7919 % 65536) - 32768);
    const DeviceArray s = ks::array::fromHost(r, std::span<const std::int16_t>(hs), Dims{33, 1000});
    const DeviceArray sd = s.transpose().astype(DType::Float64);
    EXPECT_EQ(recorder.last(), ks::array::kMapTiledKernel);
    {
        const auto ref = ks::test::hostView(hs, s, s.transpose());
        const auto got = sd.toHost<double>();
        ASSERT_EQ(got.size(), ref.size());
        for (std::size_t i = 0; i < ref.size(); ++i)
            ASSERT_EQ(got[i], double(ref[i])) << i;
    }

    // copy(Order::F) of a C-ordered complex128 50x40 matrix: the output runs along axis 0, so the
    // kernel turns the problem around.
    std::vector<std::complex<double>> hz(50 * 40);
    for (std::size_t i = 0; i < hz.size(); ++i)
        hz[i] = {double(i), -0.5 * double(i)};
    const DeviceArray z = ks::array::fromHost(r, std::span<const std::complex<double>>(hz), Dims{50, 40});
    const DeviceArray zf = z.copy(ks::array::Order::F);
    EXPECT_EQ(recorder.last(), ks::array::kMapTiledKernel);
    EXPECT_TRUE(zf.isFContiguous());
    expectView(zf.toHost<std::complex<double>>(), hz, "F copy of complex128");

    // a + b.T: only b is staged; a (96x64) and the output run along axis 1.
    const auto ha = ks::test::uniform<float>(96 * 64, -1, 1, 231), hb = ks::test::uniform<float>(64 * 96, -1, 1, 232);
    const DeviceArray a = ks::array::fromHost(r, std::span<const float>(ha), Dims{96, 64});
    const DeviceArray b = ks::array::fromHost(r, std::span<const float>(hb), Dims{64, 96});
    const DeviceArray sum = a + b.transpose();
    EXPECT_EQ(recorder.last(), ks::array::kMapTiledKernel);
    {
        const auto got = sum.toHost<float>();
        for (std::size_t i = 0; i < 96; ++i)
            for (std::size_t j = 0; j < 64; ++j)
                ASSERT_EQ(got[i * 64 + j], ha[i * 64 + j] + hb[j * 96 + i]) << i << "," << j;
    }

    // A 3-D permutation that collapses to two axes: (4, 8, 50) -> axes (2, 0, 1) is (50, 32) in memory.
    const auto h3 = ks::test::uniform<float>(4 * 8 * 50, -1, 1, 233);
    const DeviceArray t3 = ks::array::fromHost(r, std::span<const float>(h3), Dims{4, 8, 50});
    const DeviceArray p3 = t3.transpose(Dims{2, 0, 1});
    const DeviceArray c3 = p3.copy(ks::array::Order::C);
    EXPECT_EQ(recorder.last(), ks::array::kMapTiledKernel);
    expectView(c3.toHost<float>(), ks::test::hostView(h3, t3, p3), "copy of a 3-D permutation");

    // The element index the operation sees is its C-order index, in both orientations.
    ks::array::MapSpec indexed;
    indexed.name = "plus_index";
    indexed.inputs = {{DType::Float32, false}};
    indexed.outputs = {DType::Float32};
    indexed.body = "out0 = in0 + (float)i;";
    for (const ks::array::Order order : {ks::array::Order::C, ks::array::Order::F}) {
        const DeviceArray out = ks::array::empty(r, ft.shape(), DType::Float32, order);
        const DeviceArray outs[] = {out};
        const ks::array::MapArg ins[] = {order == ks::array::Order::C ? ft : f.reshapeView(ft.shape())};
        ks::array::runMap(indexed, outs, ins);
        EXPECT_EQ(recorder.last(), ks::array::kMapTiledKernel);
        const auto src = order == ks::array::Order::C ? ks::test::hostView(hf, f, ft) : hf;
        const auto got = out.toHost<float>();
        for (std::size_t i = 0; i < got.size(); ++i)
            ASSERT_EQ(got[i], src[i] + float(i)) << (order == ks::array::Order::C ? "C" : "F") << " at " << i;
    }

    // Not worth a tile: an axis shorter than one (2 x 1000 transposed), and nothing transposed (a
    // step-2 slice): the strided kernel, with the same answers.
    const auto hn = ks::test::uniform<float>(2 * 1000, -1, 1, 234);
    const DeviceArray narrow = ks::array::fromHost(r, std::span<const float>(hn), Dims{1000, 2});
    const DeviceArray nc = narrow.transpose().copy(ks::array::Order::C);
    EXPECT_EQ(recorder.last(), ks::array::kMapStridedKernel);
    expectView(nc.toHost<float>(), ks::test::hostView(hn, narrow, narrow.transpose()), "2 x 1000");
    const DeviceArray stepped = a.slice(1, Slice::range(0, 64, 2));
    expectView((stepped * 1.f).toHost<float>(), ks::test::hostView(ha, a, stepped), "step 2");
    EXPECT_EQ(recorder.last(), ks::array::kMapStridedKernel);
}

TEST_F(ArrayTest, OverlappingInPlaceMatchesNumpy)
{
    const auto h = ks::test::arangeHost<float>(1000);
    DeviceArray a = toGpu(h);
    // a[1:] += a[:-1] reads the old values everywhere (numpy copies overlapping inputs).
    ks::array::binaryInto(BinaryOp::Add, a.slice(Slice::from(1)), a.slice(Slice::to(-1)), a.slice(Slice::from(1)));
    const auto got = a.toHost<float>();
    EXPECT_EQ(got[0], 0.f);
    for (std::size_t i = 1; i < h.size(); ++i)
        ASSERT_EQ(got[i], h[i] + h[i - 1]) << i;
    // Reversing in place.
    DeviceArray b = toGpu(h);
    b.assign(b.slice(Slice::reversed()));
    const auto rev = b.toHost<float>();
    for (std::size_t i = 0; i < h.size(); ++i)
        ASSERT_EQ(rev[i], h[h.size() - 1 - i]) << i;
}

TEST_F(ArrayTest, IntegerAndFloatDivisionSemantics)
{
    const DeviceArray a = toGpu(std::vector<int>{-7, 7, -7, 7, 5, INT_MIN, 0});
    const DeviceArray b = toGpu(std::vector<int>{2, -2, -2, 2, 0, -1, 3});
    EXPECT_EQ(ks::array::floorDivide(a, b).toHost<int>(), (std::vector<int>{-4, -4, 3, 3, 0, INT_MIN, 0}));
    EXPECT_EQ(ks::array::remainder(a, b).toHost<int>(), (std::vector<int>{1, -1, -1, 1, 0, 0, 0}));
    EXPECT_EQ((a % b).toHost<int>(), (std::vector<int>{1, -1, -1, 1, 0, 0, 0}));
    EXPECT_EQ(ks::array::fmod(a, b).toHost<int>(), (std::vector<int>{-1, 1, -1, 1, 0, 0, 0}));
    const auto q = (a / b).toHost<double>(); // true division in float64
    EXPECT_EQ((a / b).dtype(), DType::Float64);
    EXPECT_EQ(q[0], -3.5);
    EXPECT_EQ(q[4], INFINITY);

    const DeviceArray x = toGpu(std::vector<double>{-7.5, 7.5, 1, 0, -0.0});
    const DeviceArray y = toGpu(std::vector<double>{2, -2, 0, 0, 5});
    const auto fd = ks::array::floorDivide(x, y).toHost<double>();
    EXPECT_EQ(fd[0], -4);
    EXPECT_EQ(fd[1], -4);
    EXPECT_EQ(fd[2], INFINITY);
    EXPECT_TRUE(std::isnan(fd[3]));
    const auto md = ks::array::remainder(x, y).toHost<double>();
    EXPECT_EQ(md[0], 0.5);
    EXPECT_EQ(md[1], -0.5);
    EXPECT_TRUE(std::isnan(md[2]));
    EXPECT_EQ(md[4], 0.0);

    const DeviceArray base = toGpu(std::vector<int>{3, 2, -1, 1, -2});
    const DeviceArray ex = toGpu(std::vector<int>{4, -1, -3, -5, 3});
    EXPECT_EQ(ks::array::power(base, ex).toHost<int>(), (std::vector<int>{81, 0, -1, 1, -8}));
    EXPECT_EQ(ks::array::abs(toGpu(std::vector<int>{-3, 3, INT_MIN})).toHost<int>(), (std::vector<int>{3, 3, INT_MIN}));
    EXPECT_EQ(ks::array::abs(toGpu(std::vector<c64>{{3, -4}})).toHost<float>(), std::vector<float>{5});
    EXPECT_EQ((-toGpu(std::vector<unsigned char>{1, 0})).toHost<unsigned char>(), (std::vector<unsigned char>{255, 0}));
    EXPECT_THROW(-toGpu(std::vector<unsigned char>{1}).astype(DType::Bool), ks::Error);
}

TEST_F(ArrayTest, ViewOfForeignMemoryWithOffset)
{
    // A raw allocation (standing in for a GL buffer mapped this frame) viewed from byte 16 on.
    const std::size_t n = 1000, guard = 4;
    ks::cuda::DeviceMemory raw((n + 2 * guard) * sizeof(float));
    const std::vector<float> poison(n + 2 * guard, -123.f);
    raw.upload(poison.data(), poison.size() * sizeof(float));
    DeviceArray v = DeviceArray::view(rt(), raw.get(), DType::Float32, {std::int64_t(n)}, {}, guard * sizeof(float));
    EXPECT_EQ(v.data(), raw.get() + guard * sizeof(float));
    const auto hx = ks::test::uniform<float>(n, 0, 1, 210);
    const DeviceArray x = toGpu(hx);
    ks::array::binaryInto(BinaryOp::Multiply, x, Scalar(3), v);
    v += 1;
    rt().synchronize();
    std::vector<float> back(n + 2 * guard);
    raw.download(back.data(), back.size() * sizeof(float));
    for (std::size_t i = 0; i < guard; ++i) {
        ASSERT_EQ(back[i], -123.f) << "guard before, " << i;
        ASSERT_EQ(back[guard + n + i], -123.f) << "guard after, " << i;
    }
    for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(back[guard + i], hx[i] * 3 + 1) << i;
    // Views of the view, reshaped 2-D.
    const DeviceArray grid = v.reshape({25, 40});
    EXPECT_EQ(grid.data(), v.data());
    EXPECT_EQ(grid.index({3, 5}).toHost<float>()[0], back[guard + 3 * 40 + 5]);
}

TEST_F(ArrayTest, GeneratedKernelsLoadOncePerRuntime)
{
    const DeviceArray a = toGpu(ks::test::uniform<float>(4096, 0, 1, 220)), b = toGpu(ks::test::uniform<float>(4096, 0, 1, 221));
    (void)(a * b + a);
    const auto s1 = rt().stats();
    const auto c1 = rt().compileCache().stats();
    for (int k = 0; k < 10; ++k)
        (void)(a * b + a);
    const auto s2 = rt().stats();
    const auto c2 = rt().compileCache().stats();
    EXPECT_EQ(s2.modulesLoaded, s1.modulesLoaded) << "the second use loaded a module";
    EXPECT_EQ(c2.misses, c1.misses) << "the second use compiled";
    EXPECT_EQ(s2.kernelHits, s1.kernelHits + 20);
    EXPECT_EQ(s2.launches, s1.launches + 20);
}

TEST_F(ArrayTest, ClearErrors)
{
    try {
        (void)ks::array::empty(rt(), {std::int64_t(1) << 48}, DType::Float64);
        FAIL() << "a 2 PiB array was allocated";
    } catch (const ks::Error& e) {
        EXPECT_NE(std::string(e.what()).find("cannot allocate"), std::string::npos) << e.what();
    }
    EXPECT_THROW(ks::array::empty(rt(), {-1}), ks::Error);
    const DeviceArray flags = toGpu(std::vector<float>{1, 0}).astype(DType::Bool);
    EXPECT_THROW(flags - flags, ks::Error);
    EXPECT_THROW(ks::array::floorDivide(toGpu(std::vector<c64>{{1, 1}}), toGpu(std::vector<c64>{{1, 1}})), ks::Error);
    EXPECT_THROW(toGpu(std::vector<unsigned char>{1}) + 300, ks::Error);
    DeviceArray f = toGpu(std::vector<float>{1, 2});
    EXPECT_THROW(f.copyFromHost(nullptr, 4), ks::Error);
    std::vector<double> wrong(2);
    EXPECT_THROW(f.toHost<double>(), ks::Error);
    EXPECT_THROW(DeviceArray().copy(), ks::Error);
}
