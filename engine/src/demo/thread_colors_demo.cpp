#include "ks/demo/thread_colors_demo.hpp"

#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/cuda/surface.hpp"

#include <chrono>
#include <iterator>
#include <string_view>
#include <vector>

namespace ks::demo {

namespace {
using Clock = std::chrono::steady_clock;
double microsSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}
} // namespace

ThreadColorsDemo::ThreadColorsDemo(const DemoConfig& config, bool cudaReady)
    : m_config(config), m_cudaReady(cudaReady), m_texture(config.width, config.height, GL_RGBA8, GL_NEAREST),
      m_offered(std::make_shared<const rtc::CompileResult>())
{
    // Neutral grey until a kernel writes, so a machine without CUDA shows an honest empty image.
    std::vector<std::uint8_t> grey(std::size_t(config.width) * config.height * 4, 48);
    m_texture.upload(GL_RGBA, GL_UNSIGNED_BYTE, grey.data());
    if (!cudaReady) {
        m_status = "not running: CUDA is unavailable";
        return;
    }
    m_resource = interop::GraphicsResource::registerImage(m_texture.name(), GL_TEXTURE_2D,
                                                          interop::RegisterFlags::SurfaceLoadStore |
                                                              interop::RegisterFlags::WriteDiscard);
    m_start = cuda::Event(cuda::Event::Create{});
    m_stop = cuda::Event(cuda::Event::Create{});
    m_status = "waiting for the first build of the kernel";
}

ThreadColorsDemo::ThreadColorsDemo(const std::filesystem::path& kernelFile, const DemoConfig& config, bool cudaReady,
                                   const std::string& arch)
    : ThreadColorsDemo(config, cudaReady)
{
    std::string source;
    try {
        source = paths::readTextFile(kernelFile);
    } catch (const Error& e) {
        m_status = std::string("cannot read the demo kernel: ") + e.what();
        return;
    }
    rtc::CompileOptions options;
    options.arch = arch;
    load(std::make_shared<const rtc::CompileResult>(rtc::compile(source, kernelFile.filename().string(), options)),
         kDefaultKernel);
}

LoadOutcome ThreadColorsDemo::load(std::shared_ptr<const rtc::CompileResult> build, const std::string& symbol)
{
    m_offered = build ? std::move(build) : std::make_shared<const rtc::CompileResult>();
    const bool hadKernel = !m_kernel.empty();
    if (!m_offered->ok) {
        m_loadError = "the build failed to compile";
        if (!hadKernel)
            m_status = "the demo kernel did not compile; see the compile log";
        return LoadOutcome::BuildFailed;
    }
    if (!m_cudaReady) {
        m_loadError.clear();
        m_status = "compiled; not running: CUDA is unavailable";
        return LoadOutcome::NotRunnable;
    }
    const rtc::LiveModule::Outcome outcome = m_live.offer(m_offered, {symbol});
    if (!outcome.swapped) {
        m_loadError = outcome.failure;
        if (!hadKernel)
            m_status = "the demo kernel did not load: " + m_loadError;
        return LoadOutcome::LoadFailed;
    }
    m_kernel = m_live.module().function(symbol);
    m_symbol = symbol;
    m_loadError.clear();
    m_running = true;
    m_status = "running";
    return LoadOutcome::Swapped;
}

bool ThreadColorsDemo::fitsStage(const syntax::KernelSignature& k)
{
    static constexpr std::string_view kTypes[] = {"cudaSurfaceObject_t", "int", "int", "float"};
    if (k.isTemplate() || k.params.size() != std::size(kTypes))
        return false;
    for (std::size_t i = 0; i < std::size(kTypes); ++i) {
        std::string_view type = k.params[i].type;
        if (type.substr(0, 6) == "const ") // by value: const changes nothing for the caller
            type.remove_prefix(6);
        if (type != kTypes[i])
            return false;
    }
    return true;
}

cuda::Dim3 ThreadColorsDemo::grid() const noexcept
{
    const auto& b = m_config.block;
    return {(unsigned(m_config.width) + b.x - 1) / b.x, (unsigned(m_config.height) + b.y - 1) / b.y, 1};
}

bool ThreadColorsDemo::frame(float timeSeconds, CUstream stream)
{
    if (!m_running)
        return false;
    try {
        auto t0 = Clock::now();
        interop::ScopedMap map({&m_resource}, stream);
        m_timings.mapUs = microsSince(t0);
        cuda::SurfaceObject surface(map.array(0));
        CUsurfObject surf = surface.get();
        int width = m_config.width, height = m_config.height;
        void* params[] = {&surf, &width, &height, &timeSeconds};
        m_start.record(stream);
        m_kernel.launch({grid(), m_config.block, 0}, stream, params);
        m_stop.record(stream);
        auto t1 = Clock::now();
        map.unmap();
        m_timings.unmapUs = microsSince(t1);
        m_stop.synchronize();
        m_timings.kernelMs = m_stop.elapsedMsSince(m_start);
        m_timings.valid = true;
        m_frameGeneration = m_live.generation();
        m_status = "running";
        return true;
    } catch (const Error& e) {
        m_timings.valid = false;
        m_status = e.what();
        // A refused launch (bad block size) keeps the demo alive; a driver fault does not.
        if (e.domain() != ErrorDomain::Usage)
            m_running = false;
        return false;
    }
}

} // namespace ks::demo
