#pragma once
// A loaded module (CUBIN or PTX image) and the kernels in it.

#include "ks/core/unique_handle.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/driver.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::cuda {

struct Dim3 {
    unsigned x = 1, y = 1, z = 1;
    unsigned long long count() const { return 1ull * x * y * z; }
    friend bool operator==(const Dim3&, const Dim3&) = default;
};

struct LaunchConfig {
    Dim3 grid;
    Dim3 block;
    unsigned sharedBytes = 0; // dynamic shared memory
};

struct FunctionAttributes {
    int maxThreadsPerBlock = 0; // for this kernel, given its registers
    int numRegs = 0;
    int staticSharedBytes = 0;
    int localBytes = 0;
    int constBytes = 0;
    int maxDynamicSharedBytes = 0;
    int ptxVersion = 0;
    int binaryVersion = 0;
};

// The limit a launch configuration breaks.
enum class LaunchLimit {
    ZeroDimension,         // a grid or block dimension of 0
    BlockDimension,        // blockDim.{x,y,z} above the device's maximum
    GridDimension,         // gridDim.{x,y,z} above the device's maximum
    ThreadsPerBlock,       // the device's maximum threads per block
    KernelThreadsPerBlock, // this kernel's maximum (lower when it uses many registers)
    RegistersPerBlock,     // registers per thread x threads (allocated per warp) above the device's limit
    SharedMemoryPerBlock,  // static + dynamic shared memory above the limit
};
std::string_view launchLimitName(LaunchLimit limit); // "threads per block", ...

struct LaunchRefusal {
    LaunchLimit limit;
    std::string message; // names the limit, the value asked for and the limit's value
};

// Why `config` cannot launch `attrs`'s kernel on a device with `limits`; nullopt when it can.
// Checks zero dimensions, each block and grid dimension, threads per block (device and kernel),
// registers per block (when the kernel's register count is known; a warp's registers are
// allocated in units of 256) and shared memory (static + dynamic) per block.
std::optional<LaunchRefusal> checkLaunch(const LaunchConfig& config, const DeviceLimits& limits,
                                         const FunctionAttributes& attrs);

// checkLaunch's message alone.
std::optional<std::string> validateLaunch(const LaunchConfig& config, const DeviceLimits& limits,
                                          const FunctionAttributes& attrs);

// cuOccupancyMaxPotentialBlockSize's answer: the block size with the highest occupancy (the largest
// among equals) and the smallest grid that fills every SM at it.
struct PotentialBlockSize {
    int blockSize = 0;
    int minGridSize = 0;
};

// A kernel handle. It does not own anything: it is valid while its Module lives. Move-only so
// that a stale copy cannot outlive a swap by accident; moved-from it is empty.
class Function {
public:
    Function() noexcept = default;
    Function(CUfunction f, std::string name, const DeviceLimits& limits);
    Function(const Function&) = delete;
    Function& operator=(const Function&) = delete;
    Function(Function&& other) noexcept;
    Function& operator=(Function&& other) noexcept;

    CUfunction get() const noexcept { return m_function; }
    bool empty() const noexcept { return m_function == nullptr; }
    const std::string& name() const noexcept { return m_name; }
    const FunctionAttributes& attributes() const noexcept { return m_attrs; }
    const DeviceLimits& limits() const noexcept { return m_limits; }

    // Validates against the device's limits (throws ks::Error naming the limit) and launches.
    // `params` is the driver's array of pointers to each argument.
    void launch(const LaunchConfig& config, CUstream stream, void** params) const;

    // The driver's occupancy answers for this kernel; the context of its module current, throws
    // ks::Error (an empty handle is a usage error). The host model of the same rules, which needs
    // no device, is ks/cuda/occupancy.hpp.
    // Blocks of `blockSize` threads with `dynamicSharedBytes` each resident on one SM at once
    // (cuOccupancyMaxActiveBlocksPerMultiprocessor).
    int maxActiveBlocksPerSM(int blockSize, std::size_t dynamicSharedBytes = 0) const;
    // The block size with the best occupancy, up to `blockSizeLimit` threads (0: the kernel's own
    // limit), with `dynamicSharedBytes` per block (cuOccupancyMaxPotentialBlockSize).
    PotentialBlockSize maxPotentialBlockSize(std::size_t dynamicSharedBytes = 0, int blockSizeLimit = 0) const;

private:
    CUfunction m_function = nullptr;
    std::string m_name;
    DeviceLimits m_limits;
    FunctionAttributes m_attrs;
};

struct ModuleTraits {
    using Handle = CUmodule;
    static constexpr Handle empty() { return nullptr; }
    static void destroy(Handle h) noexcept;
};

class Module {
public:
    Module() noexcept = default;
    // Loads a CUBIN, fatbin or NUL-terminated PTX image into the current context.
    explicit Module(const void* image);

    CUmodule get() const noexcept { return m_handle.get(); }
    bool empty() const noexcept { return m_handle.empty(); }

    // Throws ks::Error (CUDA_ERROR_NOT_FOUND) naming the missing kernel.
    Function function(const std::string& name) const;
    bool hasFunction(const std::string& name) const;
    // The names of the module's kernels (cuModuleEnumerateFunctions); nullopt where the driver is
    // older than 12.4 and cannot list them.
    std::optional<std::vector<std::string>> functionNames() const;
    // Device address and size of a __device__ or __constant__ variable.
    std::pair<CUdeviceptr, std::size_t> global(const std::string& name) const;

private:
    UniqueHandle<ModuleTraits> m_handle;
    DeviceLimits m_limits;
};

} // namespace ks::cuda
