// Launch configurations beyond the device's limits are refused, naming the limit; the launch panel's
// arithmetic (guard counts, theoretical occupancy, suggested block size) on an H100's numbers.
#include "ks/core/error.hpp"
#include "ks/cuda/module.hpp"
#include "ks/teach/launch_analysis.hpp"

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

ks::cuda::FunctionAttributes kernelWith(int regs, int staticShared = 0, int maxThreads = 0)
{
    ks::cuda::FunctionAttributes a;
    a.numRegs = regs;
    a.staticSharedBytes = staticShared;
    a.maxThreadsPerBlock = maxThreads;
    a.maxDynamicSharedBytes = 48 * 1024 - staticShared;
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

TEST(LaunchValidation, RefusesEachKindOfInvalidConfigurationNamingTheLimit)
{
    const auto l = hopperLimits();
    struct Case {
        ks::cuda::LaunchConfig config;
        ks::cuda::FunctionAttributes attrs;
        ks::cuda::LaunchLimit limit;
        std::string says;
    };
    const Case cases[] = {
        {{{1, 1, 1}, {0, 1, 1}, 0}, kernelWith(32), ks::cuda::LaunchLimit::ZeroDimension, "blockDim.x is 0"},
        {{{1, 0, 1}, {1, 1, 1}, 0}, kernelWith(32), ks::cuda::LaunchLimit::ZeroDimension, "gridDim.y is 0"},
        {{{1, 1, 1}, {1, 1, 65}, 0}, kernelWith(32), ks::cuda::LaunchLimit::BlockDimension, "maximum block dimension z of 64"},
        {{{1, 1, 65536}, {1, 1, 1}, 0}, kernelWith(32), ks::cuda::LaunchLimit::GridDimension, "maximum grid dimension z of 65535"},
        {{{1, 1, 1}, {32, 32, 2}, 0}, kernelWith(32), ks::cuda::LaunchLimit::ThreadsPerBlock, "maximum of 1024 threads per block"},
        {{{1, 1, 1}, {512, 1, 1}, 0}, kernelWith(255, 0, 256), ks::cuda::LaunchLimit::KernelThreadsPerBlock,
         "this kernel's maximum of 256 threads per block"},
        {{{1, 1, 1}, {512, 1, 1}, 0}, kernelWith(255), ks::cuda::LaunchLimit::RegistersPerBlock,
         "needs 131072 registers (255 per thread, allocated 8192 per warp), more than the device's limit of 65536"},
        {{{1, 1, 1}, {64, 1, 1}, 40 * 1024}, kernelWith(32, 16 * 1024), ks::cuda::LaunchLimit::SharedMemoryPerBlock,
         "16384 static + 40960 dynamic"},
    };
    for (const Case& c : cases) {
        const auto refusal = ks::cuda::checkLaunch(c.config, l, c.attrs);
        ASSERT_TRUE(refusal.has_value()) << c.says;
        EXPECT_EQ(refusal->limit, c.limit) << refusal->message;
        EXPECT_NE(refusal->message.find(c.says), std::string::npos) << refusal->message;
        EXPECT_FALSE(ks::cuda::launchLimitName(c.limit).empty());
        const auto report = ks::teach::analyzeLaunch(c.config, c.attrs, l, ks::cuda::OccupancyLimits{}, {1000, 1, 1});
        EXPECT_TRUE(report.refusal.has_value());
    }
    EXPECT_FALSE(ks::cuda::checkLaunch({{4, 1, 1}, {256, 1, 1}, 0}, l, kernelWith(255)).has_value())
        << "255 registers x 256 threads fits in 65536";
}

TEST(LaunchValidation, LaunchReportCombinesRefusalCoverageOccupancyAndWaves)
{
    const auto report = ks::teach::analyzeLaunch({{1000, 1, 1}, {256, 1, 1}, 0}, kernelWith(64), hopperLimits(),
                                                  ks::cuda::OccupancyLimits{}, {256000 - 100, 1, 1});
    EXPECT_FALSE(report.refusal);
    EXPECT_EQ(report.occupancy.blocksPerSM, 4);
    EXPECT_EQ(report.waves, 2u); // 1000 blocks / (132 SMs x 4)
    EXPECT_EQ(report.coverage.threadsOutside, 100u);
}

using namespace ks::teach;
using ks::cuda::Dim3;

TEST(LaunchPanel, GuardCountsIn1d2dAnd3d)
{
    // multiply_them: one block of 400 threads on 400 elements: 13 warps, the last one half full.
    Coverage c = coverage({{1, 1, 1}, {400, 1, 1}, 0}, {400, 1, 1});
    EXPECT_EQ(c.threads, 400u);
    EXPECT_EQ(c.warps, 13u);
    EXPECT_EQ(c.idleLanes, 16u);
    EXPECT_EQ(c.threadsOutside, 0u);
    EXPECT_EQ(c.elementsUncovered, 0u);
    // the pi map: 10^6 elements in blocks of 512.
    const Dim3 grid = gridToCover({1000000, 1, 1}, {512, 1, 1});
    EXPECT_EQ(grid, (Dim3{1954, 1, 1}));
    c = coverage({grid, {512, 1, 1}, 0}, {1000000, 1, 1});
    EXPECT_EQ(c.threads, 1954u * 512u);
    EXPECT_EQ(c.threadsOutside, 1954u * 512u - 1000000u);
    EXPECT_EQ(c.elementsUncovered, 0u);
    // 2-D: 70 x 20 image in 16 x 8 blocks -> 5 x 3 blocks; 80 x 24 threads, 1400 inside.
    c = coverage({gridToCover({70, 20, 1}, {16, 8, 1}), {16, 8, 1}, 0}, {70, 20, 1});
    EXPECT_EQ(c.blocks, 15u);
    EXPECT_EQ(c.threadsInside, 1400u);
    EXPECT_EQ(c.threadsOutside, 80u * 24u - 1400u);
    // 3-D with too few blocks along z: 10 x 10 x 10 data, 4 x 4 x 4 blocks, grid 3 x 3 x 2.
    c = coverage({{3, 3, 2}, {4, 4, 4}, 0}, {10, 10, 10});
    EXPECT_EQ(c.threadsInside, 10u * 10u * 8u);
    EXPECT_EQ(c.threadsOutside, 12u * 12u * 8u - 800u);
    EXPECT_EQ(c.elementsUncovered, 200u);
    EXPECT_EQ(c.warps, 18u * 2u);
}

// The launch panel's occupancy: the one model (ks/cuda/occupancy.hpp) for a loaded kernel's attributes.
ks::cuda::Occupancy occupancyOf(int threads, const ks::cuda::FunctionAttributes& a, int dynamicShared)
{
    const ks::cuda::OccupancyLimits h100;
    return ks::cuda::theoreticalOccupancy(h100, ks::cuda::OccupancyInput::of(a, h100, threads, dynamicShared));
}

TEST(LaunchPanel, TheoreticalOccupancyAndItsLimiter)
{
    using ks::cuda::OccupancyLimiter;
    auto occ = occupancyOf(256, kernelWith(32), 0);
    EXPECT_EQ(occ.blocksPerSM, 8);
    EXPECT_DOUBLE_EQ(occ.fraction, 1.0);
    EXPECT_EQ(occ.limitedBy.front(), OccupancyLimiter::Warps);
    occ = occupancyOf(256, kernelWith(64), 0); // 64 regs: 2048 per warp, 32 warps
    EXPECT_EQ(occ.blocksPerSM, 4);
    EXPECT_DOUBLE_EQ(occ.fraction, 0.5);
    EXPECT_EQ(occ.limitedBy.front(), OccupancyLimiter::Registers);
    EXPECT_NE(occ.summary().find("50% (32 of 64 warps, 4 blocks per SM): limited by registers (64 per thread)"),
              std::string::npos)
        << occ.summary();
    occ = occupancyOf(32, kernelWith(16), 0); // tiny blocks: 32 blocks x 1 warp
    EXPECT_EQ(occ.blocksPerSM, 32);
    EXPECT_EQ(occ.limitedBy.front(), OccupancyLimiter::Blocks);
    EXPECT_DOUBLE_EQ(occ.fraction, 0.5);
    occ = occupancyOf(128, kernelWith(32), 48 * 1024); // 49 KiB + 1 KiB reserved per block
    EXPECT_EQ(occ.bySharedMemory, 233472 / (49 * 1024 + 1024));
    EXPECT_EQ(occ.blocksPerSM, 4);
    EXPECT_EQ(occ.limitedBy.front(), OccupancyLimiter::SharedMemory);
    // Registers are allocated per sub-partition (4 of 16384): 40 registers = 1280 per warp, 12 warps
    // per sub-partition, 48 per SM: 24 blocks of 2 warps (not 65536 / 1280 / 2 = 25).
    occ = occupancyOf(64, kernelWith(40), 0);
    EXPECT_EQ(occ.byRegisters, 24);
    EXPECT_EQ(occ.blocksPerSM, 24);
    EXPECT_EQ(occ.limitedBy.front(), OccupancyLimiter::Registers);
    // The hardware checks 9 warps of 176 registers as 12 (a multiple of 4): 12 x 5632 > 65536.
    occ = occupancyOf(288, kernelWith(176), 0);
    EXPECT_EQ(occ.blocksPerSM, 0);
    const auto refused = ks::cuda::checkLaunch({{1, 1, 1}, {288, 1, 1}, 0}, hopperLimits(), kernelWith(176));
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->limit, ks::cuda::LaunchLimit::RegistersPerBlock);
    EXPECT_FALSE(ks::cuda::checkLaunch({{1, 1, 1}, {256, 1, 1}, 0}, hopperLimits(), kernelWith(176)));
    occ = occupancyOf(1024, kernelWith(255), 0);
    EXPECT_EQ(occ.blocksPerSM, 0);
    EXPECT_NE(occ.summary().find("does not fit"), std::string::npos);

}

