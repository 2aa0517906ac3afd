#include "ks/interop/gl_shared_memory.hpp"

#include "ks/core/error.hpp"
#include "ks/gl/gl.hpp"

#include <unistd.h>
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
    const int fd = m_cuda.exportDescriptor();
    try {
        m_gl = gl::ImportedBuffer(fd, m_cuda.size()); // GL owns fd from here
    } catch (...) {
        ::close(fd);
        release();
        throw;
    }
}

GlSharedBuffer::~GlSharedBuffer()
{
    release();
}

GlSharedBuffer::GlSharedBuffer(GlSharedBuffer&& o) noexcept : m_cuda(std::move(o.m_cuda)), m_gl(std::move(o.m_gl)) {}

GlSharedBuffer& GlSharedBuffer::operator=(GlSharedBuffer&& o) noexcept
{
    if (this != &o) {
        release();
        m_cuda = std::move(o.m_cuda);
        m_gl = std::move(o.m_gl);
    }
    return *this;
}

void GlSharedBuffer::release() noexcept
{
    if (!m_gl.empty())
        glFinish(); // GL may still read the memory that CUDA is about to free
    m_gl = gl::ImportedBuffer();
    m_cuda = cuda::ExportedMemory(); // unmapped and released
}

} // namespace ks::interop
