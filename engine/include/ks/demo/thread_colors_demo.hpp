#pragma once
// The built-in default demo: a CUDA kernel, compiled from kernels/thread_colors.cu by NVRTC at
// start-up, writes every frame into a GL texture registered with CUDA (mapped, written through a
// surface object, unmapped) and colours each pixel by the thread that wrote it.
//
// Needs its GL context current on the calling thread for construction, frame() and destruction.
// Works without CUDA: the texture exists (cleared to a neutral grey), compile diagnostics are
// produced (NVRTC needs no GPU), and status() says why nothing is launched.

#include "ks/cuda/event.hpp"
#include "ks/cuda/graphics_resource.hpp"
#include "ks/cuda/module.hpp"
#include "ks/gl/objects.hpp"
#include "ks/rtc/compiler.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace ks::demo {

struct DemoConfig {
    int width = 768;
    int height = 512;
    cuda::Dim3 block{16, 16, 1};
};

struct DemoTimings {
    float kernelMs = 0;    // CUDA events around the launch
    double mapUs = 0;      // host time of cuGraphicsMapResources
    double unmapUs = 0;    // host time of cuGraphicsUnmapResources
    bool valid = false;
};

class ThreadColorsDemo {
public:
    // `cudaReady`: a CUDA context is current on this thread (on the device rendering GL);
    // `arch` the compile target ("sm_90"). Never throws for a compile error; throws ks::Error for
    // GL/CUDA failures (registration).
    ThreadColorsDemo(const std::filesystem::path& kernelFile, const DemoConfig& config, bool cudaReady,
                     const std::string& arch);

    // Runs one frame on `stream` at `timeSeconds`. Returns false (and sets status()) if the kernel
    // could not run; a failed launch is reported, not thrown.
    bool frame(float timeSeconds, CUstream stream);

    // Changes the block shape; validated against the device at the next launch.
    void setBlock(cuda::Dim3 block) { m_config.block = block; }
    const DemoConfig& config() const noexcept { return m_config; }
    cuda::Dim3 grid() const noexcept;

    const gl::Texture2D& texture() const noexcept { return m_texture; }
    const rtc::CompileResult& compileResult() const noexcept { return m_compile; }
    const std::filesystem::path& kernelFile() const noexcept { return m_kernelFile; }
    const DemoTimings& timings() const noexcept { return m_timings; }
    const std::string& status() const noexcept { return m_status; }
    bool running() const noexcept { return m_running; }
    // Registers, shared memory etc. of the surface kernel, when loaded.
    const cuda::Function* kernel() const noexcept { return m_kernel.empty() ? nullptr : &m_kernel; }

private:
    std::filesystem::path m_kernelFile;
    DemoConfig m_config;
    gl::Texture2D m_texture;
    rtc::CompileResult m_compile;
    // Declared after the texture: unregistered before the GL texture is deleted.
    cuda::GraphicsResource m_resource;
    cuda::Module m_module;
    cuda::Function m_kernel;
    cuda::Event m_start, m_stop;
    DemoTimings m_timings;
    std::string m_status;
    bool m_running = false;
};

} // namespace ks::demo
