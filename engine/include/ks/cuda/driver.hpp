#pragma once
// The CUDA driver API, loaded at run time.
//
// Kernelscope never links libcuda: it opens libcuda.so.1 with dlopen and resolves every entry
// point by the versioned symbol that cuda.h maps its name to (the ABI it was compiled against). A machine without
// an NVIDIA driver therefore still starts the program; driverStatus() then says why CUDA is
// unavailable ("CUDA driver not found: libcuda.so.1: cannot open shared object file") and
// driver() throws a ks::Error carrying that reason.
//
// The loaded library is process-wide state by nature (one libcuda per process); it is loaded once,
// on first use, under a lock, and never unloaded.

#include <cuda.h>
// cudaGL.h pulls in <GL/gl.h>; glad's header must come first (it then stands in for it).
#include <glad/gl.h>
#include <cudaGL.h>

#include <optional>
#include <source_location>
#include <string>

// X(name) for every driver entry point Kernelscope uses. The member of DriverApi takes the name
// after cuda.h's version macros (cuMemAlloc -> cuMemAlloc_v2), so `api.cuMemAlloc(...)` calls the
// versioned function, and that same expanded name is the symbol looked up in libcuda.
#define KS_CUDA_DRIVER_FUNCTIONS_BASE(X)                                                                   \
    X(cuGetErrorName)                                                                                      \
    X(cuGetErrorString)                                                                                    \
    X(cuInit)                                                                                              \
    X(cuDriverGetVersion)                                                                                  \
    X(cuDeviceGetCount)                                                                                    \
    X(cuDeviceGet)                                                                                         \
    X(cuDeviceGetName)                                                                                     \
    X(cuDeviceGetAttribute)                                                                                \
    X(cuDeviceTotalMem)                                                                                    \
    X(cuDeviceGetPCIBusId)                                                                                 \
    X(cuDevicePrimaryCtxRetain)                                                                            \
    X(cuDevicePrimaryCtxRelease)                                                                           \
    X(cuCtxSetCurrent)                                                                                     \
    X(cuCtxGetCurrent)                                                                                     \
    X(cuCtxGetDevice)                                                                                      \
    X(cuCtxSynchronize)                                                                                    \
    X(cuCtxCreate)                                                                                         \
    X(cuCtxDestroy)                                                                                        \
    X(cuCtxPushCurrent)                                                                                    \
    X(cuCtxPopCurrent)                                                                                     \
    X(cuCtxSetLimit)                                                                                       \
    X(cuCtxGetLimit)                                                                                       \
    X(cuMemGetInfo)                                                                                        \
    X(cuMemGetAddressRange)                                                                                \
    X(cuMemAlloc)                                                                                          \
    X(cuMemAllocAsync)                                                                                     \
    X(cuMemFreeAsync)                                                                                      \
    X(cuDeviceGetDefaultMemPool)                                                                           \
    X(cuMemPoolSetAttribute)                                                                               \
    X(cuMemPoolGetAttribute)                                                                               \
    X(cuMemPoolTrimTo)                                                                                     \
    X(cuMemAllocManaged)                                                                                   \
    X(cuMemPrefetchAsync)                                                                                  \
    X(cuMemAllocPitch)                                                                                     \
    X(cuMemFree)                                                                                           \
    X(cuMemAllocHost)                                                                                      \
    X(cuMemHostAlloc)                                                                                      \
    X(cuMemHostGetDevicePointer)                                                                           \
    X(cuMemFreeHost)                                                                                       \
    X(cuMemHostRegister)                                                                                   \
    X(cuMemHostUnregister)                                                                                 \
    X(cuMemcpyHtoD)                                                                                        \
    X(cuMemcpyDtoH)                                                                                        \
    X(cuMemcpyDtoD)                                                                                        \
    X(cuMemcpyHtoDAsync)                                                                                   \
    X(cuMemcpyDtoHAsync)                                                                                   \
    X(cuMemcpyDtoDAsync)                                                                                   \
    X(cuMemcpy2DAsync)                                                                                     \
    X(cuMemcpy2D)                                                                                          \
    X(cuMemsetD8)                                                                                          \
    X(cuMemsetD16)                                                                                         \
    X(cuMemsetD2D8)                                                                                        \
    X(cuMemsetD2D16)                                                                                       \
    X(cuMemsetD2D32)                                                                                       \
    X(cuMemsetD32)                                                                                         \
    X(cuMemsetD8Async)                                                                                     \
    X(cuMemsetD32Async)                                                                                    \
    X(cuStreamCreate)                                                                                      \
    X(cuStreamDestroy)                                                                                     \
    X(cuStreamSynchronize)                                                                                 \
    X(cuStreamQuery)                                                                                       \
    X(cuStreamWaitEvent)                                                                                   \
    X(cuEventCreate)                                                                                       \
    X(cuEventDestroy)                                                                                      \
    X(cuEventRecord)                                                                                       \
    X(cuEventQuery)                                                                                        \
    X(cuEventSynchronize)                                                                                  \
    X(cuEventElapsedTime)                                                                                  \
    X(cuIpcGetEventHandle)                                                                                 \
    X(cuIpcOpenEventHandle)                                                                                \
    X(cuModuleLoadData)                                                                                    \
    X(cuModuleLoad)                                                                                        \
    X(cuModuleLoadDataEx)                                                                                  \
    X(cuModuleUnload)                                                                                      \
    X(cuModuleGetFunction)                                                                                 \
    X(cuModuleGetGlobal)                                                                                   \
    X(cuFuncGetAttribute)                                                                                  \
    X(cuFuncSetAttribute)                                                                                  \
    X(cuFuncSetCacheConfig)                                                                                \
    X(cuLinkCreate)                                                                                        \
    X(cuLinkAddData)                                                                                       \
    X(cuLinkAddFile)                                                                                       \
    X(cuLinkComplete)                                                                                      \
    X(cuLinkDestroy)                                                                                       \
    X(cuLaunchKernel)                                                                                      \
    X(cuOccupancyMaxActiveBlocksPerMultiprocessor)                                                         \
    X(cuOccupancyMaxPotentialBlockSize)                                                                    \
    X(cuGraphicsGLRegisterBuffer)                                                                          \
    X(cuGraphicsGLRegisterImage)                                                                           \
    X(cuGraphicsUnregisterResource)                                                                        \
    X(cuGraphicsMapResources)                                                                              \
    X(cuGraphicsUnmapResources)                                                                            \
    X(cuGraphicsResourceGetMappedPointer)                                                                  \
    X(cuGraphicsSubResourceGetMappedArray)                                                                 \
    X(cuGraphicsResourceSetMapFlags)                                                                       \
    X(cuGLGetDevices)                                                                                      \
    X(cuArray3DCreate)                                                                                     \
    X(cuArrayDestroy)                                                                                      \
    X(cuSurfObjectCreate)                                                                                  \
    X(cuSurfObjectDestroy)                                                                                 \
    X(cuTexObjectCreate)                                                                                   \
    X(cuTexObjectDestroy)                                                                                  \
    X(cuMemGetAllocationGranularity)                                                                       \
    X(cuMemCreate)                                                                                         \
    X(cuMemRelease)                                                                                        \
    X(cuMemAddressReserve)                                                                                 \
    X(cuMemAddressFree)                                                                                    \
    X(cuMemMap)                                                                                            \
    X(cuMemUnmap)                                                                                          \
    X(cuMemSetAccess)                                                                                      \
    X(cuMemExportToShareableHandle)                                                                        \
    X(cuMemImportFromShareableHandle)                                                                      \
    X(cuImportExternalMemory)                                                                              \
    X(cuDestroyExternalMemory)                                                                             \
    X(cuExternalMemoryGetMappedMipmappedArray)                                                             \
    X(cuMipmappedArrayGetLevel)                                                                            \
    X(cuMipmappedArrayDestroy)

