#pragma once
// Theoretical occupancy as a pure host function: how many blocks of a kernel fit on one SM, and
// which resource stops the next one. The one model of the engine: the kernel facts and --check,
// the launch panel and the teaching views all ask it. Works without a device (from the
// architecture's published limits) and with one (from the queried limits); the CUDA tests
// cross-check it against the driver's answers (cuda::Function::maxActiveBlocksPerSM,
// maxPotentialBlockSize), the unit tests against the toolkit's cuda_occupancy.h.
//
// Model (Volta and newer): warps are allocated whole; registers per warp are rounded up to the
// allocation unit (256) and allocated per SM sub-partition (4 per SM); shared memory per block is
// static + dynamic + the driver's reserved 1 KiB (Ampere and newer), rounded up to 128 bytes,
// against the largest shared-memory carveout (the default preference).

#include "ks/cuda/device_info.hpp"
#include "ks/cuda/module.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace ks::cuda {

struct OccupancyLimits {
    int ccMajor = 9, ccMinor = 0;
    int smCount = 132; // SMs of the device (an H100 SXM by default): waves, grids
    int warpSize = 32;
    int maxThreadsPerBlock = 1024;
    int maxThreadsPerSM = 2048;
    int maxBlocksPerSM = 32;
    int registersPerSM = 65536;
    int registersPerBlock = 65536;
    int maxRegistersPerThread = 255;
    int registerAllocationUnit = 256; // registers per warp are rounded up to this
    int subPartitions = 4;            // register files per SM
    int sharedPerSM = 233472;         // bytes, largest carveout
    int sharedPerBlock = 49152;       // bytes, without opt-in
    int sharedPerBlockOptin = 232448; // bytes, with cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)
    int reservedSharedPerBlock = 1024;
    int sharedAllocationUnit = 128;

    // Published limits of "sm_90"-style names (sm_70 ... sm_121). `known` is set false for an
    // architecture outside the table; the limits are then sm_90's.
    static OccupancyLimits forArch(std::string_view arch, bool* known = nullptr);
    // The limits of a queried device (its architecture's, with every limit the query knows).
    static OccupancyLimits fromDevice(const cuda::DeviceInfo& device);
};

// What stops the next block: the SM's warp slots (its maximum of resident threads), its maximum
// of resident blocks, its registers, its shared memory.
enum class OccupancyLimiter { Warps, Blocks, Registers, SharedMemory };
std::string_view occupancyLimiterName(OccupancyLimiter l) noexcept; // "warps per SM", "blocks per SM", ...

struct OccupancyInput {
    int registersPerThread = 0;
    int staticSharedBytes = 0;
    int dynamicSharedBytes = 0;
    int blockSize = 0;           // threads per block
    bool sharedOptIn = false;    // the kernel opted into more than 48 KiB of shared memory per block
    int kernelMaxThreads = 0;    // the kernel's own limit (launch bounds); 0: none

    // The input of a loaded kernel with `attributes` (cuFuncGetAttribute's) on a device of `limits`.
    static OccupancyInput of(const cuda::FunctionAttributes& attributes, const OccupancyLimits& limits,
                             int blockSize, int dynamicSharedBytes);
};

struct Occupancy {
    int blocksPerSM = 0;
    int warpsPerSM = 0;
    int maxWarpsPerSM = 0;
    double fraction = 0; // active warps / maximum warps per SM
    // Blocks per SM each resource alone would allow.
    int byWarps = 0, byBlocks = 0, byRegisters = 0, bySharedMemory = 0;
    std::vector<OccupancyLimiter> limitedBy; // every resource at the minimum
    int sharedPerBlockAllocated = 0;         // bytes, after reservation and rounding
    std::string whyZero;                     // when blocksPerSM == 0: which limit one block breaks
    int blockSize = 0, registersPerThread = 0, sharedBytesPerBlock = 0; // the input, for summary()

    // "50% (32 of 64 warps, 4 blocks per SM): limited by registers (64 per thread)";
    // "0%: a block of 1024 threads does not fit on an SM: <whyZero>".
    std::string summary() const;
};

Occupancy theoreticalOccupancy(const OccupancyLimits& limits, const OccupancyInput& input);

// The largest block size (a multiple of the warp size) a kernel with `registersPerThread` can be
// launched with: what cuFuncGetAttribute(MAX_THREADS_PER_BLOCK) reports, without a device.
int maxThreadsPerBlockFor(const OccupancyLimits& limits, int registersPerThread, int launchBound = 0);

// The block size (multiple of the warp size, up to the kernel's maximum and `maxBlockSize` when
// not 0) with the highest occupancy, the largest on ties (fewer blocks):
// cuOccupancyMaxPotentialBlockSize's rule without a device. Dynamic shared memory may grow with the
// block: the input's dynamicSharedBytes + dynamicSharedPerThread * blockSize.
struct BlockSizeSuggestion {
    int blockSize = 0;
    int minGridSize = 0; // blocks that fill every SM at that occupancy
    Occupancy occupancy;
};
BlockSizeSuggestion suggestBlockSize(const OccupancyLimits& limits, const OccupancyInput& inputWithoutBlockSize,
                                     int dynamicSharedPerThread = 0, int maxBlockSize = 0);

} // namespace ks::cuda
