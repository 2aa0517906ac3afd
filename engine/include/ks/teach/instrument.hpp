#pragma once
// Instrumented variants of a user's kernel, made without editing the user's file: the source is
// rewritten in memory and compiled by NVRTC like any other.
//
// The rewrite keeps every line of the user's code where it was (diagnostics point at the user's
// lines): the kernel's `__global__` becomes `__device__`, its name becomes ks_user_<name>, its
// attributes (__launch_bounds__, ...) move to the wrapper, and for the "who wrote it" variant the
// chosen output parameter's type becomes ks::teach::RecordingPtr<T> or ks::teach::RecordingSurface
// (kernels/include/ks_device/instrument.cuh, which also documents what writes are and are not
// captured); for the checked variant ("find the fault") every pointer parameter's type becomes
// ks::teach::CheckedPtr<T> (T keeps its const) and every cudaSurfaceObject_t parameter's
// ks::teach::CheckedSurface (kernels/include/ks_device/checked.cuh, which also documents what is and
// is not checked). A generated wrapper kernel, ks_who_<name>, ks_timeline_<name> or
// ks_checked_<name>, is appended after
// `#line 1 "ks_generated"`: it takes the user's parameters followed by the variant's own (below),
// and calls the user's code as a function, so an early `return` in it is fine.
//
// Trailing parameters of the wrappers (pass them after the user's arguments):
//   ks_who_<name>(..., ks::teach::WhoRecord* records, unsigned long long recordCount,
//                 unsigned long long rowWidth, unsigned* counters)
//       records: one per element of the output, cleared to zero before the launch; rowWidth: the
//       number of elements per row of a surface (records are y * rowWidth + x), for buffers any
//       value (records are indexed by element offset from the parameter's pointer).
//   ks_timeline_<name>(..., ks::teach::BlockRecord* blocks, unsigned* counters)
//       blocks: one per block of the launch, indexed by the linear block index.
//   ks_checked_<name>(..., const ks::teach::CheckedExtent* extents, ks::teach::CheckedRecord* record)
//       extents: one per parameter of the kernel, by index (records.cuh says what each holds;
//       entries of parameters that are not checked are not read); record: one, cleared to zero
//       before the launch; after it, record.claimed != 0 when an access was refused and
//       record.first is the first of them (describeCheckedRun in ks/teach/fault_report.hpp words it).
//   counters: ks::teach::kCounterCount unsigned ints, cleared to zero before the launch.
// Checked teaching variants (InstrumentRequest::checked, for WhoWrote and BlockTimeline): the
// engine's own variants run with every access bounds-checked, so that a bug in the instrumentation
// (a record written past its array) is found, not a fault. Every pointer and surface parameter of
// the user's kernel is checked as in the checked variant (the recorded output through the
// CheckedWhoContext of checked.cuh), and so are the variant's own pointers (ownCheckedParameters:
// records or blocks, then counters). The wrappers take two more trailing parameters,
//   (..., const ks::teach::CheckedExtent* extents, ks::teach::CheckedRecord* record)
// extents: one per user parameter, then one per own pointer (in bytes); record as for ks_checked_.
// The variants add a little shared memory (4 bytes for "who", 20 for the timeline) and a few
// registers, which can change occupancy at its edges; compare the variant's attributes. The checked
// variant adds no shared memory but many registers and a check per access: it is for finding a
// fault, not for timing.

#include "ks/rtc/cache.hpp"
#include "ks/rtc/compiler.hpp"
#include "ks/syntax/kernel_signature.hpp"

#include <string>
#include <string_view>

namespace ks::teach {

enum class VariantKind { WhoWrote, BlockTimeline, Checked };

// Name of the generated section in diagnostics: an error there is the engine's, not the user's.
inline constexpr std::string_view kGeneratedFileName = "ks_generated";

struct InstrumentRequest {
    std::string source;
    std::string fileName; // as the user knows it; diagnostics of the user's code carry it
    std::string kernel;   // name of the kernel, unqualified or qualified (syntax::findKernel)
    VariantKind kind = VariantKind::WhoWrote;
    // WhoWrote: the parameter whose writes are recorded, by name; empty picks the first candidate
    // (a pointer to non-const elements or a surface).
    std::string outputParam;
    // WhoWrote and BlockTimeline: the checked teaching variant (see above). Checked always checks.
    bool checked = false;
};

struct InstrumentedKernel {
    bool ok = false;
    std::string error; // when !ok: what was not found or not supported, for the user
    VariantKind kind = VariantKind::WhoWrote;
    std::string source;  // the whole variant, ready for rtc::compile with the user's file name
    std::string entry;   // the wrapper's qualified name: "ks_who_k"; a template needs <arguments>
    syntax::KernelSignature kernel;
    std::size_t outputIndex = 0; // WhoWrote: the recorded parameter
    // WhoWrote: Pointer, or Surface for a surface recorded through its handle (a
    // cudaSurfaceObject_t, or an unsigned long long that holds one); else Value.
    syntax::ParamKind outputKind = syntax::ParamKind::Value;
    // Checked, and checked teaching variants: per parameter, Pointer or Surface where the variant
    // checks it (a cudaSurfaceObject_t; an unsigned long long handle is not checked), else Value;
    // empty for a variant that checks nothing.
    std::vector<syntax::ParamKind> checkedKinds;

    // The kernel's name for the driver: `entry` for a non-template kernel (extern "C"), else the
    // name expression entry<templateArguments> whose lowered name NVRTC reports.
    std::string nameExpression(std::string_view templateArguments) const;
};

InstrumentedKernel instrument(const InstrumentRequest& request);

// Parameters of `kernel` that can be recorded as an output: pointers (T*, T**) to non-const
// elements, surfaces, and unsigned long long values (a surface handle passed as the integer it is).
std::vector<std::size_t> outputCandidates(const syntax::KernelSignature& kernel);

// The names of a checked teaching variant's own pointers, in the order of their extents and
// CheckedFault::param indices after the user's parameters: {"ks_records", "ks_counters"},
// {"ks_blocks", "ks_counters"}; none for VariantKind::Checked.
std::vector<std::string> ownCheckedParameters(VariantKind kind);

struct VariantBuild {
    InstrumentedKernel variant;
    rtc::CompileResult compile; // ok == false with variant.error as the message when !variant.ok
    std::string loweredEntry;   // the name to look up in the module when compile.ok
};

// Instruments and compiles with NVRTC. `templateArguments` ("float, 4") instantiates a template
// kernel. Never throws for bad user code; NVRTC failing itself throws ks::Error. With a `cache`
// the compile goes through it (a variant built before costs no compile).
VariantBuild buildVariant(const InstrumentRequest& request, const rtc::CompileOptions& options,
                          std::string_view templateArguments = {}, rtc::CompileCache* cache = nullptr);

} // namespace ks::teach
