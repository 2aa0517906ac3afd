#include "ks/proc/channel.hpp"

#include <cerrno>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace ks::proc {

namespace {

constexpr char kMagic[4] = {'K', 'S', 'M', '1'};
constexpr std::size_t kHeaderBytes = 12;

std::string systemText(const char* what)
{
    return std::string(what) + ": " + std::strerror(errno);
}

void putU32(unsigned char* p, std::uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        p[i] = static_cast<unsigned char>(v >> (8 * i));
}

std::uint32_t getU32(const unsigned char* p)
{
    return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24;
}

} // namespace

void FdTraits::destroy(int fd) noexcept
{
    ::close(fd);
}

std::vector<int> descriptors(const std::vector<UniqueFd>& fds)
{
    std::vector<int> out;
    for (const UniqueFd& fd : fds)
        out.push_back(fd.get());
    return out;
}

Channel::Channel(UniqueFd socket) : m_socket(std::move(socket)) {}

Channel::Channel(Channel&& other) noexcept : m_socket(std::move(other.m_socket)) {}

Channel& Channel::operator=(Channel&& other) noexcept
{
    m_socket = std::move(other.m_socket);
    return *this;
}

std::pair<Channel, Channel> Channel::pair()
{
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
        throw ChannelError(ChannelError::Kind::System, systemText("socketpair"));
    return {Channel(UniqueFd(fds[0])), Channel(UniqueFd(fds[1]))};
}

void sendRaw(int socket, const void* data, std::size_t bytes)
{
    const char* p = static_cast<const char*>(data);
    while (bytes > 0) {
        const ssize_t n = ::send(socket, p, bytes, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EPIPE || errno == ECONNRESET)
                throw ChannelError(ChannelError::Kind::Closed, "the other process closed the connection");
            throw ChannelError(ChannelError::Kind::System, systemText("send"));
        }
        p += n;
        bytes -= std::size_t(n);
    }
}

void Channel::send(const nlohmann::json& body, const std::vector<int>& fds)
{
    if (!m_socket)
        throw ChannelError(ChannelError::Kind::Closed, "the channel is closed");
    if (fds.size() > kMaxFds)
        throw ChannelError(ChannelError::Kind::TooLarge, "more than 16 file descriptors in one message");
    const std::string text = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (text.size() > kMaxBody)
        throw ChannelError(ChannelError::Kind::TooLarge,
                           "message of " + std::to_string(text.size()) + " bytes is over the 64 MiB limit");
    unsigned char header[kHeaderBytes];
    std::memcpy(header, kMagic, 4);
    putU32(header + 4, std::uint32_t(text.size()));
    putU32(header + 8, std::uint32_t(fds.size()));

    std::lock_guard lock(m_sendMutex);
    iovec iov{header, kHeaderBytes};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)];
    if (!fds.empty()) {
        msg.msg_control = control;
        msg.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
        cmsghdr* c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
        std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
    }
    ssize_t n;
    do
        n = ::sendmsg(m_socket.get(), &msg, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    if (n < 0) {
        if (errno == EPIPE || errno == ECONNRESET)
            throw ChannelError(ChannelError::Kind::Closed, "the other process closed the connection");
        throw ChannelError(ChannelError::Kind::System, systemText("sendmsg"));
    }
    if (std::size_t(n) < kHeaderBytes)
        sendRaw(m_socket.get(), header + n, kHeaderBytes - std::size_t(n));
    sendRaw(m_socket.get(), text.data(), text.size());
}

bool Channel::readExact(void* data, std::size_t n, std::vector<UniqueFd>* fds)
{
    char* p = static_cast<char*>(data);
    std::size_t got = 0;
    while (got < n) {
        iovec iov{p + got, n - got};
        msghdr msg{};
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)];
        if (fds) {
            msg.msg_control = control;
            msg.msg_controllen = sizeof control;
        }
        const ssize_t r = ::recvmsg(m_socket.get(), &msg, MSG_CMSG_CLOEXEC);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            if (errno == ECONNRESET)
                throw ChannelError(ChannelError::Kind::Closed, "the other process closed the connection");
            throw ChannelError(ChannelError::Kind::System, systemText("recvmsg"));
        }
        if (fds) {
            for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
                if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
                    const std::size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
                    for (std::size_t i = 0; i < count; ++i) {
                        int fd;
                        std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
                        fds->emplace_back(fd);
                    }
                }
            fds = nullptr; // descriptors come with the first byte of the header only
        }
        if (r == 0) {
            if (got == 0)
                return false;
            throw ChannelError(ChannelError::Kind::Truncated,
                               "the other process closed the connection in the middle of a message (" +
                                   std::to_string(got) + " of " + std::to_string(n) + " bytes)");
        }
        got += std::size_t(r);
    }
    return true;
}

std::optional<Message> Channel::receive(std::chrono::microseconds timeout)
{
    if (!m_socket)
        throw ChannelError(ChannelError::Kind::Closed, "the channel is closed");
    pollfd p{m_socket.get(), POLLIN, 0};
    const long long us = std::max<long long>(0, timeout.count());
    const timespec wait{time_t(us / 1000000), long(us % 1000000) * 1000};
    int ready;
    do
        ready = ::ppoll(&p, 1, &wait, nullptr);
    while (ready < 0 && errno == EINTR);
    if (ready < 0)
        throw ChannelError(ChannelError::Kind::System, systemText("poll"));
    if (ready == 0)
        return std::nullopt;

    Message message;
    unsigned char header[kHeaderBytes];
    if (!readExact(header, kHeaderBytes, &message.fds))
        throw ChannelError(ChannelError::Kind::Closed, "the other process closed the connection");
    if (std::memcmp(header, kMagic, 4) != 0)
        throw ChannelError(ChannelError::Kind::Malformed, "a message did not start with the protocol's magic bytes");
    const std::uint32_t length = getU32(header + 4);
    const std::uint32_t fdCount = getU32(header + 8);
    if (length > kMaxBody)
        throw ChannelError(ChannelError::Kind::TooLarge,
                           "a message announced " + std::to_string(length) + " bytes, over the 64 MiB limit");
    if (fdCount != message.fds.size())
        throw ChannelError(ChannelError::Kind::Malformed, "a message announced " + std::to_string(fdCount) +
                                                              " file descriptors and carried " +
                                                              std::to_string(message.fds.size()));
    std::string text(length, '\0');
    if (length > 0 && !readExact(text.data(), length, nullptr))
        throw ChannelError(ChannelError::Kind::Truncated, "the other process closed the connection after a header");
    message.body = nlohmann::json::parse(text, nullptr, false);
    if (message.body.is_discarded() || !message.body.is_object())
        throw ChannelError(ChannelError::Kind::Malformed, "a message's body is not a JSON object");
    return message;
}

} // namespace ks::proc
