#pragma once
// Run-time compilation of CUDA C++ with NVRTC. A failed compile of user code is a value (ok ==
// false plus diagnostics), never an exception; exceptions are for NVRTC itself failing.
// Thread-safe: independent compiles may run on several threads at once.

#include "ks/rtc/diagnostics.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::rtc {

// NVRTC's --Ofast-compile: trades the generated code's speed for compile time. Each level up
// compiles somewhat faster and runs its kernels slower; "max" keeps every device function as a
// call, which slows kernels the most (ks_bench_rtc measures the levels in rounds; docs/measurements.md,
// "NVRTC's fast-compile levels"). Not passed with -G, which turns optimization off anyway (NVRTC
// would warn that the two conflict).
enum class FastCompile { Off, Min, Mid, Max };
inline constexpr std::array<FastCompile, 4> kFastCompileLevels = {FastCompile::Off, FastCompile::Min,
                                                                  FastCompile::Mid, FastCompile::Max};
std::string_view fastCompileName(FastCompile level) noexcept; // "off", "min", "mid", "max"
std::optional<FastCompile> parseFastCompile(std::string_view name) noexcept;

struct CompileOptions {
    std::string arch = "sm_90"; // target: "sm_90" gives CUBIN, "compute_90" gives PTX only
    bool fastMath = false;
    bool lineInfo = false;
    bool debug = false;                    // -G
    FastCompile fastCompile = FastCompile::Off; // --Ofast-compile=min|mid|max
    std::string cppStandard = "c++17";     // -std=
    std::vector<std::string> defines;      // "NAME" or "NAME=VALUE"
    std::vector<std::string> includePaths; // in addition to the defaults
    bool ptxasVerbose = true;              // -Xptxas=-v: registers/shared/spills into the log
    // NVRTC's automatic precompiled headers (-pch, CUDA 12.8+): the first compile of a file whose
    // leading #includes are heavy (curand_kernel.h, CUB) stores the parsed headers in NVRTC's
    // in-process PCH heap; later compiles with the same leading includes reuse them (several times
    // faster). The output is identical either way, so this flag is not part of the cache key.
    bool precompiledHeaders = true;
    // -minimal: NVRTC leaves out texture/surface functions, device-side runtime API and launch,
    // and the runtime/driver API types. `minimal` forces it (no fallback). `autoMinimal` tries
    // -minimal first when a scan of the source and its user headers finds nothing that needs those
    // (see minimal_mode.hpp) and compiles again without it when that fails, so results and
    // diagnostics are always those of a full compile where -minimal cannot do. It is off by
    // default: with every compile a source NVRTC had not seen, as an edit is (ks_bench_rtc), a warm
    // 30-line kernel compiled no faster with -minimal forced than with full headers, so the fast path
    // bought nothing (earlier, faster figures came from recompiling identical sources).
    bool minimal = false;
    bool autoMinimal = false;
    // Lean cuRAND (minimal_mode.hpp): for a source that includes curand_kernel.h and names neither
    // XORWOW nor MRG32k3a, compile first without those generators' 220 KiB of skip-ahead tables,
    // which NVRTC would otherwise emit into every module (a Philox kernel compiles much faster:
    // ks_bench_rtc's curand rows, docs/measurements.md "Compiling kernels"); a build that turns out
    // to use them fails to link and is compiled again with them, so results never differ from a full
    // compile's.
    bool leanCurand = true;
    // NVRTC 13 keeps its own cache of PTX and CUBIN in the CUDA driver's compute cache
    // (~/.nv/ComputeCache; only where a driver is installed). Off by default (-no-cache): a hit
    // there skips NVVM and ptxas, so the log has no ptxas report (the kernel facts lose registers,
    // shared and local memory) and no ptxas warnings; seen on the lent H100, where a second run of
    // the unit tests found the facts unknown. Kernelscope's own cache (which keeps the log) serves
    // identical sources; what NVRTC's saved were edits that leave the code as it was (comments).
    bool nvrtcCache = false;
    std::vector<std::string> extra;        // passed through verbatim
};

// The fast-compile level a compile with `options` uses: off with -G, which overrides it.
FastCompile effectiveFastCompile(const CompileOptions& options) noexcept;

