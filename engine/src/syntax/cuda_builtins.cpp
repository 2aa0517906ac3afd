#include "ks/syntax/cuda_builtins.hpp"

#include <algorithm>
#include <array>

namespace ks::syntax {

namespace {

using K = CudaBuiltinKind;

// Declarations as the CUDA C++ Programming Guide and the CUDA Math API give them; where a function
// has overloads for several types, T names them and the description lists them.
constexpr CudaBuiltin kEntries[] = {
    // The thread hierarchy.
    {"threadIdx", K::Variable, "uint3 threadIdx", "This thread's index within its block, per dimension (x, y, z)."},
    {"blockIdx", K::Variable, "uint3 blockIdx", "This block's index within the grid, per dimension."},
    {"blockDim", K::Variable, "dim3 blockDim", "The block's size in threads, per dimension."},
    {"gridDim", K::Variable, "dim3 gridDim", "The grid's size in blocks, per dimension."},
    {"warpSize", K::Variable, "int warpSize", "Threads in a warp: 32 on every CUDA GPU so far."},

    // Synchronisation, fences, time.
    {"__syncthreads", K::Function, "void __syncthreads()",
     "Waits until every thread of the block has reached it; shared and global writes before it are then seen by the block."},
    {"__syncthreads_count", K::Function, "int __syncthreads_count(int predicate)",
     "__syncthreads, returning how many threads of the block passed a non-zero predicate."},
    {"__syncthreads_and", K::Function, "int __syncthreads_and(int predicate)",
     "__syncthreads, returning non-zero when the predicate is non-zero in every thread of the block."},
    {"__syncthreads_or", K::Function, "int __syncthreads_or(int predicate)",
     "__syncthreads, returning non-zero when the predicate is non-zero in any thread of the block."},
    {"__syncwarp", K::Function, "void __syncwarp(unsigned mask = 0xffffffff)",
     "Waits until the lanes named in mask have reached it, and orders their memory accesses."},
    {"__threadfence", K::Function, "void __threadfence()",
     "Orders this thread's memory writes as seen by every thread of the device (no waiting for others)."},
    {"__threadfence_block", K::Function, "void __threadfence_block()",
     "Orders this thread's memory writes as seen by the threads of its block."},
    {"__threadfence_system", K::Function, "void __threadfence_system()",
     "Orders this thread's memory writes as seen by the whole system: the host and other devices too."},
    {"__nanosleep", K::Function, "void __nanosleep(unsigned ns)",
     "Suspends the thread for about ns nanoseconds (at most about a millisecond; sm_70 and later)."},
    {"clock", K::Function, "clock_t clock()", "The multiprocessor's cycle counter (32 bits, wraps); per SM, not global."},
    {"clock64", K::Function, "long long int clock64()", "The multiprocessor's 64-bit cycle counter; per SM, not global."},
    {"__trap", K::Function, "void __trap()", "Aborts the kernel: the launch fails with an error on the host."},
    {"printf", K::Function, "int printf(const char* format, ...)",
     "Formatted output from the device, buffered and shown after the kernel finishes (the Console)."},

    // Warp-level functions.
    {"__shfl_sync", K::Function, "T __shfl_sync(unsigned mask, T var, int srcLane, int width = warpSize)",
     "var as held by lane srcLane (of each group of width lanes); T: int, unsigned, long long, float, double, __half ..."},
    {"__shfl_up_sync", K::Function, "T __shfl_up_sync(unsigned mask, T var, unsigned int delta, int width = warpSize)",
     "var of the lane delta below this one; the lowest lanes keep their own."},
    {"__shfl_down_sync", K::Function,
     "T __shfl_down_sync(unsigned mask, T var, unsigned int delta, int width = warpSize)",
     "var of the lane delta above this one; the highest lanes keep their own (a reduction's step)."},
    {"__shfl_xor_sync", K::Function, "T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = warpSize)",
     "var of the lane whose index is this lane's XOR laneMask (a butterfly reduction's step)."},
    {"__ballot_sync", K::Function, "unsigned __ballot_sync(unsigned mask, int predicate)",
     "A bit per lane of mask: set where the lane's predicate is non-zero."},
    {"__all_sync", K::Function, "int __all_sync(unsigned mask, int predicate)",
     "Non-zero when the predicate is non-zero in every lane of mask."},
    {"__any_sync", K::Function, "int __any_sync(unsigned mask, int predicate)",
     "Non-zero when the predicate is non-zero in any lane of mask."},
    {"__activemask", K::Function, "unsigned __activemask()", "The lanes of the warp running this instruction now."},
    {"__match_any_sync", K::Function, "unsigned int __match_any_sync(unsigned mask, T value)",
     "The lanes of mask whose value equals this lane's (sm_70 and later)."},
    {"__reduce_add_sync", K::Function, "unsigned __reduce_add_sync(unsigned mask, unsigned value)",
     "The sum of value over the lanes of mask, in every one of them (also int; sm_80 and later)."},

    // Loads through the caches.
    {"__ldg", K::Intrinsic, "T __ldg(const T* address)",
     "Loads through the read-only data cache; the data must not change while the kernel runs."},
    {"__ldcg", K::Intrinsic, "T __ldcg(const T* address)", "Loads caching in L2 only, not L1 (cache global)."},
    {"__ldca", K::Intrinsic, "T __ldca(const T* address)", "Loads caching in every level (cache all)."},
    {"__ldcs", K::Intrinsic, "T __ldcs(const T* address)",
     "Loads marking the line as likely used once (streaming), so it is evicted first."},

    // Fast-math and rounded single precision.
    {"__expf", K::Intrinsic, "float __expf(float x)", "Fast, less accurate e^x (the hardware's exp2 with a scale)."},
    {"__exp10f", K::Intrinsic, "float __exp10f(float x)", "Fast, less accurate 10^x."},
    {"__logf", K::Intrinsic, "float __logf(float x)", "Fast, less accurate natural logarithm."},
    {"__log2f", K::Intrinsic, "float __log2f(float x)", "Fast, less accurate base-2 logarithm."},
    {"__log10f", K::Intrinsic, "float __log10f(float x)", "Fast, less accurate base-10 logarithm."},
    {"__sinf", K::Intrinsic, "float __sinf(float x)", "Fast sine; accurate only for x near [-pi, pi]."},
    {"__cosf", K::Intrinsic, "float __cosf(float x)", "Fast cosine; accurate only for x near [-pi, pi]."},
    {"__tanf", K::Intrinsic, "float __tanf(float x)", "Fast tangent, from __sinf and __cosf."},
    {"__sincosf", K::Intrinsic, "void __sincosf(float x, float* sptr, float* cptr)",
     "Fast sine and cosine of x at once, into *sptr and *cptr."},
    {"__powf", K::Intrinsic, "float __powf(float x, float y)", "Fast, less accurate x^y (through __expf and __logf)."},
    {"__fdividef", K::Intrinsic, "float __fdividef(float x, float y)",
     "Fast division; 0 when y is huge (above 2^126), unlike x / y."},
    {"__saturatef", K::Intrinsic, "float __saturatef(float x)", "x clamped to [0, 1] (NaN gives 0)."},
    {"__frcp_rn", K::Intrinsic, "float __frcp_rn(float x)", "1 / x, rounded to nearest even."},
    {"__fsqrt_rn", K::Intrinsic, "float __fsqrt_rn(float x)", "The square root, rounded to nearest even."},
    {"__frsqrt_rn", K::Intrinsic, "float __frsqrt_rn(float x)", "1 / sqrt(x), rounded to nearest even."},
    {"__fadd_rn", K::Intrinsic, "float __fadd_rn(float x, float y)",
     "x + y rounded to nearest even; never contracted into a multiply-add."},
    {"__fsub_rn", K::Intrinsic, "float __fsub_rn(float x, float y)",
     "x - y rounded to nearest even; never contracted into a multiply-add."},
    {"__fmul_rn", K::Intrinsic, "float __fmul_rn(float x, float y)",
     "x * y rounded to nearest even; never contracted into a multiply-add."},
    {"__fdiv_rn", K::Intrinsic, "float __fdiv_rn(float x, float y)", "x / y, rounded to nearest even (IEEE)."},
    {"__fmaf_rn", K::Intrinsic, "float __fmaf_rn(float x, float y, float z)",
     "x * y + z with one rounding, to nearest even."},
    {"__fmaf_rz", K::Intrinsic, "float __fmaf_rz(float x, float y, float z)",
     "x * y + z with one rounding, toward zero."},
    {"__fmaf_ru", K::Intrinsic, "float __fmaf_ru(float x, float y, float z)",
     "x * y + z with one rounding, up (toward +infinity)."},
    {"__fmaf_rd", K::Intrinsic, "float __fmaf_rd(float x, float y, float z)",
     "x * y + z with one rounding, down (toward -infinity)."},
    {"__fma_rn", K::Intrinsic, "double __fma_rn(double x, double y, double z)",
     "x * y + z in double precision with one rounding, to nearest even."},

    // Conversions and reinterpretations.
    {"__float2int_rn", K::Intrinsic, "int __float2int_rn(float x)", "x converted to int, rounded to nearest even."},
    {"__float2int_rz", K::Intrinsic, "int __float2int_rz(float x)", "x converted to int, rounded toward zero."},
    {"__float2uint_rn", K::Intrinsic, "unsigned int __float2uint_rn(float x)",
     "x converted to unsigned int, rounded to nearest even."},
    {"__int2float_rn", K::Intrinsic, "float __int2float_rn(int x)", "x converted to float, rounded to nearest even."},
    {"__float_as_int", K::Intrinsic, "int __float_as_int(float x)", "The bits of x read as an int (no conversion)."},
    {"__int_as_float", K::Intrinsic, "float __int_as_float(int x)", "The bits of x read as a float (no conversion)."},
    {"__float_as_uint", K::Intrinsic, "unsigned int __float_as_uint(float x)",
     "The bits of x read as an unsigned int (no conversion)."},
    {"__uint_as_float", K::Intrinsic, "float __uint_as_float(unsigned int x)",
     "The bits of x read as a float (no conversion)."},
    {"__float2half", K::Intrinsic, "__half __float2half(const float a)",
     "a converted to half precision, rounded to nearest even (cuda_fp16.h)."},
    {"__half2float", K::Intrinsic, "float __half2float(const __half a)",
     "a converted to single precision, exactly (cuda_fp16.h)."},

    // Integer intrinsics.
    {"__popc", K::Intrinsic, "int __popc(unsigned int x)", "How many bits of x are set."},
    {"__popcll", K::Intrinsic, "int __popcll(unsigned long long int x)", "How many bits of the 64-bit x are set."},
    {"__clz", K::Intrinsic, "int __clz(int x)", "How many zero bits x starts with, from the most significant (32 for 0)."},
    {"__ffs", K::Intrinsic, "int __ffs(int x)", "The 1-based position of x's least significant set bit; 0 when x is 0."},
    {"__brev", K::Intrinsic, "unsigned int __brev(unsigned int x)", "x with its 32 bits in reverse order."},
    {"__mul24", K::Intrinsic, "int __mul24(int x, int y)",
     "The low 32 bits of the product of x's and y's low 24 bits (signed)."},
    {"__umul24", K::Intrinsic, "unsigned int __umul24(unsigned int x, unsigned int y)",
     "The low 32 bits of the product of x's and y's low 24 bits."},
    {"__mulhi", K::Intrinsic, "int __mulhi(int x, int y)", "The high 32 bits of the 64-bit product x * y."},
    {"__umulhi", K::Intrinsic, "unsigned int __umulhi(unsigned int x, unsigned int y)",
     "The high 32 bits of the 64-bit product x * y."},
    {"__byte_perm", K::Intrinsic, "unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s)",
     "Four bytes picked from the eight of x and y, by the selectors in s's low nibbles."},
    {"__funnelshift_l", K::Intrinsic,
     "unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift)",
     "The high 32 bits of hi:lo shifted left by shift & 31."},
    {"__funnelshift_r", K::Intrinsic,
     "unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift)",
     "The low 32 bits of hi:lo shifted right by shift & 31."},

    // Math functions (CUDA Math API) kernels use most.
    {"sqrtf", K::Intrinsic, "float sqrtf(float x)", "The square root of x."},
    {"rsqrtf", K::Intrinsic, "float rsqrtf(float x)", "1 / sqrt(x), in one fast instruction."},
    {"expf", K::Intrinsic, "float expf(float x)", "e^x (accurate; __expf or -use_fast_math for speed)."},
    {"exp2f", K::Intrinsic, "float exp2f(float x)", "2^x."},
    {"logf", K::Intrinsic, "float logf(float x)", "The natural logarithm of x."},
    {"powf", K::Intrinsic, "float powf(float x, float y)", "x^y."},
    {"sinf", K::Intrinsic, "float sinf(float x)", "The sine of x (radians)."},
    {"cosf", K::Intrinsic, "float cosf(float x)", "The cosine of x (radians)."},
    {"sincosf", K::Intrinsic, "void sincosf(float x, float* sptr, float* cptr)",
     "The sine and cosine of x at once, into *sptr and *cptr."},
    {"tanhf", K::Intrinsic, "float tanhf(float x)", "The hyperbolic tangent of x."},
    {"fabsf", K::Intrinsic, "float fabsf(float x)", "The absolute value of x."},
    {"floorf", K::Intrinsic, "float floorf(float x)", "The largest integer not above x."},
    {"ceilf", K::Intrinsic, "float ceilf(float x)", "The smallest integer not below x."},
    {"rintf", K::Intrinsic, "float rintf(float x)", "x rounded to an integer, halfway cases to even."},
    {"fminf", K::Intrinsic, "float fminf(float x, float y)", "The smaller of x and y (a NaN argument loses)."},
    {"fmaxf", K::Intrinsic, "float fmaxf(float x, float y)", "The larger of x and y (a NaN argument loses)."},
    {"fmaf", K::Intrinsic, "float fmaf(float x, float y, float z)", "x * y + z with one rounding."},
    {"fma", K::Intrinsic, "double fma(double x, double y, double z)", "x * y + z with one rounding, in double."},
    {"norm3df", K::Intrinsic, "float norm3df(float a, float b, float c)",
     "sqrt(a^2 + b^2 + c^2) without overflow in between."},
    {"rnorm3df", K::Intrinsic, "float rnorm3df(float a, float b, float c)", "1 / sqrt(a^2 + b^2 + c^2)."},

    // Atomics: read, modify and write one word of global or shared memory as one operation; each
    // returns the value that was there before.
    {"atomicAdd", K::Atomic, "T atomicAdd(T* address, T val)",
     "*address += val, atomically; returns the old value. T: int, unsigned, unsigned long long, float, double, __half2 ..."},
    {"atomicSub", K::Atomic, "T atomicSub(T* address, T val)",
     "*address -= val, atomically; returns the old value. T: int, unsigned int."},
    {"atomicExch", K::Atomic, "T atomicExch(T* address, T val)",
     "Stores val, atomically; returns the old value. T: int, unsigned, unsigned long long, float."},
    {"atomicMin", K::Atomic, "T atomicMin(T* address, T val)",
     "*address = min(*address, val), atomically; returns the old value. T: int, unsigned, (unsigned) long long."},
    {"atomicMax", K::Atomic, "T atomicMax(T* address, T val)",
     "*address = max(*address, val), atomically; returns the old value. T: int, unsigned, (unsigned) long long."},
    {"atomicInc", K::Atomic, "unsigned int atomicInc(unsigned int* address, unsigned int val)",
     "*address = (old >= val) ? 0 : old + 1, atomically (a ring counter); returns the old value."},
    {"atomicDec", K::Atomic, "unsigned int atomicDec(unsigned int* address, unsigned int val)",
     "*address = (old == 0 || old > val) ? val : old - 1, atomically; returns the old value."},
    {"atomicCAS", K::Atomic, "T atomicCAS(T* address, T compare, T val)",
     "Stores val if *address equals compare, atomically; returns the old value (equal to compare when it stored)."},
    {"atomicAnd", K::Atomic, "T atomicAnd(T* address, T val)",
     "*address &= val, atomically; returns the old value. T: int, unsigned, unsigned long long."},
    {"atomicOr", K::Atomic, "T atomicOr(T* address, T val)",
     "*address |= val, atomically; returns the old value. T: int, unsigned, unsigned long long."},
    {"atomicXor", K::Atomic, "T atomicXor(T* address, T val)",
     "*address ^= val, atomically; returns the old value. T: int, unsigned, unsigned long long."},
    {"atomicAdd_block", K::Atomic, "T atomicAdd_block(T* address, T val)",
     "atomicAdd that is atomic only among the threads of this block (cheaper)."},
    {"atomicAdd_system", K::Atomic, "T atomicAdd_system(T* address, T val)",
     "atomicAdd that is atomic for the host and other devices too (managed or host memory)."},

    // Textures and surfaces (object API).
    {"tex1Dfetch", K::Function, "T tex1Dfetch<T>(cudaTextureObject_t tex, int x)",
     "Element x of a texture over linear memory (no filtering)."},
    {"tex2D", K::Function, "T tex2D<T>(cudaTextureObject_t tex, float x, float y)",
     "The texture at (x, y), filtered and addressed as the texture object says."},
    {"tex3D", K::Function, "T tex3D<T>(cudaTextureObject_t tex, float x, float y, float z)",
     "The texture at (x, y, z), filtered and addressed as the texture object says."},
    {"surf2Dread", K::Function,
     "T surf2Dread<T>(cudaSurfaceObject_t surf, int x, int y, cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap)",
     "Reads the texel at (x, y); x counts bytes, not texels."},
    {"surf2Dwrite", K::Function,
     "void surf2Dwrite(T data, cudaSurfaceObject_t surf, int x, int y, cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap)",
     "Writes data to the texel at (x, y); x counts bytes, not texels (x * sizeof(T))."},

    // Vector constructors.
    {"make_float2", K::Function, "float2 make_float2(float x, float y)", "A float2 of x and y."},
    {"make_float3", K::Function, "float3 make_float3(float x, float y, float z)", "A float3 of x, y and z."},
    {"make_float4", K::Function, "float4 make_float4(float x, float y, float z, float w)", "A float4 of x, y, z and w."},
    {"make_int2", K::Function, "int2 make_int2(int x, int y)", "An int2 of x and y."},
    {"make_int3", K::Function, "int3 make_int3(int x, int y, int z)", "An int3 of x, y and z."},
    {"make_uint3", K::Function, "uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z)",
     "A uint3 of x, y and z."},
    {"make_uchar4", K::Function,
     "uchar4 make_uchar4(unsigned char x, unsigned char y, unsigned char z, unsigned char w)",
     "A uchar4 of x, y, z and w (an RGBA8 texel)."},
};

} // namespace

std::span<const CudaBuiltin> cudaBuiltins()
{
    static const auto sorted = [] {
        std::array<CudaBuiltin, std::size(kEntries)> a;
        std::copy(std::begin(kEntries), std::end(kEntries), a.begin());
        std::sort(a.begin(), a.end(), [](const CudaBuiltin& x, const CudaBuiltin& y) { return x.name < y.name; });
        return a;
    }();
    return sorted;
}

const CudaBuiltin* findCudaBuiltin(std::string_view name)
{
    const std::span<const CudaBuiltin> all = cudaBuiltins();
    const auto it = std::lower_bound(all.begin(), all.end(), name,
                                     [](const CudaBuiltin& b, std::string_view n) { return b.name < n; });
    return it != all.end() && it->name == name ? &*it : nullptr;
}

const char* cudaBuiltinKindName(CudaBuiltinKind k)
{
    switch (k) {
    case CudaBuiltinKind::Variable: return "built-in variable";
    case CudaBuiltinKind::Function: return "function";
    case CudaBuiltinKind::Intrinsic: return "intrinsic";
    case CudaBuiltinKind::Atomic: return "atomic";
    }
    return "?";
}

} // namespace ks::syntax
