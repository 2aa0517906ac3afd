// Struct element types on the device: PyCUDA's test_vector_fill, float3 fills over every layout,
// copies, take/put and transfers, a user struct through an ElementwiseKernel, and refusals of
// arithmetic that name the type.
#include "array_test_support.hpp"

#include "ks/array/indexing.hpp"
#include "ks/array/reduction.hpp"
#include "ks/array/struct_type.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

using ks::array::DeviceArray;
using ks::array::Dims;
using ks::array::DType;
using ks::array::Slice;
using ks::array::StructType;
using ks::test::ArrayTest;

namespace {

struct Float3 {
    float x, y, z;
    friend bool operator==(const Float3&, const Float3&) = default;
};

struct Particle {
    Float3 pos;
    float mass;
    int id;
};

constexpr const char* kParticle = "struct Particle {\n    float3 pos;\n    float mass;\n    int id;\n};\n";

// A float3 array whose every float is NaN, so that unwritten elements show.
DeviceArray poisonedFloat3(ks::array::Runtime& rt, const Dims& shape)
{
    DeviceArray a = DeviceArray::empty(rt, shape, StructType::vector("float3"));
    const float nan = std::nanf("");
    a.setFromHost(std::span<const Float3>(std::vector<Float3>(std::size_t(a.size()), Float3{nan, nan, nan})));
    return a;
}

bool isPoison(const Float3& v)
{
    return std::isnan(v.x) && std::isnan(v.y) && std::isnan(v.z);
}

} // namespace

// test_vector_fill: a GPUArray of 100 float3, filled with make_float3(0, 0, 0), downloaded, and its
// dtype is float3.
TEST_F(ArrayTest, PyCudaVectorFill)
{
    DeviceArray a = DeviceArray::empty(rt(), Dims{100}, StructType::vector("float3"));
    a.fillElement(Float3{0.0f, 0.0f, 0.0f});
    const std::vector<Float3> host = a.toHost<Float3>();
    ASSERT_NE(a.structType(), nullptr);
    EXPECT_EQ(a.dtype(), DType::Struct);
    EXPECT_EQ(a.structType()->name, "float3"); // a.dtype == gpuarray.vec.float3
    EXPECT_EQ(host.size(), 100u);
}

// Fills write every element of the view and nothing else, on contiguous, strided, reversed and 2-D
// views; copies keep the values; zeros are all-zero bytes.
TEST_F(ArrayTest, Float3FillsEveryElementOfTheViewOnly)
{
    const Float3 v{1.5f, -2.0f, 3.25f};
    for (std::int64_t n : {0, 1, 31, 32, 33, 255, 256, 257, 100003}) {
        SCOPED_TRACE(n);
        DeviceArray a = poisonedFloat3(rt(), Dims{n});
        a.fillElement(v);
        std::size_t bad = 0;
        for (const Float3& e : a.toHost<Float3>())
            bad += !(e == v);
        EXPECT_EQ(bad, 0u);
        const std::vector<Float3> copied = a.copy().toHost<Float3>();
        bad = 0;
        for (const Float3& e : copied)
            bad += !(e == v);
        EXPECT_EQ(bad, 0u);
    }
    DeviceArray b = poisonedFloat3(rt(), Dims{1000});
    b.slice(Slice::range(1, 1000, 3)).fillElement(v);
    b.slice(Slice::reversed()).slice(Slice::range(0, 2)).fillElement(Float3{7, 8, 9}); // elements 999, 998
    const std::vector<Float3> hb = b.toHost<Float3>();
    std::size_t bad = 0;
    for (std::size_t k = 0; k < hb.size(); ++k) {
        if (k >= 998)
            bad += !(hb[k] == Float3{7, 8, 9});
        else if (k % 3 == 1)
            bad += !(hb[k] == v);
        else
            bad += !isPoison(hb[k]);
    }
    EXPECT_EQ(bad, 0u);

    DeviceArray m = poisonedFloat3(rt(), Dims{7, 9});
    m.transpose().slice(1, Slice::range(2, 5)).fillElement(v); // rows 2..4 of m
    const std::vector<Float3> hm = m.toHost<Float3>();
    bad = 0;
    for (std::size_t k = 0; k < hm.size(); ++k)
        bad += (k / 9 >= 2 && k / 9 < 5) ? !(hm[k] == v) : !isPoison(hm[k]);
    EXPECT_EQ(bad, 0u);
    EXPECT_EQ(m.transpose().copy().toHost<Float3>().size(), 63u);

    const std::vector<Float3> z = ks::array::zeros(rt(), Dims{5}, StructType::vector("float3")).toHost<Float3>();
    for (const Float3& e : z)
        EXPECT_TRUE(e == (Float3{0, 0, 0}));
}

