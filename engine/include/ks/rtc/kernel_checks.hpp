#pragma once
// The driver's view of a loaded kernel next to what the build said about it: parameter layout
// (cuFuncGetParamInfo), registers, shared and local memory, maximum block size (cuFuncGetAttribute),
// and occupancy (cuOccupancyMaxActiveBlocksPerMultiprocessor, cuOccupancyMaxPotentialBlockSize)
// next to the pure host model of occupancy.hpp. Needs a current context on the kernel's device.

#include "ks/cuda/device_info.hpp"
#include "ks/cuda/launch.hpp"
#include "ks/cuda/module.hpp"
#include "ks/rtc/kernel_facts.hpp"
#include "ks/rtc/occupancy.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ks::rtc {

// The occupancy model's limits for a queried device.
OccupancyLimits occupancyLimitsOf(const cuda::DeviceInfo& device);

// Blocks of `function` per SM at `blockSize` with `dynamicSharedBytes`, from the driver.
int driverBlocksPerSM(const cuda::Function& function, int blockSize, std::size_t dynamicSharedBytes = 0);

// cuOccupancyMaxPotentialBlockSize: the block size with the best occupancy and the smallest grid
// that fills the device with it.
struct DriverBlockSuggestion {
    int blockSize = 0;
    int minGridSize = 0;
};
DriverBlockSuggestion driverSuggestBlockSize(const cuda::Function& function, std::size_t dynamicSharedBytes = 0);

struct DriverKernelCheck {
    std::optional<std::vector<cuda::ParameterSlot>> layout; // nullopt: the driver cannot say
    cuda::FunctionAttributes attributes;
    Occupancy model;       // the host model with the device's limits
    int driverBlocks = 0;  // cuOccupancyMaxActiveBlocksPerMultiprocessor
    DriverBlockSuggestion suggestion;
    // Where the driver and the build disagree (parameter count, sizes, offsets, registers, static
    // shared memory, local memory, maximum threads, occupancy); empty when they agree.
    std::vector<std::string> mismatches;
};

DriverKernelCheck checkAgainstDriver(const KernelFacts& facts, const cuda::Function& function,
                                     const cuda::DeviceInfo& device, int blockSize, int dynamicSharedBytes = 0);

} // namespace ks::rtc
