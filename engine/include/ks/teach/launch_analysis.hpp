#pragma once
// What the launch panel shows for a grid and block: whether it can launch (and which limit it
// breaks), threads and warps launched, threads that fall outside the data (the `if (i < n)` guard)
// and elements no thread reaches, the theoretical occupancy and what limits it, the waves it
// implies, and a suggested block size. Host arithmetic, testable without a device, plus two thin
// wrappers over the driver's occupancy calls for a loaded kernel.
//
// Note for the lead: the rtc helper's kernel facts also compute occupancy; theoreticalOccupancy
// below is self-contained so the two can be unified into one (keep the limiter reporting).

#include "ks/cuda/device_info.hpp"
#include "ks/cuda/module.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace ks::teach {

// One SM's resources, as theoretical occupancy needs them. Defaults are an H100 (sm_90).
struct SmResources {
    int smCount = 132;
    int maxThreadsPerBlock = 1024;
    int maxThreadsPerSm = 2048;
    int maxBlocksPerSm = 32;
    int registersPerSm = 65536;
    int maxRegistersPerBlock = 65536;
    int sharedMemoryPerSm = 233472; // bytes usable by blocks (228 KiB on sm_90)
    int reservedSharedPerBlock = 1024; // the system's share of every block (sm_80 and later)
    int sharedAllocationUnit = 128;
    int registerAllocationUnit = 256;  // registers of a warp are allocated in these units
    int registerSubPartitions = 4;     // the register file is split into these; warps do not span them
    int maxRegistersPerThread = 255;
    int warpSize = 32;
    static SmResources fromDevice(const cuda::DeviceInfo& device);
};

enum class OccupancyLimiter { Warps, Blocks, Registers, SharedMemory };
std::string_view occupancyLimiterName(OccupancyLimiter limiter); // "warps per SM", ...

struct Occupancy {
    int blocksPerSm = 0; // resident blocks per SM: the least of the four limits below
    int warpsPerBlock = 0;
    int warpsPerSm = 0;
    int maxWarpsPerSm = 0;
    double fraction = 0; // warpsPerSm / maxWarpsPerSm
    OccupancyLimiter limiter = OccupancyLimiter::Warps;
    // Blocks per SM each resource allows; kNoLimit where the kernel uses none of it.
    int byWarps = 0, byBlocks = 0, byRegisters = 0, bySharedMemory = 0;
    static constexpr int kNoLimit = 1 << 30;
    std::string explanation; // "50% (32 of 64 warps): limited by registers (64 per thread)"
};

// Theoretical occupancy of blocks of `threadsPerBlock` threads of a kernel with `attrs` and
// `dynamicSharedBytes`, following the CUDA occupancy calculator's rules (cuda_occupancy.h: registers
// per warp rounded to the allocation unit and allocated per sub-partition, shared memory per block
// including the reserved share rounded to the allocation unit, the default carveout).
// blocksPerSm == 0 when a block does not fit on an SM at all.
Occupancy theoreticalOccupancy(unsigned threadsPerBlock, const cuda::FunctionAttributes& attrs,
                               unsigned dynamicSharedBytes, const SmResources& sm);

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
    Occupancy occupancy;
    unsigned long long waves = 0; // ceil(blocks / (SMs * blocks per SM))
};
LaunchReport analyzeLaunch(const cuda::LaunchConfig& launch, const cuda::FunctionAttributes& attrs,
                           const cuda::DeviceLimits& limits, const SmResources& sm, cuda::Dim3 extent);

struct BlockSizeSuggestion {
    unsigned blockSize = 0;   // threads per block (a multiple of the warp size)
    unsigned minGridSize = 0; // blocks that fill every SM at that occupancy
    Occupancy occupancy;
};
// The block size with the highest theoretical occupancy, the largest among equals (what
// cuOccupancyMaxPotentialBlockSize picks). Shared memory may grow with the block:
// dynamicSharedBytes + dynamicSharedPerThread * blockSize. `maxBlockSize` 0 = no extra limit.
BlockSizeSuggestion suggestBlockSize(const cuda::FunctionAttributes& attrs, const SmResources& sm,
                                     unsigned dynamicSharedBytes, unsigned dynamicSharedPerThread = 0,
                                     unsigned maxBlockSize = 0);

// The driver's answers for a loaded kernel (current context needed; throws ks::Error).
BlockSizeSuggestion suggestBlockSizeOnDevice(const cuda::Function& function, unsigned dynamicSharedBytes,
                                             unsigned maxBlockSize = 0);
int maxActiveBlocksOnDevice(const cuda::Function& function, unsigned blockSize, unsigned dynamicSharedBytes);

} // namespace ks::teach
