#include "ks/core/error.hpp"

#include <sstream>

namespace ks {

std::string_view domainName(ErrorDomain domain) noexcept
{
    switch (domain) {
    case ErrorDomain::Cuda: return "CUDA driver";
    case ErrorDomain::CudaRuntime: return "CUDA runtime";
    case ErrorDomain::Nvrtc: return "NVRTC";
    case ErrorDomain::Curand: return "cuRAND";
    case ErrorDomain::Gl: return "OpenGL";
    case ErrorDomain::Egl: return "EGL";
    case ErrorDomain::System: return "system";
    case ErrorDomain::Usage: return "usage";
    }
    return "unknown";
}

std::string formatError(std::string_view file, unsigned line, std::string_view call, long long code,
                        std::string_view codeName, std::string_view text)
{
    std::ostringstream out;
    out << file << ':' << line << ' ' << call;
    if (!codeName.empty())
        out << ' ' << codeName << " (" << code << ')';
    if (!text.empty())
        out << ": " << text;
    return out.str();
}

Error::Error(ErrorDomain domain, std::string call, long long code, std::string codeName, std::string text,
             std::source_location where)
    : std::runtime_error(formatError(where.file_name(), where.line(), call, code, codeName, text))
    , m_domain(domain)
    , m_call(std::move(call))
    , m_code(code)
    , m_codeName(std::move(codeName))
    , m_text(std::move(text))
    , m_file(where.file_name())
    , m_line(where.line())
{
}

void throwUsage(std::string_view function, std::string text, std::source_location where)
{
    throw UsageError(ErrorDomain::Usage, std::string(function), 0, "", std::move(text), where);
}

namespace {

// CUDA driver results by their number (the driver's ABI: without a driver to name them they read
// "CUresult 2"), the runtime's, cuRAND's and NVRTC's by name, so that core needs no library's header.
bool isOutOfMemory(ErrorDomain domain, long long code, std::string_view name)
{
    if (domain == ErrorDomain::Cuda && code == 2) // CUDA_ERROR_OUT_OF_MEMORY
        return true;
    return name == "cudaErrorMemoryAllocation" || name == "CURAND_STATUS_ALLOCATION_FAILED" ||
           name == "NVRTC_ERROR_OUT_OF_MEMORY";
}

bool isLaunchFailure(ErrorDomain domain, long long code, std::string_view name)
{
    // CUDA_ERROR_ILLEGAL_ADDRESS 700, _LAUNCH_OUT_OF_RESOURCES 701, _LAUNCH_TIMEOUT 702, _ASSERT 710,
    // _HARDWARE_STACK_ERROR 714, _ILLEGAL_INSTRUCTION 715, _MISALIGNED_ADDRESS 716,
    // _INVALID_ADDRESS_SPACE 717, _INVALID_PC 718, _LAUNCH_FAILED 719.
    if (domain == ErrorDomain::Cuda && (code == 700 || code == 701 || code == 702 || code == 710 ||
                                        (code >= 714 && code <= 719)))
        return true;
    static constexpr std::string_view kNames[] = {
        "cudaErrorLaunchFailure",      "cudaErrorIllegalAddress",    "cudaErrorLaunchTimeout",
        "cudaErrorLaunchOutOfResources", "cudaErrorIllegalInstruction", "cudaErrorMisalignedAddress",
        "cudaErrorInvalidAddressSpace", "cudaErrorInvalidPc",         "cudaErrorHardwareStackError",
        "cudaErrorAssert",
    };
    for (std::string_view n : kNames)
        if (name == n)
            return true;
    return false;
}

} // namespace

void throwError(ErrorDomain domain, std::string call, long long code, std::string codeName, std::string text,
                std::source_location where)
{
    if (domain == ErrorDomain::Usage)
        throw UsageError(domain, std::move(call), code, std::move(codeName), std::move(text), where);
    if (isOutOfMemory(domain, code, codeName))
        throw OutOfMemoryError(domain, std::move(call), code, std::move(codeName), std::move(text), where);
    if (isLaunchFailure(domain, code, codeName))
        throw LaunchError(domain, std::move(call), code, std::move(codeName), std::move(text), where);
    if (domain == ErrorDomain::Nvrtc && codeName == "NVRTC_ERROR_COMPILATION")
        throw CompileError(domain, std::move(call), code, std::move(codeName), std::move(text), where);
    throw Error(domain, std::move(call), code, std::move(codeName), std::move(text), where);
}

} // namespace ks
