#pragma once
// The frame limit of headless runs: a thread that watches the pipeline's oldest queued frame and
// calls back once when it has run longer than the limit.

#include "ks/pipeline/pipeline.hpp"

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace ks::app {

// Exit statuses of headless runs beyond 0 (every frame finished), 1 (an error) and 2 (usage).
inline constexpr int kExitFault = 3;      // a frame faulted: the process's CUDA context was lost
inline constexpr int kExitFrameLimit = 4; // a frame ran past --frame-limit
inline constexpr int kExitRestart = 5;    // a window's GPU process asked to be replaced (App::restartRequest)

// "frame 3 has run for 2.01 s, past the 2 s frame limit: stage "spin" (kernel spin in spin.cu) has
// not finished"
std::string describeOverrun(const pipeline::FrameProgress& p, double limitSeconds);

class FrameWatchdog {
public:
    using Callback = std::function<void(const pipeline::FrameProgress&)>;
    // limitSeconds <= 0: watches nothing. `overrun` runs on the watchdog's thread.
    FrameWatchdog(const pipeline::Pipeline& pipeline, double limitSeconds, Callback overrun);
    ~FrameWatchdog();
    FrameWatchdog(const FrameWatchdog&) = delete;
    FrameWatchdog& operator=(const FrameWatchdog&) = delete;
    void stop();

private:
    void run();
    const pipeline::Pipeline& m_pipeline;
    double m_limitMs;
    Callback m_overrun;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stop = false;
    std::thread m_thread;
};

} // namespace ks::app
