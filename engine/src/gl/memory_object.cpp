#include "ks/gl/memory_object.hpp"

#include "ks/core/error.hpp"

#include <algorithm>
#include <thread>
#include <unistd.h>
#include <utility>

namespace ks::gl {

namespace {

std::string hex(const GLubyte* bytes, int n)
{
    static const char digits[] = "0123456789abcdef";
    std::string s;
    for (int i = 0; i < n; ++i) {
        s += digits[bytes[i] >> 4];
        s += digits[bytes[i] & 15];
    }
    return s;
}

} // namespace

std::optional<MemoryIdentity> memoryIdentity()
{
    if (!GLAD_GL_EXT_memory_object || !GLAD_GL_EXT_memory_object_fd)
        return std::nullopt;
    MemoryIdentity id;
    GLubyte uuid[GL_UUID_SIZE_EXT] = {};
    glGetUnsignedBytevEXT(GL_DRIVER_UUID_EXT, uuid);
    id.driver = hex(uuid, GL_UUID_SIZE_EXT);
    GLint n = 0;
    glGetIntegerv(GL_NUM_DEVICE_UUIDS_EXT, &n);
    for (GLint i = 0; i < n; ++i) {
        glGetUnsignedBytei_vEXT(GL_DEVICE_UUID_EXT, GLuint(i), uuid);
        id.devices.push_back(hex(uuid, GL_UUID_SIZE_EXT));
    }
    if (glGetError() != GL_NO_ERROR || id.devices.empty())
        return std::nullopt;
    return id;
}

bool sameMemoryDomain(const MemoryIdentity& a, const MemoryIdentity& b)
{
    if (a.driver != b.driver)
        return false;
    return std::any_of(a.devices.begin(), a.devices.end(), [&](const std::string& d) {
        return std::find(b.devices.begin(), b.devices.end(), d) != b.devices.end();
    });
}

MemoryObject::MemoryObject(int fd, std::size_t bytes, bool dedicated)
{
    if (!GLAD_GL_EXT_memory_object || !GLAD_GL_EXT_memory_object_fd) {
        ::close(fd);
        throw Error(ErrorDomain::Gl, "glImportMemoryFdEXT", 0, "", "the GL driver lacks GL_EXT_memory_object_fd");
    }
    clearErrors();
    GLuint memory = 0;
    glCreateMemoryObjectsEXT(1, &memory);
    if (dedicated) {
        const GLint one = GL_TRUE;
        glMemoryObjectParameterivEXT(memory, GL_DEDICATED_MEMORY_OBJECT_EXT, &one);
    }
    glImportMemoryFdEXT(memory, GLuint64(bytes), GL_HANDLE_TYPE_OPAQUE_FD_EXT, fd);
    if (const GLenum e = glGetError(); e != GL_NO_ERROR) {
        // A failed import leaves `fd` open: it is ours to close.
        glDeleteMemoryObjectsEXT(1, &memory);
        ::close(fd);
        throw Error(ErrorDomain::Gl, "glImportMemoryFdEXT", int(e), errorName(e),
                    "GL could not import the memory (" + std::to_string(bytes) + " bytes)");
    }
    m_memory = memory;
    m_bytes = bytes;
}

MemoryObject::~MemoryObject()
{
    if (m_memory)
        glDeleteMemoryObjectsEXT(1, &m_memory);
}

MemoryObject::MemoryObject(MemoryObject&& o) noexcept
    : m_memory(std::exchange(o.m_memory, 0)), m_bytes(std::exchange(o.m_bytes, 0))
{
}

MemoryObject& MemoryObject::operator=(MemoryObject&& o) noexcept
{
    if (this != &o) {
        if (m_memory)
            glDeleteMemoryObjectsEXT(1, &m_memory);
        m_memory = std::exchange(o.m_memory, 0);
        m_bytes = std::exchange(o.m_bytes, 0);
    }
    return *this;
}

ImportedBuffer::ImportedBuffer(int fd, std::size_t bytes) : m_memory(fd, bytes)
{
    try {
        glCreateBuffers(1, &m_buffer);
        glNamedBufferStorageMemEXT(m_buffer, GLsizeiptr(bytes), m_memory.name(), 0);
        check("glNamedBufferStorageMemEXT (a buffer on imported memory)");
    } catch (...) {
        release();
        throw;
    }
}

ImportedBuffer::~ImportedBuffer()
{
    release();
}

ImportedBuffer::ImportedBuffer(ImportedBuffer&& o) noexcept
    : m_memory(std::move(o.m_memory)), m_buffer(std::exchange(o.m_buffer, 0))
{
}

ImportedBuffer& ImportedBuffer::operator=(ImportedBuffer&& o) noexcept
{
    if (this != &o) {
        release();
        m_memory = std::move(o.m_memory);
        m_buffer = std::exchange(o.m_buffer, 0);
    }
    return *this;
}

void ImportedBuffer::release() noexcept
{
    if (m_buffer)
        glDeleteBuffers(1, &m_buffer);
    m_buffer = 0;
    m_memory = MemoryObject();
}

Fence Fence::insert()
{
    Fence f;
    f.m_sync = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    if (!f.m_sync)
        throw Error(ErrorDomain::Gl, "glFenceSync", int(glGetError()), "", "could not create a fence");
    glFlush();
    return f;
}

Fence::~Fence()
{
    if (m_sync)
        glDeleteSync(m_sync);
}

Fence::Fence(Fence&& o) noexcept : m_sync(std::exchange(o.m_sync, nullptr)) {}

Fence& Fence::operator=(Fence&& o) noexcept
{
    if (this != &o) {
        if (m_sync)
            glDeleteSync(m_sync);
        m_sync = std::exchange(o.m_sync, nullptr);
    }
    return *this;
}

bool Fence::signaled() const
{
    if (!m_sync)
        return true;
    const GLenum r = glClientWaitSync(m_sync, 0, 0);
    if (r == GL_WAIT_FAILED)
        throw Error(ErrorDomain::Gl, "glClientWaitSync", int(glGetError()), "GL_WAIT_FAILED", "waiting for GL failed");
    return r != GL_TIMEOUT_EXPIRED;
}

bool Fence::wait(std::chrono::microseconds timeout) const
{
    // Polled rather than one blocking glClientWaitSync: some drivers sleep in it for a scheduler
    // tick or more after the GPU has finished.
    const bool forever = timeout == std::chrono::microseconds::max();
    const auto until = std::chrono::steady_clock::now() + (forever ? std::chrono::microseconds(0) : timeout);
    for (int spins = 0;; ++spins) {
        if (signaled())
            return true;
        if (!forever && std::chrono::steady_clock::now() >= until)
            return false;
        if (spins > 100)
            std::this_thread::sleep_for(std::chrono::microseconds(50));
        else
            std::this_thread::yield();
    }
}

} // namespace ks::gl
