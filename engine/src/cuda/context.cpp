#include "ks/cuda/context.hpp"

#include "ks/core/error.hpp"
#include "ks/core/log.hpp"

#include <utility>

namespace ks::cuda {

PrimaryContext::PrimaryContext(int ordinal) : m_ordinal(ordinal)
{
    KS_CU(cuDeviceGet, &m_device, ordinal);
    KS_CU(cuDevicePrimaryCtxRetain, &m_context, m_device);
    try {
        makeCurrent();
    } catch (...) {
        release();
        throw;
    }
}

PrimaryContext::~PrimaryContext()
{
    release();
}

PrimaryContext::PrimaryContext(PrimaryContext&& other) noexcept
    : m_context(std::exchange(other.m_context, nullptr))
    , m_device(other.m_device)
    , m_ordinal(std::exchange(other.m_ordinal, -1))
{
}

PrimaryContext& PrimaryContext::operator=(PrimaryContext&& other) noexcept
{
    if (this != &other) {
        release();
        m_context = std::exchange(other.m_context, nullptr);
        m_device = other.m_device;
        m_ordinal = std::exchange(other.m_ordinal, -1);
    }
    return *this;
}

void PrimaryContext::makeCurrent() const
{
    KS_CU(cuCtxSetCurrent, m_context);
}

void PrimaryContext::synchronize() const
{
    makeCurrent();
    KS_CU(cuCtxSynchronize);
}

void PrimaryContext::release() noexcept
{
    if (!m_context)
        return;
    KS_CU_NOTHROW(cuDevicePrimaryCtxRelease, m_device);
    m_context = nullptr;
}

void ContextTraits::destroy(CUcontext h) noexcept
{
    KS_CU_NOTHROW(cuCtxDestroy, h);
}

Context::Context(Create, int ordinal, ContextSchedule schedule)
{
    KS_CU(cuDeviceGet, &m_device, ordinal);
    CUcontext c = nullptr;
#if CUDA_VERSION >= 13000
    // CUDA 13's cuCtxCreate takes creation parameters (execution affinity, CIG); none here.
    KS_CU(cuCtxCreate, &c, nullptr, unsigned(schedule), m_device);
#else
    KS_CU(cuCtxCreate, &c, unsigned(schedule), m_device);
#endif
    m_handle.reset(c);
    // cuCtxCreate pushed the new context: pop it, so that creating one changes nothing current.
    CUcontext popped = nullptr;
    KS_CU(cuCtxPopCurrent, &popped);
}

void Context::synchronize() const
{
    if (empty())
        throwUsage("cuda::Context::synchronize", "empty context");
    ScopedContext scope(get());
    KS_CU(cuCtxSynchronize);
}

ScopedContext::ScopedContext(CUcontext context) : m_context(context)
{
    if (!context)
        throwUsage("cuda::ScopedContext", "no context to make current (an empty Context or PrimaryContext?)");
    KS_CU(cuCtxPushCurrent, context);
}

ScopedContext::~ScopedContext()
{
    CUcontext popped = nullptr;
    KS_CU_NOTHROW(cuCtxPopCurrent, &popped);
    if (popped != m_context) {
        try {
            log::error("cuda::ScopedContext: the context popped at the end of the scope is not the one pushed "
                       "(a push or pop inside the scope was not undone)");
        } catch (...) {
        }
    }
}

CUcontext currentContext()
{
    CUcontext c = nullptr;
    KS_CU(cuCtxGetCurrent, &c);
    return c;
}

std::string_view contextLimitName(ContextLimit limit)
{
    switch (limit) {
    case ContextLimit::PrintfFifoSize:
        return "printf FIFO size";
    case ContextLimit::MallocHeapSize:
        return "malloc heap size";
    case ContextLimit::StackSize:
        return "stack size";
    }
    return "?";
}

void setContextLimit(ContextLimit limit, std::size_t bytes)
{
    const CUresult r = entry(driver().cuCtxSetLimit, "cuCtxSetLimit")(CUlimit(limit), bytes);
    if (r != CUDA_SUCCESS)
        throwError(ErrorDomain::Cuda, "cuCtxSetLimit", r, resultName(r),
                   resultText(r) + " (setting the context's " + std::string(contextLimitName(limit)) + " to " +
                       std::to_string(bytes) + " bytes)");
}

std::size_t contextLimit(ContextLimit limit)
{
    std::size_t bytes = 0;
    KS_CU(cuCtxGetLimit, &bytes, CUlimit(limit));
    return bytes;
}

} // namespace ks::cuda
