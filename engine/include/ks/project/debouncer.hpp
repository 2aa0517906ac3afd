#pragma once
// Build-after-typing-pauses: a pure function of times. Each edit restarts the wait; the build is
// due once no edit came for `delay` seconds, and fires once per pause. Times are seconds on any
// monotonic clock the caller chooses (the app uses its frame clock).

namespace ks::project {

class Debouncer {
public:
    explicit Debouncer(double delaySeconds = 0.35) : m_delay(delaySeconds) {}

    void setDelay(double seconds) noexcept { m_delay = seconds; }
    double delay() const noexcept { return m_delay; }

    // An edit happened at `now`.
    void touch(double now) noexcept
    {
        m_pending = true;
        m_lastEdit = now;
    }
    // Drops a pending build (it was built some other way, e.g. Ctrl+Enter).
    void cancel() noexcept { m_pending = false; }

    bool pending() const noexcept { return m_pending; }
    // When the pending build becomes due.
    double dueAt() const noexcept { return m_lastEdit + m_delay; }
    bool due(double now) const noexcept { return m_pending && now >= dueAt(); }

    // True exactly once per pause: when due at `now`; clears the pending build.
    bool fire(double now) noexcept
    {
        if (!due(now))
            return false;
        m_pending = false;
        return true;
    }

private:
    double m_delay;
    double m_lastEdit = 0;
    bool m_pending = false;
};

} // namespace ks::project
