#include "ks/cuda/context.hpp"

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

} // namespace ks::cuda
