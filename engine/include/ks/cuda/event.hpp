#pragma once
// A CUDA event with timing enabled, for per-stage GPU timings.

#include "ks/core/unique_handle.hpp"
#include "ks/cuda/driver.hpp"

namespace ks::cuda {

struct EventTraits {
    using Handle = CUevent;
    static constexpr Handle empty() { return nullptr; }
    static void destroy(Handle h) noexcept;
};

class Event {
public:
    struct Create {};
    Event() noexcept = default; // empty
    explicit Event(Create);     // a timing event in the current context

    CUevent get() const noexcept { return m_handle.get(); }
    bool empty() const noexcept { return m_handle.empty(); }
    void record(CUstream stream) const;
    void synchronize() const;
    bool done() const;
    // Milliseconds from `start` to this event; both must have completed.
    float elapsedMsSince(const Event& start) const;

private:
    UniqueHandle<EventTraits> m_handle;
};

} // namespace ks::cuda
