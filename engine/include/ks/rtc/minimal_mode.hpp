#pragma once
// The -minimal fast path of rtc::compile. NVRTC's -minimal leaves out its builtin texture/surface
// functions and types, the device runtime (cudadevrt functions, launches from device code) and
// the runtime/driver API types and macros (cudaError_t, cudaStream_t, ...); a small kernel then
// compiles several times faster (7 ms instead of 60 ms on an H200 host). A cheap textual scan of the
// source and the user headers it includes decides whether a source may need any of that; when
// nothing is found, compile() tries -minimal first and falls back to a full compile when that
// fails, so users never see a -minimal artefact. The scan only errs on the side of the full path.

#include "ks/rtc/compiler.hpp"
#include "ks/rtc/include_scanner.hpp"

#include <string>
#include <string_view>

namespace ks::rtc {

// Bumped whenever the rules below change: it joins the compile cache key.
inline constexpr std::string_view kMinimalRulesVersion = "minimal-rules-1";

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

} // namespace ks::rtc
