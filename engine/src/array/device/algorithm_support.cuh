// Device code shared by the generated reductions and scans (ks::array, algorithm_source.cpp).
// Compiled into the engine as text (cmake/KsEmbed.cmake); NVRTC compiles it with each kernel.

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