TEST(LaunchPanel, SuggestedBlockSizeMaximisesOccupancy)
{
    const ks::cuda::OccupancyLimits h100;
    auto input = [&](int regs, int dynamicShared) {
        return ks::cuda::OccupancyInput::of(kernelWith(regs), h100, 0, dynamicShared);
    };
    ks::cuda::BlockSizeSuggestion s = ks::cuda::suggestBlockSize(h100, input(32, 0));
    EXPECT_EQ(s.blockSize, 1024) << "full occupancy everywhere: the largest block wins";
    EXPECT_EQ(s.minGridSize, 2 * 132);
    s = ks::cuda::suggestBlockSize(h100, input(32, 0), 0, 256);
    EXPECT_EQ(s.blockSize, 256);
    // 72 registers: 2304 per warp -> 28 warps per SM; the best block size leaves the fewest warps idle.
    s = ks::cuda::suggestBlockSize(h100, input(72, 0));
    int bestThreads = 0;
    for (int b = 32; b <= 1024; b += 32)
        bestThreads = std::max(bestThreads, occupancyOf(b, kernelWith(72), 0).blocksPerSM * b);
    EXPECT_EQ(s.occupancy.blocksPerSM * s.blockSize, bestThreads);
    // shared memory per thread: 4 KiB fixed + 64 B per thread.
    s = ks::cuda::suggestBlockSize(h100, input(32, 4096), 64);
    EXPECT_GT(s.blockSize, 0);
    EXPECT_GT(s.occupancy.blocksPerSM, 0);
}