// take and put move whole elements, flat and along an axis, under numpy's index modes.
TEST_F(ArrayTest, Float3TakePutAndTransfers)
{
    std::vector<Float3> h(50);
    for (std::size_t k = 0; k < h.size(); ++k)
        h[k] = Float3{float(k), float(k) + 0.5f, -float(k)};
    DeviceArray a = DeviceArray::empty(rt(), Dims{50}, StructType::vector("float3"));
    a.setFromHost(std::span<const Float3>(h));
    EXPECT_EQ(a.toHost<Float3>(), h);

    const std::vector<std::int32_t> idx = {3, -1, 0, 49, 7, -50};
    const DeviceArray gi = toGpu(idx);
    const std::vector<Float3> taken = ks::array::take(a, gi).toHost<Float3>();
    ASSERT_EQ(taken.size(), idx.size());
    for (std::size_t k = 0; k < idx.size(); ++k)
        EXPECT_TRUE(taken[k] == h[std::size_t(idx[k] < 0 ? idx[k] + 50 : idx[k])]) << k;

    DeviceArray b = poisonedFloat3(rt(), Dims{50});
    const std::vector<std::int32_t> where = {10, 20, 30};
    DeviceArray values = DeviceArray::empty(rt(), Dims{3}, StructType::vector("float3"));
    const std::vector<Float3> hv = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
    values.setFromHost(std::span<const Float3>(hv));
    ks::array::put(b, toGpu(where), values);
    const std::vector<Float3> hb = b.toHost<Float3>();
    std::size_t bad = 0;
    for (std::size_t k = 0; k < hb.size(); ++k)
        bad += k == 10 ? !(hb[k] == hv[0]) : k == 20 ? !(hb[k] == hv[1]) : k == 30 ? !(hb[k] == hv[2]) : !isPoison(hb[k]);
    EXPECT_EQ(bad, 0u);

    // Along axis 1 of a (5, 10) array: columns 9 and 0.
    const DeviceArray m = a.reshape(Dims{5, 10});
    const std::vector<std::int64_t> cols = {9, 0};
    const DeviceArray picked = ks::array::take(m, toGpu(cols), 1);
    ASSERT_EQ(picked.shape(), (Dims{5, 2}));
    const std::vector<Float3> hp = picked.toHost<Float3>();
    for (std::size_t r = 0; r < 5; ++r) {
        EXPECT_TRUE(hp[r * 2] == h[r * 10 + 9]) << r;
        EXPECT_TRUE(hp[r * 2 + 1] == h[r * 10]) << r;
    }
    // Host types must match the element's size and alignment; numbers are not struct elements.
    EXPECT_THROW(a.toHost<float>(), ks::Error);
    EXPECT_THROW(a.toHost<double>(), ks::Error);
    EXPECT_THROW(a.fillElement(std::int64_t(0)), ks::Error);
    EXPECT_THROW(toGpu(std::vector<float>{1.f}).fillElement(Float3{}), ks::Error);
}

