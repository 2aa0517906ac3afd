// Philox4x32-10 fills giving what cuRAND's device API gives: its Philox rounds (recomputed here with
// precomputed round keys) and its conversions from curand_kernel.h, bit for bit except float32
// normals (see boxMuller). One Philox call per 16 bytes of output, stored as one 16-byte vector
// where the destination is aligned. Counter-based, so a thread needs no state: block
// `counter + g` is computed from its index alone (curand_init with an offset is this same counter
// arithmetic, followed by a Philox call this code would not use).
#include "philox_fill.hpp"

#include "ks/core/error.hpp"
#include "ks/rng/unit_log.hpp"

#include <cuda_runtime_api.h>
#include <curand_kernel.h>
#include <ks_device/checked.cuh>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace ks::rng::detail {
namespace {

constexpr unsigned kThreads = 256;
// How a fill is spread. WideGrid: four Philox blocks per thread and a block of threads per 1024
// Philox blocks (a grid as large as the fill). CappedGrid: eight per thread (independent Philox
// chains hide the multiplies' latency) from a grid of at most 16 blocks per SM that loops over the
// rest. Over 64M values the float normal fill ran slightly faster capped (the same bits); the
// uniform fills (memory-bound) and the double normal fill ran slower capped, so they stay wide.
struct WideGrid {
    static constexpr unsigned kGroupsPerThread = 4;
    static constexpr unsigned kBlocksPerSM = 0; // no cap
};
struct CappedGrid {
    static constexpr unsigned kGroupsPerThread = 8;
    static constexpr unsigned kBlocksPerSM = 16;
};
// Philox blocks per block of threads and turn of the loop.
template <class Shape>
constexpr unsigned long long kGroupsPerBlock = (unsigned long long)kThreads * Shape::kGroupsPerThread;
// Beyond this many blocks a grid-stride loop takes over in any case (fills of more than 2^32 elements).
constexpr unsigned long long kMaxBlocks = 1u << 22;

// Philox4x32-10 (Salmon et al., SC'11) as cuRAND's device API computes it (curand_Philox4x32_10):
// ten rounds of two 32x32->64-bit multiplies, the key bumped by the Weyl constants between rounds.
// The ten round keys are the same for every thread, so the host computes them once and they reach
// the kernel as a parameter: each round's XOR then reads its key straight from the constant bank
// instead of every thread bumping the key again for every block of output (about 20 uniform adds
// per call, 8% of the normal fill's instructions).
struct PhiloxRoundKeys {
    unsigned x[10], y[10];
};

PhiloxRoundKeys roundKeys(std::uint64_t seed)
{
    PhiloxRoundKeys k;
    unsigned x = unsigned(seed), y = unsigned(seed >> 32);
    for (int r = 0; r < 10; ++r) {
        k.x[r] = x, k.y[r] = y;
        x += 0x9E3779B9u; // PHILOX_W32_0
        y += 0xBB67AE85u; // PHILOX_W32_1
    }
    return k;
}

__device__ __forceinline__ uint4 philox10(uint4 c, const PhiloxRoundKeys& k)
{
#pragma unroll
    for (int r = 0; r < 10; ++r) {
        const unsigned long long p0 = 0xD2511F53ull * c.x; // PHILOX_M4x32_0
        const unsigned long long p1 = 0xCD9E8D57ull * c.z; // PHILOX_M4x32_1
        c = make_uint4(unsigned(p1 >> 32) ^ c.y ^ k.x[r], unsigned(p1), unsigned(p0 >> 32) ^ c.w ^ k.y[r], unsigned(p0));
    }
    return c;
}

struct UniformFloat {
    using Shape = WideGrid;
    __device__ void operator()(uint4 r, float (&v)[4]) const
    {
        const float4 u = _curand_uniform4(r);
        v[0] = u.x, v[1] = u.y, v[2] = u.z, v[3] = u.w;
    }
};

// sqrtf for x >= 0 without its branch to the slow path: the same reciprocal square root and
// Newton step sqrtf takes for normal inputs (so the same bits), and 0 for 0 (the reciprocal is
// taken of at least 1e-30, so 0 * y stays 0). x here is never denormal (at least 1.2e-7 or 0).
__device__ __forceinline__ float sqrtNonNegative(float x)
{
    float y;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(fmaxf(x, 1e-30f)));
    const float s = x * y;
    const float r = fmaf(-s, s, x);
    return fmaf(r, 0.5f * y, s);
}

