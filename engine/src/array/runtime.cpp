#include "ks/array/runtime.hpp"

#include "ks/core/error.hpp"
#include "ks/rtc/diagnostics.hpp"

#include <algorithm>
#include <sstream>

namespace ks::array {

namespace {

int deviceAttribute(CUdevice dev, CUdevice_attribute a)
{
    int v = 0;
    KS_CU(cuDeviceGetAttribute, &v, a, dev);
    return v;
}

// The numbered source after the diagnostics, so a failed generated kernel can be read in the error.
std::string compileFailure(const std::string& key, const std::string& source, const rtc::CompileResult& r)
{
    std::ostringstream out;
    out << "generated kernel '" << key << "' failed to compile:\n";
    for (const auto& d : r.diagnostics)
        out << rtc::formatDiagnostic(d) << '\n';
    std::istringstream lines(source);
    std::string line;
    for (int n = 1; std::getline(lines, line); ++n)
        out << (n < 10 ? "   " : n < 100 ? "  " : n < 1000 ? " " : "") << n << "  " << line << '\n';
    return out.str();
}

} // namespace

Runtime::Runtime(RuntimeOptions options) : m_options(std::move(options))
{
    CUdevice dev = 0;
    KS_CU(cuCtxGetDevice, &dev);
    m_limits = cuda::queryLimits(dev);
    m_smCount = deviceAttribute(dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    m_maxThreadsPerSM = deviceAttribute(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
    m_arch = m_options.arch;
    if (m_arch.empty())
        m_arch = "sm_" + std::to_string(deviceAttribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)) +
                 std::to_string(deviceAttribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
    m_options.compileOptions.arch = m_arch;
    if (m_options.cache) {
        m_cache = m_options.cache;
    } else {
        m_ownCache = std::make_unique<rtc::CompileCache>();
        m_cache = m_ownCache.get();
    }
    KS_CU(cuDeviceTotalMem, &m_totalMemory, dev);
    m_memoryPools = !m_options.interposer && deviceAttribute(dev, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED) != 0;
    if (m_memoryPools)
        cuda::MemoryPool::deviceDefault(int(dev)).setReleaseThreshold(~std::uint64_t(0));
    m_ownStream = cuda::Stream(cuda::Stream::Create{});
    m_stream = m_options.stream ? m_options.stream : m_ownStream.get();
}

Runtime::~Runtime() = default;

void Runtime::setStream(CUstream stream) noexcept
{
    m_stream = stream ? stream : m_ownStream.get();
}

void Runtime::synchronize() const
{
    KS_CU(cuStreamSynchronize, m_stream);
}

std::shared_ptr<cuda::DeviceMemory> Runtime::allocate(std::size_t bytes)
{
    if (bytes > m_totalMemory)
        throwUsage("Runtime::allocate", "cannot allocate " + cuda::formatBytes(bytes) + " on the device: it has " +
                                            cuda::formatBytes(m_totalMemory) + " in all");
    if (m_memoryPools)
        return std::make_shared<cuda::DeviceMemory>(bytes, m_stream);
    return std::make_shared<cuda::DeviceMemory>(bytes);
}

Runtime::OnePassScratch Runtime::onePassScratch(std::size_t partialBytes)
{
    StreamScratch& scratch = m_scratch[m_stream];
    if (scratch.done.empty()) {
        scratch.done = cuda::DeviceMemory(sizeof(unsigned));
        KS_CU(cuMemsetD32Async, scratch.done.get(), 0u, std::size_t(1), m_stream);
    }
    if (scratch.partials.size() < partialBytes) {
        if (!scratch.partials.empty())
            synchronize(); // queued kernels may still read the smaller block
        // Rounded up so that a few growing calls do not each wait.
        scratch.partials = cuda::DeviceMemory(std::max<std::size_t>(partialBytes, std::size_t(4096)) * 2);
    }
    return {scratch.done.get(), scratch.partials.get()};
}

int Runtime::residentBlocks(const cuda::Function& f, unsigned blockSize)
{
    const std::pair<CUfunction, unsigned> key(f.get(), blockSize);
    if (auto it = m_residentBlocks.find(key); it != m_residentBlocks.end())
        return it->second;
    const int blocks = std::max(f.maxActiveBlocksPerSM(int(blockSize)), 1);
    m_residentBlocks.emplace(key, blocks);
    return blocks;
}

Runtime::Loaded& Runtime::load(const std::string& key, const std::function<std::string()>& generate,
                               const std::string& fileName)
{
    if (auto it = m_loaded.find(key); it != m_loaded.end())
        return *it->second;
    const std::string source = generate();
    const auto result = m_cache->compile(source, fileName, m_options.compileOptions);
    if (!result->ok)
        throwError(ErrorDomain::Nvrtc, "nvrtcCompileProgram", 0, "NVRTC_ERROR_COMPILATION",
                    compileFailure(key, source, *result));
    auto loaded = std::make_unique<Loaded>();
    if (m_options.interposer) {
        loaded->source = source;
        loaded->fileName = fileName;
    }
    loaded->module = cuda::Module(result->cubin.empty() ? static_cast<const void*>(result->ptx.c_str())
                                                        : static_cast<const void*>(result->cubin.data()));
    ++m_stats.modulesLoaded;
    return *m_loaded.emplace(key, std::move(loaded)).first->second;
}

const cuda::Function& Runtime::kernel(const std::string& key, const std::string& name,
                                      const std::function<std::string()>& generate, const std::string& fileName)
{
    ++m_stats.kernelLookups;
    const bool known = m_loaded.count(key) != 0;
    Loaded& l = load(key, generate, fileName);
    if (auto it = l.functions.find(name); it != l.functions.end()) {
        if (known)
            ++m_stats.kernelHits;
        return it->second;
    }
    return remember(l, name, l.functions.emplace(name, l.module.function(name)).first->second);
}

const cuda::Function& Runtime::remember(const Loaded& l, const std::string& name, const cuda::Function& f)
{
    if (m_options.interposer)
        m_origins.insert_or_assign(f.get(), Origin{&l, name});
    return f;
}

const cuda::Function* Runtime::findKernel(const std::string& key, const std::string& name,
                                          const std::function<std::string()>& generate, const std::string& fileName)
{
    Loaded& l = load(key, generate, fileName);
    if (auto it = l.functions.find(name); it != l.functions.end())
        return &it->second;
    if (l.absent.count(name))
        return nullptr;
    if (!l.module.hasFunction(name)) {
        l.absent.insert(name);
        return nullptr;
    }
    return &remember(l, name, l.functions.emplace(name, l.module.function(name)).first->second);
}

const cuda::Function& Runtime::kernelFromSource(const std::string& source, const std::string& name,
                                                const std::string& fileName)
{
    return kernel(source, name, [&] { return source; }, fileName);
}

const cuda::Module* Runtime::module(const std::string& key) const
{
    auto it = m_loaded.find(key);
    return it == m_loaded.end() ? nullptr : &it->second->module;
}

cuda::LaunchConfig Runtime::gridStrideConfig(std::uint64_t n, unsigned blockSize) const
{
    cuda::LaunchConfig c;
    c.block.x = blockSize;
    const std::uint64_t needed = std::max<std::uint64_t>(1, (n + blockSize - 1) / blockSize);
    // Enough resident blocks for a few waves; beyond that the grid-stride loop does the rest.
    const std::uint64_t perSM = std::max(1, m_maxThreadsPerSM / int(blockSize));
    const std::uint64_t cap = std::max<std::uint64_t>(1, std::uint64_t(std::max(1, m_smCount)) * perSM * 4);
    c.grid.x = unsigned(std::min(needed, cap));
    return c;
}

void Runtime::launch(const cuda::Function& f, const cuda::LaunchConfig& config, void** params)
{
    ++m_stats.launches;
    if (m_options.interposer) {
        if (auto it = m_origins.find(f.get()); it != m_origins.end()) {
            const Loaded& l = *it->second.loaded;
            m_options.interposer->launch({f, l.source, l.fileName, it->second.name}, config, m_stream, params);
            return;
        }
    }
    f.launch(config, m_stream, params);
}

} // namespace ks::array
