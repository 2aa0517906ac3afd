#pragma once
// A non-blocking CUDA stream (it does not synchronise with the legacy default stream).
// Needs a current context to create and destroy.

#include "ks/core/unique_handle.hpp"
#include "ks/cuda/driver.hpp"

namespace ks::cuda {

class Event;

struct StreamTraits {
    using Handle = CUstream;
    static constexpr Handle empty() { return nullptr; }
    static void destroy(Handle h) noexcept;
};

class Stream {
public:
    struct Create {};
    Stream() noexcept = default; // empty
    explicit Stream(Create);     // creates a stream in the current context

    CUstream get() const noexcept { return m_handle.get(); }
    bool empty() const noexcept { return m_handle.empty(); }
    void synchronize() const;
    bool done() const; // cuStreamQuery: true once all work queued so far has finished
    // Work queued on this stream after this call waits until `event` completes (the work before
    // its latest record()); the host does not wait. An empty event is refused (a UsageError).
    void waitEvent(const Event& event) const;

private:
    UniqueHandle<StreamTraits> m_handle;
};

} // namespace ks::cuda