// cuRAND's _curand_box_muller (the same u, v, __sincosf and products) with the logarithm of
// unit_log.hpp and the square root above instead of the library's logf and sqrtf, whose range
// tests cost a quarter of the normal fill's instructions. Results agree with cuRAND's device API
// within a few ulp (the logarithm: 0.93 ulp of exact; logf: about 1 ulp), not bit for bit.
__device__ __forceinline__ float2 boxMuller(unsigned x, unsigned y)
{
    const float u = x * CURAND_2POW32_INV + (CURAND_2POW32_INV / 2);
    const float v = y * CURAND_2POW32_INV_2PI + (CURAND_2POW32_INV_2PI / 2);
    const float s = sqrtNonNegative(-2.0f * logUnitInterval(u));
    float2 z;
    __sincosf(v, &z.x, &z.y);
    z.x *= s;
    z.y *= s;
    return z;
}

template <bool LogNormal>
struct NormalFloat {
    using Shape = CappedGrid;
    float mean, stddev;
    __device__ void operator()(uint4 r, float (&v)[4]) const
    {
        const float2 a = boxMuller(r.x, r.y), b = boxMuller(r.z, r.w);
        v[0] = mean + stddev * a.x, v[1] = mean + stddev * a.y, v[2] = mean + stddev * b.x, v[3] = mean + stddev * b.y;
        if constexpr (LogNormal) {
#pragma unroll
            for (int k = 0; k < 4; ++k)
                v[k] = expf(v[k]);
        }
    }
};

struct UniformDouble {
    using Shape = WideGrid;
    __device__ void operator()(uint4 r, double (&v)[2]) const
    {
        v[0] = _curand_uniform_double_hq(r.x, r.y);
        v[1] = _curand_uniform_double_hq(r.z, r.w);
    }
};

template <bool LogNormal>
struct NormalDouble {
    using Shape = WideGrid;
    double mean, stddev;
    __device__ void operator()(uint4 r, double (&v)[2]) const
    {
        const double2 z = _curand_box_muller_double(r.x, r.y, r.z, r.w);
        v[0] = mean + stddev * z.x, v[1] = mean + stddev * z.y;
        if constexpr (LogNormal)
            v[0] = exp(v[0]), v[1] = exp(v[1]);
    }
};

struct Bits {
    using Shape = WideGrid;
    __device__ void operator()(uint4 r, unsigned (&v)[4]) const { v[0] = r.x, v[1] = r.y, v[2] = r.z, v[3] = r.w; }
};

// The output's address, plain or checked; its 16 bytes from element i as one store.
template <class T>
__device__ __forceinline__ const T* address(T* p)
{
    return p;
}
template <class T>
__device__ __forceinline__ const T* address(const ks::teach::CheckedPtr<T>& p)
{
    return p.get();
}
template <class T>
__device__ __forceinline__ void store16(T* out, unsigned long long i, uint4 w)
{
    *reinterpret_cast<uint4*>(out + i) = w;
}
template <class T>
__device__ __forceinline__ void store16(const ks::teach::CheckedPtr<T>& out, unsigned long long i, uint4 w)
{
    *(out + i).template as<uint4>() = w; // the whole 16 bytes checked
}

// Element i of `out` comes from Philox block counter + i / V (see philox_fill.hpp). Thread t of
// block b takes blocks b * kGroupsPerBlock + k * kThreads + t (k < Op::Shape::kGroupsPerThread, one
// stretch of kGroupsPerBlock per block and turn): each 16-byte store of a warp covers 512
// contiguous bytes. `Out` is T* (the fill) or CheckedPtr<T> (its checked variant: every store
// checked, ks_device/checked.cuh).
template <class T, class Op, class Out>
__device__ __forceinline__ void philoxFillBody(Out out, unsigned long long n, const PhiloxRoundKeys& keys,
                                               unsigned long long counter, const Op& op)
{
    constexpr unsigned kGroupsPerThread = Op::Shape::kGroupsPerThread;
    constexpr unsigned long long kBlockGroups = kGroupsPerBlock<typename Op::Shape>;
    constexpr unsigned V = 16 / sizeof(T);
    const unsigned long long groups = (n + V - 1) / V;
    const bool aligned = (reinterpret_cast<unsigned long long>(address(out)) & 15u) == 0;
    for (unsigned long long first = blockIdx.x * kBlockGroups; first < groups;
         first += (unsigned long long)gridDim.x * kBlockGroups) {
        // The usual case, decided once per block: every block of this stretch is whole and
        // aligned, and the 64-bit counter does not wrap inside it (no carry into the third word).
        const unsigned long long last = first + kBlockGroups - 1;
        if (aligned && (last + 1) * V <= n && counter + last >= counter) {
#pragma unroll
            for (unsigned k = 0; k < kGroupsPerThread; ++k) {
                const unsigned long long g = first + k * kThreads + threadIdx.x;
                const unsigned long long c = counter + g;
                T v[V];
                op(philox10(make_uint4(unsigned(c), unsigned(c >> 32), 0u, 0u), keys), v);
                uint4 w;
                memcpy(&w, v, 16);
                store16(out, g * V, w);
            }
            continue;
        }
#pragma unroll
        for (unsigned k = 0; k < kGroupsPerThread; ++k) {
            const unsigned long long g = first + k * kThreads + threadIdx.x;
            if (g >= groups)
                break;
            // The 128-bit counter is (block low, block high, carry, 0): subsequence 0 as curand_init
            // counts it, and a 64-bit wrap carries into the third word as Philox_State_Incr does.
            const unsigned long long c = counter + g;
            const uint4 ctr = make_uint4(unsigned(c), unsigned(c >> 32), c < counter ? 1u : 0u, 0u);
            T v[V];
            op(philox10(ctr, keys), v);
            const unsigned long long i = g * V;
            if (aligned && i + V <= n) {
                uint4 w;
                memcpy(&w, v, 16);
                store16(out, i, w);
            } else {
#pragma unroll
                for (unsigned j = 0; j < V; ++j)
                    if (i + j < n)
                        out[i + j] = v[j];
            }
        }
    }
}

