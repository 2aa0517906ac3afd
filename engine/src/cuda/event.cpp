#include "ks/cuda/event.hpp"

#include "ks/core/error.hpp"

namespace ks::cuda {

void EventTraits::destroy(CUevent h) noexcept
{
    KS_CU_NOTHROW(cuEventDestroy, h);
}

std::string eventFlagsName(EventFlags flags)
{
    std::string name;
    auto add = [&](EventFlags f, const char* text) {
        if (hasFlag(flags, f))
            name += (name.empty() ? "" : " | ") + std::string(text);
    };
    add(EventFlags::BlockingSync, "blocking sync");
    add(EventFlags::DisableTiming, "disable timing");
    add(EventFlags::Interprocess, "interprocess");
    return name.empty() ? "default" : name;
}

std::optional<std::string> eventFlagsRefusal(EventFlags flags)
{
    if (hasFlag(flags, EventFlags::Interprocess) && !hasFlag(flags, EventFlags::DisableTiming))
        return "an interprocess event must also disable timing (EventFlags::Interprocess | "
               "EventFlags::DisableTiming): the driver cannot time across processes";
    return std::nullopt;
}

std::optional<std::string> elapsedTimeRefusal(EventFlags start, EventFlags end)
{
    auto which = [](EventFlags f) { return "(" + eventFlagsName(f) + ")"; };
    if (hasFlag(start, EventFlags::DisableTiming))
        return "the start event was created with timing disabled " + which(start) +
               "; create both events without EventFlags::DisableTiming to measure between them";
    if (hasFlag(end, EventFlags::DisableTiming))
        return "this event was created with timing disabled " + which(end) +
               "; create both events without EventFlags::DisableTiming to measure between them";
    return std::nullopt;
}

Event::Event(Create, EventFlags flags) : m_flags(flags)
{
    if (auto why = eventFlagsRefusal(flags))
        throwUsage("cuda::Event", *why);
    CUevent e = nullptr;
    KS_CU(cuEventCreate, &e, unsigned(flags));
    m_handle.reset(e);
}

Event Event::fromIpcHandle(const CUipcEventHandle& handle)
{
    Event event;
    CUevent e = nullptr;
    KS_CU(cuIpcOpenEventHandle, &e, handle);
    event.m_handle.reset(e);
    event.m_flags = EventFlags::Interprocess | EventFlags::DisableTiming;
    return event;
}

void Event::record(CUstream stream) const
{
    KS_CU(cuEventRecord, get(), stream);
}

void Event::synchronize() const
{
    KS_CU(cuEventSynchronize, get());
}

bool Event::done() const
{
    CUresult r = driver().cuEventQuery(get());
    if (r == CUDA_ERROR_NOT_READY)
        return false;
    check(r, "cuEventQuery");
    return true;
}

float Event::elapsedMsSince(const Event& start) const
{
    if (empty() || start.empty())
        throwUsage("cuda::Event::elapsedMsSince", "an empty event has no time");
    if (auto why = elapsedTimeRefusal(start.m_flags, m_flags))
        throwUsage("cuda::Event::elapsedMsSince", *why);
    float ms = 0;
    KS_CU(cuEventElapsedTime, &ms, start.get(), get());
    return ms;
}

CUipcEventHandle Event::ipcHandle() const
{
    if (!hasFlag(m_flags, EventFlags::Interprocess))
        throwUsage("cuda::Event::ipcHandle", "the event was created with flags (" + eventFlagsName(m_flags) +
                                                 "); only an event created with EventFlags::Interprocess | "
                                                 "EventFlags::DisableTiming can be shared with another process");
    CUipcEventHandle handle{};
    KS_CU(cuIpcGetEventHandle, &handle, get());
    return handle;
}

} // namespace ks::cuda
