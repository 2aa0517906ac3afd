#pragma once
// A headless OpenGL 4.5 core context on the EGL device platform: no window system, no X server.
//
// The device is chosen to match the CUDA device (EGL_NV_device_cuda's EGL_CUDA_DEVICE_NV), so that
// CUDA-GL interop stays on one GPU. Without an NVIDIA EGL device (a machine with no GPU), Mesa's
// software device gives a real GL 4.5 core context. The context is surfaceless: render into a
// ks::gl::Framebuffer.

#include <memory>
#include <string>

namespace ks::gl {

struct EglOptions {
    int cudaOrdinal = -1; // prefer the EGL device that is this CUDA device (when >= 0)
    bool debugContext = false;
};

class EglContext {
public:
    EglContext() noexcept; // empty
    // Creates the context and makes it current on the calling thread; loads GL entry points.
    // Throws ks::Error (domain Egl) naming the step that failed.
    explicit EglContext(const EglOptions& options);
    ~EglContext();
    EglContext(EglContext&&) noexcept;
    EglContext& operator=(EglContext&&) noexcept;
    EglContext(const EglContext&) = delete;
    EglContext& operator=(const EglContext&) = delete;

    bool empty() const noexcept;
    void makeCurrent() const;
    // "NVIDIA EGL device (CUDA device 0)", "Mesa software device (llvmpipe)"
    const std::string& description() const noexcept;
    // CUDA ordinal of the EGL device, -1 when it is not a CUDA device.
    int cudaOrdinal() const noexcept;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace ks::gl