TEST_F(ArrayTest, StructElementsRefuseArithmeticNamingTheType)
{
    DeviceArray a = ks::array::zeros(rt(), Dims{4}, StructType::vector("float3"));
    const DeviceArray f = toGpu(std::vector<float>{1, 2, 3, 4});
    auto refusesNaming = [](auto&& call, const char* what) {
        try {
            call();
            ADD_FAILURE() << what << " ran";
        } catch (const ks::Error& e) {
            EXPECT_NE(std::string(e.what()).find("float3"), std::string::npos) << what << ": " << e.what();
        }
    };
    refusesNaming([&] { (void)(a + a); }, "a + a");
    refusesNaming([&] { (void)(a * 2.0); }, "a * 2");
    refusesNaming([&] { (void)(f - a); }, "f - a");
    refusesNaming([&] { (void)ks::array::unary(ks::array::UnaryOp::Sqrt, a); }, "sqrt");
    refusesNaming([&] { (void)ks::array::sum(a); }, "sum");
    refusesNaming([&] { (void)ks::array::max(a); }, "max");
    refusesNaming([&] { a.fill(1); }, "fill(1)");
    refusesNaming([&] { (void)a.astype(DType::Float32); }, "astype");
    refusesNaming([&] { DeviceArray(f).assign(a); }, "assign");
    refusesNaming([&] { a += 1; }, "+=");
    refusesNaming([&] { ks::array::put(a, toGpu(std::vector<std::int32_t>{0}), ks::array::Scalar(1)); }, "put(1)");
}

// A struct the preamble defines, through an ElementwiseKernel, and a float3 kernel.
TEST_F(ArrayTest, UserStructElementwiseKernel)
{
    const auto type = StructType::record("Particle", kParticle);
    ASSERT_EQ(type->size, sizeof(Particle));
    ASSERT_EQ(type->align, alignof(Particle));
    const std::size_t n = 10007;
    std::vector<Particle> hp(n);
    std::vector<float> dt(n);
    for (std::size_t k = 0; k < n; ++k) {
        hp[k] = Particle{{float(k % 17), float(k % 5), float(k % 101)}, 1.0f + float(k % 3), -1};
        dt[k] = float(k % 8) / 8.0f; // g * dt and the sums are exact in float (FMA or not)
    }
    DeviceArray p = DeviceArray::empty(rt(), Dims{std::int64_t(n)}, type);
    p.setFromHost(std::span<const Particle>(hp));
    const ks::array::ElementwiseKernel fall("Particle *p, const float *dt, float g",
                                            "p[i].pos.z += g * dt[i];\np[i].id = (int)i", "ks_fall", kParticle);
    fall(rt(), {p, toGpu(dt), -2.0f});
    const std::vector<Particle> got = p.toHost<Particle>();
    std::size_t bad = 0;
    for (std::size_t k = 0; k < n; ++k)
        bad += got[k].pos.z != hp[k].pos.z + -2.0f * dt[k] || got[k].id != int(k) || got[k].pos.x != hp[k].pos.x ||
               got[k].mass != hp[k].mass;
    EXPECT_EQ(bad, 0u);

    DeviceArray v = poisonedFloat3(rt(), Dims{std::int64_t(n)});
    const ks::array::ElementwiseKernel spread("float3 *v, const float *s", "v[i] = make_float3(s[i], 2.f * s[i], -s[i])",
                                              "ks_spread");
    spread(rt(), {v, toGpu(dt)});
    const std::vector<Float3> hv = v.toHost<Float3>();
    bad = 0;
    for (std::size_t k = 0; k < n; ++k)
        bad += !(hv[k] == Float3{dt[k], 2.f * dt[k], -dt[k]});
    EXPECT_EQ(bad, 0u);
    // An array of another element type is refused, naming both.
    EXPECT_THROW(spread(rt(), {p, toGpu(dt)}), ks::Error);
    EXPECT_THROW(fall(rt(), {v, toGpu(dt), 1.0f}), ks::Error);
}
