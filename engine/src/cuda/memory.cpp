#include "ks/cuda/memory.hpp"

#include "ks/core/error.hpp"

#include <cstdio>
#include <utility>

namespace ks::cuda {

namespace {

// A copy from pageable host memory returns once the bytes are staged; the DMA may still be running
// on the legacy default stream, which a non-blocking stream does not wait for. Seen: a kernel on
// such a stream reading the old contents past the first 2 MiB of an upload, and a texture read of
// a CUDA array uploaded just before (PyCUDA's test_2d_texture on a busy H200) giving zeros.
// Waiting for that stream makes "copied" mean "on the device".
void waitForStagedCopies()
{
    KS_CU(cuStreamSynchronize, CU_STREAM_LEGACY);
}

} // namespace

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

void copyHostToDevice(CUdeviceptr device, const void* host, std::size_t bytes)
{
    if (bytes == 0)
        return;
    KS_CU(cuMemcpyHtoD, device, host, bytes);
    waitForStagedCopies();
}

void DeviceMemory::upload(const void* host, std::size_t bytes, std::size_t offset)
{
    if (offset + bytes > m_size)
        throwUsage("DeviceMemory::upload", "range " + std::to_string(offset) + "+" + std::to_string(bytes) +
                                               " exceeds the allocation of " + std::to_string(m_size) + " bytes");
    copyHostToDevice(get() + offset, host, bytes);
}

void DeviceMemory::download(void* host, std::size_t bytes, std::size_t offset) const
{
    if (offset + bytes > m_size)
        throwUsage("DeviceMemory::download", "range " + std::to_string(offset) + "+" + std::to_string(bytes) +
                                                 " exceeds the allocation of " + std::to_string(m_size) + " bytes");
    if (bytes)
        KS_CU(cuMemcpyDtoH, host, get() + offset, bytes);
}

std::string hostMemoryFlagsName(HostMemoryFlags flags)
{
    std::string name;
    if (hasFlag(flags, HostMemoryFlags::Portable))
        name = "portable";
    if (hasFlag(flags, HostMemoryFlags::DeviceMapped))
        name += std::string(name.empty() ? "" : " | ") + "device-mapped";
    return name.empty() ? "none" : name;
}

namespace {

unsigned hostAllocFlags(HostMemoryFlags f)
{
    return (hasFlag(f, HostMemoryFlags::Portable) ? unsigned(CU_MEMHOSTALLOC_PORTABLE) : 0u) |
           (hasFlag(f, HostMemoryFlags::DeviceMapped) ? unsigned(CU_MEMHOSTALLOC_DEVICEMAP) : 0u);
}

unsigned hostRegisterFlags(HostMemoryFlags f)
{
    return (hasFlag(f, HostMemoryFlags::Portable) ? unsigned(CU_MEMHOSTREGISTER_PORTABLE) : 0u) |
           (hasFlag(f, HostMemoryFlags::DeviceMapped) ? unsigned(CU_MEMHOSTREGISTER_DEVICEMAP) : 0u);
}

} // namespace

PinnedHostMemory::PinnedHostMemory(std::size_t bytes) : m_size(bytes)
{
    if (bytes == 0)
        return;
    void* p = nullptr;
    KS_CU(cuMemAllocHost, &p, bytes);
    m_handle.reset(p);
}

PinnedHostMemory::PinnedHostMemory(std::size_t bytes, HostMemoryFlags flags) : m_size(bytes), m_flags(flags)
{
    if (bytes == 0)
        return;
    void* p = nullptr;
    KS_CU(cuMemHostAlloc, &p, bytes, hostAllocFlags(flags));
    m_handle.reset(p);
}

CUdeviceptr PinnedHostMemory::devicePointer() const
{
    if (empty())
        throwUsage("cuda::PinnedHostMemory::devicePointer", "empty allocation");
    CUdeviceptr p = 0;
    KS_CU(cuMemHostGetDevicePointer, &p, get(), 0u);
    return p;
}

void RegisteredMemoryTraits::destroy(void* h) noexcept
{
    KS_CU_NOTHROW(cuMemHostUnregister, h);
}

RegisteredHostMemory::RegisteredHostMemory(void* host, std::size_t bytes, HostMemoryFlags flags)
    : m_size(bytes), m_flags(flags)
{
    if (!host || bytes == 0)
        throwUsage("cuda::RegisteredHostMemory",
                   "nothing to register: " + std::string(host ? "0 bytes" : "a null host pointer"));
    KS_CU(cuMemHostRegister, host, bytes, hostRegisterFlags(flags));
    m_handle.reset(host);
}

CUdeviceptr RegisteredHostMemory::devicePointer() const
{
    if (empty())
        throwUsage("cuda::RegisteredHostMemory::devicePointer", "nothing registered");
    if (!hasFlag(m_flags, HostMemoryFlags::DeviceMapped))
        throwUsage("cuda::RegisteredHostMemory::devicePointer",
                   "the memory was registered with flags (" + hostMemoryFlagsName(m_flags) +
                       "); register it with HostMemoryFlags::DeviceMapped for kernels to use it");
    CUdeviceptr p = 0;
    KS_CU(cuMemHostGetDevicePointer, &p, get(), 0u);
    return p;
}

ManagedMemory::ManagedMemory(std::size_t bytes, bool globalAttach) : m_size(bytes)
{
    if (bytes == 0)
        return;
    CUdeviceptr p = 0;
    const CUresult r = entry(driver().cuMemAllocManaged, "cuMemAllocManaged")(
        &p, bytes, globalAttach ? unsigned(CU_MEM_ATTACH_GLOBAL) : unsigned(CU_MEM_ATTACH_HOST));
    if (r == CUDA_ERROR_OUT_OF_MEMORY)
        throwError(ErrorDomain::Cuda, "cuMemAllocManaged", r, std::string(resultName(r)),
                   "cannot allocate " + formatBytes(bytes) + " of managed memory");
    check(r, "cuMemAllocManaged");
    m_handle.reset(p);
}

void ManagedMemory::prefetch(CUdevice target, CUstream stream, const char* function) const
{
    if (empty())
        return;
    CUdevice dev = 0;
    KS_CU(cuCtxGetDevice, &dev);
    int concurrent = 0;
    KS_CU(cuDeviceGetAttribute, &concurrent, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, dev);
    if (!concurrent)
        throwUsage(function, "this device has no concurrent managed access, so managed memory cannot be "
                             "prefetched; the driver migrates it at launch and synchronisation instead");
#if CUDA_VERSION >= 13000
    // CUDA 13's cuMemPrefetchAsync takes a location (and flags) instead of a device.
    CUmemLocation where{};
    where.type = target == CU_DEVICE_CPU ? CU_MEM_LOCATION_TYPE_HOST : CU_MEM_LOCATION_TYPE_DEVICE;
    where.id = target == CU_DEVICE_CPU ? 0 : int(target);
    KS_CU(cuMemPrefetchAsync, get(), m_size, where, 0u, stream);
#else
    KS_CU(cuMemPrefetchAsync, get(), m_size, target, stream);
#endif
}

void ManagedMemory::prefetchToDevice(int ordinal, CUstream stream) const
{
    CUdevice dev = 0;
    KS_CU(cuDeviceGet, &dev, ordinal);
    prefetch(dev, stream, "cuda::ManagedMemory::prefetchToDevice");
}

void ManagedMemory::prefetchToHost(CUstream stream) const
{
    prefetch(CU_DEVICE_CPU, stream, "cuda::ManagedMemory::prefetchToHost");
}

// ---- 2-D copies and fills -------------------------------------------------------------------

namespace {

bool isNull(const CopyEnd2D& e)
{
    switch (e.type) {
    case CU_MEMORYTYPE_HOST:
        return e.host == nullptr;
    case CU_MEMORYTYPE_DEVICE:
        return e.device == 0;
    case CU_MEMORYTYPE_ARRAY:
        return e.array == nullptr;
    default:
        return true;
    }
}

CUDA_MEMCPY2D describe(const CopyEnd2D& to, const CopyEnd2D& from, std::size_t widthBytes, std::size_t height)
{
    CUDA_MEMCPY2D c{};
    c.srcMemoryType = from.type;
    c.srcHost = from.host;
    c.srcDevice = from.device;
    c.srcArray = from.array;
    c.srcPitch = from.pitch;
    c.dstMemoryType = to.type;
    c.dstHost = const_cast<void*>(to.host);
    c.dstDevice = to.device;
    c.dstArray = to.array;
    c.dstPitch = to.pitch;
    c.WidthInBytes = widthBytes;
    c.Height = height;
    return c;
}

} // namespace

std::optional<std::string> copy2DRefusal(const CopyEnd2D& to, const CopyEnd2D& from, std::size_t widthBytes,
                                         std::size_t height)
{
    if (isNull(from))
        return std::string("the source of the 2-D copy is null");
    if (isNull(to))
        return std::string("the destination of the 2-D copy is null");
    for (const CopyEnd2D* e : {&from, &to})
        if (e->type != CU_MEMORYTYPE_ARRAY && height > 1 && widthBytes > e->pitch)
            return "a row of " + std::to_string(widthBytes) + " bytes is wider than the " +
                   (e == &from ? "source" : "destination") + "'s pitch of " + std::to_string(e->pitch) + " bytes";
    return std::nullopt;
}

void copy2D(const CopyEnd2D& to, const CopyEnd2D& from, std::size_t widthBytes, std::size_t height)
{
    if (widthBytes == 0 || height == 0)
        return;
    if (auto why = copy2DRefusal(to, from, widthBytes, height))
        throwUsage("cuda::copy2D", *why);
    const CUDA_MEMCPY2D c = describe(to, from, widthBytes, height);
    KS_CU(cuMemcpy2D, &c);
    if (from.type == CU_MEMORYTYPE_HOST && to.type != CU_MEMORYTYPE_HOST)
        waitForStagedCopies();
}

void copy2DAsync(const CopyEnd2D& to, const CopyEnd2D& from, std::size_t widthBytes, std::size_t height,
                 CUstream stream)
{
    if (widthBytes == 0 || height == 0)
        return;
    if (auto why = copy2DRefusal(to, from, widthBytes, height))
        throwUsage("cuda::copy2DAsync", *why);
    const CUDA_MEMCPY2D c = describe(to, from, widthBytes, height);
    KS_CU(cuMemcpy2DAsync, &c, stream);
}

std::optional<std::string> memset2DRefusal(CUdeviceptr device, std::size_t pitch, unsigned elementBytes,
                                           std::size_t width, std::size_t height)
{
    if (elementBytes != 1 && elementBytes != 2 && elementBytes != 4)
        return "a 2-D fill sets elements of 1, 2 or 4 bytes, not " + std::to_string(elementBytes);
    if (width == 0 || height == 0)
        return std::nullopt;
    if (device == 0)
        return std::string("the 2-D fill's destination is null");
    if (height > 1 && width * elementBytes > pitch)
        return "a row of " + std::to_string(width) + " elements of " + std::to_string(elementBytes) +
               " bytes is wider than the pitch of " + std::to_string(pitch) + " bytes";
    if (device % elementBytes != 0 || pitch % elementBytes != 0)
        return "a 2-D fill of " + std::to_string(elementBytes) + "-byte elements needs the address and the pitch (" +
               std::to_string(pitch) + " bytes) aligned to " + std::to_string(elementBytes) + " bytes";
    return std::nullopt;
}

void memset2D(CUdeviceptr device, std::size_t pitch, std::uint8_t value, std::size_t width, std::size_t height)
{
    if (auto why = memset2DRefusal(device, pitch, 1, width, height))
        throwUsage("cuda::memset2D", *why);
    if (width && height)
        KS_CU(cuMemsetD2D8, device, pitch, value, width, height);
}

void memset2D(CUdeviceptr device, std::size_t pitch, std::uint16_t value, std::size_t width, std::size_t height)
{
    if (auto why = memset2DRefusal(device, pitch, 2, width, height))
        throwUsage("cuda::memset2D", *why);
    if (width && height)
        KS_CU(cuMemsetD2D16, device, pitch, value, width, height);
}

void memset2D(CUdeviceptr device, std::size_t pitch, std::uint32_t value, std::size_t width, std::size_t height)
{
    if (auto why = memset2DRefusal(device, pitch, 4, width, height))
        throwUsage("cuda::memset2D", *why);
    if (width && height)
        KS_CU(cuMemsetD2D32, device, pitch, value, width, height);
}

PitchedDeviceMemory::PitchedDeviceMemory(std::size_t widthBytes, std::size_t height, unsigned elementBytes)
    : m_widthBytes(widthBytes), m_height(height)
{
    if (elementBytes != 4 && elementBytes != 8 && elementBytes != 16)
        throwUsage("cuda::PitchedDeviceMemory",
                   "element size " + std::to_string(elementBytes) + ": the driver aligns rows for 4, 8 or 16 bytes");
    if (widthBytes == 0 || height == 0)
        return;
    CUdeviceptr p = 0;
    const CUresult r = driver().cuMemAllocPitch(&p, &m_pitch, widthBytes, height, elementBytes);
    if (r == CUDA_ERROR_OUT_OF_MEMORY) {
        MemoryInfo info;
        driver().cuMemGetInfo(&info.freeBytes, &info.totalBytes);
        throwError(ErrorDomain::Cuda, "cuMemAllocPitch", r, std::string(resultName(r)),
                   "cannot allocate " + std::to_string(height) + " rows of " + formatBytes(widthBytes) +
                       " on the device: " + formatBytes(info.freeBytes) + " free of " + formatBytes(info.totalBytes));
    }
    check(r, "cuMemAllocPitch");
    m_handle.reset(p);
}

void PitchedDeviceMemory::upload(const void* host, std::size_t hostPitch)
{
    copy2D(CopyEnd2D::deviceMemory(get(), m_pitch), CopyEnd2D::hostMemory(host, hostPitch ? hostPitch : m_widthBytes),
           m_widthBytes, m_height);
}

void PitchedDeviceMemory::download(void* host, std::size_t hostPitch) const
{
    copy2D(CopyEnd2D::hostMemory(host, hostPitch ? hostPitch : m_widthBytes), CopyEnd2D::deviceMemory(get(), m_pitch),
           m_widthBytes, m_height);
}

void PitchedDeviceMemory::checkRegion(std::size_t elementBytes, std::size_t column, std::size_t row,
                                      std::size_t columns, std::size_t rows) const
{
    if ((column + columns) * elementBytes > m_widthBytes || row + rows > m_height)
        throwUsage("cuda::PitchedDeviceMemory::fill",
                   "region of " + std::to_string(columns) + " x " + std::to_string(rows) + " elements of " +
                       std::to_string(elementBytes) + " bytes at (" + std::to_string(column) + ", " +
                       std::to_string(row) + ") exceeds the extent of " + std::to_string(m_widthBytes) + " bytes x " +
                       std::to_string(m_height) + " rows");
}

// ---- The stream-ordered pool ----------------------------------------------------------------

MemoryPool MemoryPool::deviceDefault(int ordinal)
{
    CUdevice dev = 0;
    KS_CU(cuDeviceGet, &dev, ordinal);
    int supported = 0;
    KS_CU(cuDeviceGetAttribute, &supported, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, dev);
    if (!supported)
        throwUsage("cuda::MemoryPool::deviceDefault",
                   "device " + std::to_string(ordinal) + " has no stream-ordered memory pools");
    CUmemoryPool pool = nullptr;
    KS_CU(cuDeviceGetDefaultMemPool, &pool, dev);
    return MemoryPool(pool);
}

MemoryPool MemoryPool::current()
{
    CUdevice dev = 0;
    KS_CU(cuCtxGetDevice, &dev);
    return deviceDefault(int(dev));
}

MemoryPoolStats MemoryPool::stats() const
{
    auto read = [&](CUmemPool_attribute attr) {
        cuuint64_t v = 0;
        KS_CU(cuMemPoolGetAttribute, m_pool, attr, &v);
        return std::uint64_t(v);
    };
    MemoryPoolStats s;
    s.reservedBytes = read(CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT);
    s.reservedHighBytes = read(CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH);
    s.usedBytes = read(CU_MEMPOOL_ATTR_USED_MEM_CURRENT);
    s.usedHighBytes = read(CU_MEMPOOL_ATTR_USED_MEM_HIGH);
    return s;
}

void MemoryPool::freeHeld(std::size_t keepBytes) const
{
    KS_CU(cuMemPoolTrimTo, m_pool, keepBytes);
}

void MemoryPool::resetHighWater() const
{
    // The driver accepts only 0 for the high-water attributes: they restart from the current value.
    cuuint64_t zero = 0;
    KS_CU(cuMemPoolSetAttribute, m_pool, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, &zero);
    KS_CU(cuMemPoolSetAttribute, m_pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &zero);
}

void MemoryPool::setReleaseThreshold(std::uint64_t bytes) const
{
    cuuint64_t v = bytes;
    KS_CU(cuMemPoolSetAttribute, m_pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &v);
}

} // namespace ks::cuda