TEST(DynamicSharedMemory, AboveTheDefaultUpToTheOptInMaximum)
{
    const ks::cuda::DeviceLimits l = hopperLimits();
    EXPECT_FALSE(ks::cuda::dynamicSharedRefusal(64 * 1024, l, kernelWith(32)));
    EXPECT_FALSE(ks::cuda::dynamicSharedRefusal(227 * 1024, l, kernelWith(32)));
    const auto why = ks::cuda::dynamicSharedRefusal(227 * 1024, l, kernelWith(32, 1024));
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("dynamic shared memory of 232448 bytes per block (233472 with the kernel's 1024 static "
                        "bytes) exceeds the device's opt-in maximum of 232448 bytes per block"),
              std::string::npos)
        << *why;
    EXPECT_TRUE(ks::cuda::dynamicSharedRefusal(-1, l, kernelWith(32)));
}

TEST(DynamicSharedMemory, LaunchValidationFollowsTheKernelsAttribute)
{
    const ks::cuda::DeviceLimits l = hopperLimits();
    const ks::cuda::LaunchConfig big{{1, 1, 1}, {256, 1, 1}, 64 * 1024};
    // By default a kernel may use 48 KiB: 64 KiB is refused, and the message says how to opt in.
    const auto refused = ks::cuda::checkLaunch(big, l, kernelWith(32));
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->limit, ks::cuda::LaunchLimit::SharedMemoryPerBlock);
    EXPECT_NE(refused->message.find("setMaxDynamicSharedBytes"), std::string::npos) << refused->message;
    // After Function::setMaxDynamicSharedBytes(64 KiB) the kernel's attribute says so.
    ks::cuda::FunctionAttributes raised = kernelWith(32);
    raised.maxDynamicSharedBytes = 64 * 1024;
    EXPECT_FALSE(ks::cuda::checkLaunch(big, l, raised));
    EXPECT_TRUE(ks::cuda::checkLaunch({{1, 1, 1}, {256, 1, 1}, 64 * 1024 + 4}, l, raised));
}

