#include "ks/cuda/module.hpp"

#include "ks/core/error.hpp"

#include <algorithm>
#include <cstring>
#include <cstdint>
#include <utility>
#include <vector>

namespace ks::cuda {

void ModuleTraits::destroy(CUmodule h) noexcept
{
    KS_CU_NOTHROW(cuModuleUnload, h);
}

std::string_view launchLimitName(LaunchLimit limit)
{
    switch (limit) {
    case LaunchLimit::ZeroDimension: return "dimension of zero";
    case LaunchLimit::BlockDimension: return "block dimension";
    case LaunchLimit::GridDimension: return "grid dimension";
    case LaunchLimit::ThreadsPerBlock: return "threads per block";
    case LaunchLimit::KernelThreadsPerBlock: return "kernel's threads per block";
    case LaunchLimit::RegistersPerBlock: return "registers per block";
    case LaunchLimit::SharedMemoryPerBlock: return "shared memory per block";
    }
    return "?";
}

std::optional<LaunchRefusal> checkLaunch(const LaunchConfig& c, const DeviceLimits& l, const FunctionAttributes& a)
{
    const char* axis[] = {"x", "y", "z"};
    const unsigned block[] = {c.block.x, c.block.y, c.block.z};
    const unsigned grid[] = {c.grid.x, c.grid.y, c.grid.z};
    for (int i = 0; i < 3; ++i) {
        if (block[i] == 0)
            return LaunchRefusal{LaunchLimit::ZeroDimension,
                                 std::string("blockDim.") + axis[i] + " is 0; every dimension must be at least 1"};
        if (grid[i] == 0)
            return LaunchRefusal{LaunchLimit::ZeroDimension,
                                 std::string("gridDim.") + axis[i] + " is 0; every dimension must be at least 1"};
        if (l.maxBlockDim[i] && block[i] > unsigned(l.maxBlockDim[i]))
            return LaunchRefusal{LaunchLimit::BlockDimension,
                                 std::string("blockDim.") + axis[i] + " = " + std::to_string(block[i]) +
                                     " exceeds the device's maximum block dimension " + axis[i] + " of " +
                                     std::to_string(l.maxBlockDim[i])};
        if (l.maxGridDim[i] && grid[i] > unsigned(l.maxGridDim[i]))
            return LaunchRefusal{LaunchLimit::GridDimension,
                                 std::string("gridDim.") + axis[i] + " = " + std::to_string(grid[i]) +
                                     " exceeds the device's maximum grid dimension " + axis[i] + " of " +
                                     std::to_string(l.maxGridDim[i])};
    }
    const unsigned long long threads = c.block.count();
    if (l.maxThreadsPerBlock && threads > unsigned(l.maxThreadsPerBlock))
        return LaunchRefusal{LaunchLimit::ThreadsPerBlock,
                             "block of " + std::to_string(threads) + " threads exceeds the device's maximum of " +
                                 std::to_string(l.maxThreadsPerBlock) + " threads per block"};
    if (a.maxThreadsPerBlock && threads > unsigned(a.maxThreadsPerBlock))
        return LaunchRefusal{LaunchLimit::KernelThreadsPerBlock,
                             "block of " + std::to_string(threads) + " threads exceeds this kernel's maximum of " +
                                 std::to_string(a.maxThreadsPerBlock) + " threads per block (it uses " +
                                 std::to_string(a.numRegs) + " registers per thread, " +
                                 std::to_string(l.maxRegistersPerBlock) + " per block available)"};
    const unsigned warpSize = l.warpSize > 0 ? unsigned(l.warpSize) : 32u;
    // Registers go to warps in units of 256, and the hardware checks a block as if its warps were
    // spread over all 4 sub-partitions of the register file (cuda_occupancy.h).
    const unsigned long long warps = ((threads + warpSize - 1) / warpSize + 3) / 4 * 4;
    const unsigned long long regsPerWarp = (1ull * a.numRegs * warpSize + 255) / 256 * 256;
    if (l.maxRegistersPerBlock && a.numRegs > 0 && warps * regsPerWarp > unsigned(l.maxRegistersPerBlock))
        return LaunchRefusal{LaunchLimit::RegistersPerBlock,
                             "block of " + std::to_string(threads) + " threads needs " +
                                 std::to_string(warps * regsPerWarp) + " registers (" + std::to_string(a.numRegs) +
                                 " per thread, allocated " + std::to_string(regsPerWarp) +
                                 " per warp), more than the device's limit of " +
                                 std::to_string(l.maxRegistersPerBlock) + " registers per block"};
    const long long shared = (long long)a.staticSharedBytes + c.sharedBytes;
    // The kernel's own attribute reflects an opt-in raised with cuFuncSetAttribute.
    const long long sharedLimit =
        std::max<long long>(l.maxSharedMemoryPerBlock, (long long)a.staticSharedBytes + a.maxDynamicSharedBytes);
    if (l.maxSharedMemoryPerBlock && shared > sharedLimit)
        return LaunchRefusal{LaunchLimit::SharedMemoryPerBlock,
                             "shared memory of " + std::to_string(shared) + " bytes per block (" +
                                 std::to_string(a.staticSharedBytes) + " static + " + std::to_string(c.sharedBytes) +
                                 " dynamic) exceeds the limit of " + std::to_string(sharedLimit) +
                                 " bytes per block (the device allows up to " +
                                 std::to_string(l.maxSharedMemoryPerBlockOptin) +
                                 " after opting in with Function::setMaxDynamicSharedBytes)"};
    return std::nullopt;
}

std::optional<std::string> validateLaunch(const LaunchConfig& c, const DeviceLimits& l, const FunctionAttributes& a)
{
    if (auto refusal = checkLaunch(c, l, a))
        return std::move(refusal->message);
    return std::nullopt;
}

std::optional<std::string> dynamicSharedRefusal(int bytes, const DeviceLimits& l, const FunctionAttributes& a)
{
    if (bytes < 0)
        return "dynamic shared memory of " + std::to_string(bytes) + " bytes: the size cannot be negative";
    const long long total = (long long)a.staticSharedBytes + bytes;
    if (l.maxSharedMemoryPerBlockOptin > 0 && total > l.maxSharedMemoryPerBlockOptin)
        return "dynamic shared memory of " + std::to_string(bytes) + " bytes per block (" + std::to_string(total) +
               " with the kernel's " + std::to_string(a.staticSharedBytes) +
               " static bytes) exceeds the device's opt-in maximum of " +
               std::to_string(l.maxSharedMemoryPerBlockOptin) + " bytes per block";
    return std::nullopt;
}

std::optional<std::string> carveoutRefusal(int percent)
{
    if (percent < -1 || percent > 100)
        return "a shared-memory carveout of " + std::to_string(percent) +
               "%: it is a percentage from 0 to 100, or -1 for the driver's default";
    return std::nullopt;
}

std::string_view cacheConfigName(CacheConfig config)
{
    switch (config) {
    case CacheConfig::PreferNone:
        return "prefer none";
    case CacheConfig::PreferShared:
        return "prefer shared";
    case CacheConfig::PreferL1:
        return "prefer L1";
    case CacheConfig::PreferEqual:
        return "prefer equal";
    }
    return "?";
}

Function::Function(CUfunction f, std::string name, const DeviceLimits& limits)
    : m_function(f), m_name(std::move(name)), m_limits(limits)
{
    auto attr = [&](CUfunction_attribute which) {
        int v = 0;
        KS_CU(cuFuncGetAttribute, &v, which, f);
        return v;
    };
    m_attrs.maxThreadsPerBlock = attr(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    m_attrs.numRegs = attr(CU_FUNC_ATTRIBUTE_NUM_REGS);
    m_attrs.staticSharedBytes = attr(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
    m_attrs.localBytes = attr(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
    m_attrs.constBytes = attr(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES);
    m_attrs.maxDynamicSharedBytes = attr(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
    m_attrs.ptxVersion = attr(CU_FUNC_ATTRIBUTE_PTX_VERSION);
    m_attrs.binaryVersion = attr(CU_FUNC_ATTRIBUTE_BINARY_VERSION);
}

Function::Function(Function&& o) noexcept
    : m_function(std::exchange(o.m_function, nullptr))
    , m_name(std::move(o.m_name))
    , m_limits(o.m_limits)
    , m_attrs(o.m_attrs)
{
}

Function& Function::operator=(Function&& o) noexcept
{
    m_function = std::exchange(o.m_function, nullptr);
    m_name = std::move(o.m_name);
    m_limits = o.m_limits;
    m_attrs = o.m_attrs;
    return *this;
}

int Function::maxActiveBlocksPerSM(int blockSize, std::size_t dynamicSharedBytes) const
{
    if (empty())
        throwUsage("cuda::Function::maxActiveBlocksPerSM", "empty function handle");
    int blocks = 0;
    KS_CU(cuOccupancyMaxActiveBlocksPerMultiprocessor, &blocks, m_function, blockSize, dynamicSharedBytes);
    return blocks;
}

PotentialBlockSize Function::maxPotentialBlockSize(std::size_t dynamicSharedBytes, int blockSizeLimit) const
{
    if (empty())
        throwUsage("cuda::Function::maxPotentialBlockSize", "empty function handle");
    PotentialBlockSize p;
    KS_CU(cuOccupancyMaxPotentialBlockSize, &p.minGridSize, &p.blockSize, m_function, nullptr, dynamicSharedBytes,
          blockSizeLimit);
    return p;
}

void Function::setMaxDynamicSharedBytes(int bytes)
{
    if (empty())
        throwUsage("cuda::Function::setMaxDynamicSharedBytes", "empty function handle");
    if (auto why = dynamicSharedRefusal(bytes, m_limits, m_attrs))
        throwUsage("cuda::Function::setMaxDynamicSharedBytes", "kernel '" + m_name + "': " + *why);
    KS_CU(cuFuncSetAttribute, m_function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes);
    // Read back: launch validation checks against what the driver now allows.
    KS_CU(cuFuncGetAttribute, &m_attrs.maxDynamicSharedBytes, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
          m_function);
}

void Function::setPreferredSharedCarveout(int percent)
{
    if (empty())
        throwUsage("cuda::Function::setPreferredSharedCarveout", "empty function handle");
    if (auto why = carveoutRefusal(percent))
        throwUsage("cuda::Function::setPreferredSharedCarveout", "kernel '" + m_name + "': " + *why);
    KS_CU(cuFuncSetAttribute, m_function, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, percent);
}

void Function::setCacheConfig(CacheConfig config)
{
    if (empty())
        throwUsage("cuda::Function::setCacheConfig", "empty function handle");
    KS_CU(cuFuncSetCacheConfig, m_function, CUfunc_cache(config));
}

void Function::launch(const LaunchConfig& c, CUstream stream, void** params) const
{
    if (!m_function)
        throwUsage("Function::launch", "launch of an empty function handle");
    if (auto why = validateLaunch(c, m_limits, m_attrs))
        throwUsage("Function::launch", "kernel '" + m_name + "' not launched: " + *why);
    KS_CU(cuLaunchKernel, m_function, c.grid.x, c.grid.y, c.grid.z, c.block.x, c.block.y, c.block.z, c.sharedBytes,
          stream, params, nullptr);
}

Module::Module(const void* image)
{
    CUmodule m = nullptr;
    KS_CU(cuModuleLoadData, &m, image);
    adopt(m);
}

void Module::adopt(CUmodule module)
{
    m_handle.reset(module);
    CUdevice dev = 0;
    KS_CU(cuCtxGetDevice, &dev);
    m_limits = queryLimits(dev);
}

Module Module::fromFile(const std::filesystem::path& file)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
        throwUsage("cuda::Module::fromFile", "no module file '" + file.string() + "' (a CUBIN, PTX or fatbin file)");
    CUmodule m = nullptr;
    const CUresult r = driver().cuModuleLoad(&m, file.c_str());
    if (r != CUDA_SUCCESS)
        throwError(ErrorDomain::Cuda, "cuModuleLoad", r, resultName(r),
                   resultText(r) + " (loading '" + file.string() + "')");
    Module module;
    module.adopt(m);
    return module;
}

std::optional<std::string> loweredNameOf(std::string_view expression, const std::vector<std::string>& nameExpressions,
                                         const std::vector<std::string>& loweredNames)
{
    const auto it = std::find(nameExpressions.begin(), nameExpressions.end(), expression);
    const std::size_t i = std::size_t(it - nameExpressions.begin());
    if (it == nameExpressions.end() || i >= loweredNames.size() || loweredNames[i].empty())
        return std::nullopt;
    return loweredNames[i];
}

Function Module::function(const std::string& name) const
{
    CUfunction f = nullptr;
    CUresult r = driver().cuModuleGetFunction(&f, get(), name.c_str());
    if (r == CUDA_ERROR_NOT_FOUND)
        throw Error(ErrorDomain::Cuda, "cuModuleGetFunction", r, resultName(r),
                    "no kernel named '" + name + "' in the module (is it extern \"C\" or was its lowered name used?)");
    check(r, "cuModuleGetFunction");
    return Function(f, name, m_limits);
}

Function Module::function(std::string_view expression, const std::vector<std::string>& nameExpressions,
                          const std::vector<std::string>& loweredNames) const
{
    const auto lowered = loweredNameOf(expression, nameExpressions, loweredNames);
    if (!lowered) {
        const bool asked =
            std::find(nameExpressions.begin(), nameExpressions.end(), expression) != nameExpressions.end();
        throwUsage("cuda::Module::function",
                   "no lowered name for the name expression '" + std::string(expression) + "': " +
                       (asked ? "NVRTC found none (is it a __global__ function of the source?)"
                              : "it was not among the name expressions given to the compile"));
    }
    Function f = function(*lowered);
    return Function(f.get(), std::string(expression), m_limits);
}

std::optional<std::vector<std::string>> Module::functionNames() const
{
    const DriverApi& api = driver();
#if CUDA_VERSION >= 12040
    if (api.cuModuleGetFunctionCount && api.cuModuleEnumerateFunctions && api.cuFuncGetName) {
        unsigned count = 0;
        KS_CU(cuModuleGetFunctionCount, &count, get());
        std::vector<CUfunction> functions(count);
        if (count > 0)
            KS_CU(cuModuleEnumerateFunctions, functions.data(), count, get());
        std::vector<std::string> names;
        for (CUfunction f : functions) {
            const char* name = nullptr;
            KS_CU(cuFuncGetName, &name, f);
            names.emplace_back(name ? name : "");
        }
        return names;
    }
#endif
    (void)api;
    return std::nullopt;
}

bool Module::hasFunction(const std::string& name) const
{
    // Asked of the module's own list, so that a missing name costs no failing driver call (which
    // compute-sanitizer reports as an API error). Drivers before 12.4 have no list: try the name.
    if (const auto names = functionNames())
        return std::find(names->begin(), names->end(), name) != names->end();
    CUfunction f = nullptr;
    return driver().cuModuleGetFunction(&f, get(), name.c_str()) == CUDA_SUCCESS;
}

std::pair<CUdeviceptr, std::size_t> Module::global(const std::string& name) const
{
    CUdeviceptr p = 0;
    std::size_t bytes = 0;
    KS_CU(cuModuleGetGlobal, &p, &bytes, get(), name.c_str());
    return {p, bytes};
}

// ---- Linking ------------------------------------------------------------------------------

void LinkerTraits::destroy(CUlinkState h) noexcept
{
    KS_CU_NOTHROW(cuLinkDestroy, h);
}

std::string_view linkInputName(LinkInput input)
{
    switch (input) {
    case LinkInput::Cubin:
        return "cubin";
    case LinkInput::Ptx:
        return "PTX";
    case LinkInput::Fatbin:
        return "fatbin";
    case LinkInput::Object:
        return "object";
    case LinkInput::Library:
        return "library";
    }
    return "?";
}

Linker::Linker(Create) : m_buffers(std::make_unique<Buffers>())
{
    Buffers& b = *m_buffers;
    const CUjit_option options[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
                                    CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    std::copy(std::begin(options), std::end(options), b.options);
    b.values[0] = b.info;
    b.values[1] = reinterpret_cast<void*>(std::uintptr_t(kLogBytes));
    b.values[2] = b.error;
    b.values[3] = reinterpret_cast<void*>(std::uintptr_t(kLogBytes));
    CUlinkState state = nullptr;
    KS_CU(cuLinkCreate, 4u, b.options, b.values, &state);
    m_handle.reset(state);
}

Linker::~Linker()
{
    m_handle.reset(); // before the log buffers the link state writes into
}

void Linker::fail(CUresult result, const char* call, const std::string& what) const
{
    std::string text = resultText(result) + " (" + what + ")";
    if (m_buffers && m_buffers->error[0])
        text += ": " + std::string(m_buffers->error, strnlen(m_buffers->error, kLogBytes));
    throwError(ErrorDomain::Cuda, call, result, resultName(result), std::move(text));
}

Linker& Linker::add(LinkInput input, const void* data, std::size_t bytes, const std::string& name)
{
    if (empty())
        throwUsage("cuda::Linker::add", "the linker is empty (made without Linker::Create, moved from, or linked)");
    if (!data || bytes == 0)
        throwUsage("cuda::Linker::add", "no " + std::string(linkInputName(input)) + " data for '" + name + "'");
    const CUresult r = driver().cuLinkAddData(m_handle.get(), CUjitInputType(input), const_cast<void*>(data), bytes,
                                              name.c_str(), 0u, nullptr, nullptr);
    if (r != CUDA_SUCCESS)
        fail(r, "cuLinkAddData", "adding " + std::string(linkInputName(input)) + " '" + name + "'");
    return *this;
}

Linker& Linker::addPtx(const std::string& ptx, const std::string& name)
{
    // The driver reads PTX as a NUL-terminated string: pass the terminator too.
    return add(LinkInput::Ptx, ptx.c_str(), ptx.size() + 1, name);
}

Linker& Linker::addFile(LinkInput input, const std::filesystem::path& file)
{
    if (empty())
        throwUsage("cuda::Linker::addFile", "the linker is empty (made without Linker::Create, moved from, or linked)");
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
        throwUsage("cuda::Linker::addFile",
                   "no " + std::string(linkInputName(input)) + " file '" + file.string() + "'");
    const CUresult r =
        driver().cuLinkAddFile(m_handle.get(), CUjitInputType(input), file.c_str(), 0u, nullptr, nullptr);
    if (r != CUDA_SUCCESS)
        fail(r, "cuLinkAddFile", "adding " + std::string(linkInputName(input)) + " file '" + file.string() + "'");
    return *this;
}

Module Linker::link()
{
    if (empty())
        throwUsage("cuda::Linker::link", "the linker is empty (made without Linker::Create, moved from, or linked)");
    void* image = nullptr;
    std::size_t bytes = 0;
    const CUresult r = driver().cuLinkComplete(m_handle.get(), &image, &bytes);
    if (r != CUDA_SUCCESS)
        fail(r, "cuLinkComplete", "linking");
    // The image belongs to the link state: load it before the state is destroyed.
    Module module(image);
    m_handle.reset();
    return module;
}

std::string Linker::infoLog() const
{
    return m_buffers ? std::string(m_buffers->info, strnlen(m_buffers->info, kLogBytes)) : std::string();
}

} // namespace ks::cuda
