#pragma once
// Memory two processes map: an anonymous file (memfd) mapped shared, its descriptor passed over a
// Channel. It lives as long as any process holds the descriptor or a mapping, so what the worker
// wrote survives the worker: the shell keeps frames and saved resource contents across a crash.

#include "ks/proc/channel.hpp"

#include <cstddef>
#include <string>

namespace ks::proc {

class SharedMemory {
public:
    SharedMemory() = default;
    // A new zero-filled region of `bytes` (> 0). Throws ChannelError (System).
    static SharedMemory create(const std::string& name, std::size_t bytes);
    // Maps a region received from another process. Throws ChannelError (System), or (Malformed)
    // when the descriptor is not a region of at least `minBytes`.
    static SharedMemory adopt(UniqueFd fd, std::size_t minBytes = 0);
    ~SharedMemory();
    SharedMemory(SharedMemory&& other) noexcept;
    SharedMemory& operator=(SharedMemory&& other) noexcept;
    SharedMemory(const SharedMemory&) = delete;
    SharedMemory& operator=(const SharedMemory&) = delete;

    void* data() const noexcept { return m_data; }
    std::size_t size() const noexcept { return m_size; }
    int fd() const noexcept { return m_fd.get(); }
    bool valid() const noexcept { return m_data != nullptr; }

private:
    void unmap() noexcept;
    UniqueFd m_fd;
    void* m_data = nullptr;
    std::size_t m_size = 0;
};

} // namespace ks::proc
