#pragma once
// What the device panel shows, and what launch validation checks against.

#include "ks/cuda/driver.hpp"

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace ks::cuda {

struct DeviceLimits {
    int maxThreadsPerBlock = 0;
    std::array<int, 3> maxBlockDim{};
    std::array<int, 3> maxGridDim{};
    int maxSharedMemoryPerBlock = 0;      // bytes, without opt-in
    int maxSharedMemoryPerBlockOptin = 0; // bytes, after cuFuncSetAttribute
    int maxRegistersPerBlock = 0;
    int warpSize = 0;
};

struct DeviceInfo {
    int ordinal = -1;
    std::string name;
    int ccMajor = 0, ccMinor = 0;
    std::size_t totalMemory = 0;
    std::size_t freeMemory = 0; // only when a context was current on this device; else 0
    bool freeMemoryKnown = false;
    int smCount = 0;
    int clockKHz = 0;       // SM clock
    int memoryClockKHz = 0;
    int memoryBusWidthBits = 0;
    int l2CacheBytes = 0;
    int maxThreadsPerSM = 0;
    int maxBlocksPerSM = 0;
    int registersPerSM = 0;
    int sharedMemoryPerSM = 0;
    bool concurrentKernels = false;
    int asyncEngines = 0;
    bool eccEnabled = false;
    bool integrated = false;
    bool kernelTimeout = false; // a display watchdog limits kernel run time
    int pciDomain = 0, pciBus = 0, pciDevice = 0;
    std::string pciBusId;
    DeviceLimits limits;
    double peakBandwidthGBs() const; // 2 * memory clock * bus width
    std::string computeCapability() const { return std::to_string(ccMajor) + "." + std::to_string(ccMinor); }
    std::string archName() const { return "sm_" + std::to_string(ccMajor) + std::to_string(ccMinor); }
};

struct SystemInfo {
    bool cudaAvailable = false;
    std::string unavailableReason;
    int driverVersion = 0;  // 13000 = CUDA 13.0
    int runtimeVersion = 0; // the toolkit Kernelscope was built with
    int nvrtcMajor = 0, nvrtcMinor = 0;
    std::vector<DeviceInfo> devices;
};

// Queries every device. Never throws: with no driver or device, cudaAvailable is false and
// unavailableReason says why. Free memory is read for devices whose primary context is active.
SystemInfo querySystem();

// Throws ks::Error when the driver is unavailable or `ordinal` is out of range.
DeviceInfo queryDevice(int ordinal);
DeviceLimits queryLimits(CUdevice device);

// CUDA devices that render the GL context current on the calling thread (cuGLGetDevices).
// Empty when CUDA is unavailable or the GL implementation is not NVIDIA's.
std::vector<int> glDeviceOrdinals();

// "13.0" for 13000.
std::string versionString(int cudaVersion);

} // namespace ks::cuda
