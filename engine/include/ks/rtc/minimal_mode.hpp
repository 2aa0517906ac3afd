#pragma once
// The -minimal fast path of rtc::compile. NVRTC's -minimal leaves out its builtin texture/surface
// functions and types, the device runtime (cudadevrt functions, launches from device code) and
// the runtime/driver API types and macros (cudaError_t, cudaStream_t, ...); a small kernel then
// compiles a little faster at most (a new source each time, as an edit is: ks_bench_rtc's -minimal
// row; earlier, far larger gains were repeated sources served by NVRTC's own cache). A cheap
// textual scan of the source and the user headers it includes decides whether a source may need
// any of that; when nothing is found, compile() tries -minimal first and falls back to a full
// compile when that fails, so users never see a -minimal artefact. The scan only errs on the side
// of the full path.

#include "ks/rtc/compiler.hpp"
#include "ks/rtc/include_scanner.hpp"

#include <string>
#include <string_view>

namespace ks::rtc {

// Bumped whenever the rules below change: it joins the compile cache key.
inline constexpr std::string_view kMinimalRulesVersion = "minimal-rules-2";

// What in `text` (one file, comments skipped) needs the full headers, as a short reason
// ("uses tex2D", "includes <cuda_runtime.h>", "launches a kernel from device code"); empty when
// nothing does. Identifiers starting with tex/surf/cuda/make_cuda, CUDART_VERSION,
// __CUDACC_RTC_MINIMAL__ and `<<<` all count.
std::string minimalBlockerInText(std::string_view text);

// The same for a whole compile: the source, every user header `scan` found (read here), and
// the toolkit headers it includes (only a few, checked to compile to the same PTX either way, are
// allowed). Empty when the compile may try -minimal first.
std::string minimalBlocker(std::string_view source, const IncludeScan& scan);

// Whether compile() will try -minimal first for these inputs, and if not, why ("" when it will).
// `options.minimal` forces -minimal and `options.autoMinimal == false` turns the fast path off.
std::string minimalBlocker(std::string_view source, const std::string& fileName, const CompileOptions& options);

// The lean-cuRAND fast path of rtc::compile. curand_kernel.h defines the XORWOW and MRG32k3a
// skip-ahead tables (about 220 KiB) as __device__ arrays, and NVRTC emits every __device__ variable,
// used or not: a curand kernel's PTX is about 1 MB, and generating and parsing it is most of the
// compile (ks_bench_rtc's curand rows). When the source includes curand_kernel.h and its text
// names neither generator, compile() pre-includes a header that leaves the tables out and routes
// any use of them to an undefined function: a kernel that does use them then fails to link (never
// silently reads other data), and compile() compiles again with the tables.

// Whether `scan` reaches curand_kernel.h.
bool includesCurandKernel(const IncludeScan& scan);
// What in `text` (one file, comments skipped) may use the tables, as a short reason ("uses
// curandState"); empty when nothing does. Identifiers containing XORWOW, xorwow, MRG32k3a,
// mrg32k3a, and curandState / curandState_t (XORWOW's other names) all count.
std::string curandTablesUserInText(std::string_view text);
// For a whole compile: empty when compile() may leave the tables out (curand_kernel.h is included,
// nothing names the generators), else why not ("does not include curand_kernel.h", "uses curandState",
// "has a computed #include", ...).
std::string curandTablesBlocker(std::string_view source, const IncludeScan& scan);
// compile()'s decision for these inputs: empty when it leaves the tables out first.
std::string curandTablesBlocker(std::string_view source, const std::string& fileName, const CompileOptions& options);

} // namespace ks::rtc
