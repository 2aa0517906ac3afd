#include "ks/cuda/occupancy.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <map>

namespace ks::cuda {

namespace {
int roundUp(int v, int unit)
{
    return unit > 0 ? (v + unit - 1) / unit * unit : v;
}
int divUp(int a, int b)
{
    return (a + b - 1) / b;
}
} // namespace

OccupancyLimits OccupancyLimits::forArch(std::string_view arch, bool* known)
{
    struct Row {
        int major, minor, threadsPerSM, blocksPerSM, sharedPerSMKiB;
    };
    // From the CUDA C++ Programming Guide's table of technical specifications and the toolkit's
    // cuda_occupancy.h.
    static const Row rows[] = {{7, 0, 2048, 32, 96},   {7, 2, 2048, 32, 96},   {7, 5, 1024, 16, 64},
                               {8, 0, 2048, 32, 164},  {8, 6, 1536, 16, 100},  {8, 7, 2048, 16, 164},
                               {8, 9, 1536, 24, 100},  {9, 0, 2048, 32, 228},  {10, 0, 2048, 32, 228},
                               {10, 3, 2048, 32, 228}, {11, 0, 1536, 24, 228}, {12, 0, 1536, 24, 100},
                               {12, 1, 1536, 24, 100}};
    OccupancyLimits l;
    int cc = 0;
    const std::string s(arch);
    const std::size_t digits = s.find_first_of("0123456789");
    if (digits != std::string::npos)
        cc = std::atoi(s.c_str() + digits);
    const int major = cc / 10, minor = cc % 10;
    const Row* row = nullptr;
    for (const Row& r : rows)
        if (r.major == major && r.minor == minor)
            row = &r;
    if (known)
        *known = row != nullptr;
    if (!row)
        return l; // sm_90's limits
    l.ccMajor = row->major;
    l.ccMinor = row->minor;
    l.maxThreadsPerSM = row->threadsPerSM;
    l.maxBlocksPerSM = row->blocksPerSM;
    l.sharedPerSM = row->sharedPerSMKiB * 1024;
    l.reservedSharedPerBlock = row->major >= 8 ? 1024 : 0;
    l.sharedPerBlockOptin = l.sharedPerSM - l.reservedSharedPerBlock;
    return l;
}

OccupancyLimits OccupancyLimits::fromDevice(const cuda::DeviceInfo& d)
{
    OccupancyLimits l = forArch(d.archName());
    l.ccMajor = d.ccMajor;
    l.ccMinor = d.ccMinor;
    l.reservedSharedPerBlock = d.ccMajor >= 8 ? 1024 : 0;
    // What the query knows replaces the table's value; a 0 is a limit it did not report.
    auto take = [](int& limit, int queried) {
        if (queried)
            limit = queried;
    };
    take(l.smCount, d.smCount);
    take(l.warpSize, d.limits.warpSize);
    take(l.maxThreadsPerBlock, d.limits.maxThreadsPerBlock);
    take(l.maxThreadsPerSM, d.maxThreadsPerSM);
    take(l.maxBlocksPerSM, d.maxBlocksPerSM);
    take(l.registersPerSM, d.registersPerSM);
    take(l.registersPerBlock, d.limits.maxRegistersPerBlock);
    take(l.sharedPerSM, d.sharedMemoryPerSM);
    take(l.sharedPerBlock, d.limits.maxSharedMemoryPerBlock);
    take(l.sharedPerBlockOptin, d.limits.maxSharedMemoryPerBlockOptin);
    return l;
}

OccupancyInput OccupancyInput::of(const cuda::FunctionAttributes& a, const OccupancyLimits& limits, int blockSize,
                                  int dynamicSharedBytes)
{
    OccupancyInput in;
    in.registersPerThread = a.numRegs;
    in.staticSharedBytes = a.staticSharedBytes;
    in.dynamicSharedBytes = dynamicSharedBytes;
    in.blockSize = blockSize;
    in.kernelMaxThreads = a.maxThreadsPerBlock;
    in.sharedOptIn = a.maxDynamicSharedBytes + a.staticSharedBytes > limits.sharedPerBlock;
    return in;
}

std::string_view occupancyLimiterName(OccupancyLimiter l) noexcept
{
    switch (l) {
    case OccupancyLimiter::Warps: return "warps per SM";
    case OccupancyLimiter::Blocks: return "blocks per SM";
    case OccupancyLimiter::Registers: return "registers";
    case OccupancyLimiter::SharedMemory: return "shared memory";
    }
    return "?";
}

std::string Occupancy::summary() const
{
    char buf[160];
    if (blocksPerSM == 0) {
        std::snprintf(buf, sizeof buf, "0%%: a block of %d threads does not fit on an SM", blockSize);
        return whyZero.empty() ? std::string(buf) : std::string(buf) + ": " + whyZero;
    }
    std::snprintf(buf, sizeof buf, "%.0f%% (%d of %d warps, %d block%s per SM)", fraction * 100, warpsPerSM,
                  maxWarpsPerSM, blocksPerSM, blocksPerSM == 1 ? "" : "s");
    std::string s = buf;
    for (std::size_t i = 0; i < limitedBy.size(); ++i) {
        s += std::string(i ? " and " : ": limited by ") + std::string(occupancyLimiterName(limitedBy[i]));
        if (limitedBy[i] == OccupancyLimiter::Registers)
            s += " (" + std::to_string(registersPerThread) + " per thread)";
        else if (limitedBy[i] == OccupancyLimiter::SharedMemory)
            s += " (" + std::to_string(sharedBytesPerBlock) + " bytes per block)";
    }
    return s;
}

int maxThreadsPerBlockFor(const OccupancyLimits& l, int regs, int launchBound)
{
    int maxThreads = l.maxThreadsPerBlock;
    if (regs > 0) {
        const int perWarp = roundUp(regs * l.warpSize, l.registerAllocationUnit);
        // The hardware checks a block's registers as if its warps filled every sub-partition.
        int warps = l.registersPerBlock / perWarp;
        warps -= warps % l.subPartitions;
        maxThreads = std::min(maxThreads, warps * l.warpSize);
    }
    if (launchBound > 0)
        maxThreads = std::min(maxThreads, launchBound);
    return maxThreads;
}

Occupancy theoreticalOccupancy(const OccupancyLimits& l, const OccupancyInput& in)
{
    Occupancy o;
    o.blockSize = in.blockSize;
    o.registersPerThread = in.registersPerThread;
    o.sharedBytesPerBlock = in.staticSharedBytes + in.dynamicSharedBytes;
    const int maxWarpsPerSM = l.maxThreadsPerSM / l.warpSize;
    o.maxWarpsPerSM = maxWarpsPerSM;
    const int warpsPerBlock = divUp(std::max(in.blockSize, 1), l.warpSize);

    // Threads (warp slots).
    o.byWarps = in.blockSize > 0 && in.blockSize <= l.maxThreadsPerBlock ? maxWarpsPerSM / warpsPerBlock : 0;
    o.byBlocks = l.maxBlocksPerSM;

    // Registers, per sub-partition.
    const int regsPerWarp = roundUp(in.registersPerThread * l.warpSize, l.registerAllocationUnit);
    if (in.registersPerThread > l.maxRegistersPerThread ||
        regsPerWarp * roundUp(warpsPerBlock, l.subPartitions) > l.registersPerBlock) {
        o.byRegisters = 0;
    } else if (regsPerWarp == 0) {
        o.byRegisters = INT_MAX;
    } else {
        const int warpsPerSubPartition = (l.registersPerSM / l.subPartitions) / regsPerWarp;
        o.byRegisters = warpsPerSubPartition * l.subPartitions / warpsPerBlock;
    }

    // Shared memory.
    const int used = in.staticSharedBytes + in.dynamicSharedBytes + l.reservedSharedPerBlock;
    o.sharedPerBlockAllocated = roundUp(used, l.sharedAllocationUnit);
    const int blockLimit =
        (in.sharedOptIn ? std::max(l.sharedPerBlockOptin, l.sharedPerBlock) : l.sharedPerBlock) + l.reservedSharedPerBlock;
    if (o.sharedPerBlockAllocated > blockLimit)
        o.bySharedMemory = 0;
    else
        o.bySharedMemory = o.sharedPerBlockAllocated > 0 ? l.sharedPerSM / o.sharedPerBlockAllocated : INT_MAX;

    const int kernelMax = in.kernelMaxThreads > 0 ? in.kernelMaxThreads : INT_MAX;
    o.blocksPerSM = std::min({o.byWarps, o.byBlocks, o.byRegisters, o.bySharedMemory});
    if (in.blockSize > kernelMax)
        o.blocksPerSM = 0;
    o.warpsPerSM = o.blocksPerSM * warpsPerBlock;
    o.fraction = maxWarpsPerSM ? double(o.warpsPerSM) / maxWarpsPerSM : 0;

    if (o.blocksPerSM > 0) {
        const std::pair<int, OccupancyLimiter> all[] = {{o.byWarps, OccupancyLimiter::Warps},
                                                        {o.byRegisters, OccupancyLimiter::Registers},
                                                        {o.bySharedMemory, OccupancyLimiter::SharedMemory},
                                                        {o.byBlocks, OccupancyLimiter::Blocks}};
        for (const auto& [blocks, limiter] : all)
            if (blocks == o.blocksPerSM)
                o.limitedBy.push_back(limiter);
        return o;
    }
    if (in.blockSize <= 0)
        o.whyZero = "the block size must be at least 1";
    else if (in.blockSize > l.maxThreadsPerBlock)
        o.whyZero = "a block of " + std::to_string(in.blockSize) + " threads exceeds the maximum of " +
                    std::to_string(l.maxThreadsPerBlock);
    else if (in.blockSize > kernelMax)
        o.whyZero = "a block of " + std::to_string(in.blockSize) + " threads exceeds this kernel's maximum of " +
                    std::to_string(kernelMax);
    else if (o.byRegisters == 0)
        o.whyZero = std::to_string(in.registersPerThread) + " registers per thread x " + std::to_string(in.blockSize) +
                    " threads exceed the " + std::to_string(l.registersPerBlock) + " registers of a block";
    else if (o.bySharedMemory == 0)
        o.whyZero = std::to_string(in.staticSharedBytes + in.dynamicSharedBytes) +
                    " bytes of shared memory per block exceed the limit of " +
                    std::to_string(blockLimit - l.reservedSharedPerBlock) +
                    (in.sharedOptIn ? "" : " (more needs an opt-in with cuFuncSetAttribute)");
    return o;
}

BlockSizeSuggestion suggestBlockSize(const OccupancyLimits& l, const OccupancyInput& base, int dynamicSharedPerThread,
                                     int maxBlockSize)
{
    BlockSizeSuggestion best;
    int maxThreads = maxThreadsPerBlockFor(l, base.registersPerThread, base.kernelMaxThreads);
    if (maxBlockSize > 0)
        maxThreads = std::min(maxThreads, maxBlockSize);
    for (int size = maxThreads - maxThreads % l.warpSize; size >= l.warpSize; size -= l.warpSize) {
        OccupancyInput in = base;
        in.blockSize = size;
        in.dynamicSharedBytes = base.dynamicSharedBytes + dynamicSharedPerThread * size;
        const Occupancy o = theoreticalOccupancy(l, in);
        // Larger blocks first, so that on ties the larger (fewer blocks) wins, as the driver does.
        if (o.warpsPerSM > best.occupancy.warpsPerSM) {
            best.blockSize = size;
            best.minGridSize = o.blocksPerSM * l.smCount;
            best.occupancy = o;
        }
    }
    return best;
}

} // namespace ks::cuda
