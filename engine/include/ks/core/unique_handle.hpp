#pragma once
// The move-only owner behind every RAII type in the engine: CUDA streams, events, modules, GL
// names, EGL contexts. Copy is deleted, move is noexcept and leaves the source empty, and the
// destructor releases through Traits::destroy, which must not throw (failures are logged).

#include <utility>

namespace ks {

// Traits: `using Handle = ...;`, `static constexpr Handle empty()`, `static void destroy(Handle) noexcept`.
template <class Traits>
class UniqueHandle {
public:
    using Handle = typename Traits::Handle;

    UniqueHandle() noexcept = default;
    explicit UniqueHandle(Handle h) noexcept : m_handle(h) {}
    ~UniqueHandle() { reset(); }

    UniqueHandle(const UniqueHandle&) = delete;
    UniqueHandle& operator=(const UniqueHandle&) = delete;
    UniqueHandle(UniqueHandle&& other) noexcept : m_handle(std::exchange(other.m_handle, Traits::empty())) {}
    UniqueHandle& operator=(UniqueHandle&& other) noexcept
    {
        if (this != &other) {
            reset();
            m_handle = std::exchange(other.m_handle, Traits::empty());
        }
        return *this;
    }

    Handle get() const noexcept { return m_handle; }
    bool empty() const noexcept { return m_handle == Traits::empty(); }
    explicit operator bool() const noexcept { return !empty(); }

    // Gives up ownership without destroying.
    Handle release() noexcept { return std::exchange(m_handle, Traits::empty()); }

    void reset(Handle h = Traits::empty()) noexcept
    {
        Handle old = std::exchange(m_handle, h);
        if (old != Traits::empty())
            Traits::destroy(old);
    }

private:
    Handle m_handle = Traits::empty();
};

} // namespace ks
