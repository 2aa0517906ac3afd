// Device side of Kernelscope's instrumented kernel variants (see engine/include/ks/teach/instrument.hpp).
// The engine turns the user's __global__ kernel into a __device__ function, rewrites the type of
// the chosen output parameter to one of the recording types below, and calls it from a generated
// ks_-prefixed wrapper kernel. Everything here is named ks::teach or ks_ so it cannot clash with
// the user's names.
//
// What a recording output captures (documented for users in docs/teaching/instrumentation.md):
// - RecordingPtr<T>: writes through out[i], *out, *(out + i), out[i].x (vector/struct members x, y,
//   z, w), compound assignment (+=, *=, ...), ++/--, and &out[i] (taking the address counts as a
//   write, so atomicAdd(&out[i], v) is recorded). Not captured: writes through a raw pointer made
//   from it (float* q = out; q[i] = v), byte-pitched addressing through casts, other struct members.
// - RecordingSurface: surf2Dwrite and surf1Dwrite called unqualified on it (the element is x divided
//   by the size of the written type). Not captured: ::surf2Dwrite, a copy kept as cudaSurfaceObject_t,
//   surf3Dwrite and layered writes.
// When several threads write one element, the record keeps one of them (the last to store its
// record, which need not be the one whose value survived) and writeCount counts all writes.
#pragma once

#include <ks_device/records.cuh>

namespace ks::teach {

__device__ __forceinline__ unsigned smId()
{
    unsigned v;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(v));
    return v;
}

__device__ __forceinline__ unsigned laneId()
{
    unsigned v;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(v));
    return v;
}

// Nanoseconds, the same clock on every SM (its resolution depends on the GPU, often 32 ns to 1 us).
__device__ __forceinline__ unsigned long long globalTimer()
{
    unsigned long long v;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(v));
    return v;
}

__device__ __forceinline__ bool isFirstThreadOfBlock()
{
    return threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
}

