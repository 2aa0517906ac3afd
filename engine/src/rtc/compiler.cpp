#include "ks/rtc/compiler.hpp"

#include "device/device_text.hpp"

#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/core/sha256.hpp"
#include "ks/core/text_lines.hpp"
#include "ks/rtc/include_scanner.hpp"
#include "ks/rtc/kernel_facts.hpp"
#include "ks/rtc/minimal_mode.hpp"
#include "ks/rtc/symbols.hpp"

#include <nvrtc.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
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

constexpr int kMaxStaticSharedBytes = 48 * 1024;

void checkNvrtc(nvrtcResult r, const char* call, std::source_location where = std::source_location::current())
{
    if (r != NVRTC_SUCCESS)
        throwError(ErrorDomain::Nvrtc, call, r, nvrtcGetErrorString(r), "", where);
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

std::vector<std::string> toolkitIncludeDirs()
{
    std::vector<std::string> dirs;
    if (std::string cuda = cudaIncludeDir(); !cuda.empty()) {
        // CUDA 13 keeps CUB/Thrust/libcu++ under include/cccl; their headers must come first.
        std::error_code ec;
        if (fs::is_directory(fs::path(cuda) / "cccl", ec))
            dirs.push_back((fs::path(cuda) / "cccl").string());
        dirs.push_back(cuda);
    }
    return dirs;
}

std::vector<std::string> defaultIncludePaths()
{
    std::vector<std::string> paths;
    try {
        paths.push_back((paths::dataRoot() / "kernels" / "include").string());
    } catch (const Error&) {
        // No data root (a test binary run from elsewhere): user includes simply are not found.
    }
    for (std::string& dir : toolkitIncludeDirs())
        paths.push_back(std::move(dir));
    return paths;
}

std::vector<std::string> includeSearchPath(const CompileOptions& o)
{
    std::vector<std::string> paths = o.includePaths;
    for (std::string& p : defaultIncludePaths())
        paths.push_back(std::move(p));
    for (std::size_t i = 0; i < o.extra.size(); ++i) {
        const std::string& e = o.extra[i];
        for (std::string_view prefix : {"--include-path=", "-I"}) {
            if (e.rfind(prefix, 0) != 0)
                continue;
            if (e.size() > prefix.size())
                paths.push_back(e.substr(prefix.size()));
            else if (i + 1 < o.extra.size())
                paths.push_back(o.extra[i + 1]);
            break;
        }
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
    if (const FastCompile level = effectiveFastCompile(o); level != FastCompile::Off)
        opts.push_back("--Ofast-compile=" + std::string(fastCompileName(level)));
    if (o.minimal)
        opts.push_back("-minimal");
    if (o.ptxasVerbose && o.arch.rfind("sm_", 0) == 0)
        opts.push_back("-Xptxas=-v");
    if (!o.nvrtcCache)
        opts.push_back("-no-cache");
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

bool nvrtcSupportsPch()
{
    int major = 0, minor = 0;
    nvrtcVersion(&major, &minor);
    return major > 12 || (major == 12 && minor >= 8);
}

std::string_view pchUseName(PchUse use) noexcept
{
    switch (use) {
    case PchUse::Off: return "off";
    case PchUse::NotApplicable: return "n/a";
    case PchUse::Created: return "created";
    case PchUse::Used: return "used";
    case PchUse::HeapExhausted: return "heap exhausted";
    case PchUse::Failed: return "failed";
    }
    return "?";
}

std::string_view fastCompileName(FastCompile level) noexcept
{
    switch (level) {
    case FastCompile::Off: return "off";
    case FastCompile::Min: return "min";
    case FastCompile::Mid: return "mid";
    case FastCompile::Max: return "max";
    }
    return "?";
}

std::optional<FastCompile> parseFastCompile(std::string_view name) noexcept
{
    for (FastCompile level : kFastCompileLevels)
        if (name == fastCompileName(level))
            return level;
    return std::nullopt;
}

FastCompile effectiveFastCompile(const CompileOptions& options) noexcept
{
    return options.debug ? FastCompile::Off : options.fastCompile;
}

std::string_view compileModeName(CompileMode mode) noexcept
{
    switch (mode) {
    case CompileMode::Full: return "full";
    case CompileMode::Minimal: return "-minimal";
    case CompileMode::FullAfterMinimal: return "full (-minimal failed)";
    }
    return "?";
}

namespace {

// NVRTC keeps automatic PCHs in an in-process heap and names them after a folder that must exist.
// It reuses a PCH without checking whether the headers it was made from changed since (seen with
// CUDA 13.0: an edited user header kept its old macro values), so each state of the user's
// headers and options gets its own folder: a changed header means a new folder and a fresh PCH.
// The folders are process-wide by nature (so is NVRTC's heap); they are removed at exit.
class PchFolders {
public:
    PchFolders() : m_root(fs::temp_directory_path() / ("kernelscope-pch-" + std::to_string(::getpid()))) {}
    ~PchFolders()
    {
        std::error_code ec;
        fs::remove_all(m_root, ec);
    }
    // Empty when the folder cannot be made (then compiles go without PCH).
    fs::path folderFor(const Sha256::Digest& state) const
    {
        fs::path dir = m_root / Sha256::hex(state).substr(0, 24);
        std::error_code ec;
        fs::create_directories(dir, ec);
        return ec ? fs::path() : dir;
    }

private:
    fs::path m_root;
};

fs::path pchFolder(const IncludeScan& scan, const std::vector<std::string>& optionList)
{
    static const PchFolders folders;
    Sha256 state;
    for (const auto& o : optionList)
        state.field(o);
    scan.hashInto(state);
    return folders.folderFor(state.finish());
}

int flowCallback(void* payload, void*)
{
    return static_cast<const std::atomic<bool>*>(payload)->load(std::memory_order_relaxed) ? 1 : 0;
}

// Takes NVRTC's PCH messages out of the log (they are not diagnostics) and says whether a PCH
// was reused.
bool stripPchMessages(std::string& log)
{
    bool used = false;
    std::string kept;
    std::size_t start = 0;
    while (start < log.size()) {
        std::size_t end = log.find('\n', start);
        end = end == std::string::npos ? log.size() : end + 1;
        const std::string_view line(log.data() + start, end - start);
        if (line.find("\": using precompiled header file \"") != std::string_view::npos)
            used = true;
        else if (line.find("\": creating precompiled header file \"") == std::string_view::npos)
            kept += line;
        start = end;
    }
    log = std::move(kept);
    return used;
}

// Whether NVRTC's log has a catastrophic error at no line of any file: NVRTC's own trouble
// ("Catastrophic error: unable to obtain mapped memory"), not the user's ("k.cu(3): catastrophic
// error: cannot open source file ...", which has its line).
bool hasLocationlessCatastrophe(std::string_view log)
{
    for (std::string_view line : splitLines(log)) {
        if (line.rfind("nvrtc: ", 0) == 0)
            line.remove_prefix(7);
        if (line.rfind("Catastrophic error:", 0) == 0 || line.rfind("catastrophic error:", 0) == 0)
            return true;
    }
    return false;
}

// Whether the PTX names vprintf, device printf's entry point, as a whole word (a user's
// "my_vprintf" is another function).
bool callsVprintf(std::string_view ptx)
{
    auto identifier = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; };
    for (std::size_t at = ptx.find("vprintf"); at != std::string_view::npos; at = ptx.find("vprintf", at + 1)) {
        const std::size_t end = at + 7;
        if ((at == 0 || !identifier(ptx[at - 1])) && (end == ptx.size() || !identifier(ptx[end])))
            return true;
    }
    return false;
}

Diagnostic toolDiagnostic(const std::string& fileName, std::string message)
{
    Diagnostic d;
    d.file = fileName;
    d.severity = Severity::Error;
    d.message = std::move(message);
    return d;
}

// Pre-included (from memory) for lean cuRAND: curand_precalc.h and curand_mrg32k3a.h hold nothing but
// the tables and four XORWOW constants, so their include guards are set, the constants defined with
// curand_precalc.h's values, and every table name routed to a device function that is declared
// and never defined. Code that reads a table therefore fails to link ("Unresolved extern function
// 'ks_curand_..._left_out'") instead of reading something else; code that does not (Philox, Sobol,
// MTGP, the distributions) compiles to the same instructions as with the tables (a unit test
// compares the PTX).
constexpr const char* kLeanCurandHeaderName = "kernelscope_lean_curand.h";
constexpr const char* kLeanCurandHeader = device_text::kLeanCurand;

double msSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// One nvrtcCompileProgram with exactly `options`, plus the lean cuRAND header when asked.
CompileResult compileOnce(const std::string& source, const std::string& fileName, const CompileOptions& options,
                          bool leanCurand, const IncludeScan& scan, const std::vector<std::string>& nameExpressions,
                          const std::atomic<bool>* cancel)
{
    const auto start = std::chrono::steady_clock::now();
    CompileResult result;
    // The program is named after the user's file and nothing is prepended, so NVRTC's file names
    // and line numbers are the user's as they are. (A prelude would need a #line directive, and
    // NVRTC turns its precompiled headers off for a file that has one: warning #20283-D.)
    const std::string& text = source;

    nvrtcProgram raw = nullptr;
    checkNvrtc(nvrtcCreateProgram(&raw, text.c_str(), fileName.c_str(), leanCurand ? 1 : 0,
                                  leanCurand ? &kLeanCurandHeader : nullptr,
                                  leanCurand ? &kLeanCurandHeaderName : nullptr),
               "nvrtcCreateProgram");
    ProgramPtr program(raw);
    for (const auto& name : nameExpressions)
        checkNvrtc(nvrtcAddNameExpression(raw, name.c_str()), "nvrtcAddNameExpression");
    if (cancel)
        checkNvrtc(nvrtcSetFlowCallback(raw, flowCallback, const_cast<std::atomic<bool>*>(cancel)),
                   "nvrtcSetFlowCallback");

    std::vector<std::string> opts = buildOptionList(options);
    if (leanCurand)
        opts.push_back(std::string("-include=") + kLeanCurandHeaderName);
    result.curandTablesLeftOut = leanCurand;
    bool pchOn = false;
    if (options.precompiledHeaders && nvrtcSupportsPch()) {
        if (fs::path dir = pchFolder(scan, opts); !dir.empty()) {
            pchOn = true;
            opts.push_back("-pch");
            opts.push_back("-pch-dir=" + dir.string());
            opts.push_back("-pch-verbose=false");
        }
    }
    std::vector<const char*> argv;
    for (const auto& o : opts)
        argv.push_back(o.c_str());
    const auto nvrtcStart = std::chrono::steady_clock::now();
    const nvrtcResult compiled = nvrtcCompileProgram(raw, int(argv.size()), argv.data());
    result.nvrtcMs = msSince(nvrtcStart);

    std::size_t logSize = 0;
    checkNvrtc(nvrtcGetProgramLogSize(raw, &logSize), "nvrtcGetProgramLogSize");
    result.log.assign(logSize, '\0');
    if (logSize)
        checkNvrtc(nvrtcGetProgramLog(raw, result.log.data()), "nvrtcGetProgramLog");
    while (!result.log.empty() && result.log.back() == '\0')
        result.log.pop_back();
    const bool pchUsed = stripPchMessages(result.log);
    if (pchOn) {
        switch (nvrtcGetPCHCreateStatus(raw)) {
        case NVRTC_SUCCESS: result.pch = PchUse::Created; break;
        case NVRTC_ERROR_PCH_CREATE_HEAP_EXHAUSTED: result.pch = PchUse::HeapExhausted; break;
        case NVRTC_ERROR_PCH_CREATE: result.pch = PchUse::Failed; break;
        default: result.pch = pchUsed ? PchUse::Used : PchUse::NotApplicable; break;
        }
    }

    if (compiled == NVRTC_ERROR_CANCELLED) {
        result.cancelled = true;
        result.compileMs = msSince(start);
        return result;
    }
    result.diagnostics = parseLog(result.log, fileName);
    markLikelyCauses(result.diagnostics, source, fileName);

    if (compiled == NVRTC_SUCCESS) {
        result.ok = true;
        std::size_t ptxSize = 0;
        checkNvrtc(nvrtcGetPTXSize(raw, &ptxSize), "nvrtcGetPTXSize");
        result.ptx.assign(ptxSize, '\0');
        checkNvrtc(nvrtcGetPTX(raw, result.ptx.data()), "nvrtcGetPTX");
        while (!result.ptx.empty() && result.ptx.back() == '\0')
            result.ptx.pop_back();
        result.callsPrintf = callsVprintf(result.ptx);
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
    } else if (compiled == NVRTC_ERROR_COMPILATION && hasLocationlessCatastrophe(result.log)) {
        // NVRTC could not do its work ("Catastrophic error: unable to obtain mapped memory" when
        // memory or temporary space runs out): nothing about the user's code, so never cached.
        result.toolFailure = true;
        result.diagnostics.push_back(toolDiagnostic(
            fileName, "NVRTC could not compile for want of a resource (memory, temporary space or a file size "
                      "limit), not because of the code; it will be compiled again"));
    } else if (compiled != NVRTC_ERROR_COMPILATION) {
        // NVRTC itself failed (bad option, out of memory): report it as a diagnostic too, so the
        // user sees it in the same place, and keep the result a value.
        result.toolFailure = true;
        result.diagnostics.push_back(toolDiagnostic(
            fileName, std::string("NVRTC failed: ") + nvrtcGetErrorString(compiled) +
                          (result.log.empty() ? "" : " (" + result.log + ")")));
    }
    const bool anyError = std::any_of(result.diagnostics.begin(), result.diagnostics.end(),
                                      [](const Diagnostic& d) { return d.severity == Severity::Error; });
    if (!result.ok && !anyError) {
        // NVRTC can fail without a message: the back end refuses a kernel whose static shared
        // memory exceeds 48 KiB, for instance, and says nothing. Name the cause where we can.
        std::string why;
        for (const PtxasKernelReport& k : parsePtxasReport(result.log).kernels)
            if (k.sharedBytes > kMaxStaticSharedBytes)
                why += (why.empty() ? "" : "; ") + std::string("kernel '") + demangle(k.symbol) + "' declares " +
                       std::to_string(k.sharedBytes) + " bytes of static shared memory, more than the " +
                       std::to_string(kMaxStaticSharedBytes) +
                       " allowed (use extern __shared__ memory with a launch-time size and opt in with "
                       "cuFuncSetAttribute)";
        result.diagnostics.push_back(toolDiagnostic(
            fileName, why.empty() ? std::string("compilation failed without an error message from NVRTC (") +
                                        nvrtcGetErrorString(compiled) + "); see the log"
                                  : why));
    }
    result.compileMs = msSince(start);
    return result;
}

} // namespace

CompileResult compile(const std::string& source, const std::string& fileName, const CompileOptions& options,
                      const std::vector<std::string>& nameExpressions, const std::atomic<bool>* cancel)
{
    const auto start = std::chrono::steady_clock::now();
    // NVRTC takes the source as a C string: it would stop reading at a NUL byte and build the part
    // before it, so a binary file, or a kernel with garbage after a NUL, would pass as "ok".
    if (const std::size_t nul = source.find('\0'); nul != std::string::npos) {
        CompileResult refused;
        Diagnostic d = toolDiagnostic(fileName, "the source holds a NUL byte (is it a binary file?); NVRTC would stop "
                                                "reading there, so nothing was compiled");
        d.line = 1 + int(std::count(source.begin(), source.begin() + std::ptrdiff_t(nul), '\n'));
        const std::size_t newline = source.rfind('\n', nul); // the NUL itself is not one
        d.column = int(nul - (newline == std::string::npos ? 0 : newline + 1)) + 1;
        refused.diagnostics.push_back(std::move(d));
        refused.compileMs = msSince(start);
        return refused;
    }
    // One include scan serves the fast-path decisions and the PCH folder.
    const IncludeScan scan = scanIncludes(source, fileName, includeSearchPath(options), toolkitIncludeDirs());
    std::string minimalWhy = options.minimal        ? std::string()
                             : !options.autoMinimal ? "the -minimal fast path is off"
                                                    : minimalBlocker(source, scan);
    const std::string curandWhy =
        options.leanCurand ? curandTablesBlocker(source, scan) : "the lean-cuRAND fast path is off";
    const bool tryMinimal = !options.minimal && minimalWhy.empty();
    const bool tryLean = curandWhy.empty();

    CompileOptions first = options;
    first.minimal = options.minimal || tryMinimal;
    CompileResult result = compileOnce(source, fileName, first, tryLean, scan, nameExpressions, cancel);
    result.mode = options.minimal || tryMinimal ? CompileMode::Minimal : CompileMode::Full;
    result.fullReason = minimalWhy;
    result.curandTablesReason = curandWhy;
    if (!result.ok && !result.cancelled && (tryMinimal || tryLean)) {
        // Whatever the fast path said is dropped: the user sees the full compile's verdict only.
        const double fastNvrtcMs = result.nvrtcMs;
        result = compileOnce(source, fileName, options, false, scan, nameExpressions, cancel);
        result.nvrtcMs += fastNvrtcMs;
        result.mode = options.minimal ? CompileMode::Minimal
                      : tryMinimal    ? CompileMode::FullAfterMinimal
                                      : CompileMode::Full;
        result.fullReason = tryMinimal ? "-minimal failed" : minimalWhy;
        result.curandTablesReason = tryLean ? "the build without them failed" : curandWhy;
    }
    result.compileMs = msSince(start);
    return result;
}

} // namespace ks::rtc
