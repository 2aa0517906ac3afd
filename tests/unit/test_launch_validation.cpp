// Launch configurations beyond the device's limits are refused, naming the limit.
#include "ks/cuda/module.hpp"

#include <gtest/gtest.h>

namespace {

ks::cuda::DeviceLimits hopperLimits()
{
    ks::cuda::DeviceLimits l;
    l.maxThreadsPerBlock = 1024;
    l.maxBlockDim = {1024, 1024, 64};
    l.maxGridDim = {2147483647, 65535, 65535};
    l.maxSharedMemoryPerBlock = 48 * 1024;
    l.maxSharedMemoryPerBlockOptin = 227 * 1024;
    l.maxRegistersPerBlock = 65536;
    l.warpSize = 32;
    return l;
}

ks::cuda::FunctionAttributes plainKernel()
{
    ks::cuda::FunctionAttributes a;
    a.maxThreadsPerBlock = 1024;
    a.numRegs = 32;
    a.maxDynamicSharedBytes = 48 * 1024;
    return a;
}

std::string refusal(ks::cuda::LaunchConfig c, ks::cuda::FunctionAttributes a = plainKernel())
{
    auto why = ks::cuda::validateLaunch(c, hopperLimits(), a);
    return why ? *why : std::string();
}

} // namespace

TEST(LaunchValidation, AcceptsConfigurationsWithinTheLimits)
{
    EXPECT_EQ(refusal({{48, 32, 1}, {16, 16, 1}, 0}), "");
    EXPECT_EQ(refusal({{1, 1, 1}, {1024, 1, 1}, 48 * 1024}), "");
    EXPECT_EQ(refusal({{2147483647u, 1, 1}, {32, 1, 1}, 0}), "");
}

TEST(LaunchValidation, RefusesEachLimitByName)
{
    EXPECT_NE(refusal({{1, 1, 1}, {2048, 1, 1}, 0}).find("blockDim.x = 2048 exceeds the device's maximum block dimension x of 1024"),
              std::string::npos);
    EXPECT_NE(refusal({{1, 1, 1}, {64, 32, 1}, 0}).find("block of 2048 threads exceeds the device's maximum of 1024 threads per block"),
              std::string::npos);
    EXPECT_NE(refusal({{1, 1, 1}, {1, 1, 65}, 0}).find("blockDim.z = 65 exceeds the device's maximum block dimension z of 64"),
              std::string::npos);
    EXPECT_NE(refusal({{1, 65536, 1}, {1, 1, 1}, 0}).find("gridDim.y = 65536 exceeds the device's maximum grid dimension y of 65535"),
              std::string::npos);
    EXPECT_NE(refusal({{0, 1, 1}, {1, 1, 1}, 0}).find("gridDim.x is 0"), std::string::npos);
    EXPECT_NE(refusal({{1, 1, 1}, {1, 0, 1}, 0}).find("blockDim.y is 0"), std::string::npos);
    EXPECT_NE(refusal({{1, 1, 1}, {32, 1, 1}, 64 * 1024}).find("shared memory of 65536 bytes per block"), std::string::npos);
}

TEST(LaunchValidation, RespectsTheKernelsOwnThreadLimit)
{
    ks::cuda::FunctionAttributes heavy = plainKernel();
    heavy.maxThreadsPerBlock = 256; // e.g. 255 registers per thread
    heavy.numRegs = 255;
    const std::string why = refusal({{1, 1, 1}, {512, 1, 1}, 0}, heavy);
    EXPECT_NE(why.find("exceeds this kernel's maximum of 256 threads per block"), std::string::npos) << why;
    EXPECT_NE(why.find("255 registers"), std::string::npos) << why;
}

TEST(LaunchValidation, SharedMemoryOptInRaisesTheLimit)
{
    ks::cuda::FunctionAttributes optedIn = plainKernel();
    optedIn.maxDynamicSharedBytes = 200 * 1024;
    EXPECT_EQ(refusal({{1, 1, 1}, {128, 1, 1}, 150 * 1024}, optedIn), "");
    ks::cuda::FunctionAttributes withStatic = plainKernel();
    withStatic.staticSharedBytes = 40 * 1024;
    withStatic.maxDynamicSharedBytes = 8 * 1024;
    EXPECT_NE(refusal({{1, 1, 1}, {128, 1, 1}, 9 * 1024}, withStatic).find("40960 static + 9216 dynamic"), std::string::npos);
}
