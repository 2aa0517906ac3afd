#pragma once
// A child process the caller owns: started with one end of a Channel as descriptor 3 (its number
// in the environment as KS_CHANNEL_FD), asked whether it still runs, waited for with a limit,
// killed. The destructor kills and reaps it: no zombie and no orphan is ever left behind, and the
// child is killed by the kernel if its parent dies first (PR_SET_PDEATHSIG), so a worker holding
// the GPU never outlives the app.

#include "ks/proc/channel.hpp"

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace ks::proc {

struct ExitStatus {
    bool signaled = false;
    int code = 0; // exit status, or the signal number when signaled
    bool success() const noexcept { return !signaled && code == 0; }
    // "exited with status 3", "killed by signal 9 (Killed)".
    std::string describe() const;
};

struct SpawnSpec {
    std::filesystem::path executable;
    std::vector<std::string> args;                        // argv[1..]
    std::vector<std::pair<std::string, std::string>> env; // set in the child (the rest is inherited)
    int channelFd = -1;                                   // becomes descriptor 3 in the child; -1: none
    int stdinFd = -1;                                     // becomes its standard input; -1: inherited
    std::filesystem::path output; // the child's stdout and stderr go to this file (created or
                                  // truncated); empty: inherited
    // By default the child is killed when this process dies (PR_SET_PDEATHSIG). A child that
    // finishes work of its own when its input ends (ffmpeg writing a video) may outlive it.
    bool outlivesParent = false;
};

class ChildProcess {
public:
    ChildProcess() = default;
    // Throws ChannelError (System) when fork fails or `output` cannot be opened. An executable that
    // cannot be started makes the child exit with status 127 at once.
    static ChildProcess spawn(const SpawnSpec& spec);
    ~ChildProcess();
    ChildProcess(ChildProcess&& other) noexcept;
    ChildProcess& operator=(ChildProcess&& other) noexcept;
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    pid_t pid() const noexcept { return m_pid; }
    bool started() const noexcept { return m_pid > 0; }
    // Its exit status once it has ended (reaps it); nullopt while it runs.
    std::optional<ExitStatus> poll();
    // Waits at most `timeout` for it to end.
    std::optional<ExitStatus> wait(std::chrono::milliseconds timeout);
    // SIGKILL and reap; returns how it ended (signaled, unless it had already ended).
    ExitStatus kill();

private:
    pid_t m_pid = -1;
    std::optional<ExitStatus> m_status;
};

// This process's channel when it was started as a ChildProcess (KS_CHANNEL_FD); else nullopt.
std::optional<Channel> inheritedChannel();

} // namespace ks::proc
