#include "ks/rtc/kernel_checks.hpp"

#include "ks/core/error.hpp"

namespace ks::rtc {

OccupancyLimits occupancyLimitsOf(const cuda::DeviceInfo& d)
{
    OccupancyLimits l = OccupancyLimits::forArch(d.archName());
    l.ccMajor = d.ccMajor;
    l.ccMinor = d.ccMinor;
    if (d.limits.warpSize)
        l.warpSize = d.limits.warpSize;
    if (d.limits.maxThreadsPerBlock)
        l.maxThreadsPerBlock = d.limits.maxThreadsPerBlock;
    if (d.maxThreadsPerSM)
        l.maxThreadsPerSM = d.maxThreadsPerSM;
    if (d.maxBlocksPerSM)
        l.maxBlocksPerSM = d.maxBlocksPerSM;
    if (d.registersPerSM)
        l.registersPerSM = d.registersPerSM;
    if (d.limits.maxRegistersPerBlock)
        l.registersPerBlock = d.limits.maxRegistersPerBlock;
    if (d.sharedMemoryPerSM)
        l.sharedPerSM = d.sharedMemoryPerSM;
    if (d.limits.maxSharedMemoryPerBlock)
        l.sharedPerBlock = d.limits.maxSharedMemoryPerBlock;
    if (d.limits.maxSharedMemoryPerBlockOptin)
        l.sharedPerBlockOptin = d.limits.maxSharedMemoryPerBlockOptin;
    return l;
}

int driverBlocksPerSM(const cuda::Function& f, int blockSize, std::size_t dynamicSharedBytes)
{
    int blocks = 0;
    KS_CU(cuOccupancyMaxActiveBlocksPerMultiprocessor, &blocks, f.get(), blockSize, dynamicSharedBytes);
    return blocks;
}

DriverBlockSuggestion driverSuggestBlockSize(const cuda::Function& f, std::size_t dynamicSharedBytes)
{
    DriverBlockSuggestion s;
    KS_CU(cuOccupancyMaxPotentialBlockSize, &s.minGridSize, &s.blockSize, f.get(), nullptr, dynamicSharedBytes, 0);
    return s;
}

DriverKernelCheck checkAgainstDriver(const KernelFacts& k, const cuda::Function& f, const cuda::DeviceInfo& device,
                                     int blockSize, int dynamicShared)
{
    DriverKernelCheck c;
    c.attributes = f.attributes();
    c.layout = cuda::parameterLayout(f);
    auto mismatch = [&](const std::string& what, long long build, long long driver) {
        if (build != driver)
            c.mismatches.push_back(what + ": the build says " + std::to_string(build) + ", the driver " +
                                   std::to_string(driver));
    };
    if (c.layout) {
        const auto& slots = *c.layout;
        mismatch("parameter count", (long long)k.ptxParams.size(), (long long)slots.size());
        std::size_t offset = 0;
        for (std::size_t i = 0; i < std::min(slots.size(), k.ptxParams.size()); ++i) {
            const PtxParameter& p = k.ptxParams[i];
            offset = (offset + p.align - 1) / std::max<std::size_t>(p.align, 1) * std::max<std::size_t>(p.align, 1);
            mismatch("parameter " + std::to_string(i + 1) + " size", (long long)p.size, (long long)slots[i].size);
            mismatch("parameter " + std::to_string(i + 1) + " offset", (long long)offset, (long long)slots[i].offset);
            offset += p.size;
        }
    }
    if (k.resourcesKnown) {
        mismatch("registers per thread", k.resources.registers, c.attributes.numRegs);
        mismatch("static shared bytes", k.resources.sharedBytes, c.attributes.staticSharedBytes);
        // A kernel that keeps calls (-G, --Ofast-compile) has a stack for its callees too, which
        // the driver's local size may include (ptxas' "cumulative stack size").
        if (c.attributes.localBytes != k.resources.cumulativeStackBytes)
            mismatch("local bytes per thread", k.resources.stackFrameBytes, c.attributes.localBytes);
    }
    mismatch("max threads per block", k.maxThreadsPerBlock, c.attributes.maxThreadsPerBlock);

    OccupancyInput in;
    in.registersPerThread = c.attributes.numRegs;
    in.staticSharedBytes = c.attributes.staticSharedBytes;
    in.dynamicSharedBytes = dynamicShared;
    in.blockSize = blockSize;
    in.kernelMaxThreads = c.attributes.maxThreadsPerBlock;
    in.sharedOptIn = c.attributes.maxDynamicSharedBytes + c.attributes.staticSharedBytes > device.limits.maxSharedMemoryPerBlock;
    c.model = theoreticalOccupancy(occupancyLimitsOf(device), in);
    c.driverBlocks = driverBlocksPerSM(f, blockSize, std::size_t(dynamicShared));
    mismatch("blocks per SM at " + std::to_string(blockSize) + " threads", c.model.blocksPerSM, c.driverBlocks);
    c.suggestion = driverSuggestBlockSize(f, std::size_t(dynamicShared));
    return c;
}

} // namespace ks::rtc
