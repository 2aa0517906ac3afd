#pragma once
// CUDA C++ source generation for element-wise ("map") kernels. Pure text, no device: unit tests
// compile every kind with NVRTC on a machine without a GPU; DeviceArray operations load them through
// the Runtime.
//
// A map applies `body` to each element i of a shape: inputs in0, in1, ... (values of their dtype's CUDA
// type; a scalar input is the same value for all i), outputs out0, out1, ... (references to the
// element), plus `i` (the element's C-order linear index, long long) and `n` (the element count).
// Example body for z = a*x + b*y in float32: "out0 = in0 * in1 + in2 * in3;".

#include "ks/array/dtype.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace ks::array {

// Device code every generated kernel starts with: ks::complex64/complex128 (layout of
// std::complex<float/double>) with arithmetic and the cumath functions, ks::cast<To>(from) (C++
// conversions; complex -> real takes the real part; -> bool tests != 0), numpy-semantics helpers
// (ks::floordiv, ks::mod, ks::ipow, ks::pow, ks::maximum/minimum propagating NaN, exact mixed-sign
// integer comparisons), overloaded math (ks::sin(float) is sinf), and ks::Vec<T, V> (an aligned
// vector of V elements for wide loads). No #include: it compiles with bare NVRTC.
// With `float16`, it also includes the toolkit's cuda_fp16.h (NVRTC finds it on the toolkit include
// path every compile gets) and adds ks::cast to and from __half and the ks:: math overloads for
// __half, which compute in float and round once.
std::string devicePrelude(bool float16 = false);
// The prelude that `code` (the generated or user device code that follows it) needs: with float16
// support when `code` names the identifier __half or half (every kernel with a float16 operand does,
// through cudaTypeName).
std::string preludeFor(std::string_view code);

struct MapOperand {
    DType dtype = DType::Float32;
    bool scalar = false; // passed by value, the same for every element
};

struct MapSpec {
    std::string name;                // for keys and messages ("add", "where")
    std::vector<MapOperand> inputs;  // in0, in1, ...
    std::vector<DType> outputs;      // out0, out1, ... (always arrays)
    std::string body;                // statements
    std::string preamble;            // device code placed before the kernels (after the prelude)
};

// Kernel entry points.
inline constexpr const char* kMapVectorKernel = "ks_map_vec";     // contiguous, V elements per access
inline constexpr const char* kMapScalarKernel = "ks_map_scalar";  // contiguous, any alignment
inline constexpr const char* kMapStridedKernel = "ks_map_strided"; // N-D strided (views, broadcasting)
inline constexpr const char* kMapTiledKernel = "ks_map_tiled";     // 2-D, inputs transposed to the outputs
inline constexpr int kMapTile = 32;     // the tiled kernel's tile: kMapTile x kMapTile elements
inline constexpr int kMapTileRows = 8;  // its block: kMapTile x kMapTileRows threads
static_assert(kMapTile % kMapTileRows == 0, "each thread takes kMapTile / kMapTileRows rows of a tile");

// Elements per vector access in the contiguous kernel: 16 bytes of the widest array operand
// (4 for float32, 2 for float64, 1 for complex128). An array operand's pointer must be aligned to
// V * its item size for ks_map_vec.
int mapVectorWidth(const MapSpec& spec);

// Contiguous kernels (both entry points) with parameters
//   (out0*, ..., in0* | in0 value, ..., long long n).
std::string mapContiguousSource(const MapSpec& spec);

// The strided kernel for `rank` (1..kMaxDims) collapsed dimensions with parameters
//   (char* out0, ..., const char* in0 | in0 value, ..., Layout layout, long long n)
// where the pointers address element 0 and Layout is { long long shape[rank]; long long
// strides[arrays][rank]; } in bytes, arrays = outputs then array inputs. `index64` selects 64-bit
// index arithmetic (needed when n >= 2^32; 32-bit division is much cheaper).
std::string mapStridedSource(const MapSpec& spec, int rank, bool index64);

// The tiled kernel for two collapsed dimensions whose outputs are contiguous along axis 1 and whose
// `staged` inputs (one flag per input; scalars ignored) along axis 0: a block reads a kMapTile square
// of each staged input along its contiguous axis into shared memory, then writes the outputs along
// theirs, so both sides are coalesced (a transposed copy or `a + b.T` at copy bandwidth, where the
// strided kernel reads one element per memory sector). Parameters as the strided kernel's, with
// Layout { long long shape[2]; long long index[2]; long long strides[arrays][2]; }: element (y, x)
// is ks_map_op's element y * index[0] + x * index[1]. Grid: (ceil(shape[1] / kMapTile),
// ceil(shape[0] / kMapTile)); block (kMapTile, kMapTileRows).
std::string mapTiledSource(const MapSpec& spec, const std::vector<bool>& staged);

// A compact identity of the spec (name, dtypes, scalar flags, body, preamble) for Runtime::kernel keys.
std::string mapKey(const MapSpec& spec);

} // namespace ks::array
