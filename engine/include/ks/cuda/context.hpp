#pragma once
// Contexts. PrimaryContext: the device's primary context, retained for the lifetime of the object.
// It is the context the CUDA runtime (cuRAND, CUB, nvcc-compiled kernels) uses too, so driver and
// runtime objects mix. Context: a context of its own (cuCtxCreate), for code that needs one apart
// from the primary one. ScopedContext: makes a context current for a scope and restores the one
// before. The context limits (printf FIFO, malloc heap, stack) of the current context.

#include "ks/core/unique_handle.hpp"
#include "ks/cuda/driver.hpp"

#include <cstddef>
#include <string_view>

namespace ks::cuda {

class PrimaryContext {
public:
    PrimaryContext() noexcept = default; // empty
    // Retains device `ordinal`'s primary context and makes it current on the calling thread.
    explicit PrimaryContext(int ordinal);
    ~PrimaryContext();

    PrimaryContext(const PrimaryContext&) = delete;
    PrimaryContext& operator=(const PrimaryContext&) = delete;
    PrimaryContext(PrimaryContext&& other) noexcept;
    PrimaryContext& operator=(PrimaryContext&& other) noexcept;

    bool empty() const noexcept { return m_context == nullptr; }
    CUcontext get() const noexcept { return m_context; }
    CUdevice device() const noexcept { return m_device; }
    int ordinal() const noexcept { return m_ordinal; }

    // Makes the context current on the calling thread (each thread that calls CUDA needs this once).
    void makeCurrent() const;
    void synchronize() const;

private:
    void release() noexcept;

    CUcontext m_context = nullptr;
    CUdevice m_device = 0;
    int m_ordinal = -1;
};

struct ContextTraits {
    using Handle = CUcontext;
    static constexpr Handle empty() { return nullptr; }
    static void destroy(Handle h) noexcept;
};

// How a thread waiting for the context's work behaves (cuCtxCreate's scheduling flags).
enum class ContextSchedule {
    Auto = CU_CTX_SCHED_AUTO,
    Spin = CU_CTX_SCHED_SPIN,
    Yield = CU_CTX_SCHED_YIELD,
    BlockingSync = CU_CTX_SCHED_BLOCKING_SYNC,
};

// A non-primary context of device `ordinal`, destroyed with the object. Creating it leaves the
// calling thread's current context as it was: use ScopedContext (or cuCtxSetCurrent) to work in
// it. Memory, streams, events and modules made while it is current belong to it and must die
// before it. The runtime (cuRAND, nvcc-compiled kernels) keeps using the primary context.
class Context {
public:
    struct Create {};
    Context() noexcept = default; // empty
    Context(Create, int ordinal, ContextSchedule schedule = ContextSchedule::Auto);

    CUcontext get() const noexcept { return m_handle.get(); }
    bool empty() const noexcept { return m_handle.empty(); }
    CUdevice device() const noexcept { return m_device; }
    // Waits for all work of the context (makes it current for the call, then restores).
    void synchronize() const;

private:
    UniqueHandle<ContextTraits> m_handle;
    CUdevice m_device = 0;
};

// Pushes `context` onto the calling thread's context stack (it becomes current) and pops it when
// the scope ends, so the context current before is current again. Not movable: it belongs to the
// thread and scope that made it. A null context is refused (a UsageError).
class ScopedContext {
public:
    explicit ScopedContext(CUcontext context);
    ~ScopedContext();
    ScopedContext(const ScopedContext&) = delete;
    ScopedContext& operator=(const ScopedContext&) = delete;

private:
    CUcontext m_context;
};

// The calling thread's current context; null when there is none.
CUcontext currentContext();

// PyCUDA's Context.set_limit / get_limit: limits of the current context (cuCtxSetLimit).
enum class ContextLimit {
    PrintfFifoSize = CU_LIMIT_PRINTF_FIFO_SIZE, // bytes of the FIFO device printf writes into
    MallocHeapSize = CU_LIMIT_MALLOC_HEAP_SIZE, // bytes of the heap of device malloc / new
    StackSize = CU_LIMIT_STACK_SIZE,            // bytes of stack per thread
};
std::string_view contextLimitName(ContextLimit limit); // "printf FIFO size", ...
// Sets `limit` of the current context to `bytes` (the driver may round it up; read it back with
// contextLimit). Set the printf FIFO and the malloc heap before the first launch that uses them.
// A failure throws ks::Error naming the limit and the value.
void setContextLimit(ContextLimit limit, std::size_t bytes);
std::size_t contextLimit(ContextLimit limit);

} // namespace ks::cuda
