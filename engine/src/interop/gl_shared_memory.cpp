#include "ks/interop/gl_shared_memory.hpp"

#include "ks/core/error.hpp"
#include "ks/gl/gl.hpp"

#include <utility>

namespace ks::interop {

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

GlSharedBuffer::GlSharedBuffer(std::size_t bytes) : m_cuda(cuda::ExportedMemory::create(bytes))
{
    try {
        const int fd = m_cuda.exportDescriptor();
        glCreateMemoryObjectsEXT(1, &m_memory);
        glImportMemoryFdEXT(m_memory, m_cuda.size(), GL_HANDLE_TYPE_OPAQUE_FD_EXT, fd); // GL owns fd from here
        glCreateBuffers(1, &m_buffer);
        glNamedBufferStorageMemEXT(m_buffer, GLsizeiptr(m_cuda.size()), m_memory, 0);
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
    : m_cuda(std::move(o.m_cuda)), m_memory(std::exchange(o.m_memory, 0)), m_buffer(std::exchange(o.m_buffer, 0))
{
}

GlSharedBuffer& GlSharedBuffer::operator=(GlSharedBuffer&& o) noexcept
{
    if (this != &o) {
        release();
        m_cuda = std::move(o.m_cuda);
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
    m_cuda = cuda::ExportedMemory(); // unmapped and released
    m_buffer = m_memory = 0;
}

} // namespace ks::interop
