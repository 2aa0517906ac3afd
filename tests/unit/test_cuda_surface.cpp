// Sizes of CUDA array formats, which the array copies use for their rows.
#include "ks/cuda/surface.hpp"

#include <gtest/gtest.h>

TEST(ArrayFormats, ChannelBytes)
{
    using ks::cuda::arrayFormatBytes;
    EXPECT_EQ(arrayFormatBytes(CU_AD_FORMAT_UNSIGNED_INT8), 1u);
    EXPECT_EQ(arrayFormatBytes(CU_AD_FORMAT_SIGNED_INT8), 1u);
    EXPECT_EQ(arrayFormatBytes(CU_AD_FORMAT_UNSIGNED_INT16), 2u);
    EXPECT_EQ(arrayFormatBytes(CU_AD_FORMAT_HALF), 2u);
    EXPECT_EQ(arrayFormatBytes(CU_AD_FORMAT_SIGNED_INT32), 4u);
    EXPECT_EQ(arrayFormatBytes(CU_AD_FORMAT_FLOAT), 4u);
    EXPECT_EQ(arrayFormatBytes(CUarray_format(0x7fff)), 0u);
    const ks::cuda::Array none;
    EXPECT_TRUE(none.empty());
    EXPECT_EQ(none.rowBytes(), 0u);
}
