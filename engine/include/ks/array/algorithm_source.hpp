#pragma once
// CUDA C++ generated for reductions and scans (host side only; no GPU needed). The reduction and
// scan kernels compile these through the runtime's compile cache; unit tests compile them with
// NVRTC to catch errors on machines without a device.
//
// Generated sources start with the arrays' device prelude (ks::complex64/128, ks::cast, ...).
// Generated names: every identifier the generator adds starts with `ks_` (or lives in namespace
// ks_algo); user arguments, preambles and expressions must not use that prefix.

#include "ks/array/elementwise_kernel.hpp"

#include <string>
#include <vector>

namespace ks::array {

// Threads per block of every generated reduction and scan kernel.
inline constexpr unsigned kAlgorithmBlockSize = 256;

struct ReductionSpec {
    std::string outType;    // C++ type of the result and of the partial values: "float", "minmax_collector"
    std::string neutral;    // expression: the identity of reduce ("0", "-INFINITY", "minmax_collector(...)")
    std::string reduceExpr; // of `a` and `b` (both outType): "a+b", "max(a,b)", "agg(a, b)"
    // Of the arguments and `i` (the element index, long long): "x[i]*y[i]". Empty: "<first>[i]" where
    // <first> is the first argument (which must be a pointer), PyCUDA's default.
    std::string mapExpr;
    // "const float *x, const float *y": PyCUDA's argument string, read by parseKernelArguments
    // (types must name dtypes; structs go in outType and the preamble).
    std::string arguments;
    std::string preamble;  // code placed before the kernels: structs, helper functions
    std::string name = "reduce_kernel";
    // Parameters declared verbatim after the arguments, of any type ("ks_layout lx"): what the
    // built-ins pass besides the arrays (layouts, never pointers); the caller packs them. The
    // checked variant checks pointers among the arguments only: a pointer declared here would be
    // passed to the map as the raw pointer it converts to.
    std::string extraParameters;
};

struct GeneratedReduction {
    std::string source;
    std::vector<KernelArgument> params;
    // Whether the map reads each pointer only at [i] and uses `i` nowhere else: then the kernel
    // `vectorKernel` (16-byte loads) may run when every pointer is 16-byte aligned.
    bool vectorizable = false;
    // (outType* out, outType* mirror, outType* partials, unsigned* done, long long n, args...): one
    // pass; the result goes to *out and, where mirror is not null, to *mirror too; partials holds
    // one value per block, *done is 0 before and after (the last block resets it).
    std::string kernel;
    std::string vectorKernel; // same signature; empty when !vectorizable
    std::string sizeSymbol;   // __device__ int holding sizeof(outType)
};

// Throws ks::Error (Usage) for a malformed argument list or a missing expression.
GeneratedReduction generateReduction(const ReductionSpec& spec);

// The scan kernels' shape and pacing. The vector kernel: threads per block and 16-byte chunks per
// thread (chunks x warps <= 32; a tile is block x chunks x 16 bytes). The look-back of both kernels:
// a pause before the first poll and between polls, in grids of 500 tiles or more (ns; 0: none).
// The defaults are the fastest of ks_bench_arrays --scan-shapes on the H100 (docs/algorithms.md).
struct ScanTuning {
    int vectorBlock = 256;
    int vectorChunks = 4;
    int firstPauseNs = 2500;
    int pauseNs = 648;
};

struct ScanSpec {
    std::string type;     // C++ element type of input and output: "int", "float", "my_struct"
    std::string scanExpr; // associative, of `a` (earlier) and `b` (later): "a+b", "max(a,b)"
    std::string neutral;  // identity; required for exclusive scans, optional for inclusive
    bool exclusive = false;
    std::string preamble;
    std::string name = "scan_kernel";
    ScanTuning tuning;
};

struct GeneratedScan {
    std::string source;
    // (const T* in, T* out, long long n, unsigned char* scratch): one block per tile of
    // `tileSymbol` elements, tiles taken in order from a counter in the scratch; single pass with
    // decoupled look-back. in == out (in place) is allowed.
    std::string kernel;
    // The same scan with 16-byte loads and stores and no shared-memory tile, for 4- and 8-byte
    // values (scanHasVectorKernel) when `in` and `out` are 16-byte aligned; same arguments, tile and
    // scratch. For other value sizes it is an empty stub that must not be launched.
    std::string vectorKernel;
    std::string tileSymbol;  // __device__ int: elements per tile
    std::string vectorTileSymbol; // __device__ int: elements per tile of the vector kernel
    std::string sizeSymbol;  // __device__ int: sizeof(T)
    std::string packedSymbol; // __device__ int: 1 when tile states pack flag and value in 64 bits
};

GeneratedScan generateScan(const ScanSpec& spec);

// Elements per scan tile for values of `valueSize` bytes: 256 threads x min(16, max(1, 64 / size))
// items; the generated kernel computes the same from sizeof (KS_ITEMS).
int scanTileElements(std::size_t valueSize);

// Elements per tile of the vector kernel for 4- or 8-byte values.
int scanVectorTileElements(std::size_t valueSize, const ScanTuning& tuning = {});

// Whether the generated vector kernel scans values of `valueSize` bytes (4 and 8).
inline bool scanHasVectorKernel(std::size_t valueSize)
{
    return valueSize == 4 || valueSize == 8;
}

// Bytes of scratch a scan of `n` elements needs, and how many leading bytes must be zero before the
// launch (the tile counter and the tile flags).
struct ScanScratch {
    std::size_t bytes = 0;
    std::size_t zeroBytes = 0;
    unsigned long long tiles = 0;
};
ScanScratch scanScratchSize(unsigned long long n, int tileElements, int valueSize, bool packed);

// "const float *x" for a parsed argument, as generated code declares it.
std::string declaration(const KernelArgument& a);

// The support code (shuffles of any type, vector loads, coherent loads and stores) every generated
// reduction and scan starts with.
const std::string& algorithmSupportSource();

} // namespace ks::array
