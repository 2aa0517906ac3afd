#pragma once
// What the editor knows of CUDA's device-side names: the thread-hierarchy built-ins, the
// synchronisation and warp functions, the fast-math and integer intrinsics, the atomics, the
// texture and surface functions and the vector constructors, each with its declaration (as the
// CUDA C++ Programming Guide and the CUDA Math API write it; a template parameter T stands for the
// overloads a function has) and one line saying what it does. The one table behind the editor's
// colours for these names (highlight.hpp), its completion (completion.hpp) and its hover text.
//
// A constant table of string views into static storage: thread-safe, never freed.

#include <cstdint>
#include <span>
#include <string_view>

namespace ks::syntax {

enum class CudaBuiltinKind : std::uint8_t {
    Variable,  // threadIdx, blockIdx, blockDim, gridDim, warpSize
    Function,  // synchronisation, warp functions, clocks, printf, texture and surface functions
    Intrinsic, // fast-math, rounding, bit and load intrinsics, math functions
    Atomic,    // atomicAdd, atomicCAS ...
};

struct CudaBuiltin {
    std::string_view name;
    CudaBuiltinKind kind = CudaBuiltinKind::Function;
    std::string_view signature;   // "float __fmaf_rn(float x, float y, float z)"
    std::string_view description; // one sentence
};

// Every entry, sorted by name (byte order), each name once.
std::span<const CudaBuiltin> cudaBuiltins();
// The entry named `name`, or null (a binary search).
const CudaBuiltin* findCudaBuiltin(std::string_view name);

const char* cudaBuiltinKindName(CudaBuiltinKind k); // "built-in variable", "function", "intrinsic", "atomic"

} // namespace ks::syntax