#if CUDA_VERSION >= 12040
#define KS_CUDA_DRIVER_FUNCTIONS(X)                                                                        \
    KS_CUDA_DRIVER_FUNCTIONS_BASE(X)                                                                       \
    X(cuFuncGetParamInfo)                                                                                  \
    X(cuFuncGetName)                                                                                       \
    X(cuModuleGetFunctionCount)                                                                            \
    X(cuModuleEnumerateFunctions)
#else
#define KS_CUDA_DRIVER_FUNCTIONS(X) KS_CUDA_DRIVER_FUNCTIONS_BASE(X)
#endif

namespace ks::cuda {

struct DriverApi {
#define KS_CUDA_DECLARE_MEMBER(fn) decltype(&::fn) fn = nullptr;
    KS_CUDA_DRIVER_FUNCTIONS(KS_CUDA_DECLARE_MEMBER)
#undef KS_CUDA_DECLARE_MEMBER
};

struct DriverStatus {
    bool available = false;
    std::string reason;      // why not, when !available ("CUDA driver not found: ...")
    int driverVersion = 0;   // e.g. 13000, when the library loaded
    int deviceCount = 0;
};

// Loads the driver on first call and never throws. Safe from any thread.
const DriverStatus& driverStatus();

// The loaded entry points. Throws ks::Error (domain Cuda) with driverStatus().reason when the
// driver is unavailable or has no device.
const DriverApi& driver(std::source_location where = std::source_location::current());

// Throws a ks::Error naming `call`, the CUresult's name and text, and `where`.
void check(CUresult result, const char* call, std::source_location where = std::source_location::current());

// For destructors: logs instead of throwing.
void checkNoThrow(CUresult result, const char* call,
                  std::source_location where = std::source_location::current()) noexcept;

[[noreturn]] void throwMissingEntryPoint(const char* name, std::source_location where);

// "CUDA_ERROR_INVALID_VALUE" (or "CUresult 123" when the driver is missing or does not know it).
// Sticky errors: after one of these (an illegal or misaligned address, a trap or failed device
// assert, a hardware stack error, an illegal instruction, a launch failure or timeout) every later
// CUDA call of the process fails and no reset recovers it; only a new process can use the GPU.
bool isStickyError(CUresult result) noexcept;
// The first sticky error this process saw in any checked call (check() and checkNoThrow() record
// it); nullopt while the context is healthy. Process-wide by nature: the loss is the process's.
struct LostContext {
    CUresult code = CUDA_SUCCESS;
    std::string call;     // the call that reported it ("cuEventSynchronize")
    std::string message;  // formatted like ks::Error::what()
};
std::optional<LostContext> lostContext();
// The sentence ks::Error messages of sticky errors end with.
inline constexpr const char* kLostContextNote =
    "; the CUDA context of this process is lost (a sticky error): every later CUDA call in this process fails, "
    "and only a new process can use the GPU again";
std::string resultName(CUresult result);
std::string resultText(CUresult result);

} // namespace ks::cuda

namespace ks::cuda {
// The entry point, or a ks::Error saying this driver lacks it (an older driver than the toolkit).
template <class Fn>
Fn entry(Fn fn, const char* name, std::source_location where = std::source_location::current())
{
    if (!fn)
        throwMissingEntryPoint(name, where);
    return fn;
}
} // namespace ks::cuda

// KS_CU(cuMemAlloc, &ptr, bytes): calls the loaded entry point and throws a ks::Error naming
// "cuMemAlloc" and the caller's file and line on failure.
#define KS_CU(fn, ...) ::ks::cuda::check(::ks::cuda::entry(::ks::cuda::driver().fn, #fn)(__VA_ARGS__), #fn)
#define KS_CU_NOTHROW(fn, ...)                                                                             \
    ((::ks::cuda::driver().fn) ? ::ks::cuda::checkNoThrow(::ks::cuda::driver().fn(__VA_ARGS__), #fn) : void())
