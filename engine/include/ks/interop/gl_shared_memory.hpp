#pragma once
// Device memory CUDA allocates and GL uses as a buffer's storage, with no registration and no
// map/unmap: CUDA exports the allocation (cuMemCreate with a POSIX file descriptor) and GL imports
// it (GL_EXT_memory_object_fd). Nothing orders the two APIs' accesses: the owner must (for
// example a CUDA event the host waits for before GL reads, and a GL fence the host waits for
// before CUDA writes again).
//
// Contract: the GL context and the CUDA context on the GPU rendering GL are current on the calling
// thread for construction and destruction. Destruction waits for GL to finish with the buffer.
//
// ks::interop holds what needs both CUDA and GL (this and graphics_resource.hpp), so that ks::cuda
// never includes ks::gl.

#include "ks/cuda/exported_memory.hpp"
#include "ks/gl/memory_object.hpp"

#include <cstddef>
#include <string>

namespace ks::interop {

// Empty when this GL context and CUDA driver can share memory; otherwise why not.
std::string glSharedMemoryUnsupported();

class GlSharedBuffer {
public:
    GlSharedBuffer() noexcept = default;
    // At least `bytes` (rounded up to the allocation granularity). Throws ks::Error (Cuda, or Gl
    // when the import fails) with nothing left allocated.
    explicit GlSharedBuffer(std::size_t bytes);
    ~GlSharedBuffer();
    GlSharedBuffer(GlSharedBuffer&& other) noexcept;
    GlSharedBuffer& operator=(GlSharedBuffer&& other) noexcept;
    GlSharedBuffer(const GlSharedBuffer&) = delete;
    GlSharedBuffer& operator=(const GlSharedBuffer&) = delete;

    bool empty() const noexcept { return m_cuda.empty(); }
    CUdeviceptr pointer() const noexcept { return m_cuda.pointer(); }
    GLuint buffer() const noexcept { return m_gl.buffer(); }
    std::size_t size() const noexcept { return m_cuda.size(); }
    // A new descriptor of the memory (for another process's GL or CUDA); the caller owns it.
    int exportDescriptor() const { return m_cuda.exportDescriptor(); }

private:
    void release() noexcept;

    cuda::ExportedMemory m_cuda;
    gl::ImportedBuffer m_gl;
};

// The same memory as a GL memory object, for textures (gl::Texture2D::onMemory); the owner keeps every
// texture on it alive no longer than this.
class GlSharedMemory {
public:
    GlSharedMemory() noexcept = default;
    // At least `bytes` (rounded up to the allocation granularity). Throws ks::Error (Cuda, or Gl
    // when the import fails) with nothing left allocated.
    explicit GlSharedMemory(std::size_t bytes);
    ~GlSharedMemory();
    GlSharedMemory(GlSharedMemory&& other) noexcept;
    GlSharedMemory& operator=(GlSharedMemory&& other) noexcept;
    GlSharedMemory(const GlSharedMemory&) = delete;
    GlSharedMemory& operator=(const GlSharedMemory&) = delete;

    bool empty() const noexcept { return m_cuda.empty(); }
    GLuint memoryObject() const noexcept { return m_gl.name(); }
    std::size_t size() const noexcept { return m_cuda.size(); }
    int exportDescriptor() const { return m_cuda.exportDescriptor(); }

private:
    void release() noexcept;

    cuda::ExportedMemory m_cuda;
    gl::MemoryObject m_gl;
};

} // namespace ks::interop
