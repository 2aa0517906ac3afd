#include "ks/proc/output_capture.hpp"

#include "ks/core/error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace ks::proc {

namespace {

[[noreturn]] void fail(const char* call)
{
    const int e = errno;
    throwError(ErrorDomain::System, call, e, "", std::string("capturing device output: ") + std::strerror(e));
}

// Writes all of `data` to `fd`, as far as it goes (a closed terminal is not an error here).
void writeAll(int fd, const char* data, std::size_t size)
{
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        data += n;
        size -= std::size_t(n);
    }
}

} // namespace

OutputCapture::OutputCapture(int fd, std::size_t keep) : m_fd(fd), m_keep(keep)
{
    int ends[2];
    if (::pipe2(ends, O_CLOEXEC) != 0)
        fail("pipe2");
    m_read = UniqueFd(ends[0]);
    UniqueFd write(ends[1]);
    (void)::fcntl(ends[1], F_SETPIPE_SZ, 1 << 20); // fewer wake-ups; the reader keeps up either way
    if (::fcntl(m_read.get(), F_SETFL, O_NONBLOCK) != 0)
        fail("fcntl");
    std::fflush(nullptr); // what the C library holds goes where it was meant to
    m_saved = UniqueFd(::fcntl(fd, F_DUPFD_CLOEXEC, 0));
    if (m_saved.empty())
        fail("fcntl(F_DUPFD_CLOEXEC)");
    if (::dup2(write.get(), fd) < 0)
        fail("dup2");
    m_reader = std::thread([this] { run(); });
}

OutputCapture::~OutputCapture()
{
    std::fflush(nullptr);
    ::dup2(m_saved.get(), m_fd); // closes the pipe's write end held by m_fd
    m_stop = true;
    m_reader.join();
}

void OutputCapture::readAvailable()
{
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(m_read.get(), buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return; // EAGAIN: empty for now; 0: every write end is closed
        writeAll(m_saved.get(), buffer, std::size_t(n));
        m_pending.append(buffer, std::size_t(n));
        if (m_pending.size() > m_keep) {
            const std::size_t over = m_pending.size() - m_keep;
            m_pending.erase(0, over);
            m_dropped += over;
        }
    }
}

void OutputCapture::run()
{
    while (!m_stop) {
        pollfd p{m_read.get(), POLLIN, 0};
        if (::poll(&p, 1, 50) > 0) {
            std::lock_guard lock(m_mutex);
            readAvailable();
        }
    }
}

OutputCapture::Drained OutputCapture::drain()
{
    std::fflush(stdout);
    std::lock_guard lock(m_mutex);
    readAvailable();
    Drained d{std::move(m_pending), m_dropped};
    m_pending.clear();
    m_dropped = 0;
    return d;
}

} // namespace ks::proc
