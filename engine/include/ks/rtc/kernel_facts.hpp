#pragma once
// Facts about the kernels of a build that need no device: parameters (from the source, checked
// against NVRTC's lowered names and the PTX's parameter layout), registers, shared/constant/local
// memory and spills (from ptxas' -v report, which rtc::compile asks for), the maximum block size
// and the theoretical occupancy for a block size (from the architecture's limits), sizes and
// compile time. The PTX and SASS themselves, with their source lines, are ks/rtc/listing.hpp's.
//
// With a device, ks/rtc/kernel_checks.hpp adds the driver's view (cuFuncGetParamInfo,
// cuFuncGetAttribute, cuOccupancy*) and reports where it disagrees.

#include "ks/rtc/compiler.hpp"
#include "ks/cuda/occupancy.hpp"
#include "ks/syntax/kernel_signature.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::rtc {

// One entry function of ptxas' -v report.
struct PtxasKernelReport {
    std::string symbol; // as ptxas names it: the lowered (mangled) name
    int registers = 0;
    int barriers = 0;
    int sharedBytes = 0;     // static shared memory
    int constBytes = 0;      // cmem[0]: kernel parameters and constants
    int stackFrameBytes = 0; // local memory per thread (spills and local arrays)
    int spillStoreBytes = 0;
    int spillLoadBytes = 0;
    int cumulativeStackBytes = 0;
    double ptxasMs = 0;
};
struct PtxasReport {
    int globalBytes = 0; // "N bytes gmem": __device__ variables
    std::vector<PtxasKernelReport> kernels;
};
PtxasReport parsePtxasReport(std::string_view log);

// One .entry of the PTX with its parameter layout.
struct PtxParameter {
    std::size_t size = 0;  // bytes
    std::size_t align = 0; // bytes
    std::string ptxType;   // ".u64", ".f32", ".b8[12]"
    bool pointer = false;  // ".ptr" attribute (NVVM marks pointer parameters)
};
struct PtxEntry {
    std::string symbol;
    std::vector<PtxParameter> params;
    int maxThreads = 0; // .maxntid / .reqntid product, 0 when absent
};
std::vector<PtxEntry> parsePtxEntries(std::string_view ptx);

struct KernelFacts {
    std::string name;   // as the user knows it: "saxpy", "ns::scale<float>"
    std::string symbol; // what cuModuleGetFunction takes (the lowered name)
    std::optional<syntax::KernelSignature> signature; // from the source, when found there
    // From the source, or the demangled symbol (types only: no names, kinds or ranges).
    std::vector<syntax::KernelParam> params;
    std::vector<PtxParameter> ptxParams;
    PtxasKernelReport resources;
    bool resourcesKnown = false; // ptxas reported this kernel
    int maxThreadsPerBlock = 0;  // for the target architecture, from registers and launch bounds
    // Where discovery, the lowered names and the PTX disagree ("parameter 2 'v': float3 is 12 bytes,
    // the PTX has 16"); empty when all agree.
    std::vector<std::string> problems;

    // The occupancy of `blockSize` threads with `dynamicSharedBytes` on `limits`.
    cuda::Occupancy occupancy(const cuda::OccupancyLimits& limits, int blockSize, int dynamicSharedBytes = 0) const;
};

struct ModuleFacts {
    std::string arch;
    bool archKnown = true; // cuda::OccupancyLimits has a table row for it
    std::vector<KernelFacts> kernels; // in source order, then kernels only the PTX knows
    int globalBytes = 0;
    std::size_t cubinBytes = 0;
    std::size_t ptxBytes = 0;
    double compileMs = 0;
};

// The name expressions to give NVRTC for `kernels` (the non-template C++ ones: their lowered names
// are then known; extern "C" names need none; template kernels need their arguments, which only
// the user knows).
std::vector<std::string> nameExpressionsFor(const std::vector<syntax::KernelSignature>& kernels);

// Facts of a successful `result`, compiled from source holding `kernels` with `nameExpressions`
// (in the order given to rtc::compile) for `arch`.
ModuleFacts collectFacts(const std::vector<syntax::KernelSignature>& kernels, const std::vector<std::string>& nameExpressions,
                         const CompileResult& result, const std::string& arch);

} // namespace ks::rtc
