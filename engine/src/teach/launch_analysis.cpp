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

} // namespace

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
                           const cuda::DeviceLimits& limits, const cuda::OccupancyLimits& sm, cuda::Dim3 extent)
{
    LaunchReport r;
    r.refusal = cuda::checkLaunch(launch, limits, attrs);
    r.coverage = coverage(launch, extent, unsigned(sm.warpSize));
    r.occupancy = cuda::theoreticalOccupancy(
        sm, cuda::OccupancyInput::of(attrs, sm, int(launch.block.count()), int(launch.sharedBytes)));
    r.waves = waveCount(r.coverage.blocks, unsigned(sm.smCount), unsigned(r.occupancy.blocksPerSM));
    return r;
}

cuda::BlockSizeSuggestion suggestBlockSizeOnDevice(const cuda::Function& f, unsigned dynamicShared,
                                                  unsigned maxBlockSize)
{
    const cuda::PotentialBlockSize p = f.maxPotentialBlockSize(std::size_t(dynamicShared), int(maxBlockSize));
    CUdevice dev = 0;
    KS_CU(cuCtxGetDevice, &dev);
    // A CUdevice is the device's ordinal.
    const auto sm = cuda::OccupancyLimits::fromDevice(cuda::queryDevice(static_cast<int>(dev)));
    cuda::BlockSizeSuggestion s;
    s.blockSize = p.blockSize;
    s.minGridSize = p.minGridSize;
    s.occupancy =
        cuda::theoreticalOccupancy(sm, cuda::OccupancyInput::of(f.attributes(), sm, p.blockSize, int(dynamicShared)));
    return s;
}

} // namespace ks::teach
