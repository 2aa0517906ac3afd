#include "ks/array/algorithm_source.hpp"

#include "ks/array/kernel_source.hpp"
#include "ks/core/error.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <stdexcept>

namespace ks::array {
namespace {

// Device code shared by reductions and scans. Everything works for any trivially copyable T (user
// structs included): shuffles move T as 32-bit words, loads pick the widest aligned access.
const char* const kSupport = R"KS(
#ifndef KS_ALGO_SUPPORT
#define KS_ALGO_SUPPORT
#ifndef FLT_MAX
#define FLT_MAX 3.402823466e+38F
#endif
#ifndef DBL_MAX
#define DBL_MAX 1.7976931348623158e+308
#endif
#ifndef INT_MAX
#define INT_MAX 2147483647
#endif
#ifndef INT_MIN
#define INT_MIN (-2147483647 - 1)
#endif
#ifndef UINT_MAX
#define UINT_MAX 4294967295U
#endif
#ifndef LLONG_MAX
#define LLONG_MAX 9223372036854775807LL
#endif
#ifndef LLONG_MIN
#define LLONG_MIN (-9223372036854775807LL - 1)
#endif
#ifndef ULLONG_MAX
#define ULLONG_MAX 18446744073709551615ULL
#endif

namespace ks_algo {

template <class T>
struct Words {
    static constexpr int kCount = int((sizeof(T) + 3) / 4);
    unsigned w[kCount];
};

template <class T>
__device__ __forceinline__ Words<T> toWords(const T& v)
{
    Words<T> r;
    memcpy(r.w, &v, sizeof(T));
    return r;
}

// A T holding the words' bytes; `like` only provides an object to overwrite (T need not be
// default-constructible).
template <class T>
__device__ __forceinline__ T fromWords(const Words<T>& r, const T& like)
{
    T v(like);
    memcpy(&v, r.w, sizeof(T));
    return v;
}

// Moves T through a warp shuffle 32 bits at a time; `shuffle(word)` is one __shfl_*_sync.
template <class T, class Shuffle>
__device__ __forceinline__ T shuffleWords(const T& v, Shuffle shuffle)
{
    Words<T> r = toWords(v);
#pragma unroll
    for (int k = 0; k < Words<T>::kCount; ++k)
        r.w[k] = shuffle(r.w[k]);
    return fromWords<T>(r, v);
}

template <class T>
__device__ __forceinline__ T shflDown(const T& v, unsigned delta)
{
    return shuffleWords(v, [delta](unsigned w) { return __shfl_down_sync(0xffffffffu, w, delta); });
}

template <class T>
__device__ __forceinline__ T shflUp(const T& v, unsigned delta)
{
    return shuffleWords(v, [delta](unsigned w) { return __shfl_up_sync(0xffffffffu, w, delta); });
}

template <class T>
__device__ __forceinline__ T shflIdx(const T& v, int lane)
{
    return shuffleWords(v, [lane](unsigned w) { return __shfl_sync(0xffffffffu, w, lane); });
}

// Elements per vector step for element types Ts: 16 bytes of the smallest, 1 when a size is not a
// power of two (then loads are element by element).
template <class T>
__host__ __device__ constexpr int vecWidthOf()
{
    return (sizeof(T) <= 16 && (sizeof(T) & (sizeof(T) - 1)) == 0) ? int(16 / sizeof(T)) : 1;
}
template <class T, class... Ts>
__host__ __device__ constexpr int vecWidth()
{
    if constexpr (sizeof...(Ts) == 0) {
        return vecWidthOf<T>();
    } else {
        return vecWidthOf<T>() < vecWidth<Ts...>() ? vecWidthOf<T>() : vecWidth<Ts...>();
    }
}

// Loads N consecutive elements from `src`, which is aligned to N * sizeof(T) bytes when that is a
// power of two no larger than 16 bytes (or a multiple of 16).
template <int N, class T>
__device__ __forceinline__ void loadVec(T (&dst)[N], const T* src)
{
    constexpr int kBytes = int(N * sizeof(T));
    if constexpr (kBytes % 16 == 0) {
        uint4 tmp[kBytes / 16];
#pragma unroll
        for (int k = 0; k < kBytes / 16; ++k)
            tmp[k] = reinterpret_cast<const uint4*>(src)[k];
        memcpy(dst, tmp, kBytes);
    } else if constexpr (kBytes == 8) {
        uint2 tmp = *reinterpret_cast<const uint2*>(src);
        memcpy(dst, &tmp, kBytes);
    } else if constexpr (kBytes == 4) {
        unsigned tmp = *reinterpret_cast<const unsigned*>(src);
        memcpy(dst, &tmp, kBytes);
    } else {
#pragma unroll
        for (int k = 0; k < N; ++k)
            dst[k] = src[k];
    }
}

// L2-coherent load and store of any T (bypassing L1, which is not coherent between SMs).
template <class T>
__device__ __forceinline__ T loadCg(const T* p)
{
    if constexpr (sizeof(T) % 4 == 0 && alignof(T) >= 4) {
        Words<T> r;
#pragma unroll
        for (int k = 0; k < Words<T>::kCount; ++k)
            r.w[k] = __ldcg(reinterpret_cast<const unsigned*>(p) + k);
        alignas(T) unsigned char buf[sizeof(T)];
        memcpy(buf, r.w, sizeof(T));
        return *reinterpret_cast<const T*>(buf);
    } else {
        alignas(T) unsigned char buf[sizeof(T)];
        const volatile unsigned char* b = reinterpret_cast<const volatile unsigned char*>(p);
#pragma unroll
        for (int k = 0; k < int(sizeof(T)); ++k)
            buf[k] = b[k];
        return *reinterpret_cast<const T*>(buf);
    }
}

template <class T>
__device__ __forceinline__ void storeCg(T* p, const T& v)
{
    if constexpr (sizeof(T) % 4 == 0 && alignof(T) >= 4) {
        const Words<T> r = toWords(v);
#pragma unroll
        for (int k = 0; k < Words<T>::kCount; ++k)
            __stcg(reinterpret_cast<unsigned*>(p) + k, r.w[k]);
    } else {
        volatile unsigned char* b = reinterpret_cast<volatile unsigned char*>(p);
        const unsigned char* s = reinterpret_cast<const unsigned char*>(&v);
#pragma unroll
        for (int k = 0; k < int(sizeof(T)); ++k)
            b[k] = s[k];
    }
}

__device__ __forceinline__ unsigned long long loadRelaxed(const unsigned long long* p)
{
    unsigned long long v;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ void storeRelaxed(unsigned long long* p, unsigned long long v)
{
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

__device__ __forceinline__ int loadRelaxed(const int* p)
{
    int v;
    asm volatile("ld.relaxed.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ void storeRelaxed(int* p, int v)
{
    asm volatile("st.relaxed.gpu.global.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

#ifdef KS_TEACH_CHECKED
// The checked variant ("find the fault", ks_device/checked.cuh) passes checked pointers: the span is
// checked, then accessed as above; a refused load gives zeros, a refused store is dropped.
template <int N, class T, class P>
__device__ __forceinline__ void loadVec(T (&dst)[N], const ks::teach::CheckedPtr<P>& src)
{
    if (ks_span(src, N, ks_read))
        loadVec<N>(dst, static_cast<const T*>(src.get()));
    else
        memset(dst, 0, sizeof(dst));
}
template <class P>
__device__ __forceinline__ typename ks::teach::KsNoConst<P>::type loadCg(const ks::teach::CheckedPtr<P>& p)
{
    using T = typename ks::teach::KsNoConst<P>::type;
    if (ks_span(p, 1, ks_read))
        return loadCg(static_cast<const T*>(p.get()));
    alignas(T) unsigned char zeros[sizeof(T)] = {}; // T need not be default-constructible
    asm volatile("" : : "l"(zeros) : "memory");
    return *reinterpret_cast<const T*>(zeros);
}
template <class T>
__device__ __forceinline__ void storeCg(const ks::teach::CheckedPtr<T>& p, const T& v)
{
    if (ks_span(p, 1, ks_write))
        storeCg(p.get(), v);
}
#endif

// numpy's minimum/maximum: a NaN on either side gives NaN. Floats use the single instruction
// min.NaN / max.NaN from sm_80 on (it returns the canonical NaN).
template <class T>
__device__ __forceinline__ T minNaN(T a, T b)
{
    return (a < b || a != a) ? a : b;
}
template <class T>
__device__ __forceinline__ T maxNaN(T a, T b)
{
    return (a > b || a != a) ? a : b;
}
#if __CUDA_ARCH__ >= 800
__device__ __forceinline__ float minNaN(float a, float b)
{
    float r;
    asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
}
__device__ __forceinline__ float maxNaN(float a, float b)
{
    float r;
    asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
}
#endif

} // namespace ks_algo
#endif
)KS";

// Replaces every @KEY@ in `text` by its value, in one pass: inserted text (user expressions) is
// never scanned again. An unknown key is a bug in the generator.
std::string substitute(const std::string& text, const std::map<std::string, std::string>& values)
{
    std::string out;
    std::size_t pos = 0;
    while (true) {
        const std::size_t open = text.find('@', pos);
        if (open == std::string::npos)
            break;
        const std::size_t close = text.find('@', open + 1);
        const auto it = close == std::string::npos ? values.end() : values.find(text.substr(open + 1, close - open - 1));
        if (it == values.end())
            throw std::logic_error("generator template key missing at: " + text.substr(open, 40));
        out.append(text, pos, open - pos);
        out += it->second;
        pos = close + 1;
    }
    out.append(text, pos, std::string::npos);
    return out;
}

bool isIdentifier(const std::string& s)
{
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])))
        return false;
    for (char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
            return false;
    return true;
}

void requireIdentifier(const std::string& name, const char* function)
{
    if (!isIdentifier(name))
        throwUsage(function, "kernel name '" + name + "' is not a C identifier");
}

// The map reads pointer p only as p[i] and `i` nowhere else: each element's value depends only on
// the elements at the same index, so a vector of consecutive elements can stand in for p.
bool mapIsElementwise(const std::string& mapExpr, const std::vector<KernelArgument>& params)
{
    std::string rest = mapExpr;
    bool anyPointer = false;
    for (const auto& p : params) {
        if (!p.pointer)
            continue;
        anyPointer = true;
        const std::regex indexed("\\b" + p.name + "\\s*\\[\\s*i\\s*\\]");
        rest = std::regex_replace(rest, indexed, " ");
        if (std::regex_search(rest, std::regex("\\b" + p.name + "\\b")))
            return false;
    }
    return anyPointer && !std::regex_search(rest, std::regex("\\bi\\b"));
}

std::string blockDefine()
{
    return "\n#undef KS_BLOCK\n#define KS_BLOCK " + std::to_string(kAlgorithmBlockSize) + "\n";
}

std::string userBlock(const std::string& label, const std::string& code)
{
    if (code.empty())
        return {};
    return "#line 1 \"" + label + "\"\n" + code + "\n";
}

} // namespace

std::string declaration(const KernelArgument& a)
{
    return std::string(a.isConst ? "const " : "") + std::string(cudaTypeName(a.dtype)) + (a.pointer ? " *" : " ") + a.name;
}

const std::string& algorithmSupportSource()
{
    static const std::string source = kSupport;
    return source;
}

GeneratedReduction generateReduction(const ReductionSpec& spec)
{
    const char* fn = "ks::array::generateReduction";
    requireIdentifier(spec.name, fn);
    if (spec.outType.empty() || spec.neutral.empty() || spec.reduceExpr.empty())
        throwUsage(fn, "a reduction needs an output type, a neutral element and a reduce expression");
    GeneratedReduction g;
    g.params = parseKernelArguments(spec.arguments);
    std::string mapExpr = spec.mapExpr;
    if (mapExpr.empty()) {
        if (g.params.empty() || !g.params[0].pointer)
            throwUsage(fn, "without a map expression the first argument must be a pointer (the map is "
                           "\"<first>[i]\")");
        mapExpr = g.params[0].name + "[i]";
    }
    g.vectorizable = mapIsElementwise(mapExpr, g.params);
    g.kernel = spec.name + "_reduce";
    g.vectorKernel = g.vectorizable ? spec.name + "_reduce_vec" : "";
    g.sizeSymbol = spec.name + "_value_size";

    // ks_map takes each pointer as a type of its own (a template parameter): raw pointers and the
    // vector path's local arrays as before, and the checked variant's checked pointers, so that the
    // map's reads are checked too (ks_device/checked.cuh).
    std::string params, names, extraNames, mapParams, mapTemplate;
    for (const auto& p : g.params) {
        params += ", " + declaration(p);
        names += (names.empty() ? "" : ", ") + p.name;
        if (p.pointer) {
            const std::string type = "KS_P_" + p.name;
            mapTemplate += (mapTemplate.empty() ? "template <class " : ", class ") + type;
            mapParams += ", " + type + " " + p.name;
        } else {
            mapParams += ", " + declaration(p);
        }
    }
    if (!mapTemplate.empty())
        mapTemplate += ">\n";
    if (!spec.extraParameters.empty()) {
        params += ", " + spec.extraParameters;
        mapParams += ", " + spec.extraParameters;
        // Each extra declaration's last identifier is its name.
        static const std::regex lastName("([A-Za-z_][A-Za-z_0-9]*)\\s*(,|$)");
        for (std::sregex_iterator it(spec.extraParameters.begin(), spec.extraParameters.end(), lastName), end; it != end; ++it)
            extraNames += ", " + (*it)[1].str();
        names += names.empty() ? extraNames.substr(2) : extraNames;
    }

    std::map<std::string, std::string> values = {
        {"OUT_TYPE", spec.outType}, {"NEUTRAL_EXPR", spec.neutral}, {"REDUCE_EXPR", spec.reduceExpr},
        {"MAP_EXPR", mapExpr},      {"PARAMS", params},            {"NAMES", names.empty() ? "" : ", " + names},
        {"NAME", spec.name},        {"MAP_TEMPLATE", mapTemplate}, {"MAP_PARAMS", mapParams},
    };
    const std::string s = std::string(devicePrelude()) + kSupport + userBlock("preamble", spec.preamble);
    std::string generated = blockDefine() + R"KS(
#line 1 "ks_reduction"
typedef @OUT_TYPE@ ks_out_t;
extern "C" __device__ const int @NAME@_value_size = int(sizeof(ks_out_t));
__device__ __forceinline__ ks_out_t ks_neutral() { return ks_out_t(@NEUTRAL_EXPR@); }
__device__ __forceinline__ ks_out_t ks_reduce(ks_out_t a, ks_out_t b) { return ks_out_t(@REDUCE_EXPR@); }
@MAP_TEMPLATE@__device__ __forceinline__ ks_out_t ks_map(long long i @MAP_PARAMS@) { return ks_out_t(@MAP_EXPR@); }

// Block-wide reduction; the result is valid in thread 0. Offsets grow, so lane 0 combines lanes in
// order (a fixed order: the same inputs give the same bits on every run).
__device__ __forceinline__ ks_out_t ks_block_reduce(ks_out_t v)
{
    __shared__ __align__(16) unsigned char ks_raw[(KS_BLOCK / 32) * sizeof(ks_out_t)];
    ks_out_t* ks_warps = reinterpret_cast<ks_out_t*>(ks_raw);
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
#pragma unroll
    for (unsigned d = 1; d < 32; d <<= 1) {
        const ks_out_t other = ks_algo::shflDown(v, d);
        if (lane + d < 32)
            v = ks_reduce(v, other);
    }
    if (lane == 0)
        ks_warps[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = ks_warps[lane < KS_BLOCK / 32 ? lane : 0];
#pragma unroll
        for (unsigned d = 1; d < KS_BLOCK / 32; d <<= 1) {
            const ks_out_t other = ks_algo::shflDown(v, d);
            if (lane + d < KS_BLOCK / 32)
                v = ks_reduce(v, other);
        }
    }
    return v;
}

// One pass: a fixed grid strides over the input and each block leaves one partial; the block that
// finishes last (counted in *ks_done, which it resets to 0 for the next reduction on this stream)
// combines the partials in block order and writes the result. A grid of one block writes it at
// once. The combination order depends only on the grid, so the same input gives the same bits.
// The result also goes to *ks_mirror where that is not null (a second place in one store, such as
// page-locked host memory for a read-out, without a copy after the kernel).
// (Pointer types are template parameters so that the checked variant checks these accesses too.)
template <class KS_OUT, class KS_PARTIALS, class KS_DONE>
__device__ __forceinline__ void ks_finish(ks_out_t ks_acc, KS_OUT ks_out, KS_OUT ks_mirror, KS_PARTIALS ks_partials,
                                          KS_DONE ks_done)
{
    ks_acc = ks_block_reduce(ks_acc);
    if (gridDim.x == 1) {
        if (threadIdx.x == 0) {
            *ks_out = ks_acc;
            if (ks_mirror)
                *ks_mirror = ks_acc;
        }
        return;
    }
    __shared__ bool ks_last;
    if (threadIdx.x == 0) {
        ks_algo::storeCg(ks_partials + blockIdx.x, ks_acc);
        __threadfence(); // the partial is visible before the count that announces it
        ks_last = atomicAdd(&ks_done[0], 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!ks_last)
        return;
    __threadfence(); // every other block's partial is visible after its count
    // Each thread combines partials j, j + KS_BLOCK, ... in that order; the loads go out in batches
    // (up to 64 bytes per thread in flight) so that the block waits for the L2 a few times, not once
    // per partial: this runs after every other block has finished.
    constexpr int KS_BATCH = sizeof(ks_out_t) <= 8 ? 8 : (sizeof(ks_out_t) <= 16 ? 4 : 2);
    ks_out_t ks_total = ks_neutral();
    unsigned j = threadIdx.x;
    for (; j + (KS_BATCH - 1) * KS_BLOCK < gridDim.x; j += KS_BATCH * KS_BLOCK) {
        ks_out_t ks_p[KS_BATCH];
#pragma unroll
        for (int b = 0; b < KS_BATCH; ++b)
            ks_p[b] = ks_algo::loadCg(ks_partials + j + b * KS_BLOCK);
#pragma unroll
        for (int b = 0; b < KS_BATCH; ++b)
            ks_total = ks_reduce(ks_total, ks_p[b]);
    }
    for (; j < gridDim.x; j += KS_BLOCK)
        ks_total = ks_reduce(ks_total, ks_algo::loadCg(ks_partials + j));
    ks_total = ks_block_reduce(ks_total);
    if (threadIdx.x == 0) {
        *ks_out = ks_total;
        if (ks_mirror)
            *ks_mirror = ks_total;
        *ks_done = 0u;
    }
}

extern "C" __global__ void __launch_bounds__(KS_BLOCK) @NAME@_reduce(ks_out_t* ks_out, ks_out_t* ks_mirror, ks_out_t* ks_partials, unsigned* ks_done, long long ks_n @PARAMS@)
{
    ks_out_t ks_acc = ks_neutral();
    const long long ks_stride = (long long)gridDim.x * KS_BLOCK;
    long long i = (long long)blockIdx.x * KS_BLOCK + threadIdx.x;
    for (; i + 3 * ks_stride < ks_n; i += 4 * ks_stride) {
        const ks_out_t ks_v0 = ks_map(i @NAMES@);
        const ks_out_t ks_v1 = ks_map(i + ks_stride @NAMES@);
        const ks_out_t ks_v2 = ks_map(i + 2 * ks_stride @NAMES@);
        const ks_out_t ks_v3 = ks_map(i + 3 * ks_stride @NAMES@);
        ks_acc = ks_reduce(ks_acc, ks_reduce(ks_reduce(ks_v0, ks_v1), ks_reduce(ks_v2, ks_v3)));
    }
    for (; i < ks_n; i += ks_stride)
        ks_acc = ks_reduce(ks_acc, ks_map(i @NAMES@));
    ks_finish(ks_acc, ks_out, ks_mirror, ks_partials, ks_done);
}
)KS";

    if (g.vectorizable) {
        // Local arrays stand in for the pointers: the map, inlined, reads registers.
        std::string elementTypes, decls, loads, loadsOne, vecNames;
        int pointerCount = 0;
        for (const auto& p : g.params) {
            if (!p.pointer) {
                vecNames += ", " + p.name;
                continue;
            }
            ++pointerCount;
            const std::string element(cudaTypeName(p.dtype));
            elementTypes += (elementTypes.empty() ? "" : ", ") + element;
            decls += "        " + element + " ks_l_" + p.name + "[KS_U][KS_V];\n";
            loads += "            ks_algo::loadVec<KS_V>(ks_l_" + p.name + "[u], " + p.name + " + (v + u * ks_stride) * KS_V);\n";
            loadsOne += "        ks_algo::loadVec<KS_V>(ks_l_" + p.name + "[0], " + p.name + " + v * KS_V);\n";
            vecNames += ", ks_l_" + p.name + "[u]";
        }
        const std::string k = R"KS(
// The same with 16-byte loads; every pointer 16-byte aligned. The input is cut into tiles of
// KS_U x KS_BLOCK vectors that blocks take in grid-stride order; a block reads its tile as KS_U
// contiguous runs of KS_BLOCK vectors, KS_U loads in flight per thread and pointer (CUB's layout:
// it keeps DRAM busier than KS_U runs a whole grid apart; ks_bench_arrays).
extern "C" __global__ void __launch_bounds__(KS_BLOCK) @NAME@_reduce_vec(ks_out_t* ks_out, ks_out_t* ks_mirror, ks_out_t* ks_partials, unsigned* ks_done, long long ks_n @PARAMS@)
{
    constexpr int KS_V = ks_algo::vecWidth<@ELEMENT_TYPES@>();
    constexpr int KS_U = @UNROLL@;
    constexpr long long KS_TILE_VECS = (long long)KS_U * KS_BLOCK;
    ks_out_t ks_acc = ks_neutral();
    const long long ks_nvec = ks_n / KS_V;
    const long long ks_tiles = ks_nvec / KS_TILE_VECS;
    for (long long t = blockIdx.x; t < ks_tiles; t += gridDim.x) {
        const long long v = t * KS_TILE_VECS + threadIdx.x;
        const long long ks_stride = KS_BLOCK;
@DECLS@#pragma unroll
        for (int u = 0; u < KS_U; ++u) {
@LOADS@        }
        // Where the tile's KS_U x KS_V values fit in 64 bytes, a tree over them (short dependency
        // chains), then into the total;
        // otherwise one after another (few registers).
        constexpr bool KS_TREE = KS_U * KS_V * sizeof(ks_out_t) <= 64;
        if (KS_TREE) {
            ks_out_t ks_t[KS_U * KS_V];
#pragma unroll
            for (int u = 0; u < KS_U; ++u)
#pragma unroll
                for (int k = 0; k < KS_V; ++k)
                    ks_t[u * KS_V + k] = ks_map(k @VECNAMES@);
#pragma unroll
            for (int w = 1; w < KS_U * KS_V; w *= 2)
#pragma unroll
                for (int j = 0; j + w < KS_U * KS_V; j += 2 * w)
                    ks_t[j] = ks_reduce(ks_t[j], ks_t[j + w]);
            ks_acc = ks_reduce(ks_acc, ks_t[0]);
        } else {
#pragma unroll
            for (int u = 0; u < KS_U; ++u)
#pragma unroll
                for (int k = 0; k < KS_V; ++k)
                    ks_acc = ks_reduce(ks_acc, ks_map(k @VECNAMES@));
        }
    }
    const long long ks_tid = (long long)blockIdx.x * KS_BLOCK + threadIdx.x;
    for (long long v = ks_tiles * KS_TILE_VECS + ks_tid; v < ks_nvec; v += (long long)gridDim.x * KS_BLOCK) {
@DECLS@        const int u = 0;
@LOADS_ONE@#pragma unroll
        for (int k = 0; k < KS_V; ++k)
            ks_acc = ks_reduce(ks_acc, ks_map(k @VECNAMES@));
    }
    const long long ks_tail = ks_nvec * KS_V + ks_tid;
    if (ks_tail < ks_n)
        ks_acc = ks_reduce(ks_acc, ks_map(ks_tail @NAMES@));
    ks_finish(ks_acc, ks_out, ks_mirror, ks_partials, ks_done);
}
)KS";
        values["ELEMENT_TYPES"] = elementTypes;
        values["UNROLL"] = pointerCount == 1 ? "4" : "2";
        values["DECLS"] = decls;
        values["LOADS_ONE"] = loadsOne;
        values["LOADS"] = loads;
        values["VECNAMES"] = vecNames + extraNames;
        generated += k;
    }
    g.source = s + substitute(generated, values);
    return g;
}

GeneratedScan generateScan(const ScanSpec& spec)
{
    const char* fn = "ks::array::generateScan";
    requireIdentifier(spec.name, fn);
    if (spec.type.empty() || spec.scanExpr.empty())
        throwUsage(fn, "a scan needs an element type and a scan expression");
    if (spec.exclusive && spec.neutral.empty())
        throwUsage(fn, "an exclusive scan needs a neutral element (the first output)");
    const ScanTuning& tuning = spec.tuning;
    if (tuning.vectorBlock < 32 || tuning.vectorBlock % 32 != 0 || tuning.vectorBlock > 1024 || tuning.vectorChunks < 1 ||
        tuning.vectorChunks * (tuning.vectorBlock / 32) > 32 || tuning.firstPauseNs < 0 || tuning.pauseNs < 0 ||
        tuning.firstPauseNs > 1000000 || tuning.pauseNs > 1000000)
        throwUsage(fn, "scan tuning out of range: the vector kernel needs a block of whole warps with chunks x warps "
                       "<= 32, and pauses of 0 to 1 ms");
    GeneratedScan g;
    g.kernel = spec.name;
    g.vectorKernel = spec.name + "_vec";
    g.tileSymbol = spec.name + "_tile";
    g.vectorTileSymbol = spec.name + "_vec_tile";
    g.sizeSymbol = spec.name + "_value_size";
    g.packedSymbol = spec.name + "_packed";

    const std::string s = std::string(devicePrelude()) + kSupport + userBlock("preamble", spec.preamble);
    const std::string generated = blockDefine() + R"KS(
#line 1 "ks_scan"
typedef @VALUE_TYPE@ ks_t;
__device__ __forceinline__ ks_t ks_op(ks_t a, ks_t b) { return ks_t(@SCAN_EXPR@); }
@NEUTRAL_FUNCTION@
#define KS_ITEMS (int(64 / sizeof(ks_t)) > 16 ? 16 : (int(64 / sizeof(ks_t)) < 1 ? 1 : int(64 / sizeof(ks_t))))
#define KS_TILE (KS_BLOCK * KS_ITEMS)
#define KS_PACKED (sizeof(ks_t) <= 4)
#define KS_PAD(i) ((i) + ((i) >> 5))
// Integer operators are exact, so any association gives the same bits: the look-back may combine
// whatever predecessors have published. Others get a fixed association (reproducible results).
#define KS_FIXED_ORDER (!ks::is_integer<ks_t>::value)
// Look-back pacing (ns, ScanTuning): in grids of at least KS_PAUSE_GRID tiles, a pause before the
// first poll (the predecessors are most likely still scanning) and between polls of unpublished
// states, so that waiting warps leave the SM's issue slots and the memory system to the blocks
// still loading. Small grids, where the wait is short and the tiles few, poll at once.
#define KS_FIRST_PAUSE @FIRST_PAUSE@
#define KS_PAUSE @PAUSE@
#define KS_PAUSE_GRID 500
__device__ __forceinline__ void ks_pause(unsigned ns)
{
    if (ns > 0 && gridDim.x >= KS_PAUSE_GRID)
        __nanosleep(ns);
}
extern "C" __device__ const int @NAME@_tile = KS_TILE;
extern "C" __device__ const int @NAME@_value_size = int(sizeof(ks_t));
extern "C" __device__ const int @NAME@_packed = KS_PACKED ? 1 : 0;

enum { KS_FLAG_NONE = 0, KS_FLAG_AGGREGATE = 1, KS_FLAG_INCLUSIVE = 2 };

// Scratch layout: [tile counter, 16 bytes][flags: tiles x 8 bytes][aggregates][inclusive prefixes].
// Packed (sizeof(ks_t) <= 4): each 8-byte flag word holds flag << 32 | value bits, one atomic access.
// The states are reached through raw pointers (relaxed atomics, L2-coherent loads and stores);
// each access asks ks_span first, on the scratch as the kernel got it: free for a raw pointer, and
// in the checked variant ("find the fault") every state is checked against the scratch's extent.
template <class KS_SCRATCH>
struct ks_tile_states {
    KS_SCRATCH scratch; // as the kernel got it (a checked pointer in the checked variant)
    long long values;   // the aggregates' byte offset in the scratch
    long long tiles;
    unsigned long long* words;
    ks_t* aggregates;
    ks_t* inclusives;
};

// Whether `bytes` bytes at byte `at` of the scratch may be accessed (checked variant: a refusal
// is recorded).
template <class KS_SCRATCH>
__device__ __forceinline__ bool ks_state_ok(const ks_tile_states<KS_SCRATCH>& st, long long at, long long bytes,
                                            unsigned access)
{
    return ks_span(ks_cast<unsigned char>(st.scratch) + at, bytes, access);
}

// The byte offset of tile `tile`'s flag word, and of its aggregate or inclusive prefix.
template <class KS_SCRATCH>
__device__ __forceinline__ long long ks_word_at(const ks_tile_states<KS_SCRATCH>&, long long tile)
{
    return 16 + tile * 8;
}
template <class KS_SCRATCH>
__device__ __forceinline__ long long ks_value_at(const ks_tile_states<KS_SCRATCH>& st, long long tile, int flag)
{
    return st.values + ((flag == KS_FLAG_INCLUSIVE ? st.tiles : 0) + tile) * (long long)sizeof(ks_t);
}

template <class KS_SCRATCH>
__device__ __forceinline__ void ks_publish(const ks_tile_states<KS_SCRATCH>& st, long long tile, int flag, const ks_t& v)
{
    if constexpr (KS_PACKED) {
        unsigned bits = 0;
        memcpy(&bits, &v, sizeof(ks_t));
        if (ks_state_ok(st, ks_word_at(st, tile), 8, ks_write))
            ks_algo::storeRelaxed(st.words + tile, ((unsigned long long)flag << 32) | bits);
    } else {
        if (ks_state_ok(st, ks_value_at(st, tile, flag), sizeof(ks_t), ks_write))
            ks_algo::storeCg((flag == KS_FLAG_INCLUSIVE ? st.inclusives : st.aggregates) + tile, v);
        __threadfence();
        if (ks_state_ok(st, ks_word_at(st, tile), 4, ks_write))
            ks_algo::storeRelaxed(reinterpret_cast<int*>(st.words + tile), flag);
    }
}

// Waits for tile `tile`'s state to be published; returns its flag and value. (Checked variant: a
// refused state reads as an inclusive prefix, leaving `v` as it was, so that no look-back waits
// for a state that can never be published; the launch is reported refused anyway.)
template <class KS_SCRATCH>
__device__ __forceinline__ int ks_peek(const ks_tile_states<KS_SCRATCH>& st, long long tile, ks_t& v)
{
    if constexpr (KS_PACKED) {
        if (!ks_state_ok(st, ks_word_at(st, tile), 8, ks_read))
            return KS_FLAG_INCLUSIVE;
        const unsigned long long w = ks_algo::loadRelaxed(st.words + tile);
        const int flag = int(w >> 32);
        if (flag != KS_FLAG_NONE) {
            const unsigned bits = unsigned(w);
            alignas(ks_t) unsigned char buf[sizeof(ks_t)];
            memcpy(buf, &bits, sizeof(ks_t));
            v = *reinterpret_cast<const ks_t*>(buf);
        }
        return flag;
    } else {
        if (!ks_state_ok(st, ks_word_at(st, tile), 4, ks_read))
            return KS_FLAG_INCLUSIVE;
        const int flag = ks_algo::loadRelaxed(reinterpret_cast<const int*>(st.words + tile));
        if (flag != KS_FLAG_NONE) {
            __threadfence();
            if (ks_state_ok(st, ks_value_at(st, tile, flag), sizeof(ks_t), ks_read))
                v = ks_algo::loadCg((flag == KS_FLAG_INCLUSIVE ? st.inclusives : st.aggregates) + tile);
        }
        return flag;
    }
}

// Warp 0 of a block with tile > 0: waits for the predecessors' states and writes the tile's
// exclusive prefix to *prefix_out (shared memory, from lane 0), after publishing the tile's
// inclusive prefix. `like` is any value of ks_t (ks_t need not be default-constructible).
// Operators that round take the fixed-order variant (KS_FIXED_ORDER) so the same input gives the
// same bits every run.
template <class KS_SCRATCH>
__device__ __forceinline__ void ks_look_back(const ks_tile_states<KS_SCRATCH>& st, long long tile, const ks_t& tile_total,
                                             const ks_t& like, ks_t* prefix_out)
{
    const unsigned lane = threadIdx.x & 31u;
    ks_pause(KS_FIRST_PAUSE);
    if constexpr (KS_FIXED_ORDER) {
        // Fixed association for operators that round (float, double, structs): tiles form
        // windows of 32; tile 32W+j's prefix is always inclusive(32W-1) (+) agg(32W) (+) ... (+)
        // agg(32W+j-1), combined in the same tree whatever the timing, and only the window's last
        // tile publishes an inclusive prefix (so the aggregates a window needs are never
        // overwritten). Same bits every run; one chain step per 32 tiles, like the look-back.
        const long long first = tile & ~31LL;
        const int j = int(tile - first); // predecessors inside the window: lanes 0 .. j-1
        const bool wants_agg = int(lane) < j;
        const bool wants_inc = lane == 31u && first > 0; // j <= 31, so lane 31 holds no aggregate
        ks_t val = like;
        bool waiting, again = false;
        do {
            if (again)
                ks_pause(KS_PAUSE);
            again = true;
            int flag = KS_FLAG_NONE;
            if (wants_agg)
                flag = ks_peek(st, first + (long long)lane, val);
            else if (wants_inc)
                flag = ks_peek(st, first - 1, val);
            waiting = (wants_agg && flag == KS_FLAG_NONE) || (wants_inc && flag != KS_FLAG_INCLUSIVE);
        } while (__any_sync(0xffffffffu, waiting));
        // Lane 0 ends with agg(first) (+) ... (+) agg(first+j-1), in a tree fixed by j alone.
#pragma unroll
        for (unsigned d = 1; d < 32; d <<= 1) {
            const ks_t other = ks_algo::shflDown(val, d);
            if (int(lane + d) < j)
                val = ks_op(val, other);
        }
        const ks_t window_aggs = ks_algo::shflIdx(val, 0);
        const ks_t before = ks_algo::shflIdx(val, 31);
        if (lane == 0) {
            const ks_t running = first == 0 ? window_aggs : (j == 0 ? before : ks_op(before, window_aggs));
            if (j == 31)
                ks_publish(st, tile, KS_FLAG_INCLUSIVE, ks_op(running, tile_total));
            *prefix_out = running;
        }
    } else {
        ks_t running = like;
        bool has_running = false;
        long long window = tile - 1; // the predecessor lane 0 looks at
        while (true) {
            const long long pred = window - (long long)lane;
            ks_t val = like;
            int flag;
            bool again = false;
            do {
                if (again)
                    ks_pause(KS_PAUSE);
                again = true;
                flag = pred >= 0 ? ks_peek(st, pred, val) : KS_FLAG_INCLUSIVE;
            } while (__any_sync(0xffffffffu, flag == KS_FLAG_NONE));
            const unsigned inclusive_lanes = __ballot_sync(0xffffffffu, flag == KS_FLAG_INCLUSIVE);
            const unsigned last = inclusive_lanes ? unsigned(__ffs(inclusive_lanes) - 1) : 31u;
            // Lane i holds tile window-i; combine lanes last..0 in tile order.
#pragma unroll
            for (unsigned d = 1; d < 32; d <<= 1) {
                const ks_t other = ks_algo::shflDown(val, d);
                if (lane + d <= last)
                    val = ks_op(other, val);
            }
            const ks_t window_total = ks_algo::shflIdx(val, 0);
            running = has_running ? ks_op(window_total, running) : window_total;
            has_running = true;
            if (inclusive_lanes)
                break;
            window -= 32;
        }
        if (lane == 0) {
            ks_publish(st, tile, KS_FLAG_INCLUSIVE, ks_op(running, tile_total));
            *prefix_out = running;
        }
    }
}

// The next tile, from the counter at the start of the scratch (every thread of the block gets it).
// Tiles go out in the order blocks start, so every predecessor of a tile is already running.
// (The scratch's type is a template parameter so that the checked variant checks it too.)
template <class KS_SCRATCH>
__device__ __forceinline__ long long ks_take_tile(KS_SCRATCH ks_scratch)
{
    __shared__ unsigned ks_tile_id;
    if (threadIdx.x == 0)
        ks_tile_id = atomicAdd(&ks_cast<unsigned>(ks_scratch)[0], 1u);
    __syncthreads();
    return ks_tile_id;
}

// The scratch of a scan of ks_n elements (layout above); each state access is checked where it is
// made (ks_state_ok).
template <class KS_SCRATCH>
__device__ __forceinline__ ks_tile_states<KS_SCRATCH> ks_states(KS_SCRATCH ks_scratch, long long ks_n, long long ks_tile_size)
{
    const long long ks_tiles = (ks_n + ks_tile_size - 1) / ks_tile_size;
    ks_tile_states<KS_SCRATCH> st{ks_scratch, ((16 + ks_tiles * 8 + 15) / 16) * 16, ks_tiles, nullptr, nullptr, nullptr};
    unsigned char* raw = ks_scratch;
    st.words = reinterpret_cast<unsigned long long*>(raw + 16);
    st.aggregates = reinterpret_cast<ks_t*>(raw + st.values);
    st.inclusives = st.aggregates + ks_tiles;
    return st;
}

// Single-pass scan with decoupled look-back (Merrill and Garland): each block scans one tile,
// publishes its aggregate at once, then warp 0 looks back over the predecessors' states, 32 at a
// time, combining aggregates until it meets an inclusive prefix. Any element type and alignment:
// loads go through shared memory element by element (see @NAME@_vec for the 16-byte path).
extern "C" __global__ void __launch_bounds__(KS_BLOCK) @NAME@(const ks_t* ks_in, ks_t* ks_out, long long ks_n, unsigned char* ks_scratch)
{
    __shared__ __align__(16) unsigned char ks_tile_raw[(KS_TILE + KS_TILE / 32) * sizeof(ks_t)];
    __shared__ __align__(16) unsigned char ks_warp_raw[(KS_BLOCK / 32) * sizeof(ks_t)];
    __shared__ __align__(16) unsigned char ks_prefix_raw[sizeof(ks_t)];
    ks_t* ks_sm = reinterpret_cast<ks_t*>(ks_tile_raw);
    ks_t* ks_warp_totals = reinterpret_cast<ks_t*>(ks_warp_raw);
    ks_t* ks_prefix = reinterpret_cast<ks_t*>(ks_prefix_raw);

    const auto st = ks_states(ks_scratch, ks_n, KS_TILE);
    const long long tile = ks_take_tile(ks_scratch);
    const long long base = tile * KS_TILE;
    const bool full = base + KS_TILE <= ks_n;
    const unsigned tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;

    // Coalesced (striped) loads into shared memory; past the end, repeat the last element.
#pragma unroll
    for (int k = 0; k < KS_ITEMS; ++k) {
        const int idx = k * KS_BLOCK + int(tid);
        const long long g = base + idx;
        ks_sm[KS_PAD(idx)] = ks_in[(full || g < ks_n) ? g : ks_n - 1];
    }
    __syncthreads();
    // Blocked: thread t owns elements t*KS_ITEMS ... t*KS_ITEMS + KS_ITEMS-1.
    ks_t x[KS_ITEMS];
#pragma unroll
    for (int j = 0; j < KS_ITEMS; ++j)
        x[j] = ks_sm[KS_PAD(int(tid) * KS_ITEMS + j)];
#pragma unroll
    for (int j = 1; j < KS_ITEMS; ++j)
        x[j] = ks_op(x[j - 1], x[j]);

    // Warp scan of the thread totals (inclusive), then the warps' totals in shared memory.
    ks_t inc = x[KS_ITEMS - 1];
#pragma unroll
    for (unsigned d = 1; d < 32; d <<= 1) {
        const ks_t up = ks_algo::shflUp(inc, d);
        if (lane >= d)
            inc = ks_op(up, inc);
    }
    const ks_t excl = ks_algo::shflUp(inc, 1);
    if (lane == 31)
        ks_warp_totals[warp] = inc;
    __syncthreads();

    // This thread's exclusive prefix within the tile (none for thread 0), and the tile's total.
    bool has_local = lane > 0;
    ks_t local = excl;
    ks_t tile_total = ks_warp_totals[0];
#pragma unroll
    for (int w = 1; w < KS_BLOCK / 32; ++w)
        tile_total = ks_op(tile_total, ks_warp_totals[w]);
    if (warp > 0) {
        ks_t before = ks_warp_totals[0];
        for (unsigned w = 1; w < warp; ++w)
            before = ks_op(before, ks_warp_totals[w]);
        local = has_local ? ks_op(before, excl) : before;
        has_local = true;
    }

    // Publish, then look back for the tile's exclusive prefix.
    if (tid == 0)
        ks_publish(st, tile, tile == 0 ? KS_FLAG_INCLUSIVE : KS_FLAG_AGGREGATE, tile_total);
    if (tile > 0 && warp == 0)
        ks_look_back(st, tile, tile_total, x[0], ks_prefix);
    __syncthreads();
    if (tile > 0) {
        const ks_t p = *ks_prefix;
        local = has_local ? ks_op(p, local) : p;
        has_local = true;
    }

    // Results, blocked into shared memory, then coalesced stores.
#if @KS_EXCLUSIVE@
    ks_t carry = has_local ? local : ks_neutral(); // exclusive output j is inclusive output j-1
#endif
#pragma unroll
    for (int j = 0; j < KS_ITEMS; ++j) {
        const ks_t inc_j = has_local ? ks_op(local, x[j]) : x[j];
#if @KS_EXCLUSIVE@
        ks_sm[KS_PAD(int(tid) * KS_ITEMS + j)] = carry;
        carry = inc_j;
#else
        ks_sm[KS_PAD(int(tid) * KS_ITEMS + j)] = inc_j;
#endif
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < KS_ITEMS; ++k) {
        const int idx = k * KS_BLOCK + int(tid);
        const long long g = base + idx;
        if (full || g < ks_n)
            ks_out[g] = ks_sm[KS_PAD(idx)];
    }
}

// The same scan for 4- and 8-byte values with 16-byte aligned input and output: no shared-memory
// tile. A tile is KS_CHUNKS x KS_VBLOCK chunks of 16 bytes (KS_VEC elements); chunk c = k *
// KS_VBLOCK + t belongs to thread t, so each 16-byte load and store of a warp covers 512 contiguous
// bytes. Each thread scans its chunks in registers; the chunk totals get one warp scan per k
// (interleaved); the KS_CHUNKS x warps totals, in tile order k-major, get one more warp scan in
// warp 0, which then publishes the tile's aggregate and looks back. Two barriers per tile. Its own
// block size and tile (@NAME@_vec_tile elements, ScanTuning), the same scratch layout. For other
// sizes the kernel is an empty stub the host never launches.
#define KS_VEC_OK (sizeof(ks_t) == 4 || sizeof(ks_t) == 8)
#define KS_VEC (KS_VEC_OK ? int(16 / sizeof(ks_t)) : 1)
#define KS_VBLOCK @VBLOCK@
#define KS_CHUNKS @VCHUNKS@
#define KS_WARPS (KS_VBLOCK / 32)
#define KS_VTILE (KS_VBLOCK * KS_CHUNKS * KS_VEC)
#define KS_ENTRIES (KS_CHUNKS * KS_WARPS)
static_assert(KS_ENTRIES <= 32, "warp 0 scans every (chunk, warp) total in one pass");
extern "C" __device__ const int @NAME@_vec_tile = KS_VTILE;

extern "C" __global__ void __launch_bounds__(KS_VBLOCK) @NAME@_vec(const ks_t* ks_in, ks_t* ks_out, long long ks_n, unsigned char* ks_scratch)
{
    if constexpr (KS_VEC_OK) {
        __shared__ __align__(16) unsigned char ks_totals_raw[KS_CHUNKS * KS_WARPS * sizeof(ks_t)];
        __shared__ __align__(16) unsigned char ks_prefix_raw[sizeof(ks_t)];
        ks_t* ks_totals = reinterpret_cast<ks_t*>(ks_totals_raw); // [k * KS_WARPS + warp]
        ks_t* ks_prefix = reinterpret_cast<ks_t*>(ks_prefix_raw);

        const auto st = ks_states(ks_scratch, ks_n, KS_VTILE);
        const long long tile = ks_take_tile(ks_scratch);
        const long long base = tile * KS_VTILE;
        const bool full = base + KS_VTILE <= ks_n;
        const unsigned tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;

        // Loads: all chunks in flight at once; a partial tile repeats the last element.
        ks_t x[KS_CHUNKS][KS_VEC];
#pragma unroll
        for (int k = 0; k < KS_CHUNKS; ++k) {
            const long long e = base + (long long)(k * KS_VBLOCK + int(tid)) * KS_VEC;
            if (full) {
                ks_algo::loadVec<KS_VEC>(x[k], ks_in + e);
            } else {
#pragma unroll
                for (int j = 0; j < KS_VEC; ++j)
                    x[k][j] = ks_in[e + j < ks_n ? e + j : ks_n - 1];
            }
        }
        // Chunk scans, then a warp scan of each k's chunk totals.
        ks_t inc[KS_CHUNKS];
#pragma unroll
        for (int k = 0; k < KS_CHUNKS; ++k) {
#pragma unroll
            for (int j = 1; j < KS_VEC; ++j)
                x[k][j] = ks_op(x[k][j - 1], x[k][j]);
            inc[k] = x[k][KS_VEC - 1];
        }
#pragma unroll
        for (unsigned d = 1; d < 32; d <<= 1) {
#pragma unroll
            for (int k = 0; k < KS_CHUNKS; ++k) {
                const ks_t up = ks_algo::shflUp(inc[k], d);
                if (lane >= d)
                    inc[k] = ks_op(up, inc[k]);
            }
        }
        ks_t excl[KS_CHUNKS];
#pragma unroll
        for (int k = 0; k < KS_CHUNKS; ++k) {
            excl[k] = ks_algo::shflUp(inc[k], 1);
            if (lane == 31)
                ks_totals[k * KS_WARPS + int(warp)] = inc[k];
        }
        __syncthreads();

        // Warp 0: exclusive prefixes of the KS_ENTRIES (k, warp) totals in tile order (entry 0 has
        // none and keeps its total), the tile's total, publication and look-back. Lanes past the
        // entries scan a copy of the last one; nothing reads their results.
        if (warp == 0) {
            ks_t v = ks_totals[lane < KS_ENTRIES ? lane : KS_ENTRIES - 1];
#pragma unroll
            for (unsigned d = 1; d < 32; d <<= 1) {
                const ks_t up = ks_algo::shflUp(v, d);
                if (lane >= d)
                    v = ks_op(up, v);
            }
            const ks_t before = ks_algo::shflUp(v, 1);
            const ks_t tile_total = ks_algo::shflIdx(v, KS_ENTRIES - 1);
            __syncwarp();
            if (lane > 0 && lane < KS_ENTRIES)
                ks_totals[lane] = before;
            if (lane == 0)
                ks_publish(st, tile, tile == 0 ? KS_FLAG_INCLUSIVE : KS_FLAG_AGGREGATE, tile_total);
            if (tile > 0)
                ks_look_back(st, tile, tile_total, v, ks_prefix);
        }
        __syncthreads();

#pragma unroll
        for (int k = 0; k < KS_CHUNKS; ++k) {
            // The chunk's exclusive prefix: the tile's prefix, then the (k, warp) entries before
            // this one, then the lanes before this one.
            const int entry = k * KS_WARPS + int(warp);
            bool has_local = false;
            ks_t local = x[k][0];
            if (tile > 0) {
                local = *ks_prefix;
                has_local = true;
            }
            if (entry > 0) {
                local = has_local ? ks_op(local, ks_totals[entry]) : ks_totals[entry];
                has_local = true;
            }
            if (lane > 0) {
                local = has_local ? ks_op(local, excl[k]) : excl[k];
                has_local = true;
            }
            ks_t y[KS_VEC];
#if @KS_EXCLUSIVE@
            y[0] = has_local ? local : ks_neutral();
#pragma unroll
            for (int j = 1; j < KS_VEC; ++j)
                y[j] = has_local ? ks_op(local, x[k][j - 1]) : x[k][j - 1];
#else
#pragma unroll
            for (int j = 0; j < KS_VEC; ++j)
                y[j] = has_local ? ks_op(local, x[k][j]) : x[k][j];
#endif
            const long long e = base + (long long)(k * KS_VBLOCK + int(tid)) * KS_VEC;
            if (full) {
                uint4 w;
                memcpy(&w, y, 16);
                *ks_cast<uint4>(ks_out + e) = w;
            } else {
#pragma unroll
                for (int j = 0; j < KS_VEC; ++j)
                    if (e + j < ks_n)
                        ks_out[e + j] = y[j];
            }
        }
    }
}
)KS";
    const std::map<std::string, std::string> values = {
        {"NEUTRAL_FUNCTION", spec.neutral.empty() ? std::string()
                                                  : "__device__ __forceinline__ ks_t ks_neutral() { return ks_t(" +
                                                        spec.neutral + "); }"},
        {"KS_EXCLUSIVE", spec.exclusive ? "1" : "0"},
        {"VBLOCK", std::to_string(tuning.vectorBlock)},
        {"VCHUNKS", std::to_string(tuning.vectorChunks)},
        {"FIRST_PAUSE", std::to_string(tuning.firstPauseNs) + "u"},
        {"PAUSE", std::to_string(tuning.pauseNs) + "u"},
        {"VALUE_TYPE", spec.type},
        {"SCAN_EXPR", spec.scanExpr},
        {"NAME", spec.name},
    };
    g.source = s + substitute(generated, values);
    return g;
}

int scanTileElements(std::size_t valueSize)
{
    const std::size_t items = std::min<std::size_t>(16, std::max<std::size_t>(1, 64 / std::max<std::size_t>(1, valueSize)));
    return int(kAlgorithmBlockSize * items);
}

int scanVectorTileElements(std::size_t valueSize, const ScanTuning& tuning)
{
    return tuning.vectorBlock * tuning.vectorChunks * int(16 / std::max<std::size_t>(valueSize, 1));
}

ScanScratch scanScratchSize(unsigned long long n, int tileElements, int valueSize, bool packed)
{
    ScanScratch s;
    s.tiles = (n + unsigned(tileElements) - 1) / unsigned(tileElements);
    s.zeroBytes = 16 + s.tiles * 8;
    s.bytes = s.zeroBytes;
    if (!packed)
        s.bytes = (s.zeroBytes + 15) / 16 * 16 + 2 * s.tiles * std::size_t(valueSize);
    return s;
}

} // namespace ks::array
