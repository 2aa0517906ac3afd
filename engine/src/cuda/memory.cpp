#include "ks/cuda/memory.hpp"

#include "ks/core/error.hpp"

#include <cstdio>
#include <utility>

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
        throwError(ErrorDomain::Cuda, "cuMemAlloc", r, std::string(resultName(r)),
                    "cannot allocate " + formatBytes(bytes) + " on the device: " + formatBytes(info.freeBytes) +
                        " free of " + formatBytes(info.totalBytes));
    }
    check(r, "cuMemAlloc");
    m_handle.reset(p);
}

DeviceMemory::DeviceMemory(std::size_t bytes, CUstream stream) : m_size(bytes), m_stream(stream)
{
    if (bytes == 0)
        return;
    CUdeviceptr p = 0;
    CUresult r = driver().cuMemAllocAsync(&p, bytes, stream);
    if (r == CUDA_ERROR_OUT_OF_MEMORY) {
        MemoryInfo info;
        driver().cuMemGetInfo(&info.freeBytes, &info.totalBytes);
        throwError(ErrorDomain::Cuda, "cuMemAllocAsync", r, std::string(resultName(r)),
                    "cannot allocate " + formatBytes(bytes) + " on the device: " + formatBytes(info.freeBytes) +
                        " free of " + formatBytes(info.totalBytes) + " (memory held by the stream-ordered pool "
                        "counts as used)");
    }
    check(r, "cuMemAllocAsync");
    m_handle.reset(p);
}

DeviceMemory::~DeviceMemory()
{
    releaseOrdered();
}

DeviceMemory::DeviceMemory(DeviceMemory&& other) noexcept
    : m_handle(std::move(other.m_handle))
    , m_size(std::exchange(other.m_size, 0))
    , m_stream(std::exchange(other.m_stream, nullptr))
{
}

DeviceMemory& DeviceMemory::operator=(DeviceMemory&& other) noexcept
{
    if (this != &other) {
        releaseOrdered();
        m_handle = std::move(other.m_handle);
        m_size = std::exchange(other.m_size, 0);
        m_stream = std::exchange(other.m_stream, nullptr);
    }
    return *this;
}

void DeviceMemory::releaseOrdered() noexcept
{
    // A stream-ordered allocation goes back to its pool in stream order; a plain one is freed by
    // the handle's traits (cuMemFree).
    if (m_stream && !m_handle.empty())
        KS_CU_NOTHROW(cuMemFreeAsync, m_handle.release(), m_stream);
    m_handle.reset();
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
