#include "ks/cuda/memory.hpp"

#include "ks/core/error.hpp"

#include <cstdio>

namespace ks::cuda {

void DeviceMemoryTraits::destroy(CUdeviceptr h) noexcept
{
    KS_CU_NOTHROW(cuMemFree, h);
}

void PinnedMemoryTraits::destroy(void* h) noexcept
{
    KS_CU_NOTHROW(cuMemFreeHost, h);
}

std::string formatBytes(std::size_t bytes)
{
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = double(bytes);
    int u = 0;
    while (v >= 1024.0 && u < 4) {
        v /= 1024.0;
        ++u;
    }
    char buf[32];
    if (u == 0)
        std::snprintf(buf, sizeof buf, "%zu B", bytes);
    else
        std::snprintf(buf, sizeof buf, "%.2f %s", v, units[u]);
    return buf;
}

MemoryInfo memoryInfo()
{
    MemoryInfo info;
    KS_CU(cuMemGetInfo, &info.freeBytes, &info.totalBytes);
    return info;
}

DeviceMemory::DeviceMemory(std::size_t bytes) : m_size(bytes)
{
    if (bytes == 0)
        return;
    CUdeviceptr p = 0;
    CUresult r = driver().cuMemAlloc(&p, bytes);
    if (r == CUDA_ERROR_OUT_OF_MEMORY) {
        MemoryInfo info;
        driver().cuMemGetInfo(&info.freeBytes, &info.totalBytes);
        throw Error(ErrorDomain::Cuda, "cuMemAlloc", r, resultName(r),
                    "cannot allocate " + formatBytes(bytes) + " on the device: " + formatBytes(info.freeBytes) +
                        " free of " + formatBytes(info.totalBytes));
    }
    check(r, "cuMemAlloc");
    m_handle.reset(p);
}

void DeviceMemory::upload(const void* host, std::size_t bytes, std::size_t offset)
{
    if (offset + bytes > m_size)
        throwUsage("DeviceMemory::upload", "range " + std::to_string(offset) + "+" + std::to_string(bytes) +
                                               " exceeds the allocation of " + std::to_string(m_size) + " bytes");
    if (bytes)
        KS_CU(cuMemcpyHtoD, get() + offset, host, bytes);
}

void DeviceMemory::download(void* host, std::size_t bytes, std::size_t offset) const
{
    if (offset + bytes > m_size)
        throwUsage("DeviceMemory::download", "range " + std::to_string(offset) + "+" + std::to_string(bytes) +
                                                 " exceeds the allocation of " + std::to_string(m_size) + " bytes");
    if (bytes)
        KS_CU(cuMemcpyDtoH, host, get() + offset, bytes);
}

PinnedHostMemory::PinnedHostMemory(std::size_t bytes) : m_size(bytes)
{
    if (bytes == 0)
        return;
    void* p = nullptr;
    KS_CU(cuMemAllocHost, &p, bytes);
    m_handle.reset(p);
}

} // namespace ks::cuda
