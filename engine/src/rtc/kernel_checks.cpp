#include "ks/rtc/kernel_checks.hpp"

#include "ks/core/error.hpp"

namespace ks::rtc {

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

    const cuda::OccupancyLimits limits = cuda::OccupancyLimits::fromDevice(device);
    c.model = cuda::theoreticalOccupancy(limits, cuda::OccupancyInput::of(c.attributes, limits, blockSize, dynamicShared));
    c.driverBlocks = f.maxActiveBlocksPerSM(blockSize, std::size_t(dynamicShared));
    mismatch("blocks per SM at " + std::to_string(blockSize) + " threads", c.model.blocksPerSM, c.driverBlocks);
    c.suggestion = f.maxPotentialBlockSize(std::size_t(dynamicShared));
    return c;
}

} // namespace ks::rtc
