#include "ks/interop/gl_shared_memory.hpp"

#include "ks/core/error.hpp"
#include "ks/gl/gl.hpp"

#include <utility>

namespace ks::interop {

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

std::string glSharedMemoryUnsupported()
{
    if (!GLAD_GL_EXT_memory_object || !GLAD_GL_EXT_memory_object_fd)
        return "the GL driver lacks GL_EXT_memory_object_fd";
    if (!cuda::driverStatus().available)
        return cuda::driverStatus().reason;
    const cuda::DriverApi& api = cuda::driver();
    if (!api.cuMemCreate || !api.cuMemExportToShareableHandle || !api.cuMemGetAllocationGranularity)
        return "the CUDA driver lacks cuMemCreate or cuMemExportToShareableHandle";
    return {};
}

GlSharedBuffer::GlSharedBuffer(std::size_t bytes)
{
    const CUmemAllocationProp prop = exportableProperties();
    std::size_t granularity = 0;
    KS_CU(cuMemGetAllocationGranularity, &granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
    granularity = std::max<std::size_t>(granularity, 1);
    m_bytes = (std::max<std::size_t>(bytes, 1) + granularity - 1) / granularity * granularity;
    try {
        KS_CU(cuMemCreate, &m_handle, m_bytes, &prop, 0);
        CUdeviceptr ptr = 0;
        KS_CU(cuMemAddressReserve, &ptr, m_bytes, 0, 0, 0);
        if (const CUresult r = cuda::driver().cuMemMap(ptr, m_bytes, 0, m_handle, 0); r != CUDA_SUCCESS) {
            KS_CU_NOTHROW(cuMemAddressFree, ptr, m_bytes);
            cuda::check(r, "cuMemMap");
        }
        m_ptr = ptr;
        CUmemAccessDesc access{};
        access.location = prop.location;
        access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
        KS_CU(cuMemSetAccess, m_ptr, m_bytes, &access, 1);
        int fd = -1;
        KS_CU(cuMemExportToShareableHandle, &fd, m_handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
        glCreateMemoryObjectsEXT(1, &m_memory);
        glImportMemoryFdEXT(m_memory, m_bytes, GL_HANDLE_TYPE_OPAQUE_FD_EXT, fd); // GL owns fd from here
        glCreateBuffers(1, &m_buffer);
        glNamedBufferStorageMemEXT(m_buffer, GLsizeiptr(m_bytes), m_memory, 0);
        gl::check("importing CUDA memory into GL (GL_EXT_memory_object_fd)");
    } catch (...) {
        release();
        throw;
    }
}

GlSharedBuffer::~GlSharedBuffer()
{
    release();
}

GlSharedBuffer::GlSharedBuffer(GlSharedBuffer&& o) noexcept
    : m_bytes(std::exchange(o.m_bytes, 0)), m_handle(std::exchange(o.m_handle, 0)), m_ptr(std::exchange(o.m_ptr, 0)),
      m_memory(std::exchange(o.m_memory, 0)), m_buffer(std::exchange(o.m_buffer, 0))
{
}

GlSharedBuffer& GlSharedBuffer::operator=(GlSharedBuffer&& o) noexcept
{
    if (this != &o) {
        release();
        m_bytes = std::exchange(o.m_bytes, 0);
        m_handle = std::exchange(o.m_handle, 0);
        m_ptr = std::exchange(o.m_ptr, 0);
        m_memory = std::exchange(o.m_memory, 0);
        m_buffer = std::exchange(o.m_buffer, 0);
    }
    return *this;
}

void GlSharedBuffer::release() noexcept
{
    if (m_buffer || m_memory)
        glFinish(); // GL may still read the memory that CUDA is about to free
    if (m_buffer)
        glDeleteBuffers(1, &m_buffer);
    if (m_memory)
        glDeleteMemoryObjectsEXT(1, &m_memory);
    if (m_ptr) {
        KS_CU_NOTHROW(cuMemUnmap, m_ptr, m_bytes);
        KS_CU_NOTHROW(cuMemAddressFree, m_ptr, m_bytes);
    }
    if (m_handle)
        KS_CU_NOTHROW(cuMemRelease, m_handle);
    m_buffer = m_memory = 0;
    m_ptr = 0;
    m_handle = 0;
    m_bytes = 0;
}

} // namespace ks::interop