TEST(FunctionSettings, CarveoutAndCacheConfig)
{
    EXPECT_FALSE(ks::cuda::carveoutRefusal(-1));
    EXPECT_FALSE(ks::cuda::carveoutRefusal(0));
    EXPECT_FALSE(ks::cuda::carveoutRefusal(100));
    const auto why = ks::cuda::carveoutRefusal(101);
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("a percentage from 0 to 100, or -1"), std::string::npos) << *why;
    EXPECT_EQ(ks::cuda::cacheConfigName(ks::cuda::CacheConfig::PreferShared), "prefer shared");
    EXPECT_EQ(ks::cuda::cacheConfigName(ks::cuda::CacheConfig::PreferL1), "prefer L1");
    EXPECT_EQ(int(ks::cuda::CacheConfig::PreferEqual), int(CU_FUNC_CACHE_PREFER_EQUAL));
    ks::cuda::Function none;
    EXPECT_THROW(none.setMaxDynamicSharedBytes(1024), ks::UsageError);
    EXPECT_THROW(none.setPreferredSharedCarveout(50), ks::UsageError);
    EXPECT_THROW(none.setCacheConfig(ks::cuda::CacheConfig::PreferL1), ks::UsageError);
}

TEST(ModuleLoading, NameExpressionsFindTheirLoweredNames)
{
    const std::vector<std::string> expressions = {"scale<float>", "ns::step", "missing"};
    const std::vector<std::string> lowered = {"_Z5scaleIfEvPT_", "_ZN2ns4stepEv", ""};
    EXPECT_EQ(ks::cuda::loweredNameOf("ns::step", expressions, lowered), "_ZN2ns4stepEv");
    EXPECT_EQ(ks::cuda::loweredNameOf("scale<float>", expressions, lowered), "_Z5scaleIfEvPT_");
    EXPECT_FALSE(ks::cuda::loweredNameOf("missing", expressions, lowered)) << "NVRTC found none";
    EXPECT_FALSE(ks::cuda::loweredNameOf("other", expressions, lowered));
    EXPECT_FALSE(ks::cuda::loweredNameOf("ns::step", expressions, {})) << "no lowered names";
    const ks::cuda::Module none;
    EXPECT_THROW(none.function("other", expressions, lowered), ks::UsageError);
}

TEST(ModuleLoading, MissingFilesAreRefusedNamingThem)
{
    try {
        ks::cuda::Module::fromFile("/nonexistent/kernels.cubin");
        FAIL() << "loaded a missing file";
    } catch (const ks::UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("no module file '/nonexistent/kernels.cubin'"), std::string::npos)
            << e.what();
    }
    ks::cuda::Linker empty;
    EXPECT_THROW(empty.addPtx(".version 8.0", "a.ptx"), ks::UsageError);
    EXPECT_THROW(empty.link(), ks::UsageError);
    EXPECT_EQ(ks::cuda::linkInputName(ks::cuda::LinkInput::Ptx), "PTX");
    EXPECT_EQ(ks::cuda::linkInputName(ks::cuda::LinkInput::Library), "library");
}
