#include "ks/cuda/device_info.hpp"

#include "ks/core/error.hpp"

#include <nvrtc.h>

#include <cstdio>

namespace ks::cuda {
namespace {

int attribute(CUdevice dev, CUdevice_attribute attr)
{
    int v = 0;
    KS_CU(cuDeviceGetAttribute, &v, attr, dev);
    return v;
}

} // namespace

double DeviceInfo::peakBandwidthGBs() const
{
    return 2.0 * double(memoryClockKHz) * 1e3 * double(memoryBusWidthBits) / 8.0 / 1e9;
}

std::string versionString(int v)
{
    return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

DeviceLimits queryLimits(CUdevice dev)
{
    DeviceLimits l;
    l.maxThreadsPerBlock = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    l.maxBlockDim = {attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X),
                     attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y),
                     attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)};
    l.maxGridDim = {attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X),
                    attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y),
                    attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)};
    l.maxSharedMemoryPerBlock = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
    l.maxSharedMemoryPerBlockOptin = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    l.maxRegistersPerBlock = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
    l.warpSize = attribute(dev, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
    return l;
}

DeviceInfo queryDevice(int ordinal)
{
    const DriverApi& api = driver();
    CUdevice dev = 0;
    KS_CU(cuDeviceGet, &dev, ordinal);
    DeviceInfo d;
    d.ordinal = ordinal;
    char name[256] = {};
    KS_CU(cuDeviceGetName, name, int(sizeof name), dev);
    d.name = name;
    d.ccMajor = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    d.ccMinor = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    KS_CU(cuDeviceTotalMem, &d.totalMemory, dev);
    d.smCount = attribute(dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    d.clockKHz = attribute(dev, CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
    d.memoryClockKHz = attribute(dev, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
    d.memoryBusWidthBits = attribute(dev, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
    d.l2CacheBytes = attribute(dev, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
    d.maxThreadsPerSM = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
    d.maxBlocksPerSM = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
    d.registersPerSM = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
    d.sharedMemoryPerSM = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
    d.concurrentKernels = attribute(dev, CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS) != 0;
    d.asyncEngines = attribute(dev, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT);
    d.eccEnabled = attribute(dev, CU_DEVICE_ATTRIBUTE_ECC_ENABLED) != 0;
    d.integrated = attribute(dev, CU_DEVICE_ATTRIBUTE_INTEGRATED) != 0;
    d.kernelTimeout = attribute(dev, CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT) != 0;
    d.pciDomain = attribute(dev, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID);
    d.pciBus = attribute(dev, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
    d.pciDevice = attribute(dev, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID);
    char bus[64] = {};
    if (api.cuDeviceGetPCIBusId(bus, int(sizeof bus), dev) == CUDA_SUCCESS)
        d.pciBusId = bus;
    d.limits = queryLimits(dev);

    // Free memory needs a context; read it only if one is current on this device, so that a
    // device-info query never creates a context as a side effect.
    CUcontext current = nullptr;
    CUdevice currentDev = -1;
    if (api.cuCtxGetCurrent(&current) == CUDA_SUCCESS && current && api.cuCtxGetDevice(&currentDev) == CUDA_SUCCESS &&
        currentDev == dev) {
        std::size_t total = 0;
        if (api.cuMemGetInfo(&d.freeMemory, &total) == CUDA_SUCCESS)
            d.freeMemoryKnown = true;
    }
    return d;
}

SystemInfo querySystem()
{
    SystemInfo s;
    s.runtimeVersion = CUDA_VERSION;
    nvrtcVersion(&s.nvrtcMajor, &s.nvrtcMinor);
    const DriverStatus& status = driverStatus();
    s.driverVersion = status.driverVersion;
    if (!status.available) {
        s.unavailableReason = status.reason;
        return s;
    }
    try {
        for (int i = 0; i < status.deviceCount; ++i)
            s.devices.push_back(queryDevice(i));
        s.cudaAvailable = true;
    } catch (const Error& e) {
        s.unavailableReason = e.what();
    }
    return s;
}

std::vector<int> glDeviceOrdinals()
{
    std::vector<int> ordinals;
    if (!driverStatus().available)
        return ordinals;
    unsigned count = 0;
    CUdevice devices[16] = {};
    if (driver().cuGLGetDevices(&count, devices, 16, CU_GL_DEVICE_LIST_ALL) != CUDA_SUCCESS)
        return ordinals;
    for (unsigned i = 0; i < count; ++i) {
        // CUdevice values are ordinals for the driver API.
        ordinals.push_back(int(devices[i]));
    }
    return ordinals;
}

} // namespace ks::cuda
