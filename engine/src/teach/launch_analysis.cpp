#include "ks/teach/launch_analysis.hpp"

#include "ks/core/error.hpp"
#include "ks/teach/timeline.hpp"

#include <algorithm>
#include <cstdio>

namespace ks::teach {
namespace {

unsigned long long ceilDiv(unsigned long long a, unsigned long long b)
{
    return b ? (a + b - 1) / b : 0;
}

unsigned long long roundUp(unsigned long long a, unsigned long long unit)
{
    return unit ? ceilDiv(a, unit) * unit : a;
}

} // namespace

SmResources SmResources::fromDevice(const cuda::DeviceInfo& d)
{
    SmResources s;
    s.smCount = d.smCount;
    s.maxThreadsPerSm = d.maxThreadsPerSM;
    s.maxThreadsPerBlock = d.limits.maxThreadsPerBlock;
    s.maxBlocksPerSm = d.maxBlocksPerSM;
    s.registersPerSm = d.registersPerSM;
    s.maxRegistersPerBlock = d.limits.maxRegistersPerBlock;
    s.sharedMemoryPerSm = d.sharedMemoryPerSM;
    s.reservedSharedPerBlock = d.ccMajor >= 8 ? 1024 : 0;
    s.warpSize = d.limits.warpSize > 0 ? d.limits.warpSize : 32;
    return s;
}

std::string_view occupancyLimiterName(OccupancyLimiter limiter)
{
    switch (limiter) {
    case OccupancyLimiter::Warps: return "warps per SM";
    case OccupancyLimiter::Blocks: return "blocks per SM";
    case OccupancyLimiter::Registers: return "registers";
    case OccupancyLimiter::SharedMemory: return "shared memory";
    }
    return "?";
}

Occupancy theoreticalOccupancy(unsigned threadsPerBlock, const cuda::FunctionAttributes& a, unsigned dynamicShared,
                               const SmResources& sm)
{
    Occupancy o;
    const unsigned warpSize = sm.warpSize > 0 ? unsigned(sm.warpSize) : 32u;
    o.maxWarpsPerSm = sm.maxThreadsPerSm / int(warpSize);
    o.warpsPerBlock = int(ceilDiv(threadsPerBlock, warpSize));
    if (o.warpsPerBlock == 0) {
        o.explanation = "no threads";
        return o;
    }
    o.byWarps = o.maxWarpsPerSm / o.warpsPerBlock;
    o.byBlocks = sm.maxBlocksPerSm;
    o.byRegisters = Occupancy::kNoLimit;
    if (a.numRegs > 0) {
        const unsigned long long perWarp = roundUp(1ull * a.numRegs * warpSize, unsigned(sm.registerAllocationUnit));
        const unsigned parts = unsigned(std::max(1, sm.registerSubPartitions));
        // The hardware checks the block as if its warps were spread over every sub-partition.
        const unsigned long long assumed = perWarp * roundUp(unsigned(o.warpsPerBlock), parts);
        if (a.numRegs > sm.maxRegistersPerThread || assumed > unsigned(sm.maxRegistersPerBlock) ||
            perWarp * unsigned(o.warpsPerBlock) > unsigned(sm.maxRegistersPerBlock))
            o.byRegisters = 0;
        else
            o.byRegisters = int(unsigned(sm.registersPerSm) / parts / perWarp * parts / unsigned(o.warpsPerBlock));
    }
    const unsigned long long shared = 1ull * unsigned(a.staticSharedBytes) + dynamicShared;
    o.bySharedMemory = Occupancy::kNoLimit;
    if (shared > 0) {
        const unsigned long long perBlock = roundUp(shared + unsigned(sm.reservedSharedPerBlock),
                                                    unsigned(sm.sharedAllocationUnit));
        o.bySharedMemory = int(unsigned(sm.sharedMemoryPerSm) / perBlock);
    }
    o.blocksPerSm = std::min({o.byWarps, o.byBlocks, o.byRegisters, o.bySharedMemory});
    // The limiter named is the first that reaches the minimum, in the calculator's order.
    o.limiter = o.byWarps == o.blocksPerSm          ? OccupancyLimiter::Warps
                : o.byRegisters == o.blocksPerSm    ? OccupancyLimiter::Registers
                : o.bySharedMemory == o.blocksPerSm ? OccupancyLimiter::SharedMemory
                                                    : OccupancyLimiter::Blocks;
    o.warpsPerSm = o.blocksPerSm * o.warpsPerBlock;
    o.fraction = o.maxWarpsPerSm > 0 ? double(o.warpsPerSm) / o.maxWarpsPerSm : 0;
    char buf[256];
    if (o.blocksPerSm == 0)
        std::snprintf(buf, sizeof buf, "0%%: a block of %u threads does not fit on an SM (%s)", threadsPerBlock,
                      std::string(occupancyLimiterName(o.limiter)).c_str());
    else
        std::snprintf(buf, sizeof buf, "%.0f%% (%d of %d warps, %d block%s per SM): limited by %s", 100.0 * o.fraction,
                      o.warpsPerSm, o.maxWarpsPerSm, o.blocksPerSm, o.blocksPerSm == 1 ? "" : "s",
                      std::string(occupancyLimiterName(o.limiter)).c_str());
    o.explanation = buf;
    if (o.limiter == OccupancyLimiter::Registers)
        o.explanation += " (" + std::to_string(a.numRegs) + " per thread)";
    else if (o.limiter == OccupancyLimiter::SharedMemory)
        o.explanation += " (" + std::to_string(shared) + " bytes per block)";
    return o;
}

Coverage coverage(const cuda::LaunchConfig& l, cuda::Dim3 extent, unsigned warpSize)
{
    Coverage c;
    warpSize = warpSize ? warpSize : 32;
    c.blocks = l.grid.count();
    c.threads = c.blocks * l.block.count();
    c.warps = c.blocks * ceilDiv(l.block.count(), warpSize);
    c.idleLanes = c.warps * warpSize - c.threads;
    c.elements = extent.count();
    const unsigned long long reach[] = {1ull * l.grid.x * l.block.x, 1ull * l.grid.y * l.block.y,
                                        1ull * l.grid.z * l.block.z};
    const unsigned long long ext[] = {extent.x, extent.y, extent.z};
    c.threadsInside = 1;
    for (int i = 0; i < 3; ++i)
        c.threadsInside *= std::min(reach[i], ext[i]);
    c.threadsOutside = c.threads - c.threadsInside;
    c.elementsUncovered = c.elements - c.threadsInside;
    return c;
}

cuda::Dim3 gridToCover(cuda::Dim3 extent, cuda::Dim3 block)
{
    auto axis = [](unsigned e, unsigned b) { return unsigned(std::max<unsigned long long>(1, ceilDiv(e, b))); };
    return {axis(extent.x, block.x), axis(extent.y, block.y), axis(extent.z, block.z)};
}

LaunchReport analyzeLaunch(const cuda::LaunchConfig& launch, const cuda::FunctionAttributes& attrs,
                           const cuda::DeviceLimits& limits, const SmResources& sm, cuda::Dim3 extent)
{
    LaunchReport r;
    r.refusal = cuda::checkLaunch(launch, limits, attrs);
    r.coverage = coverage(launch, extent, unsigned(sm.warpSize));
    r.occupancy = theoreticalOccupancy(unsigned(launch.block.count()), attrs, launch.sharedBytes, sm);
    r.waves = waveCount(r.coverage.blocks, unsigned(sm.smCount), unsigned(r.occupancy.blocksPerSm));
    return r;
}

BlockSizeSuggestion suggestBlockSize(const cuda::FunctionAttributes& attrs, const SmResources& sm,
                                     unsigned dynamicShared, unsigned dynamicSharedPerThread, unsigned maxBlockSize)
{
    const unsigned warpSize = sm.warpSize > 0 ? unsigned(sm.warpSize) : 32u;
    unsigned limit = unsigned(std::min(sm.maxThreadsPerBlock, sm.maxThreadsPerSm));
    if (attrs.maxThreadsPerBlock > 0)
        limit = std::min(limit, unsigned(attrs.maxThreadsPerBlock));
    if (maxBlockSize > 0)
        limit = std::min(limit, maxBlockSize);
    BlockSizeSuggestion best;
    int bestThreads = -1;
    for (unsigned b = limit / warpSize * warpSize; b >= warpSize; b -= warpSize) {
        const Occupancy o = theoreticalOccupancy(b, attrs, dynamicShared + dynamicSharedPerThread * b, sm);
        const int threads = o.blocksPerSm * int(b);
        if (threads > bestThreads) {
            bestThreads = threads;
            best.blockSize = b;
            best.occupancy = o;
            best.minGridSize = unsigned(o.blocksPerSm * sm.smCount);
        }
    }
    return best;
}

BlockSizeSuggestion suggestBlockSizeOnDevice(const cuda::Function& f, unsigned dynamicShared, unsigned maxBlockSize)
{
    if (f.empty())
        throwUsage("teach::suggestBlockSizeOnDevice", "empty function handle");
    int minGrid = 0, block = 0;
    KS_CU(cuOccupancyMaxPotentialBlockSize, &minGrid, &block, f.get(), nullptr, std::size_t(dynamicShared),
          int(maxBlockSize));
    BlockSizeSuggestion s;
    s.blockSize = unsigned(block);
    s.minGridSize = unsigned(minGrid);
    CUdevice dev = 0;
    KS_CU(cuCtxGetDevice, &dev);
    // A CUdevice is the device's ordinal.
    const SmResources sm = SmResources::fromDevice(cuda::queryDevice(static_cast<int>(dev)));
    s.occupancy = theoreticalOccupancy(unsigned(block), f.attributes(), dynamicShared, sm);
    return s;
}

int maxActiveBlocksOnDevice(const cuda::Function& f, unsigned blockSize, unsigned dynamicShared)
{
    int blocks = 0;
    KS_CU(cuOccupancyMaxActiveBlocksPerMultiprocessor, &blocks, f.get(), int(blockSize), std::size_t(dynamicShared));
    return blocks;
}

} // namespace ks::teach