template <class T, class Op>
__global__ void __launch_bounds__(kThreads) philoxFillKernel(T* __restrict__ out, unsigned long long n,
                                                             PhiloxRoundKeys keys, unsigned long long counter, Op op)
{
    philoxFillBody<T>(out, n, keys, counter, op);
}

// The checked variant: `out` checked against `extent` bytes from it on; the first refused store
// of the launch in *record.
template <class T, class Op>
__global__ void __launch_bounds__(kThreads) philoxFillCheckedKernel(T* out, unsigned long long n, PhiloxRoundKeys keys,
                                                                    unsigned long long counter, Op op,
                                                                    ks::teach::CheckedRecord* record,
                                                                    unsigned long long extent)
{
    const ks::teach::CheckContext ctx{record, extent, 0, 0};
    philoxFillBody<T>(ks::teach::CheckedPtr<T>(out, ctx), n, keys, counter, op);
}

template <class T, class Op>
std::uint64_t launchFill(T* out, std::size_t n, const PhiloxLaunch& launch, Op op, const char* name)
{
    constexpr std::size_t V = 16 / sizeof(T);
    const std::uint64_t groups = (std::uint64_t(n) + V - 1) / V;
    if (n == 0)
        return 0;
    constexpr unsigned long long kBlockGroups = kGroupsPerBlock<typename Op::Shape>;
    unsigned long long cap = kMaxBlocks;
    if constexpr (Op::Shape::kBlocksPerSM > 0)
        cap = std::min<unsigned long long>(cap, std::max(1u, launch.smCount) * Op::Shape::kBlocksPerSM);
    const unsigned blocks = unsigned(std::min<unsigned long long>((groups + kBlockGroups - 1) / kBlockGroups, cap));
    const cudaStream_t stream = reinterpret_cast<cudaStream_t>(launch.stream);
    if (launch.record)
        philoxFillCheckedKernel<<<blocks, kThreads, 0, stream>>>(out, n, roundKeys(launch.seed), launch.counter, op,
                                                                 launch.record, launch.extentBytes);
    else
        philoxFillKernel<<<blocks, kThreads, 0, stream>>>(out, n, roundKeys(launch.seed), launch.counter, op);
    const cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
        throwError(ErrorDomain::CudaRuntime, name, e, cudaGetErrorName(e), cudaGetErrorString(e));
    return groups;
}

} // namespace

std::uint64_t philoxFill(float* out, std::size_t n, PhiloxDistribution d, float mean, float stddev,
                         const PhiloxLaunch& launch)
{
    if (d == PhiloxDistribution::Uniform)
        return launchFill(out, n, launch, UniformFloat{}, "philoxFillKernel<float, uniform>");
    if (d == PhiloxDistribution::Normal)
        return launchFill(out, n, launch, NormalFloat<false>{mean, stddev}, "philoxFillKernel<float, normal>");
    return launchFill(out, n, launch, NormalFloat<true>{mean, stddev}, "philoxFillKernel<float, log-normal>");
}

std::uint64_t philoxFill(double* out, std::size_t n, PhiloxDistribution d, double mean, double stddev,
                         const PhiloxLaunch& launch)
{
    if (d == PhiloxDistribution::Uniform)
        return launchFill(out, n, launch, UniformDouble{}, "philoxFillKernel<double, uniform>");
    if (d == PhiloxDistribution::Normal)
        return launchFill(out, n, launch, NormalDouble<false>{mean, stddev}, "philoxFillKernel<double, normal>");
    return launchFill(out, n, launch, NormalDouble<true>{mean, stddev}, "philoxFillKernel<double, log-normal>");
}

std::uint64_t philoxBits(std::uint32_t* out, std::size_t n, const PhiloxLaunch& launch)
{
    return launchFill(reinterpret_cast<unsigned*>(out), n, launch, Bits{}, "philoxFillKernel<uint32, bits>");
}

} // namespace ks::rng::detail
