#include "ks/cuda/module.hpp"

#include "ks/core/error.hpp"

#include <algorithm>
#include <utility>

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
                                 std::to_string(l.maxSharedMemoryPerBlockOptin) + " after opting in)"};
    return std::nullopt;
}

std::optional<std::string> validateLaunch(const LaunchConfig& c, const DeviceLimits& l, const FunctionAttributes& a)
{
    if (auto refusal = checkLaunch(c, l, a))
        return std::move(refusal->message);
    return std::nullopt;
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
    m_handle.reset(m);
    CUdevice dev = 0;
    KS_CU(cuCtxGetDevice, &dev);
    m_limits = queryLimits(dev);
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

} // namespace ks::cuda
