#pragma once
// A CUDA event: per-stage GPU timings, ordering between streams (Stream::waitEvent) and, with
// EventFlags::Interprocess, ordering between processes.

#include "ks/core/unique_handle.hpp"
#include "ks/cuda/driver.hpp"

#include <optional>
#include <string>

namespace ks::cuda {

struct EventTraits {
    using Handle = CUevent;
    static constexpr Handle empty() { return nullptr; }
    static void destroy(Handle h) noexcept;
};

// cuEventCreate's flags, combinable with |.
enum class EventFlags : unsigned {
    Default = 0,
    BlockingSync = CU_EVENT_BLOCKING_SYNC,   // synchronize() sleeps instead of spinning
    DisableTiming = CU_EVENT_DISABLE_TIMING, // cheaper; elapsedMsSince refuses it
    Interprocess = CU_EVENT_INTERPROCESS,    // shareable with ipcHandle(); needs DisableTiming
};
constexpr EventFlags operator|(EventFlags a, EventFlags b) noexcept
{
    return EventFlags(unsigned(a) | unsigned(b));
}
constexpr bool hasFlag(EventFlags set, EventFlags flag) noexcept
{
    return (unsigned(set) & unsigned(flag)) != 0;
}
// "blocking sync | disable timing", "default".
std::string eventFlagsName(EventFlags flags);

class Event {
public:
    struct Create {};
    Event() noexcept = default; // empty
    // An event in the current context; by default one with timing. Interprocess without
    // DisableTiming is refused (a UsageError) before the driver is asked.
    explicit Event(Create, EventFlags flags = EventFlags::Default);

    // The event another process shared with ipcHandle(), opened in the current context (the
    // driver treats it as Interprocess | DisableTiming). Same device, Linux only.
    static Event fromIpcHandle(const CUipcEventHandle& handle);

    CUevent get() const noexcept { return m_handle.get(); }
    bool empty() const noexcept { return m_handle.empty(); }
    EventFlags flags() const noexcept { return m_flags; }
    bool timing() const noexcept { return !hasFlag(m_flags, EventFlags::DisableTiming); }

    void record(CUstream stream) const;
    void synchronize() const;
    bool done() const;
    // Milliseconds from `start` to this event; both must have completed, and both must time:
    // an event made with DisableTiming is refused with a UsageError naming it.
    float elapsedMsSince(const Event& start) const;
    // A handle another process opens with fromIpcHandle(); refused unless made Interprocess.
    CUipcEventHandle ipcHandle() const;

private:
    UniqueHandle<EventTraits> m_handle;
    EventFlags m_flags = EventFlags::Default;
};

// Why an event with `flags` cannot be created; nullopt when it can. Pure host code.
std::optional<std::string> eventFlagsRefusal(EventFlags flags);
// Why the time from an event with `start` flags to one with `end` flags cannot be measured;
// nullopt when it can. Pure host code.
std::optional<std::string> elapsedTimeRefusal(EventFlags start, EventFlags end);

} // namespace ks::cuda
