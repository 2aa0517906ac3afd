#pragma once
// One end of a connection between Kernelscope's processes: the app's supervising shell and the
// worker that owns the CUDA context (docs/architecture.md, "Processes").
//
// A Unix stream socket carries messages framed as a 12-byte header (magic "KSM1", a 32-bit body
// length, a 32-bit count of file descriptors) and a JSON body (nlohmann, schemas in
// ks/proc/messages.hpp). File descriptors travel with the header through SCM_RIGHTS. Each side
// assumes the other can die at any instruction: a closed peer, a truncated message, a wrong magic,
// a body over the limit or a body that is not JSON is a ChannelError whose message says which; the
// channel is unusable afterwards and the caller decides (the shell restarts the worker).
//
// Thread: send() may be called from several threads (it locks); receive() from one thread.

#include "ks/core/unique_handle.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ks::proc {

struct FdTraits {
    using Handle = int;
    static constexpr int empty() noexcept { return -1; }
    static void destroy(int fd) noexcept;
};
// An owned file descriptor.
using UniqueFd = UniqueHandle<FdTraits>;

// The descriptors' numbers (still owned by `fds`): what Channel::send takes.
std::vector<int> descriptors(const std::vector<UniqueFd>& fds);

class ChannelError : public std::runtime_error {
public:
    enum class Kind { Closed, Truncated, Malformed, TooLarge, System };
    ChannelError(Kind kind, std::string message) : std::runtime_error(std::move(message)), m_kind(kind) {}
    Kind kind() const noexcept { return m_kind; }

private:
    Kind m_kind;
};

struct Message {
    nlohmann::json body;
    std::vector<UniqueFd> fds;
    std::string type() const { return body.is_object() && body.contains("type") && body["type"].is_string() ? body["type"].get<std::string>() : std::string(); }
};

class Channel {
public:
    static constexpr std::uint32_t kMaxBody = 64u << 20; // 64 MiB: an editor full of source, never more
    static constexpr std::uint32_t kMaxFds = 16;

    Channel() = default;
    explicit Channel(UniqueFd socket);
    // Two connected ends (socketpair, close-on-exec).
    static std::pair<Channel, Channel> pair();

    Channel(Channel&& other) noexcept;
    Channel& operator=(Channel&& other) noexcept;

    bool open() const noexcept { return bool(m_socket); }
    int fd() const noexcept { return m_socket.get(); }
    // Gives up the socket (to hand it to a child process).
    UniqueFd release() noexcept { return std::move(m_socket); }

    // Sends one message (the fds are duplicated by the kernel; the caller keeps its own).
    // Throws ChannelError (Closed when the peer is gone).
    void send(const nlohmann::json& body, const std::vector<int>& fds = {});
    // Waits up to `timeout` for one message; nullopt when none arrived in time. A message that
    // began arriving is read to its end. Throws ChannelError.
    std::optional<Message> receive(std::chrono::microseconds timeout);

private:
    // Reads exactly n bytes (the first read may take descriptors). false: clean EOF before any byte.
    bool readExact(void* data, std::size_t n, std::vector<UniqueFd>* fds);
    UniqueFd m_socket;
    std::mutex m_sendMutex;
};

// Sends raw bytes on a socket as they are (for tests of malformed and truncated input).
void sendRaw(int socket, const void* data, std::size_t bytes);

} // namespace ks::proc
