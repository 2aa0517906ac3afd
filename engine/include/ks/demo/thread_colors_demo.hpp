#pragma once
// The built-in default demo: a CUDA kernel writes every frame into a GL texture registered with
// CUDA (mapped, written through a surface object, unmapped) and colours each pixel by the thread
// that wrote it. The kernel is live: builds of it (compiled elsewhere, on the compile service's
// worker) are offered with load() at a frame boundary, and a build replaces the running module
// only when it compiled AND loaded AND holds the kernel; otherwise the last good module keeps
// running. The stage kernel's signature is (cudaSurfaceObject_t out, int width, int height,
// float time).
//
// Needs its GL context current on the calling thread for construction, load(), frame() and
// destruction (and the CUDA context, when cudaReady). Works without CUDA: the texture exists
// (cleared to a neutral grey), builds are still accepted (their diagnostics shown elsewhere), and
// status() says why nothing is launched.

#include "ks/cuda/event.hpp"
#include "ks/cuda/module.hpp"
#include "ks/gl/objects.hpp"
#include "ks/interop/graphics_resource.hpp"
#include "ks/rtc/compiler.hpp"
#include "ks/rtc/live_module.hpp"
#include "ks/syntax/kernel_signature.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
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

// What load() did with a build.
enum class LoadOutcome {
    Swapped,      // the new module runs from the next frame()
    BuildFailed,  // it did not compile: the last good module keeps running
    LoadFailed,   // it compiled but did not load or lacks the kernel: the last good module keeps running
    NotRunnable,  // it compiled, but there is no CUDA to run it on
};

class ThreadColorsDemo {
public:
    static constexpr const char* kDefaultKernel = "thread_colors_surface";

    // Whether `k` can be the stage's kernel: (cudaSurfaceObject_t, int, int, float), not a template.
    static bool fitsStage(const syntax::KernelSignature& k);

    // `cudaReady`: a CUDA context is current on this thread (on the device rendering GL). Nothing
    // runs until load() gets a good build. Throws ks::Error for GL/CUDA failures (registration).
    ThreadColorsDemo(const DemoConfig& config, bool cudaReady);

    // For tests and tools: compiles `kernelFile` for `arch` on this thread and loads its
    // kDefaultKernel. Never throws for a compile error (see compileResult()).
    ThreadColorsDemo(const std::filesystem::path& kernelFile, const DemoConfig& config, bool cudaReady,
                     const std::string& arch);

    // Offers a finished build whose stage kernel is `symbol` (its name, or NVRTC's lowered name).
    // Call between frame() calls. See LoadOutcome; lastLoadError() says why a build was not taken.
    LoadOutcome load(std::shared_ptr<const rtc::CompileResult> build, const std::string& symbol);

    // Runs one frame on `stream` at `timeSeconds`. Returns false (and sets status()) if the kernel
    // could not run; a failed launch is reported, not thrown.
    bool frame(float timeSeconds, CUstream stream);

    // Changes the block shape; validated against the device at the next launch.
    void setBlock(cuda::Dim3 block) { m_config.block = block; }
    const DemoConfig& config() const noexcept { return m_config; }
    cuda::Dim3 grid() const noexcept;

    const gl::Texture2D& texture() const noexcept { return m_texture; }
    // The newest build offered to load() (an empty, failed result before the first).
    const rtc::CompileResult& compileResult() const noexcept { return *m_offered; }
    // The build the running module came from; null while none runs.
    const std::shared_ptr<const rtc::CompileResult>& runningBuild() const noexcept { return m_live.build(); }
    const std::string& lastLoadError() const noexcept { return m_loadError; }
    const DemoTimings& timings() const noexcept { return m_timings; }
    const std::string& status() const noexcept { return m_status; }
    bool running() const noexcept { return m_running; }
    // The running kernel (registers, shared memory etc.), when loaded.
    const cuda::Function* kernel() const noexcept { return m_kernel.empty() ? nullptr : &m_kernel; }
    const std::string& kernelSymbol() const noexcept { return m_symbol; }

    // Counts the modules swapped in (0: none yet). lastFrameGeneration() is the generation the
    // last successful frame() launched: the first frame drawn with a new kernel is the first whose
    // lastFrameGeneration() equals the moduleGeneration() that load() produced.
    std::uint64_t moduleGeneration() const noexcept { return m_live.generation(); }
    std::uint64_t lastFrameGeneration() const noexcept { return m_frameGeneration; }

private:
    DemoConfig m_config;
    bool m_cudaReady = false;
    gl::Texture2D m_texture;
    std::shared_ptr<const rtc::CompileResult> m_offered;
    // Declared after the texture: unregistered before the GL texture is deleted.
    interop::GraphicsResource m_resource;
    rtc::LiveModule m_live; // the last good module: the engine's swap rules
    cuda::Function m_kernel;
    std::string m_symbol;
    cuda::Event m_start, m_stop;
    DemoTimings m_timings;
    std::string m_status;
    std::string m_loadError;
    bool m_running = false;
    std::uint64_t m_frameGeneration = 0;
};

} // namespace ks::demo
