#pragma once
// GL's side of memory that another API (or another process) made: GL_EXT_memory_object_fd imports
// a POSIX descriptor of the allocation as a GL buffer's storage. What made the memory (CUDA's
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

// A GL buffer whose storage is memory imported from a descriptor (GL_HANDLE_TYPE_OPAQUE_FD_EXT).
class ImportedBuffer {
public:
    ImportedBuffer() noexcept = default;
    // `bytes`: the allocation's size as its maker has it. On success GL owns `fd` (it closes it);
    // on failure (ks::Error, Gl) the caller still does and nothing is left behind.
    ImportedBuffer(int fd, std::size_t bytes);
    ~ImportedBuffer();
    ImportedBuffer(ImportedBuffer&& other) noexcept;
    ImportedBuffer& operator=(ImportedBuffer&& other) noexcept;
    ImportedBuffer(const ImportedBuffer&) = delete;
    ImportedBuffer& operator=(const ImportedBuffer&) = delete;

    bool empty() const noexcept { return m_buffer == 0; }
    GLuint buffer() const noexcept { return m_buffer; }
    std::size_t size() const noexcept { return m_bytes; }

private:
    void release() noexcept;

    GLuint m_memory = 0, m_buffer = 0;
    std::size_t m_bytes = 0;
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