// The include path every compile gets: the data root's kernels/include, then the CUDA Toolkit's
// include folder (and its cccl folder where it exists), found from $CUDA_HOME, $CUDA_PATH, the
// toolkit Kernelscope was built with, then /usr/local/cuda.
std::vector<std::string> defaultIncludePaths();
std::string cudaIncludeDir();
// The toolkit's include folders (the CUDA include folder and its cccl folder): their files are
// keyed by the toolkit and NVRTC versions, not read.
std::vector<std::string> toolkitIncludeDirs();
// Every folder NVRTC searches for `options`, in order: the user's, the defaults, then -I options
// passed through `extra`.
std::vector<std::string> includeSearchPath(const CompileOptions& options);

// The NVRTC option list for `options` (defaults included), as passed to nvrtcCompileProgram.
// compile() adds the PCH options when asked for; they do not change what a compile produces; it
// adds -minimal for the fast path (CompileResult::mode says which compile produced the result).
std::vector<std::string> buildOptionList(const CompileOptions& options);

// What NVRTC's automatic precompiled headers did for one compile.
enum class PchUse {
    Off,           // not requested, or not supported by this NVRTC
    NotApplicable, // requested; NVRTC found nothing worth a header (or the include prefix changed)
    Created,       // a PCH was created from this file's leading includes (later compiles reuse it)
    Used,          // an earlier PCH was reused
    HeapExhausted, // NVRTC's PCH heap is full: compiled without (see nvrtcSetPCHHeapSize)
    Failed,        // NVRTC could not create the PCH: compiled without
};
std::string_view pchUseName(PchUse use) noexcept; // "off", "n/a", "created", "used", ...

// Which NVRTC mode produced a CompileResult.
enum class CompileMode {
    Full,             // full builtin headers (the source needs them, or the fast path is off)
    Minimal,          // -minimal (tried first, or forced)
    FullAfterMinimal, // -minimal was tried and failed: this is the full compile's result
};
std::string_view compileModeName(CompileMode mode) noexcept; // "full", "-minimal", "full (-minimal failed)"

struct CompileResult {
    bool ok = false;
    std::vector<Diagnostic> diagnostics;
    std::string log;                 // NVRTC's log verbatim
    std::vector<std::uint8_t> cubin; // empty when arch is virtual
    std::string ptx;
    // For each name expression asked for, NVRTC's lowered (mangled) name; "" when not found.
    std::vector<std::string> loweredNames;
    // The PTX calls vprintf: a kernel of the build prints from the device. Found once per build
    // (and kept by the cache), so that whoever waits for printf output never searches the PTX.
    bool callsPrintf = false;
    double compileMs = 0;
    // NVRTC itself failed (bad option, out of memory, internal error): the result says nothing
    // about the user's code, so caches keep it in memory at most and never on disk.
    bool toolFailure = false;
    bool cancelled = false; // stopped through the cancel flag: no output, never cached
    PchUse pch = PchUse::Off;
    CompileMode mode = CompileMode::Full;
    std::string fullReason; // for Full: why -minimal was not tried ("uses tex2D", ...)
    // Lean cuRAND: whether cuRAND's XORWOW/MRG32k3a tables were left out of this build, and when
    // they were not, why ("does not include curand_kernel.h", "uses curandState", "the build
    // without them failed").
    bool curandTablesLeftOut = false;
    std::string curandTablesReason;
    // Milliseconds inside nvrtcCompileProgram, all attempts together: compileMs - nvrtcMs is
    // Kernelscope's own work (include scan, PCH folder, log parsing, getting the outputs).
    double nvrtcMs = 0;
};

// Compiles `source`, which the user knows as `fileName` (diagnostics use it; quoted includes are
// looked up in its folder first). `nameExpressions` are C++ names of kernels ("my_kernel",
// "ns::tmpl<float>") whose lowered names are wanted. When `cancel` is given and becomes true while
// NVRTC runs, the compile stops early (nvrtcSetFlowCallback) and the result has cancelled set.
// Throws ks::Error only when NVRTC cannot even create the program.
CompileResult compile(const std::string& source, const std::string& fileName, const CompileOptions& options,
                      const std::vector<std::string>& nameExpressions = {},
                      const std::atomic<bool>* cancel = nullptr);

// "12.8" / "13.0"
std::string nvrtcVersionString();
// Whether this NVRTC supports automatic precompiled headers (12.8 and newer).
bool nvrtcSupportsPch();

} // namespace ks::rtc
