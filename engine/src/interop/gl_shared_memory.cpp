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
        m_gl = gl::ImportedBuffer(m_cuda.exportDescriptor(), m_cuda.size()); // takes the descriptor
    } catch (...) {
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

GlSharedMemory::GlSharedMemory(std::size_t bytes) : m_cuda(cuda::ExportedMemory::create(bytes))
{
    try {
        m_gl = gl::MemoryObject(m_cuda.exportDescriptor(), m_cuda.size()); // takes the descriptor
    } catch (...) {
        release();
        throw;
    }
}

GlSharedMemory::~GlSharedMemory()
{
    release();
}

GlSharedMemory::GlSharedMemory(GlSharedMemory&& o) noexcept : m_cuda(std::move(o.m_cuda)), m_gl(std::move(o.m_gl)) {}

GlSharedMemory& GlSharedMemory::operator=(GlSharedMemory&& o) noexcept
{
    if (this != &o) {
        release();
        m_cuda = std::move(o.m_cuda);
        m_gl = std::move(o.m_gl);
    }
    return *this;
}

void GlSharedMemory::release() noexcept
{
    if (!m_gl.empty())
        glFinish(); // GL may still use the memory that CUDA is about to free
    m_gl = gl::MemoryObject();
    m_cuda = cuda::ExportedMemory();
}

} // namespace ks::interop
