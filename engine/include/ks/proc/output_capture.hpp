#pragma once
// What this process writes to one of its file descriptors, captured through a pipe so that the app
// can show it: CUDA's device printf goes to standard output, written by the driver when it flushes
// its printf buffer (at a kernel launch, a synchronisation, a module load). Everything captured is
// also written on to where the descriptor pointed before, so a terminal still shows it.
//
// A reader thread empties the pipe as it fills: a kernel printing from every thread writes up to
// the whole printf buffer (1 MiB by default) in one flush, more than a pipe holds, and a full pipe
// would block the driver inside a CUDA call. What the thread reads waits in memory up to `keep`
// bytes; past that the oldest is dropped and counted.
//
// Thread: drain() from any thread (it locks); the constructor and destructor from one.

#include "ks/proc/channel.hpp"

#include <atomic>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>

namespace ks::proc {

class OutputCapture {
public:
    // Redirects `fd` (default: standard output) into the capture. Throws ks::Error (System) when a
    // pipe or a duplicate cannot be made; `fd` is then unchanged.
    explicit OutputCapture(int fd = 1, std::size_t keep = std::size_t(4) << 20);
    ~OutputCapture(); // `fd` points where it did before; what was not drained is lost
    OutputCapture(const OutputCapture&) = delete;
    OutputCapture& operator=(const OutputCapture&) = delete;

    // Everything written since the last drain, in order. Reads the pipe first, so that what was
    // written before this call (by a CUDA call that returned) is in it.
    struct Drained {
        std::string text;
        std::size_t droppedBytes = 0; // over `keep` since the last drain
    };
    Drained drain();

private:
    void readAvailable(); // with m_mutex held
    void run();

    int m_fd;
    std::size_t m_keep;
    UniqueFd m_saved, m_read;
    std::mutex m_mutex;
    std::string m_pending;
    std::size_t m_dropped = 0;
    std::atomic<bool> m_stop{false};
    std::thread m_reader;
};

} // namespace ks::proc
