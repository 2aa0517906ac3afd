#pragma once
// GL's side of memory that another API (or another process) made: GL_EXT_memory_object_fd imports
// a POSIX descriptor of the allocation as the storage of GL buffers and textures. What made the memory (CUDA's
// cuMemCreate in this process or in another one) and how both sides order their accesses are the
// caller's business: `Fence` is the GL half of that.
//
// Contract: the GL context is current on the calling thread for every call, destruction included.

#include "ks/gl/gl.hpp"

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ks::gl {

// Which device and driver this context runs on, as GL_EXT_memory_object names them (hex). Two
// contexts (in two processes) can share imported memory when they name the same device and the
// same driver. nullopt when the context lacks GL_EXT_memory_object_fd.
struct MemoryIdentity {
    std::vector<std::string> devices; // GL_DEVICE_UUID_EXT, one per device of the context
    std::string driver;               // GL_DRIVER_UUID_EXT
};
std::optional<MemoryIdentity> memoryIdentity();
// Whether memory imported by `a` can be shared with `b`: the same driver and a device in common.
bool sameMemoryDomain(const MemoryIdentity& a, const MemoryIdentity& b);

// Memory imported from a descriptor (GL_HANDLE_TYPE_OPAQUE_FD_EXT) as a GL memory object, owned.
// Buffers (ImportedBuffer) and textures (Texture2D::onMemory) take their storage from it.
class MemoryObject {
public:
    MemoryObject() noexcept = default;
    // `bytes`: the allocation's size as its maker has it. Takes `fd` whatever happens: GL owns it
    // after a successful import, and a failed one (ks::Error, Gl) closes it. `dedicated` marks the
    // memory as made for it alone (GL_DEDICATED_MEMORY_OBJECT_EXT; measured on NVIDIA's driver 580:
    // textures at a non-zero offset are placed right only with it, and drawn into more slowly).
    MemoryObject(int fd, std::size_t bytes, bool dedicated = false);
    ~MemoryObject();
    MemoryObject(MemoryObject&& other) noexcept;
    MemoryObject& operator=(MemoryObject&& other) noexcept;
    MemoryObject(const MemoryObject&) = delete;
    MemoryObject& operator=(const MemoryObject&) = delete;

    bool empty() const noexcept { return m_memory == 0; }
    GLuint name() const noexcept { return m_memory; }
    std::size_t size() const noexcept { return m_bytes; }

private:
    GLuint m_memory = 0;
    std::size_t m_bytes = 0;
};

// A GL buffer whose storage is the whole of a memory object imported from a descriptor.
class ImportedBuffer {
public:
    ImportedBuffer() noexcept = default;
    // Takes `fd` as MemoryObject(fd, bytes) does; throws ks::Error (Gl) with nothing left behind.
    ImportedBuffer(int fd, std::size_t bytes);
    ~ImportedBuffer();
    ImportedBuffer(ImportedBuffer&& other) noexcept;
    ImportedBuffer& operator=(ImportedBuffer&& other) noexcept;
    ImportedBuffer(const ImportedBuffer&) = delete;
    ImportedBuffer& operator=(const ImportedBuffer&) = delete;

    bool empty() const noexcept { return m_buffer == 0; }
    GLuint buffer() const noexcept { return m_buffer; }
    std::size_t size() const noexcept { return m_memory.size(); }

private:
    void release() noexcept;

    MemoryObject m_memory;
    GLuint m_buffer = 0;
};

// A GL fence over the commands issued so far (glFenceSync), owned.
class Fence {
public:
    Fence() noexcept = default;
    // Fences the commands issued so far and flushes them, so that a wait in any thread or process
    // that learns of them sees them finish. Throws ks::Error (Gl).
    static Fence insert();
    ~Fence();
    Fence(Fence&& other) noexcept;
    Fence& operator=(Fence&& other) noexcept;
    Fence(const Fence&) = delete;
    Fence& operator=(const Fence&) = delete;

    bool empty() const noexcept { return m_sync == nullptr; }
    // Whether GL has finished the fenced commands (an empty fence has). Does not wait.
    bool signaled() const;
    // Waits up to `timeout` (microseconds::max(): for good), polling; whether they finished.
    bool wait(std::chrono::microseconds timeout) const;

private:
    GLsync m_sync = nullptr;
};

} // namespace ks::gl
