#pragma once
// What the launch panel shows for a grid and block: whether it can launch (and which limit it
// breaks), threads and warps launched, threads that fall outside the data (the `if (i < n)` guard)
// and elements no thread reaches, the theoretical occupancy and what limits it (the engine's one
// model, ks/cuda/occupancy.hpp), the waves it implies, and a suggested block size. Host
// arithmetic, testable without a device, plus the driver's suggestion for a loaded kernel.

#include "ks/cuda/device_info.hpp"
#include "ks/cuda/module.hpp"
#include "ks/cuda/occupancy.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace ks::teach {

// Threads of a launch against data of `extent` elements per axis, each thread owning element
// (blockIdx * blockDim + threadIdx) per axis: the mapping of the classic `if (i < n)` guard.
struct Coverage {
    unsigned long long blocks = 0;
    unsigned long long threads = 0;
    unsigned long long warps = 0;           // blocks * ceil(threads per block / warpSize)
    unsigned long long idleLanes = 0;       // lanes of partly filled warps: warps * warpSize - threads
    unsigned long long elements = 0;        // extent.count()
    unsigned long long threadsInside = 0;   // threads whose element exists
    unsigned long long threadsOutside = 0;  // threads the guard sends away
    unsigned long long elementsUncovered = 0; // elements no thread owns (too few blocks, no grid-stride loop)
};
Coverage coverage(const cuda::LaunchConfig& launch, cuda::Dim3 extent, unsigned warpSize = 32);

// The smallest grid that covers `extent` with `block`: ceil(extent / block) per axis.
cuda::Dim3 gridToCover(cuda::Dim3 extent, cuda::Dim3 block);

struct LaunchReport {
    std::optional<cuda::LaunchRefusal> refusal; // set: the launch panel refuses, naming the limit
    Coverage coverage;
    cuda::Occupancy occupancy;
    unsigned long long waves = 0; // ceil(blocks / (SMs * blocks per SM))
};
// `sm`: the occupancy limits of the device (cuda::OccupancyLimits::fromDevice), its SM count too.
LaunchReport analyzeLaunch(const cuda::LaunchConfig& launch, const cuda::FunctionAttributes& attrs,
                           const cuda::DeviceLimits& limits, const cuda::OccupancyLimits& sm, cuda::Dim3 extent);

// The driver's block size for a loaded kernel (cuda::Function::maxPotentialBlockSize, current
// context needed; throws ks::Error) with the model's occupancy at that size on the current device.
cuda::BlockSizeSuggestion suggestBlockSizeOnDevice(const cuda::Function& function, unsigned dynamicSharedBytes,
                                                  unsigned maxBlockSize = 0);

} // namespace ks::teach
