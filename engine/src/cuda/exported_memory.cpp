#include "ks/cuda/exported_memory.hpp"

#include "ks/core/error.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace ks::cuda {

CUmemAllocationProp exportableProperties()
{
    CUdevice device = 0;
    KS_CU(cuCtxGetDevice, &device);
    CUmemAllocationProp prop{};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = int(device);
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    return prop;
}

namespace {

// `bytes` rounded up to the allocation granularity of `prop`: what cuMemCreate and the address
// range of a mapping take.
std::size_t rounded(std::size_t bytes, const CUmemAllocationProp& prop)
{
    std::size_t granularity = 0;
    KS_CU(cuMemGetAllocationGranularity, &granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
    granularity = std::max<std::size_t>(granularity, 1);
    return (std::max<std::size_t>(bytes, 1) + granularity - 1) / granularity * granularity;
}

} // namespace

ExportedMemory ExportedMemory::create(std::size_t bytes)
{
    const CUmemAllocationProp prop = exportableProperties();
    ExportedMemory m;
    m.m_bytes = rounded(bytes, prop);
    KS_CU(cuMemCreate, &m.m_handle, m.m_bytes, &prop, 0);
    m.mapHandle(); // m releases the handle if this throws
    return m;
}

ExportedMemory ExportedMemory::import(int fd, std::size_t bytes)
{
    ExportedMemory m;
    m.m_bytes = rounded(bytes, exportableProperties()); // as create() allocated it
    KS_CU(cuMemImportFromShareableHandle, &m.m_handle, reinterpret_cast<void*>(static_cast<std::intptr_t>(fd)),
          CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    m.mapHandle();
    return m;
}

void ExportedMemory::mapHandle()
{
    CUdeviceptr ptr = 0;
    KS_CU(cuMemAddressReserve, &ptr, m_bytes, 0, 0, 0);
    if (const CUresult r = driver().cuMemMap(ptr, m_bytes, 0, m_handle, 0); r != CUDA_SUCCESS) {
        KS_CU_NOTHROW(cuMemAddressFree, ptr, m_bytes);
        check(r, "cuMemMap");
    }
    m_ptr = ptr;
    CUdevice device = 0;
    KS_CU(cuCtxGetDevice, &device);
    CUmemAccessDesc access{};
    access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    access.location.id = int(device);
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    KS_CU(cuMemSetAccess, m_ptr, m_bytes, &access, 1);
}

int ExportedMemory::exportDescriptor() const
{
    int fd = -1;
    KS_CU(cuMemExportToShareableHandle, &fd, m_handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
    return fd;
}

ExportedMemory::~ExportedMemory()
{
    release();
}

ExportedMemory::ExportedMemory(ExportedMemory&& o) noexcept
    : m_bytes(std::exchange(o.m_bytes, 0)), m_handle(std::exchange(o.m_handle, 0)), m_ptr(std::exchange(o.m_ptr, 0))
{
}

ExportedMemory& ExportedMemory::operator=(ExportedMemory&& o) noexcept
{
    if (this != &o) {
        release();
        m_bytes = std::exchange(o.m_bytes, 0);
        m_handle = std::exchange(o.m_handle, 0);
        m_ptr = std::exchange(o.m_ptr, 0);
    }
    return *this;
}

void ExportedMemory::release() noexcept
{
    if (m_ptr) {
        KS_CU_NOTHROW(cuMemUnmap, m_ptr, m_bytes);
        KS_CU_NOTHROW(cuMemAddressFree, m_ptr, m_bytes);
    }
    if (m_handle)
        KS_CU_NOTHROW(cuMemRelease, m_handle);
    m_ptr = 0;
    m_handle = 0;
    m_bytes = 0;
}

} // namespace ks::cuda
