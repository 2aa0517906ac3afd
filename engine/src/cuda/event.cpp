#include "ks/cuda/event.hpp"

namespace ks::cuda {

void EventTraits::destroy(CUevent h) noexcept
{
    KS_CU_NOTHROW(cuEventDestroy, h);
}

Event::Event(Create)
{
    CUevent e = nullptr;
    KS_CU(cuEventCreate, &e, CU_EVENT_DEFAULT);
    m_handle.reset(e);
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
    float ms = 0;
    KS_CU(cuEventElapsedTime, &ms, start.get(), get());
    return ms;
}

} // namespace ks::cuda
