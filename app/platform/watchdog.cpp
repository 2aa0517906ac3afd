#include "platform/watchdog.hpp"

#include <cstdio>

namespace ks::app {

std::string describeOverrun(const pipeline::FrameProgress& p, double limitSeconds)
{
    char head[160];
    std::snprintf(head, sizeof head, "frame %lld has run for %.2f s, past the %g s frame limit", (long long)p.frame,
                  p.runningMs / 1000.0, limitSeconds);
    std::string where;
    if (p.stage >= 0)
        where = ": stage \"" + p.stageName + "\"" +
                (p.kernel.empty() ? std::string() : " (kernel " + p.kernel + " in " + p.file.filename().string() + ")") +
                " has not finished";
    else
        where = ": its stages finished, the frame's GPU work after them has not";
    return head + where;
}

FrameWatchdog::FrameWatchdog(const pipeline::Pipeline& pipeline, double limitSeconds, Callback overrun)
    : m_pipeline(pipeline), m_limitMs(limitSeconds * 1000.0), m_overrun(std::move(overrun))
{
    if (m_limitMs > 0 && pipeline.cuda())
        m_thread = std::thread([this] { run(); });
}

FrameWatchdog::~FrameWatchdog()
{
    stop();
}

void FrameWatchdog::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void FrameWatchdog::run()
{
    std::int64_t reported = -1;
    std::unique_lock lock(m_mutex);
    while (!m_wake.wait_for(lock, std::chrono::milliseconds(10), [this] { return m_stop; })) {
        const std::optional<pipeline::FrameProgress> p = m_pipeline.progress();
        if (p && p->runningMs > m_limitMs && p->frame != reported) {
            reported = p->frame;
            m_overrun(*p);
        }
    }
}

} // namespace ks::app
