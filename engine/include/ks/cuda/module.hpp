#pragma once
// A loaded module (CUBIN, PTX or fatbin, from memory, a file or a link of several pieces) and the
// kernels in it.

#include "ks/core/unique_handle.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/driver.hpp"

#include <cstddef>
#include <filesystem>
#include <memory>
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

// Why a kernel with `attrs` cannot be given `bytes` of dynamic shared memory per block on a device
// with `limits` (negative, or static + dynamic above the device's opt-in maximum); nullopt when it
// can. Pure host code.
std::optional<std::string> dynamicSharedRefusal(int bytes, const DeviceLimits& limits, const FunctionAttributes& attrs);

// Why `percent` is no shared-memory carveout (-1 for the default, else 0..100); nullopt when it is.
std::optional<std::string> carveoutRefusal(int percent);

// cuFuncSetCacheConfig's preference between L1 and shared memory (a hint the device may ignore).
enum class CacheConfig {
    PreferNone = CU_FUNC_CACHE_PREFER_NONE,
    PreferShared = CU_FUNC_CACHE_PREFER_SHARED,
    PreferL1 = CU_FUNC_CACHE_PREFER_L1,
    PreferEqual = CU_FUNC_CACHE_PREFER_EQUAL,
};
std::string_view cacheConfigName(CacheConfig config); // "prefer none", "prefer shared", ...

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

    // Lets launches use up to `bytes` of dynamic shared memory per block, above the default 48 KiB
    // up to the device's opt-in maximum (cuFuncSetAttribute, MAX_DYNAMIC_SHARED_SIZE_BYTES). The
    // setting belongs to the kernel in its module: Functions obtained later see it too. Beyond the
    // maximum it is refused (a UsageError naming both numbers) before the driver is asked. Launch
    // validation then allows launches up to static + `bytes`.
    void setMaxDynamicSharedBytes(int bytes);
    // The preferred share of the unified L1/shared storage given to shared memory, in percent
    // (0..100, or -1 for the driver's default); a hint (PREFERRED_SHARED_MEMORY_CARVEOUT).
    void setPreferredSharedCarveout(int percent);
    void setCacheConfig(CacheConfig config);

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
    // Loads a CUBIN, PTX or fatbin file (cuModuleLoad; the driver tells them apart). A file that
    // does not exist is refused (a UsageError naming it) before the driver is asked.
    static Module fromFile(const std::filesystem::path& file);

    CUmodule get() const noexcept { return m_handle.get(); }
    bool empty() const noexcept { return m_handle.empty(); }

    // Throws ks::Error (CUDA_ERROR_NOT_FOUND) naming the missing kernel.
    Function function(const std::string& name) const;
    // The kernel of C++ name expression `expression` ("scale<float>", "ns::step": kernels without
    // extern "C"), found by NVRTC's lowered name: `loweredNames[i]` belongs to `nameExpressions[i]`,
    // as rtc::compile returns them (CompileResult::loweredNames for the expressions it was given).
    // The Function is named by the expression. An expression not among them, or one NVRTC found no
    // lowered name for, is refused (a UsageError).
    Function function(std::string_view expression, const std::vector<std::string>& nameExpressions,
                      const std::vector<std::string>& loweredNames) const;
    bool hasFunction(const std::string& name) const;
    // The names of the module's kernels (cuModuleEnumerateFunctions); nullopt where the driver is
    // older than 12.4 and cannot list them.
    std::optional<std::vector<std::string>> functionNames() const;
    // Device address and size of a __device__ or __constant__ variable.
    std::pair<CUdeviceptr, std::size_t> global(const std::string& name) const;

private:
    friend class Linker;
    void adopt(CUmodule module); // owns `module`, loaded into the current context

    UniqueHandle<ModuleTraits> m_handle;
    DeviceLimits m_limits;
};

// `expression`'s lowered name among `nameExpressions` / `loweredNames` (rtc::compile's order);
// nullopt when it is not among them or its lowered name is empty. Pure host code.
std::optional<std::string> loweredNameOf(std::string_view expression, const std::vector<std::string>& nameExpressions,
                                         const std::vector<std::string>& loweredNames);

// What the linker is given: cuLinkAddData / cuLinkAddFile's input types.
enum class LinkInput {
    Cubin = CU_JIT_INPUT_CUBIN,
    Ptx = CU_JIT_INPUT_PTX,
    Fatbin = CU_JIT_INPUT_FATBINARY,
    Object = CU_JIT_INPUT_OBJECT,
    Library = CU_JIT_INPUT_LIBRARY, // an archive of objects (libcudadevrt.a)
};
std::string_view linkInputName(LinkInput input); // "cubin", "PTX", ...

struct LinkerTraits {
    using Handle = CUlinkState;
    static constexpr Handle empty() { return nullptr; }
    static void destroy(Handle h) noexcept;
};

// Links several pieces of device code into one module (cuLinkCreate / AddData / AddFile /
// Complete): relocatable code compiled apart (NVRTC or nvcc with -rdc=true), which calls across
// pieces, and libraries such as libcudadevrt.a for launches from the device. Needs a current
// context (the link targets its device). A failed step throws ks::Error whose text ends with the
// linker's error log. Move-only; link() can be called once.
class Linker {
public:
    struct Create {};
    Linker() noexcept = default; // empty
    explicit Linker(Create);
    ~Linker();
    Linker(Linker&&) noexcept = default;
    Linker& operator=(Linker&&) noexcept = default;

    // `name` names the piece in the linker's messages. PTX is passed with its text (no NUL needed).
    Linker& add(LinkInput input, const void* data, std::size_t bytes, const std::string& name);
    Linker& addPtx(const std::string& ptx, const std::string& name);
    // A file that does not exist is refused (a UsageError naming it) before the driver is asked.
    Linker& addFile(LinkInput input, const std::filesystem::path& file);
    // Completes the link and loads the result into the current context.
    Module link();
    // The linker's information log so far (what it did, and warnings).
    std::string infoLog() const;
    bool empty() const noexcept { return m_handle.empty(); }

private:
    [[noreturn]] void fail(CUresult result, const char* call, const std::string& what) const;

    // What cuLinkCreate was given. The driver writes the logs, and the logs' filled sizes into
    // `values`, for as long as the link state lives: the option arrays must outlive it too (a
    // constructor's local arrays were written into after it returned, and the test process
    // crashed). On the heap, so that a moved Linker's state still points at them.
    static constexpr unsigned kLogBytes = 16 * 1024;
    struct Buffers {
        char info[kLogBytes] = {};
        char error[kLogBytes] = {};
        CUjit_option options[4] = {};
        void* values[4] = {};
    };
    std::unique_ptr<Buffers> m_buffers; // declared first: destroyed after the link state
    UniqueHandle<LinkerTraits> m_handle;
};

} // namespace ks::cuda
