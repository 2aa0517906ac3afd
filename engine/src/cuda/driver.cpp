#include "ks/cuda/driver.hpp"

#include "ks/core/error.hpp"
#include "ks/core/log.hpp"

#include <dlfcn.h>

#include <mutex>

namespace ks::cuda {
namespace {

struct LoadedDriver {
    DriverApi api;
    DriverStatus status;
};

LoadedDriver load()
{
    LoadedDriver d;
    // KS_FAKE_NO_CUDA lets tests and users exercise the no-driver path on a machine that has one.
    if (const char* fake = std::getenv("KS_FAKE_NO_CUDA"); fake && *fake && *fake != '0') {
        d.status.reason = "CUDA driver not found: disabled by KS_FAKE_NO_CUDA";
        return d;
    }
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char* why = dlerror();
        d.status.reason = std::string("CUDA driver not found: ") + (why ? why : "libcuda.so.1 could not be loaded") +
                          " (install the NVIDIA driver to run kernels; compiling and checking work without it)";
        return d;
    }
    // Each entry point is resolved by the exact symbol that cuda.h's version macros map its name to
    // (cuMemAlloc -> cuMemAlloc_v2), so the function matches the prototype this file was compiled
    // against. cuGetProcAddress(name, CUDA_VERSION) is not safe here: for some functions it returns
    // a newer ABI than the header's default (CUDA 13 maps cuCtxGetDevice to cuCtxGetDevice_v2,
    // which takes an extra argument).
    std::string missing;
#define KS_CUDA_STRINGIFY_EXPANDED(x) KS_CUDA_STRINGIFY(x)
#define KS_CUDA_STRINGIFY(x) #x
#define KS_CUDA_RESOLVE(fn)                                                                                \
    if (void* p = dlsym(lib, KS_CUDA_STRINGIFY_EXPANDED(fn)))                                              \
        d.api.fn = reinterpret_cast<decltype(d.api.fn)>(p);                                                \
    else                                                                                                   \
        missing += std::string(missing.empty() ? "" : ", ") + KS_CUDA_STRINGIFY_EXPANDED(fn);
    KS_CUDA_DRIVER_FUNCTIONS(KS_CUDA_RESOLVE)
#undef KS_CUDA_RESOLVE
#undef KS_CUDA_STRINGIFY
#undef KS_CUDA_STRINGIFY_EXPANDED
    if (!d.api.cuInit || !d.api.cuGetErrorName || !d.api.cuDeviceGetCount) {
        d.status.reason = "CUDA driver unusable: missing entry points " + missing;
        return d;
    }
    if (!missing.empty())
        log::warning("CUDA driver lacks " + missing + "; features that use them are unavailable");
    d.api.cuDriverGetVersion(&d.status.driverVersion);
    if (CUresult r = d.api.cuInit(0); r != CUDA_SUCCESS) {
        const char* name = nullptr;
        d.api.cuGetErrorName(r, &name);
        d.status.reason = std::string("CUDA unavailable: cuInit failed with ") + (name ? name : "?") +
                          (r == CUDA_ERROR_NO_DEVICE ? " (no CUDA-capable device is visible)" : "");
        return d;
    }
    d.api.cuDeviceGetCount(&d.status.deviceCount);
    if (d.status.deviceCount == 0) {
        d.status.reason = "CUDA unavailable: the driver reports no CUDA device";
        return d;
    }
    d.status.available = true;
    return d;
}

const LoadedDriver& loaded()
{
    static const LoadedDriver d = load();
    return d;
}

} // namespace

const DriverStatus& driverStatus()
{
    return loaded().status;
}

const DriverApi& driver(std::source_location where)
{
    const LoadedDriver& d = loaded();
    if (!d.status.available)
        throw Error(ErrorDomain::Cuda, "cuInit", CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED",
                    d.status.reason, where);
    return d.api;
}

std::string resultName(CUresult result)
{
    const DriverApi& api = loaded().api;
    const char* name = nullptr;
    if (api.cuGetErrorName && api.cuGetErrorName(result, &name) == CUDA_SUCCESS && name)
        return name;
    return "CUresult " + std::to_string(int(result));
}

std::string resultText(CUresult result)
{
    const DriverApi& api = loaded().api;
    const char* text = nullptr;
    if (api.cuGetErrorString && api.cuGetErrorString(result, &text) == CUDA_SUCCESS && text)
        return text;
    return "unknown CUDA error";
}

bool isStickyError(CUresult result) noexcept
{
    switch (int(result)) {
    case 700: // CUDA_ERROR_ILLEGAL_ADDRESS
    case 702: // CUDA_ERROR_LAUNCH_TIMEOUT
    case 710: // CUDA_ERROR_ASSERT
    case 714: // CUDA_ERROR_HARDWARE_STACK_ERROR
    case 715: // CUDA_ERROR_ILLEGAL_INSTRUCTION
    case 716: // CUDA_ERROR_MISALIGNED_ADDRESS
    case 717: // CUDA_ERROR_INVALID_ADDRESS_SPACE
    case 718: // CUDA_ERROR_INVALID_PC
    case 719: // CUDA_ERROR_LAUNCH_FAILED
        return true;
    default:
        return false;
    }
}

namespace {

std::mutex& lostMutex()
{
    static std::mutex m;
    return m;
}

std::optional<LostContext>& lostRecord()
{
    static std::optional<LostContext> record;
    return record;
}

// Records the first sticky error; returns the text for the error (with the note when sticky).
std::string noteIfSticky(CUresult result, const char* call, std::source_location where)
{
    std::string text = resultText(result);
    if (!isStickyError(result))
        return text;
    text += kLostContextNote;
    std::lock_guard lock(lostMutex());
    if (!lostRecord())
        lostRecord() = LostContext{result, call,
                                   formatError(where.file_name(), where.line(), call, result, resultName(result), text)};
    return text;
}

} // namespace

std::optional<LostContext> lostContext()
{
    std::lock_guard lock(lostMutex());
    return lostRecord();
}

void check(CUresult result, const char* call, std::source_location where)
{
    if (result == CUDA_SUCCESS)
        return;
    std::string text = noteIfSticky(result, call, where);
    throwError(ErrorDomain::Cuda, call, result, std::string(resultName(result)), std::move(text), where);
}

void throwMissingEntryPoint(const char* name, std::source_location where)
{
    throw Error(ErrorDomain::Cuda, name, CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED",
                "the installed driver (CUDA " + std::to_string(loaded().status.driverVersion / 1000) + "." +
                    std::to_string(loaded().status.driverVersion % 1000 / 10) +
                    ") lacks this entry point; update the NVIDIA driver",
                where);
}

void checkNoThrow(CUresult result, const char* call, std::source_location where) noexcept
{
    if (result == CUDA_SUCCESS)
        return;
    // Cleanup after a sticky error fails the same way for every object: the first report said it.
    if (isStickyError(result) && lostContext() && lostContext()->code == result)
        return;
    try {
        log::error(formatError(where.file_name(), where.line(), call, result, resultName(result),
                               noteIfSticky(result, call, where)));
    } catch (...) {
    }
}

} // namespace ks::cuda
