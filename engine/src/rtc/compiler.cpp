#include "ks/rtc/compiler.hpp"

#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"

#include <nvrtc.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>

#ifndef KS_CUDA_INCLUDE_DIR
#define KS_CUDA_INCLUDE_DIR "/usr/local/cuda/include"
#endif

namespace ks::rtc {
namespace fs = std::filesystem;

namespace {

void checkNvrtc(nvrtcResult r, const char* call, std::source_location where = std::source_location::current())
{
    if (r != NVRTC_SUCCESS)
        throw Error(ErrorDomain::Nvrtc, call, r, nvrtcGetErrorString(r), "", where);
}

struct ProgramDeleter {
    void operator()(nvrtcProgram p) const noexcept { nvrtcDestroyProgram(&p); }
};
using ProgramPtr = std::unique_ptr<std::remove_pointer_t<nvrtcProgram>, ProgramDeleter>;

bool hasCudaHeaders(const fs::path& dir)
{
    std::error_code ec;
    return fs::exists(dir / "cuda_runtime.h", ec);
}

} // namespace

std::string cudaIncludeDir()
{
    for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
        if (const char* v = std::getenv(var); v && *v && hasCudaHeaders(fs::path(v) / "include"))
            return (fs::path(v) / "include").string();
    }
    if (hasCudaHeaders(KS_CUDA_INCLUDE_DIR))
        return KS_CUDA_INCLUDE_DIR;
    if (hasCudaHeaders("/usr/local/cuda/include"))
        return "/usr/local/cuda/include";
    return {};
}

std::vector<std::string> defaultIncludePaths()
{
    std::vector<std::string> paths;
    try {
        paths.push_back((paths::dataRoot() / "kernels" / "include").string());
    } catch (const Error&) {
        // No data root (a test binary run from elsewhere): user includes simply are not found.
    }
    if (std::string cuda = cudaIncludeDir(); !cuda.empty()) {
        // CUDA 13 keeps CUB/Thrust/libcu++ under include/cccl; their headers must come first.
        std::error_code ec;
        if (fs::is_directory(fs::path(cuda) / "cccl", ec))
            paths.push_back((fs::path(cuda) / "cccl").string());
        paths.push_back(cuda);
    }
    return paths;
}

std::vector<std::string> buildOptionList(const CompileOptions& o)
{
    std::vector<std::string> opts;
    opts.push_back("-arch=" + o.arch);
    opts.push_back("-std=" + o.cppStandard);
    if (o.fastMath)
        opts.push_back("--use_fast_math");
    if (o.lineInfo)
        opts.push_back("-lineinfo");
    if (o.debug)
        opts.push_back("-G");
    if (o.ptxasVerbose && o.arch.rfind("sm_", 0) == 0)
        opts.push_back("-Xptxas=-v");
    for (const auto& d : o.defines)
        opts.push_back("-D" + d);
    for (const auto& p : o.includePaths)
        opts.push_back("-I" + p);
    for (const auto& p : defaultIncludePaths())
        opts.push_back("-I" + p);
    for (const auto& e : o.extra)
        opts.push_back(e);
    return opts;
}

std::string nvrtcVersionString()
{
    int major = 0, minor = 0;
    nvrtcVersion(&major, &minor);
    return std::to_string(major) + "." + std::to_string(minor);
}

CompileResult compile(const std::string& source, const std::string& fileName, const CompileOptions& options,
                      const std::vector<std::string>& nameExpressions)
{
    const auto start = std::chrono::steady_clock::now();
    CompileResult result;
    // Whatever the engine prepends, #line keeps every diagnostic on the user's line numbers.
    const std::string text = "#line 1 \"" + fileName + "\"\n" + source;

    nvrtcProgram raw = nullptr;
    checkNvrtc(nvrtcCreateProgram(&raw, text.c_str(), fileName.c_str(), 0, nullptr, nullptr), "nvrtcCreateProgram");
    ProgramPtr program(raw);
    for (const auto& name : nameExpressions)
        checkNvrtc(nvrtcAddNameExpression(raw, name.c_str()), "nvrtcAddNameExpression");

    const std::vector<std::string> opts = buildOptionList(options);
    std::vector<const char*> argv;
    for (const auto& o : opts)
        argv.push_back(o.c_str());
    const nvrtcResult compiled = nvrtcCompileProgram(raw, int(argv.size()), argv.data());

    std::size_t logSize = 0;
    checkNvrtc(nvrtcGetProgramLogSize(raw, &logSize), "nvrtcGetProgramLogSize");
    result.log.assign(logSize, '\0');
    if (logSize)
        checkNvrtc(nvrtcGetProgramLog(raw, result.log.data()), "nvrtcGetProgramLog");
    while (!result.log.empty() && result.log.back() == '\0')
        result.log.pop_back();
    result.diagnostics = parseLog(result.log);
    markLikelyCauses(result.diagnostics, source, fileName);

    if (compiled == NVRTC_SUCCESS) {
        result.ok = true;
        std::size_t ptxSize = 0;
        checkNvrtc(nvrtcGetPTXSize(raw, &ptxSize), "nvrtcGetPTXSize");
        result.ptx.assign(ptxSize, '\0');
        checkNvrtc(nvrtcGetPTX(raw, result.ptx.data()), "nvrtcGetPTX");
        while (!result.ptx.empty() && result.ptx.back() == '\0')
            result.ptx.pop_back();
        if (options.arch.rfind("sm_", 0) == 0) {
            std::size_t cubinSize = 0;
            checkNvrtc(nvrtcGetCUBINSize(raw, &cubinSize), "nvrtcGetCUBINSize");
            result.cubin.resize(cubinSize);
            checkNvrtc(nvrtcGetCUBIN(raw, reinterpret_cast<char*>(result.cubin.data())), "nvrtcGetCUBIN");
        }
        for (const auto& name : nameExpressions) {
            const char* lowered = nullptr;
            result.loweredNames.push_back(nvrtcGetLoweredName(raw, name.c_str(), &lowered) == NVRTC_SUCCESS && lowered
                                              ? lowered
                                              : "");
        }
    } else if (compiled != NVRTC_ERROR_COMPILATION) {
        // NVRTC itself failed (bad option, out of memory): report it as a diagnostic too, so the
        // user sees it in the same place, and keep the result a value.
        Diagnostic d;
        d.file = fileName;
        d.severity = Severity::Error;
        d.message = std::string("NVRTC failed: ") + nvrtcGetErrorString(compiled) +
                    (result.log.empty() ? "" : " (" + result.log + ")");
        result.diagnostics.push_back(std::move(d));
    }
    if (!result.ok && result.diagnostics.empty()) {
        Diagnostic d;
        d.file = fileName;
        d.message = "compilation failed: " + result.log;
        result.diagnostics.push_back(std::move(d));
    }
    result.compileMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return result;
}

} // namespace ks::rtc
