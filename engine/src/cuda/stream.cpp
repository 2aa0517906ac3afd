#include "ks/cuda/stream.hpp"

#include "ks/core/error.hpp"
#include "ks/cuda/event.hpp"

namespace ks::cuda {

void StreamTraits::destroy(CUstream h) noexcept
{
    KS_CU_NOTHROW(cuStreamDestroy, h);
}

Stream::Stream(Create)
{
    CUstream s = nullptr;
    KS_CU(cuStreamCreate, &s, CU_STREAM_NON_BLOCKING);
    m_handle.reset(s);
}

void Stream::synchronize() const
{
    KS_CU(cuStreamSynchronize, get());
}

bool Stream::done() const
{
    CUresult r = driver().cuStreamQuery(get());
    if (r == CUDA_ERROR_NOT_READY)
        return false;
    check(r, "cuStreamQuery");
    return true;
}

void Stream::waitEvent(const Event& event) const
{
    if (event.empty())
        throwUsage("cuda::Stream::waitEvent", "an empty event cannot be waited for");
    KS_CU(cuStreamWaitEvent, get(), event.get(), 0u);
}

} // namespace ks::cuda
