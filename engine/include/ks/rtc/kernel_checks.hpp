#pragma once
// The driver's view of a loaded kernel next to what the build said about it: parameter layout
// (cuFuncGetParamInfo), registers, shared and local memory, maximum block size (cuFuncGetAttribute),
// and occupancy (the driver's answers, cuda::Function::maxActiveBlocksPerSM and
// maxPotentialBlockSize) next to the pure host model of occupancy.hpp. Needs a current context on the kernel's device.

#include "ks/cuda/device_info.hpp"
#include "ks/cuda/launch.hpp"
#include "ks/cuda/module.hpp"
#include "ks/rtc/kernel_facts.hpp"
#include "ks/cuda/occupancy.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ks::rtc {

struct DriverKernelCheck {
    std::optional<std::vector<cuda::ParameterSlot>> layout; // nullopt: the driver cannot say
    cuda::FunctionAttributes attributes;
    cuda::Occupancy model;       // the host model with the device's limits
    int driverBlocks = 0;  // cuOccupancyMaxActiveBlocksPerMultiprocessor
    cuda::PotentialBlockSize suggestion; // cuOccupancyMaxPotentialBlockSize
    // Where the driver and the build disagree (parameter count, sizes, offsets, registers, static
    // shared memory, local memory, maximum threads, occupancy); empty when they agree.
    std::vector<std::string> mismatches;
};

DriverKernelCheck checkAgainstDriver(const KernelFacts& facts, const cuda::Function& function,
                                     const cuda::DeviceInfo& device, int blockSize, int dynamicSharedBytes = 0);

} // namespace ks::rtc
