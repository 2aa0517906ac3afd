// Theoretical occupancy: hand-checked cases with the limiter named, and a sweep against the
// toolkit's own calculator (cuda_occupancy.h, host code) for Hopper and Ampere limits.
#include "ks/cuda/occupancy.hpp"

#include <cuda_occupancy.h>

#include <gtest/gtest.h>

using namespace ks::cuda;

namespace {

OccupancyInput input(int regs, int staticShared, int dynamicShared, int block)
{
    OccupancyInput in;
    in.registersPerThread = regs;
    in.staticSharedBytes = staticShared;
    in.dynamicSharedBytes = dynamicShared;
    in.blockSize = block;
    return in;
}

bool limitedBy(const Occupancy& o, OccupancyLimiter l)
{
    return std::find(o.limitedBy.begin(), o.limitedBy.end(), l) != o.limitedBy.end();
}

int toolkitBlocks(const OccupancyLimits& l, const OccupancyInput& in)
{
    cudaOccDeviceProp p{};
    p.computeMajor = l.ccMajor;
    p.computeMinor = l.ccMinor;
    p.maxThreadsPerBlock = l.maxThreadsPerBlock;
    p.maxThreadsPerMultiprocessor = l.maxThreadsPerSM;
    p.regsPerBlock = l.registersPerBlock;
    p.regsPerMultiprocessor = l.registersPerSM;
    p.warpSize = l.warpSize;
    p.sharedMemPerBlock = std::size_t(l.sharedPerBlock);
    p.sharedMemPerMultiprocessor = std::size_t(l.sharedPerSM);
    p.numSms = 132;
    p.sharedMemPerBlockOptin = std::size_t(l.sharedPerBlockOptin);
    p.reservedSharedMemPerBlock = std::size_t(l.reservedSharedPerBlock);
    cudaOccFuncAttributes a{};
    a.maxThreadsPerBlock = l.maxThreadsPerBlock;
    a.numRegs = in.registersPerThread;
    a.sharedSizeBytes = std::size_t(in.staticSharedBytes);
    a.partitionedGCConfig = PARTITIONED_GC_OFF;
    a.shmemLimitConfig = FUNC_SHMEM_LIMIT_DEFAULT;
    a.maxDynamicSharedSizeBytes = std::size_t(l.sharedPerBlock - in.staticSharedBytes);
    a.numBlockBarriers = 1;
    cudaOccDeviceState state{};
    cudaOccResult result{};
    if (cudaOccMaxActiveBlocksPerMultiprocessor(&result, &p, &a, &state, in.blockSize,
                                                std::size_t(in.dynamicSharedBytes)) != CUDA_OCC_SUCCESS)
        return -1;
    return result.activeBlocksPerMultiprocessor;
}

} // namespace

TEST(Occupancy, HandCheckedHopperCasesNameTheirLimiter)
{
    const OccupancyLimits h100 = OccupancyLimits::forArch("sm_90");
    // 32 registers, 256 threads: 8 blocks fill the 64 warp slots.
    Occupancy o = theoreticalOccupancy(h100, input(32, 0, 0, 256));
    EXPECT_EQ(o.blocksPerSM, 8);
    EXPECT_DOUBLE_EQ(o.fraction, 1.0);
    EXPECT_TRUE(limitedBy(o, OccupancyLimiter::Warps));
    EXPECT_TRUE(limitedBy(o, OccupancyLimiter::Registers)); // 64 regs/warp-slot exactly: a tie
    // 128 registers: 4096 per warp, 4 warps per sub-partition, 16 warps per SM -> 4 blocks of 128.
    o = theoreticalOccupancy(h100, input(128, 0, 0, 128));
    EXPECT_EQ(o.blocksPerSM, 4);
    EXPECT_EQ(o.warpsPerSM, 16);
    EXPECT_EQ(o.limitedBy, std::vector<OccupancyLimiter>{OccupancyLimiter::Registers});
    EXPECT_NE(o.summary().find("25% (16 of 64 warps, 4 blocks per SM): limited by registers (128 per thread)"),
              std::string::npos)
        << o.summary();
    // 40 KiB of shared memory per block: (40 KiB + 1 KiB reserved) -> 5 blocks in 228 KiB.
    o = theoreticalOccupancy(h100, input(16, 8 * 1024, 32 * 1024, 64));
    EXPECT_EQ(o.blocksPerSM, 5);
    EXPECT_EQ(o.limitedBy, std::vector<OccupancyLimiter>{OccupancyLimiter::SharedMemory});
    // Tiny blocks: 32 blocks per SM at most.
    o = theoreticalOccupancy(h100, input(16, 0, 0, 32));
    EXPECT_EQ(o.blocksPerSM, 32);
    EXPECT_EQ(o.limitedBy, std::vector<OccupancyLimiter>{OccupancyLimiter::Blocks});
    EXPECT_DOUBLE_EQ(o.fraction, 0.5);
}

