#pragma once
// The device's primary context, retained for the lifetime of the object. It is the context the
// CUDA runtime (cuRAND, CUB, nvcc-compiled kernels) uses too, so driver and runtime objects mix.

#include "ks/cuda/driver.hpp"

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

} // namespace ks::cuda
