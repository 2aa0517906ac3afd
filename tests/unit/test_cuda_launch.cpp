// Packing of kernel arguments (sizes, ABI offsets, alignment of each value's copy) and the checks
// against a kernel's parameter layout; no GPU needed.
#include "ks/core/error.hpp"
#include "ks/cuda/launch.hpp"

#include <gtest/gtest.h>

#include <cstring>

using namespace ks::cuda;

namespace {

template <class T>
T readBack(ArgumentPack& pack, std::size_t i)
{
    T v;
    std::memcpy(&v, pack.pointers()[i], sizeof(T));
    return v;
}

bool alignedTo(const void* p, std::size_t a)
{
    return reinterpret_cast<std::uintptr_t>(p) % a == 0;
}

} // namespace

TEST(LaunchArguments, EveryScalarAndVectorTypeIsPackedWithItsSizeAndAlignment)
{
    ArgumentPack pack;
    const char c = 'k';
    const double d = 3.25;
    const float3 f3{1.5f, -2.f, 4.f};
    const int2 i2{7, -9};
    const float4 f4{1, 2, 3, 4};
    float* pointer = reinterpret_cast<float*>(std::uintptr_t(0xdead0000));
    double4_32a d4{1, 2, 3, 4};
    const unsigned short us = 65535;
    const long long ll = -(1ll << 40);
    const CUdeviceptr dptr = 0x12345678;
    pack.push(c);
    pack.push(d);
    pack.push(f3);
    pack.push(i2);
    pack.push(f4);
    pack.push(pointer);
    pack.push(d4);
    pack.push(us);
    pack.push(ll);
    pack.push(dptr);
    ASSERT_EQ(pack.count(), 10u);

    const auto& a = pack.arguments();
    // The CUDA ABI: each parameter at the next multiple of its alignment.
    const std::size_t expectedOffsets[] = {0, 8, 16, 32, 48, 64, 96, 128, 136, 144};
    const std::size_t expectedSizes[] = {1, 8, 12, 8, 16, 8, 32, 2, 8, 8};
    const std::size_t expectedAligns[] = {1, 8, 4, 8, 16, 8, 32, 2, 8, 8};
    for (std::size_t i = 0; i < pack.count(); ++i) {
        EXPECT_EQ(a[i].offset, expectedOffsets[i]) << i;
        EXPECT_EQ(a[i].size, expectedSizes[i]) << i;
        EXPECT_EQ(a[i].align, expectedAligns[i]) << i;
        EXPECT_TRUE(alignedTo(pack.pointers()[i], a[i].align)) << i;
    }
    EXPECT_EQ(pack.parameterBytes(), 152u);
    EXPECT_EQ(a[2].type, "float3");
    EXPECT_EQ(a[5].type, "pointer");
    EXPECT_EQ(a[6].type, "double4_32a");

    EXPECT_EQ(readBack<char>(pack, 0), 'k');
    EXPECT_EQ(readBack<double>(pack, 1), 3.25);
    EXPECT_EQ(readBack<float3>(pack, 2).y, -2.f);
    EXPECT_EQ(readBack<int2>(pack, 3).y, -9);
    EXPECT_EQ(readBack<float4>(pack, 4).w, 4.f);
    EXPECT_EQ(readBack<float*>(pack, 5), pointer);
    EXPECT_EQ(readBack<double4_32a>(pack, 6).z, 3.0);
    EXPECT_EQ(readBack<unsigned short>(pack, 7), 65535);
    EXPECT_EQ(readBack<long long>(pack, 8), ll);
    EXPECT_EQ(readBack<CUdeviceptr>(pack, 9), dptr);
}

TEST(LaunchArguments, PointersStayValidAsMoreArgumentsArePushed)
{
    ArgumentPack pack;
    for (int i = 0; i < 100; ++i)
        pack.push(i * 3);
    for (int i = 0; i < 100; ++i)
        EXPECT_EQ(readBack<int>(pack, std::size_t(i)), i * 3);
}

TEST(LaunchArguments, UserStructsAreTheirBytes)
{
    struct alignas(16) Params {
        float scale;
        int count;
        double bias;
    };
    ArgumentPack pack;
    pack.push(Params{0.5f, 12, -1.0});
    EXPECT_EQ(pack.arguments()[0].size, sizeof(Params));
    EXPECT_EQ(pack.arguments()[0].type, "16-byte value");
    EXPECT_TRUE(alignedTo(pack.pointers()[0], 16));
    EXPECT_EQ(readBack<Params>(pack, 0).count, 12);
}

TEST(LaunchArguments, MismatchesWithTheKernelsLayoutAreNamed)
{
    ArgumentPack pack;
    pack.push(static_cast<float*>(nullptr));
    pack.push(1.0); // double where the kernel takes a float
    const std::vector<ParameterSlot> layout = {{0, 8}, {8, 4}};
    auto why = checkArguments("scale", layout, pack.arguments());
    ASSERT_TRUE(why);
    EXPECT_EQ(*why, "kernel 'scale': argument 2 is 8 bytes (double) but parameter 2 is 4 bytes");

    ArgumentPack one;
    one.push(1.0f);
    why = checkArguments("scale", layout, one.arguments());
    ASSERT_TRUE(why);
    EXPECT_EQ(*why, "kernel 'scale' takes 2 parameters (8, 4 bytes), 1 argument was given (4 bytes)");

    ArgumentPack right;
    right.push(static_cast<float*>(nullptr));
    right.push(2.0f);
    EXPECT_FALSE(checkArguments("scale", layout, right.arguments()));
}

TEST(LaunchArguments, HostArrayWrappersViewTheCallersMemory)
{
    std::vector<float> a = {1, 2, 3};
    const std::vector<int> b = {4, 5};
    auto i = in(b);
    auto o = out(a);
    auto io = inOut(a);
    EXPECT_EQ(i.host.size(), 2u);
    EXPECT_EQ(i.host.data(), b.data());
    EXPECT_EQ(o.host.size_bytes(), 12u);
    EXPECT_EQ(io.host.data(), a.data());
    static_assert(std::is_same_v<decltype(i), In<int>>);
    static_assert(std::is_same_v<decltype(o), Out<float>>);
}

TEST(LaunchArguments, AnEmptyFunctionIsRefusedBeforeAnythingHappens)
{
    Function none;
    try {
        launch(none, LaunchConfig{{1, 1, 1}, {32, 1, 1}, 0}, nullptr, 1.0f, 2);
        FAIL() << "launched an empty function";
    } catch (const ks::Error& e) {
        EXPECT_EQ(e.domain(), ks::ErrorDomain::Usage);
        EXPECT_NE(std::string(e.what()).find("empty function"), std::string::npos);
    }
}
