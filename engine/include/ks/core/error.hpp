#pragma once
// Kernelscope's one exception type. Every failed CUDA driver, CUDA runtime, NVRTC, cuRAND, GL or
// EGL call becomes a ks::Error that names the call, the code, the code's name, its text and the
// place in the source that made the call. Nothing in the engine exits the process.

#include <source_location>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace ks {

enum class ErrorDomain { Cuda, CudaRuntime, Nvrtc, Curand, Gl, Egl, System, Usage };

std::string_view domainName(ErrorDomain domain) noexcept;

class Error : public std::runtime_error {
public:
    // `call` is the API function that failed ("cuModuleLoadData"), `code` its numeric result,
    // `codeName` the symbolic name ("CUDA_ERROR_INVALID_PTX"), `text` the library's description
    // plus anything the caller adds.
    Error(ErrorDomain domain, std::string call, long long code, std::string codeName, std::string text,
          std::source_location where = std::source_location::current());

    ErrorDomain domain() const noexcept { return m_domain; }
    const std::string& call() const noexcept { return m_call; }
    long long code() const noexcept { return m_code; }
    const std::string& codeName() const noexcept { return m_codeName; }
    const std::string& text() const noexcept { return m_text; }
    const std::string& file() const noexcept { return m_file; }
    unsigned line() const noexcept { return m_line; }

private:
    ErrorDomain m_domain;
    std::string m_call;
    long long m_code;
    std::string m_codeName;
    std::string m_text;
    std::string m_file;
    unsigned m_line;
};

// The kinds a caller can catch apart, as PyCUDA's exception classes allow. Each is a ks::Error and
// carries everything ks::Error does; catching ks::Error still catches them all. throwError and
// throwUsage make them. (A template, not `using Error::Error`: nvcc's front end cannot inherit a
// constructor whose default argument is std::source_location::current().)
template <class Tag>
class ErrorOfKind : public Error {
public:
    ErrorOfKind(ErrorDomain domain, std::string call, long long code, std::string codeName, std::string text,
                std::source_location where)
        : Error(domain, std::move(call), code, std::move(codeName), std::move(text), where)
    {
    }
};
// An engine API called wrongly: a bad argument, a launch beyond a limit.
using UsageError = ErrorOfKind<struct UsageTag>;
// Device memory (or a library's allocation) ran out.
using OutOfMemoryError = ErrorOfKind<struct OutOfMemoryTag>;
// A kernel failed while it ran: a fault, a trap, a timeout.
using LaunchError = ErrorOfKind<struct LaunchTag>;
// NVRTC refused the source (the text has the diagnostics).
using CompileError = ErrorOfKind<struct CompileTag>;

// Throws the kind that fits the domain and the code's name (CUDA driver and runtime, NVRTC,
// cuRAND); a plain ks::Error for every other failure.
[[noreturn]] void throwError(ErrorDomain domain, std::string call, long long code, std::string codeName,
                             std::string text, std::source_location where = std::source_location::current());

// "engine/src/rtc/compiler.cpp:88 cuModuleLoadData CUDA_ERROR_INVALID_PTX (218): a PTX JIT ..."
std::string formatError(std::string_view file, unsigned line, std::string_view call, long long code,
                        std::string_view codeName, std::string_view text);

// An error in how an engine API was used (bad argument, launch beyond a limit): no library call
// failed, so the "call" is the engine function that refused.
[[noreturn]] void throwUsage(std::string_view function, std::string text,
                             std::source_location where = std::source_location::current());

} // namespace ks
