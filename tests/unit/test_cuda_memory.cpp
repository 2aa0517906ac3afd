// Host-memory flags, and the refusals of 2-D copies and fills, registered memory and pitched
// allocations, all made before any driver call.
#include "ks/core/error.hpp"
#include "ks/cuda/memory.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace ks::cuda;

TEST(HostMemoryFlags, NamesAndDriverValues)
{
    EXPECT_EQ(hostMemoryFlagsName(HostMemoryFlags::None), "none");
    EXPECT_EQ(hostMemoryFlagsName(HostMemoryFlags::Portable | HostMemoryFlags::DeviceMapped),
              "portable | device-mapped");
    EXPECT_EQ(unsigned(HostMemoryFlags::Portable), unsigned(CU_MEMHOSTALLOC_PORTABLE));
    EXPECT_EQ(unsigned(HostMemoryFlags::DeviceMapped), unsigned(CU_MEMHOSTALLOC_DEVICEMAP));
    EXPECT_EQ(unsigned(HostMemoryFlags::Portable), unsigned(CU_MEMHOSTREGISTER_PORTABLE));
    EXPECT_EQ(unsigned(HostMemoryFlags::DeviceMapped), unsigned(CU_MEMHOSTREGISTER_DEVICEMAP));
}

TEST(HostMemory, EmptyRegistrationsAreRefused)
{
    std::vector<double> host(16);
    EXPECT_THROW(RegisteredHostMemory(nullptr, 64), ks::UsageError);
    EXPECT_THROW(RegisteredHostMemory(host.data(), 0), ks::UsageError);
    const RegisteredHostMemory none;
    EXPECT_THROW(none.devicePointer(), ks::UsageError);
    const PinnedHostMemory pinned;
    EXPECT_THROW(pinned.devicePointer(), ks::UsageError);
}

TEST(Copy2D, RefusesNullEndsAndRowsWiderThanAPitch)
{
    std::vector<float> host(64);
    const auto h = CopyEnd2D::hostMemory(host.data(), 16 * sizeof(float));
    const auto d = CopyEnd2D::deviceMemory(CUdeviceptr(0x10000), 512);
    EXPECT_FALSE(copy2DRefusal(d, h, 16 * sizeof(float), 4));
    EXPECT_FALSE(copy2DRefusal(CopyEnd2D::cudaArray(reinterpret_cast<CUarray>(0x1)), h, 64, 4));
    auto why = copy2DRefusal(d, CopyEnd2D::hostMemory(nullptr, 64), 64, 4);
    ASSERT_TRUE(why);
    EXPECT_EQ(*why, "the source of the 2-D copy is null");
    why = copy2DRefusal(CopyEnd2D::deviceMemory(0, 512), h, 64, 4);
    ASSERT_TRUE(why);
    EXPECT_EQ(*why, "the destination of the 2-D copy is null");
    why = copy2DRefusal(d, h, 65, 4);
    ASSERT_TRUE(why);
    EXPECT_EQ(*why, "a row of 65 bytes is wider than the source's pitch of 64 bytes");
    why = copy2DRefusal(h, d, 600, 2);
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("wider than the source's pitch of 512 bytes"), std::string::npos) << *why;
    // One row needs no pitch.
    EXPECT_FALSE(copy2DRefusal(h, CopyEnd2D::deviceMemory(CUdeviceptr(0x10000), 0), 64, 1));
    EXPECT_THROW(copy2D(d, CopyEnd2D::hostMemory(nullptr, 64), 64, 4), ks::UsageError);
}

TEST(Memset2D, RefusesMisalignedAndOverwideFills)
{
    const CUdeviceptr p = 0x10000;
    EXPECT_FALSE(memset2DRefusal(p, 512, 1, 512, 8));
    EXPECT_FALSE(memset2DRefusal(p, 512, 4, 128, 8));
    EXPECT_FALSE(memset2DRefusal(0, 512, 4, 0, 8)) << "an empty fill does nothing";
    auto why = memset2DRefusal(p, 512, 4, 129, 8);
    ASSERT_TRUE(why);
    EXPECT_EQ(*why, "a row of 129 elements of 4 bytes is wider than the pitch of 512 bytes");
    why = memset2DRefusal(p + 2, 512, 4, 16, 8);
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("aligned to 4 bytes"), std::string::npos) << *why;
    why = memset2DRefusal(p, 510, 2, 16, 8);
    EXPECT_FALSE(why) << "510 is a multiple of 2";
    why = memset2DRefusal(p, 511, 2, 16, 8);
    ASSERT_TRUE(why);
    why = memset2DRefusal(p, 512, 3, 16, 8);
    ASSERT_TRUE(why);
    EXPECT_EQ(*why, "a 2-D fill sets elements of 1, 2 or 4 bytes, not 3");
    EXPECT_THROW(memset2D(p + 1, 512, std::uint16_t(7), 16, 8), ks::UsageError);
}

TEST(PitchedDeviceMemory, RefusesAnElementSizeTheDriverCannotAlignFor)
{
    EXPECT_THROW(PitchedDeviceMemory(64, 4, 3), ks::UsageError);
    const PitchedDeviceMemory none;
    EXPECT_TRUE(none.empty());
    EXPECT_EQ(none.pitch(), 0u);
}
