#include "ks/proc/shared_memory.hpp"

#include <cerrno>
#include <cstring>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace ks::proc {

namespace {

[[noreturn]] void fail(const char* what)
{
    throw ChannelError(ChannelError::Kind::System, std::string(what) + ": " + std::strerror(errno));
}

void* mapShared(int fd, std::size_t bytes)
{
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED)
        fail("mmap");
    return p;
}

} // namespace

SharedMemory SharedMemory::create(const std::string& name, std::size_t bytes)
{
    SharedMemory m;
    m.m_fd = UniqueFd(::memfd_create(name.c_str(), MFD_CLOEXEC));
    if (!m.m_fd)
        fail("memfd_create");
    if (::ftruncate(m.m_fd.get(), off_t(bytes)) != 0)
        fail("ftruncate");
    m.m_data = mapShared(m.m_fd.get(), bytes);
    m.m_size = bytes;
    return m;
}

SharedMemory SharedMemory::adopt(UniqueFd fd, std::size_t minBytes)
{
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0)
        fail("fstat");
    if (!S_ISREG(st.st_mode) || st.st_size <= 0 || std::size_t(st.st_size) < minBytes)
        throw ChannelError(ChannelError::Kind::Malformed,
                           "a shared memory region of " + std::to_string(st.st_size) + " bytes was received where " +
                               std::to_string(minBytes) + " were expected");
    SharedMemory m;
    m.m_data = mapShared(fd.get(), std::size_t(st.st_size));
    m.m_size = std::size_t(st.st_size);
    m.m_fd = std::move(fd);
    return m;
}

void SharedMemory::unmap() noexcept
{
    if (m_data)
        ::munmap(m_data, m_size);
    m_data = nullptr;
    m_size = 0;
}

SharedMemory::~SharedMemory()
{
    unmap();
}

SharedMemory::SharedMemory(SharedMemory&& other) noexcept
    : m_fd(std::move(other.m_fd)), m_data(std::exchange(other.m_data, nullptr)), m_size(std::exchange(other.m_size, 0))
{
}

SharedMemory& SharedMemory::operator=(SharedMemory&& other) noexcept
{
    if (this != &other) {
        unmap();
        m_fd = std::move(other.m_fd);
        m_data = std::exchange(other.m_data, nullptr);
        m_size = std::exchange(other.m_size, 0);
    }
    return *this;
}

} // namespace ks::proc
