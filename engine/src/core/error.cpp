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
    throw Error(ErrorDomain::Usage, std::string(function), 0, "", std::move(text), where);
}

} // namespace ks