TEST(Occupancy, ImpossibleConfigurationsSayWhy)
{
    const OccupancyLimits h100 = OccupancyLimits::forArch("sm_90");
    Occupancy o = theoreticalOccupancy(h100, input(32, 0, 0, 2048));
    EXPECT_EQ(o.blocksPerSM, 0);
    EXPECT_NE(o.whyZero.find("exceeds the maximum of 1024"), std::string::npos) << o.whyZero;
    o = theoreticalOccupancy(h100, input(255, 0, 0, 1024));
    EXPECT_EQ(o.blocksPerSM, 0);
    EXPECT_NE(o.whyZero.find("registers"), std::string::npos) << o.whyZero;
    o = theoreticalOccupancy(h100, input(32, 0, 64 * 1024, 128));
    EXPECT_EQ(o.blocksPerSM, 0);
    EXPECT_NE(o.whyZero.find("opt-in"), std::string::npos) << o.whyZero;
    OccupancyInput optIn = input(32, 0, 64 * 1024, 128);
    optIn.sharedOptIn = true;
    EXPECT_EQ(theoreticalOccupancy(h100, optIn).blocksPerSM, 3); // 65 KiB each in 228 KiB
    OccupancyInput bounded = input(32, 0, 0, 512);
    bounded.kernelMaxThreads = 256;
    o = theoreticalOccupancy(h100, bounded);
    EXPECT_EQ(o.blocksPerSM, 0);
    EXPECT_NE(o.whyZero.find("this kernel's maximum of 256"), std::string::npos);
}

TEST(Occupancy, AgreesWithTheToolkitCalculatorAcrossASweep)
{
    for (const char* arch : {"sm_90", "sm_80", "sm_86", "sm_89", "sm_75", "sm_70", "sm_100", "sm_120"}) {
        bool known = false;
        const OccupancyLimits l = OccupancyLimits::forArch(arch, &known);
        ASSERT_TRUE(known) << arch;
        int compared = 0;
        for (int regs : {0, 8, 16, 24, 32, 40, 48, 64, 72, 96, 128, 168, 200, 255})
            for (int block : {1, 31, 32, 33, 64, 96, 128, 192, 256, 384, 512, 640, 768, 1000, 1024})
                for (int staticShared : {0, 1000, 4096, 16384})
                    for (int dynamicShared : {0, 2048, 12288, 30000}) {
                        if (staticShared + dynamicShared > l.sharedPerBlock)
                            continue;
                        const OccupancyInput in = input(regs, staticShared, dynamicShared, block);
                        const int expected = toolkitBlocks(l, in);
                        ASSERT_GE(expected, 0) << arch;
                        ASSERT_EQ(theoreticalOccupancy(l, in).blocksPerSM, expected)
                            << arch << " regs " << regs << " block " << block << " shared " << staticShared << "+"
                            << dynamicShared;
                        ++compared;
                    }
        EXPECT_GT(compared, 2000);
    }
}

TEST(Occupancy, MaxThreadsPerBlockFollowsRegistersAndLaunchBounds)
{
    const OccupancyLimits h100 = OccupancyLimits::forArch("sm_90");
    EXPECT_EQ(maxThreadsPerBlockFor(h100, 32), 1024);
    EXPECT_EQ(maxThreadsPerBlockFor(h100, 64), 1024);
    EXPECT_EQ(maxThreadsPerBlockFor(h100, 128), 512);
    EXPECT_EQ(maxThreadsPerBlockFor(h100, 255), 256);
    EXPECT_EQ(maxThreadsPerBlockFor(h100, 32, 128), 128);
}

TEST(Occupancy, SuggestedBlockSizeReachesTheBestOccupancy)
{
    const OccupancyLimits h100 = OccupancyLimits::forArch("sm_90");
    const BlockSizeSuggestion s = suggestBlockSize(h100, input(32, 0, 0, 0));
    EXPECT_EQ(s.blockSize, 1024);
    EXPECT_DOUBLE_EQ(s.occupancy.fraction, 1.0);
    const BlockSizeSuggestion heavy = suggestBlockSize(h100, input(128, 0, 0, 0));
    EXPECT_DOUBLE_EQ(heavy.occupancy.fraction, 0.25);
    EXPECT_LE(heavy.blockSize, 512);
    bool known = true;
    OccupancyLimits::forArch("sm_999", &known);
    EXPECT_FALSE(known);
}