__device__ __forceinline__ unsigned linearBlockIndex()
{
    return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

// Where a variant records: the records of the output (one per element), their count, the elements
// per row (surfaces: record index = y * rowWidth + x), the counters and this block's start order.
// This is the plain variant's context: it checks nothing. The checked teaching variants
// (CheckedWhoContext, checked.cuh) reach their records and counters through checked pointers and
// check every access of the recorded output; RecordingPtr and RecordingSurfaceOf take the context
// as a parameter, and the context decides.
struct WhoContext {
    WhoRecord* records;
    unsigned long long count;
    unsigned long long rowWidth;
    unsigned* counters;
    unsigned blockOrder;

    // Whether the output's element (or member) at `p` may be accessed, and reading it.
    template <class V>
    __device__ __forceinline__ bool allows(const V*, unsigned) const { return true; }
    template <class V>
    __device__ __forceinline__ V load(const V* p) const { return *p; }
    // What a refused access gives (never, here: nothing is refused).
    template <class V>
    __device__ __forceinline__ V* sink(V* p) const { return p; }
    template <class V>
    __device__ __forceinline__ V refused() const { return V{}; }
    __device__ __forceinline__ bool allowsSurface(int, int, unsigned) const { return true; }
};

// Records the writer of `element`; the context's records and counters may be raw or checked
// pointers (&p[i] of a checked one is checked, and a refused element's address is harmless).
template <class Ctx>
__device__ __forceinline__ void recordWrite(const Ctx& c, long long element)
{
    if (element < 0 || (unsigned long long)element >= c.count) {
        atomicAdd(&c.counters[kCounterDropped], 1u);
        return;
    }
    const unsigned linear = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    WhoRecord* r = &c.records[element];
    r->blockX = blockIdx.x;
    r->blockY = blockIdx.y;
    r->blockZ = blockIdx.z;
    r->threadX = (unsigned short)threadIdx.x;
    r->threadY = (unsigned short)threadIdx.y;
    r->threadZ = (unsigned short)threadIdx.z;
    r->smid = (unsigned short)smId();
    r->blockOrder = c.blockOrder;
    r->warp = (unsigned short)(linear / warpSize);
    r->lane = (unsigned char)laneId();
    atomicAdd(&r->writeCount, 1u);
}

// The place one write goes to: the context plus the element index relative to the output's start.
template <class Ctx>
struct WriteSite {
    Ctx ctx;
    long long element;
    __device__ __forceinline__ void record() const { recordWrite(ctx, element); }
};

// Applies X to every compound assignment operator (for the element references here and in checked.cuh).
#define KS_TEACH_FOR_EACH_COMPOUND(X) X(+=) X(-=) X(*=) X(/=) X(%=) X(&=) X(|=) X(^=) X(<<=) X(>>=)

// An element (or one member of it) of a recording output: reads pass through, every way of writing
// it stores the value and records the writer (an access the context refuses is neither made nor
// recorded).
template <class V, class Ctx>
struct RecordedValue {
    V* ptr;
    WriteSite<Ctx> site;
    __device__ __forceinline__ bool allows(unsigned access) const { return site.ctx.allows(ptr, access); }
    __device__ __forceinline__ operator V() const { return site.ctx.load(ptr); }
    __device__ __forceinline__ RecordedValue& operator=(const V& v)
    {
        if (allows(kCheckedWrite)) {
            *ptr = v;
            site.record();
        }
        return *this;
    }
    __device__ __forceinline__ RecordedValue& operator=(const RecordedValue& o) { return *this = V(o); }
#define KS_TEACH_COMPOUND(op)                                                                                         \
    template <class U>                                                                                                \
    __device__ __forceinline__ RecordedValue& operator op(const U& v)                                                 \
    {                                                                                                                 \
        if (allows(kCheckedUpdate)) {                                                                                 \
            *ptr op v;                                                                                                \
            site.record();                                                                                            \
        }                                                                                                             \
        return *this;                                                                                                 \
    }
    KS_TEACH_FOR_EACH_COMPOUND(KS_TEACH_COMPOUND)
#undef KS_TEACH_COMPOUND
    __device__ __forceinline__ RecordedValue& operator++()
    {
        if (allows(kCheckedUpdate)) {
            ++*ptr;
            site.record();
        }
        return *this;
    }
    __device__ __forceinline__ RecordedValue& operator--()
    {
        if (allows(kCheckedUpdate)) {
            --*ptr;
            site.record();
        }
        return *this;
    }
    __device__ __forceinline__ V operator++(int)
    {
        if (!allows(kCheckedUpdate))
            return site.ctx.template refused<V>();
        V old = *ptr;
        ++*ptr;
        site.record();
        return old;
    }
    __device__ __forceinline__ V operator--(int)
    {
        if (!allows(kCheckedUpdate))
            return site.ctx.template refused<V>();
        V old = *ptr;
        --*ptr;
        site.record();
        return old;
    }
    // Taking the address counts as a write (atomicAdd(&out[i], v) is recorded). A refused element's
    // address is the context's sink (checked variants only).
    __device__ __forceinline__ V* operator&() const
    {
        if (!allows(kCheckedUpdate))
            return site.ctx.template sink<V>(ptr);
        site.record();
        return ptr;
    }
};

// RecordedValue<V, Ctx> as a template of one parameter (ElementMembers takes such a template).
template <class Ctx>
struct Recorded {
    template <class V>
    using Value = RecordedValue<V, Ctx>;
};

// Member detection without <type_traits> (NVRTC compiles this without the standard library).
template <class...>
struct KsVoid {
    using type = void;
};
template <class T, class = void>
struct HasX { static constexpr bool value = false; };
template <class T>
struct HasX<T, typename KsVoid<decltype(((T*)nullptr)->x)>::type> { static constexpr bool value = true; };
template <class T, class = void>
struct HasY { static constexpr bool value = false; };
template <class T>
struct HasY<T, typename KsVoid<decltype(((T*)nullptr)->y)>::type> { static constexpr bool value = true; };
template <class T, class = void>
struct HasZ { static constexpr bool value = false; };
template <class T>
struct HasZ<T, typename KsVoid<decltype(((T*)nullptr)->z)>::type> { static constexpr bool value = true; };
template <class T, class = void>
struct HasW { static constexpr bool value = false; };
template <class T>
struct HasW<T, typename KsVoid<decltype(((T*)nullptr)->w)>::type> { static constexpr bool value = true; };

template <class T>
struct MemberCount {
    static constexpr int value =
        !HasX<T>::value ? 0 : !HasY<T>::value ? 1 : !HasZ<T>::value ? 2 : !HasW<T>::value ? 3 : 4;
};

// The type of member m of a T (const when T is const), without the reference.
template <class U>
struct KsNoRef { using type = U; };
template <class U>
struct KsNoRef<U&> { using type = U; };
#define KS_TEACH_MEMBER_TYPE(m) typename KsNoRef<decltype((((T*)nullptr)->m))>::type

// x, y, z, w of a vector element (float4, uchar4, int2, a struct with x and y, ...), each a
// Ref<member type>{&p->m, site}: recorded members for "who wrote it", checked ones for the
// checked variant (checked.cuh).
template <template <class> class Ref, class Site, class T, int N = MemberCount<T>::value>
struct ElementMembers {
    __device__ __forceinline__ ElementMembers(T*, const Site&) {}
};
#define KS_TEACH_MEMBER(m) Ref<KS_TEACH_MEMBER_TYPE(m)> m
#define KS_TEACH_INIT(m) m{&p->m, s}
template <template <class> class Ref, class Site, class T>
struct ElementMembers<Ref, Site, T, 1> {
    __device__ __forceinline__ ElementMembers(T* p, const Site& s) : KS_TEACH_INIT(x) {}
    KS_TEACH_MEMBER(x);
};
template <template <class> class Ref, class Site, class T>
struct ElementMembers<Ref, Site, T, 2> {
    __device__ __forceinline__ ElementMembers(T* p, const Site& s) : KS_TEACH_INIT(x), KS_TEACH_INIT(y) {}
    KS_TEACH_MEMBER(x);
    KS_TEACH_MEMBER(y);
};
template <template <class> class Ref, class Site, class T>
struct ElementMembers<Ref, Site, T, 3> {
    __device__ __forceinline__ ElementMembers(T* p, const Site& s)
        : KS_TEACH_INIT(x), KS_TEACH_INIT(y), KS_TEACH_INIT(z)
    {
    }
    KS_TEACH_MEMBER(x);
    KS_TEACH_MEMBER(y);
    KS_TEACH_MEMBER(z);
};
template <template <class> class Ref, class Site, class T>
struct ElementMembers<Ref, Site, T, 4> {
    __device__ __forceinline__ ElementMembers(T* p, const Site& s)
        : KS_TEACH_INIT(x), KS_TEACH_INIT(y), KS_TEACH_INIT(z), KS_TEACH_INIT(w)
    {
    }
    KS_TEACH_MEMBER(x);
    KS_TEACH_MEMBER(y);
    KS_TEACH_MEMBER(z);
    KS_TEACH_MEMBER(w);
};
#undef KS_TEACH_MEMBER
#undef KS_TEACH_INIT
#undef KS_TEACH_MEMBER_TYPE

template <class T, class Ctx>
using RecordedMembers = ElementMembers<Recorded<Ctx>::template Value, WriteSite<Ctx>, T>;

// out[i] of a recording output; a vector or struct element also has recorded members x, y, z, w.
template <class T, class Ctx>
struct RecordingRef : RecordedMembers<T, Ctx>, RecordedValue<T, Ctx> {
    __device__ __forceinline__ RecordingRef(T* p, const WriteSite<Ctx>& s)
        : RecordedMembers<T, Ctx>(p, s), RecordedValue<T, Ctx>{p, s}
    {
    }
    using RecordedValue<T, Ctx>::operator=;
    __device__ __forceinline__ RecordingRef& operator=(const RecordingRef& o)
    {
        RecordedValue<T, Ctx>::operator=(T(o));
        return *this;
    }
};

// Stands in for the user's `T* out` parameter. Index and pointer arithmetic work as on T*; the
// element index recorded is relative to the pointer the kernel was given.
template <class T, class Ctx = WhoContext>
class RecordingPtr {
public:
    __device__ __forceinline__ RecordingPtr(T* base, const Ctx& ctx) : m_base(base), m_ptr(base), m_ctx(ctx) {}

    template <class I>
    __device__ __forceinline__ RecordingRef<T, Ctx> operator[](I i) const
    {
        return at(m_ptr + i);
    }
    __device__ __forceinline__ RecordingRef<T, Ctx> operator*() const { return at(m_ptr); }
    template <class I>
    __device__ __forceinline__ RecordingPtr operator+(I i) const
    {
        RecordingPtr r = *this;
        r.m_ptr += i;
        return r;
    }
    template <class I>
    __device__ __forceinline__ RecordingPtr operator-(I i) const
    {
        RecordingPtr r = *this;
        r.m_ptr -= i;
        return r;
    }
    __device__ __forceinline__ long long operator-(const RecordingPtr& o) const { return m_ptr - o.m_ptr; }
    template <class I>
    __device__ __forceinline__ RecordingPtr& operator+=(I i) { m_ptr += i; return *this; }
    template <class I>
    __device__ __forceinline__ RecordingPtr& operator-=(I i) { m_ptr -= i; return *this; }
    __device__ __forceinline__ RecordingPtr& operator++() { ++m_ptr; return *this; }
    __device__ __forceinline__ RecordingPtr& operator--() { --m_ptr; return *this; }
    __device__ __forceinline__ RecordingPtr operator++(int) { RecordingPtr r = *this; ++m_ptr; return r; }
    __device__ __forceinline__ RecordingPtr operator--(int) { RecordingPtr r = *this; --m_ptr; return r; }
    // Writes through the raw pointer are not recorded.
    __device__ __forceinline__ operator T*() const { return m_ptr; }
    __device__ __forceinline__ T* get() const { return m_ptr; }

private:
    __device__ __forceinline__ RecordingRef<T, Ctx> at(T* p) const
    {
        return RecordingRef<T, Ctx>(p, WriteSite<Ctx>{m_ctx, p - m_base});
    }
    T* m_base;
    T* m_ptr;
    Ctx m_ctx;
};

// Stands in for the user's surface parameter; converts to cudaSurfaceObject_t for everything else.
template <class Ctx>
struct RecordingSurfaceOf {
    cudaSurfaceObject_t object;
    Ctx ctx;
    __device__ __forceinline__ operator cudaSurfaceObject_t() const { return object; }
};
using RecordingSurface = RecordingSurfaceOf<WhoContext>;

template <class Ctx>
__device__ __forceinline__ void recordSurfaceWrite(const RecordingSurfaceOf<Ctx>& s, int xElement, int y)
{
    if (xElement < 0 || y < 0 || (unsigned long long)xElement >= s.ctx.rowWidth) {
        atomicAdd(&s.ctx.counters[kCounterDropped], 1u);
        return;
    }
    recordWrite(s.ctx, (long long)y * (long long)s.ctx.rowWidth + xElement);
}

// Found by argument-dependent lookup for unqualified calls on a RecordingSurface; an exact match,
// so it beats the toolkit's template that would need the conversion to cudaSurfaceObject_t. A
// write the context refuses is neither made nor recorded.
template <class T, class Ctx>
__device__ __forceinline__ void surf2Dwrite(T value, const RecordingSurfaceOf<Ctx>& s, int x, int y,
                                            cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap)
{
    if (!s.ctx.allowsSurface(x, y, sizeof(T)))
        return;
    ::surf2Dwrite(value, s.object, x, y, mode);
    recordSurfaceWrite(s, x / (int)sizeof(T), y);
}

template <class T, class Ctx>
__device__ __forceinline__ void surf1Dwrite(T value, const RecordingSurfaceOf<Ctx>& s, int x,
                                            cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap)
{
    if (!s.ctx.allowsSurface(x, 0, sizeof(T)))
        return;
    ::surf1Dwrite(value, s.object, x, mode);
    recordSurfaceWrite(s, x / (int)sizeof(T), 0);
}

} // namespace ks::teach
