#pragma once
// The shell's side of its worker, without GL or a window (so tests drive it with fake workers):
// starts the worker, sends frame requests, takes frames, heartbeats, the state to keep and fault
// notices, and decides: a worker that exits, is killed, closes the connection, sends a truncated or
// malformed message, or is silent past the limit is replaced by a new one that is sent the kept
// state and what happened; a frame past the frame limit asks the user (wait or stop).

#include "supervise/protocol.hpp"

#include "ks/proc/child_process.hpp"
#include "ks/proc/shared_memory.hpp"

#include <chrono>
#include <deque>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ks::app {

struct AppOptions;

// This executable (/proc/self/exe): the worker is the same program.
std::filesystem::path workerExecutable();

class ShellLink {
public:
    using Clock = std::chrono::steady_clock;
    struct Config {
        std::filesystem::path executable;
        std::vector<std::string> args;  // the worker's arguments
        std::vector<std::string> firstArgs; // the first worker's only, after `args` (--record)
        double frameLimitMs = 2000;     // a frame running longer asks the user (<= 0: never)
        double silenceLimitMs = 5000;   // no message at all for this long: the worker is replaced
        double startLimitMs = 60000;    // no hello for this long after the start: likewise
        int maxFailedStarts = 3;        // workers that die before their first frame, in a row: give up
        int framesInFlight = 1;         // frames requested and not yet shown, 1 or 2 (2: the worker
                                        // renders the next frame while the shell shows the last)
        // The shell's GL when it can import GPU memory (ShellScreen::identity()): frames then come
        // through GPU memory (Frame::gpuMemory) when the worker's GL is on the same device.
        std::optional<supervise::ShellGl> shellGl;
    };
    struct Frame {
        int width = 0, height = 0;
        // RGBA8, bottom row first, valid until the next pump(); null when the frame is in GPU memory.
        const void* pixels = nullptr;
        // Which GPU frame memory (gpuFrameMemory()->serial) holds the frame, in slot `slot`;
        // 0: none (`pixels` holds it). The slot is the shell's to read until it asks for a frame
        // after it has taken the next one (protocol.hpp, FrameMemory).
        std::uint64_t gpuMemory = 0;
        int slot = 0;
        std::string sha256; // when the request asked for a checksum
        std::int64_t appFrame = 0;
        double workerMs = 0;
        double interopUs = -1; // the worker's newest finished frame's map + unmap, host microseconds
        std::uint64_t kernelBuild = 0; // the worker's App::kernelBuilds() as of the frame
    };
    // The worker's GPU frame memory: supervise::kGpuFrameSlots slots of `slotBytes`, as descriptors
    // for the shell's GL to import (dup them: the import takes its descriptor). With a size, every
    // frame in it was rendered in place into a texture of that size (protocol.hpp, FrameMemory).
    struct GpuFrameMemory {
        std::uint64_t serial = 0; // new memory, new serial (never 0)
        std::uint64_t slotBytes = 0;
        std::vector<proc::UniqueFd> fds;
        int width = 0, height = 0; // 0: slots are buffers the frames were read into
        std::uint64_t probeBytes = 0; // with a size: fds[3] holds the layout probe
    };
    enum class Dialog { None, Starting, FrameTooLong, GaveUp };

    explicit ShellLink(Config config);
    // The window's worker: this executable with the window's arguments and --worker window.
    static Config windowConfig(const AppOptions& options, std::filesystem::path executable);
    ~ShellLink();
    ShellLink(const ShellLink&) = delete;
    ShellLink& operator=(const ShellLink&) = delete;

    bool readyForFrame() const noexcept;
    int framesInFlight() const noexcept { return int(m_requests.size()); } // asked for, not yet shown
    void requestFrame(const supervise::FrameRequest& request);
    // Handles what arrived within `timeout` (returns early with a frame), replaces a dead worker.
    std::optional<Frame> pump(std::chrono::milliseconds timeout);

    Dialog dialog() const noexcept { return m_dialog; }
    std::string dialogText() const;
    void wait();           // FrameTooLong: keep waiting (asks again after another frame limit)
    void stopAndRestore(); // FrameTooLong: end the worker, start a new one with the kept state
    void retry();          // GaveUp: try starting again
    void quit();           // asks the worker to end, kills it after 2 s

    const std::optional<GpuFrameMemory>& gpuFrameMemory() const noexcept { return m_gpuFrames; }
    // The shell's GL could not import the GPU frame memory: the worker is told to send its frames
    // through CPU memory, as any later worker is.
    void refuseGpuFrames(const std::string& why);
    // The shell's GL could not use frames rendered in place (the probe differed, or GL refused the
    // texture): the worker is told to copy its frames into GPU memory buffers, as any later one is.
    void refuseGpuTextures(const std::string& why);

    std::string takeClipboard();
    std::string lastStatus() const { return m_status; }

    // For tests, the bench and the status line.
    int restarts() const noexcept { return m_restarts; }
    const std::vector<supervise::FaultNotice>& history() const noexcept { return m_history; }
    const supervise::AppSnapshot& keptState() const noexcept { return m_kept; }
    // Where the worker keeps its resources' contents (held here, passed to the next worker).
    const std::optional<supervise::KeptMemory>& keptMemory() const noexcept { return m_keptMemory; }
    const std::optional<supervise::Heartbeat>& heartbeat() const noexcept { return m_heartbeat; }
    pid_t workerPid() const noexcept { return m_process.pid(); }
    bool running() const noexcept { return m_hello.has_value(); }

private:
    void start();
    void replace(supervise::FaultNotice notice);
    void handle(proc::Message& message, std::optional<Frame>& frame);
    void died(const std::string& how);
    // Sends to the worker; a closed connection is a death (died()), and false.
    bool send(const nlohmann::json& body, const std::vector<int>& fds = {});
    double frameRunningMs() const;

    Config m_config;
    int m_starts = 0; // workers started
    proc::ChildProcess m_process;
    proc::Channel m_channel;
    proc::SharedMemory m_frames;
    std::optional<supervise::Hello> m_hello;
    Clock::time_point m_startedAt, m_lastMessage;
    std::deque<Clock::time_point> m_requests; // when each frame not yet shown was requested
    std::optional<GpuFrameMemory> m_gpuFrames;
    std::uint64_t m_gpuSerial = 0;
    bool m_gpuRefused = false; // frames in GPU memory sent before the worker heard so are dropped
    bool m_texturesRefused = false; // likewise for frames rendered in place
    bool m_framed = false; // this worker sent a frame
    int m_failedStarts = 0;
    int m_restarts = 0;
    double m_waitUntilMs = 0; // FrameTooLong dismissed until the frame has run this long
    Dialog m_dialog = Dialog::Starting;
    std::string m_dialogText;
    std::optional<supervise::Heartbeat> m_heartbeat;
    std::optional<supervise::FaultNotice> m_notice;  // the current worker's own account of its end
    std::optional<supervise::Restore> m_pendingRestore; // sent to the next worker after its hello
    supervise::AppSnapshot m_kept;
    bool m_haveKept = false;
    std::optional<supervise::KeptMemory> m_keptMemory; // with slots: m_keptFds holds their descriptors
    std::vector<proc::UniqueFd> m_keptFds;
    std::vector<supervise::FaultNotice> m_history;
    std::string m_clipboard;
    std::string m_status = "starting the GPU process";
};

} // namespace ks::app
