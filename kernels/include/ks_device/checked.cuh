// Device side of the checked variant of a user's kernel ("find the fault", see
// engine/include/ks/teach/instrument.hpp, VariantKind::Checked). Every pointer parameter of the
// kernel becomes a CheckedPtr<T> and every cudaSurfaceObject_t a CheckedSurface. An access outside
// [base, base + extent) or misaligned for its element is not made: a read gives a zero value, a
// write is dropped, and the first such access of the launch is kept in the CheckedRecord
// (records.cuh) with the thread, the block, the parameter, the index and the user's line.
//
// What is checked (documented for users in docs/teaching/instrumentation.md):
// - CheckedPtr<T>: p[i], *p, *(p + i), p->m, members x, y, z, w of p[i], compound assignment,
//   ++/--, &p[i] (taken as an update, so atomicAdd(&p[i], v) is checked; the address of a refused
//   element is a sink in the record, so the atomic is harmless). Reads and writes are told apart.
// - CheckedSurface: surf2Dread, surf2Dwrite, surf1Dread, surf1Dwrite called unqualified: x in bytes
//   / sizeof(element) against the width, y against the height.
// Not checked: accesses through a raw pointer made from a checked one (float* q = p; q[i]; a
// helper taking float*; C-style casts such as (char*)p; reinterpret_cast<U*>(p) does not compile),
// shared and local memory, ::surf2Dwrite and a
// surface copied into a plain cudaSurfaceObject_t, surf3D and layered surfaces, the alignment of
// surface coordinates.
// The line is captured by __builtin_LINE() in a defaulted argument where C++ allows one: the index
// of p[i], the offset of p + i, p - i, p += i, p -= i, and the surface functions. *p and p->m use
// the line of the pointer's last indexing or offset (0, unknown, for the parameter as received);
// p++ and --p keep the line they had.
#pragma once

#include <ks_device/instrument.cuh>

// Code written to be checked as well as run (Kernelscope's generated array kernels) tests this to
// add checked overloads of its own helpers.
#define KS_TEACH_CHECKED 1

namespace ks::teach {

template <class U>
struct KsNoConst { using type = U; };
template <class U>
struct KsNoConst<const U> { using type = U; };

// What a checked parameter carries: the launch's record, the parameter's extent and index.
struct CheckContext {
    CheckedRecord* record;
    unsigned long long extent; // pointer: bytes; surface: width in elements
    unsigned long long height; // surface: rows
    unsigned param;
};

// The user's index or offset, and the line it was written on (the conversion from the user's
// integer happens at the call, so the defaulted argument is evaluated on the user's line).
struct CheckedIndex {
    long long value;
    unsigned line;
    template <class I>
    __device__ __forceinline__ CheckedIndex(I i, unsigned l = __builtin_LINE()) : value((long long)i), line(l)
    {
    }
};

__device__ __forceinline__ long long floorDiv(long long a, long long b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// What a refused read gives: zero, hidden from the optimiser. A plain zero would let it prove that a
// later use is undefined (a null pointer read from a table and dereferenced, an integer division by
// it), treat the refusing path as unreachable and delete the check and its record with it.
template <class P>
__device__ __forceinline__ P refusedValue()
{
    P v{};
    asm volatile("" : : "l"(&v) : "memory");
    return v;
}

// A refused access of the parameter `ctx` describes, less where in it (the caller adds that).
__device__ __forceinline__ CheckedFault fault(const CheckContext& ctx, unsigned access, unsigned problem,
                                              unsigned resource, unsigned size, unsigned alignment, unsigned line)
{
    CheckedFault f{};
    f.extent = ctx.extent;
    f.height = ctx.height;
    f.access = access;
    f.problem = problem;
    f.resource = resource;
    f.param = ctx.param;
    f.elementSize = size;
    f.alignment = alignment;
    f.line = line;
    return f;
}

// Counts the refused access and, for the first of the launch, fills the record.
__device__ __forceinline__ void recordFault(CheckedRecord* r, CheckedFault f)
{
    atomicAdd(&r->failures, 1u);
    if (atomicCAS(&r->claimed, 0u, 1u) != 0u)
        return;
    f.blockX = blockIdx.x;
    f.blockY = blockIdx.y;
    f.blockZ = blockIdx.z;
    f.threadX = threadIdx.x;
    f.threadY = threadIdx.y;
    f.threadZ = threadIdx.z;
    r->first = f;
}

// One element of a checked pointer: where it is, what it belongs to, and the line of the access.
struct CheckSite {
    CheckContext ctx;
    const char* base;
    const char* element;
    unsigned size;
    unsigned alignment;
    unsigned line;

    // True when the element may be accessed; else records the access and returns false.
    __device__ __forceinline__ bool allows(unsigned access) const
    {
        const long long offset = element - base;
        unsigned problem = 0;
        if (ctx.extent != kExtentUnchecked && (offset < 0 || (unsigned long long)offset + size > ctx.extent))
            problem |= kCheckedOutOfRange;
        if ((unsigned long long)element % alignment != 0)
            problem |= kCheckedMisaligned;
        if (problem == 0)
            return true;
        CheckedFault f = fault(ctx, access, problem, kCheckedPointer, size, alignment, line);
        f.element = floorDiv(offset, size);
        f.byteOffset = offset;
        f.address = (unsigned long long)element;
        recordFault(ctx.record, f);
        return false;
    }
};

// An element (or one member of it) of a checked pointer: every read and write is checked first.
template <class V>
struct CheckedValue {
    V* ptr;
    CheckSite site;
    using Plain = typename KsNoConst<V>::type;

    __device__ __forceinline__ operator Plain() const { return site.allows(kCheckedRead) ? *ptr : refusedValue<Plain>(); }
    __device__ __forceinline__ CheckedValue& operator=(const Plain& v)
    {
        if (site.allows(kCheckedWrite))
            *ptr = v;
        return *this;
    }
    __device__ __forceinline__ CheckedValue& operator=(const CheckedValue& o) { return *this = Plain(o); }
#define KS_TEACH_COMPOUND(op)                                                                                         \
    template <class U>                                                                                                \
    __device__ __forceinline__ CheckedValue& operator op(const U& v)                                                  \
    {                                                                                                                 \
        if (site.allows(kCheckedUpdate))                                                                              \
            *ptr op v;                                                                                                \
        return *this;                                                                                                 \
    }
    KS_TEACH_FOR_EACH_COMPOUND(KS_TEACH_COMPOUND)
#undef KS_TEACH_COMPOUND
    __device__ __forceinline__ CheckedValue& operator++()
    {
        if (site.allows(kCheckedUpdate))
            ++*ptr;
        return *this;
    }
    __device__ __forceinline__ CheckedValue& operator--()
    {
        if (site.allows(kCheckedUpdate))
            --*ptr;
        return *this;
    }
    __device__ __forceinline__ Plain operator++(int)
    {
        if (!site.allows(kCheckedUpdate))
            return refusedValue<Plain>();
        Plain old = *ptr;
        ++*ptr;
        return old;
    }
    __device__ __forceinline__ Plain operator--(int)
    {
        if (!site.allows(kCheckedUpdate))
            return refusedValue<Plain>();
        Plain old = *ptr;
        --*ptr;
        return old;
    }
    // Taking the address counts as an update (atomicAdd(&p[i], v) is checked). A refused element's
    // address is the record's sink, which any atomic of up to 64 bytes can hit harmlessly.
    __device__ __forceinline__ V* operator&() const
    {
        if (site.allows(kCheckedUpdate) || sizeof(V) > sizeof(site.ctx.record->sink))
            return ptr;
        return reinterpret_cast<V*>(site.ctx.record->sink);
    }
};

// p[i] of a checked pointer; a vector or struct element also has checked members x, y, z, w.
template <class T>
struct CheckedRef : ElementMembers<CheckedValue, CheckSite, T>, CheckedValue<T> {
    __device__ __forceinline__ CheckedRef(T* p, const CheckSite& s)
        : ElementMembers<CheckedValue, CheckSite, T>(p, s), CheckedValue<T>{p, s}
    {
    }
    using CheckedValue<T>::operator=;
    __device__ __forceinline__ CheckedRef& operator=(const CheckedRef& o)
    {
        CheckedValue<T>::operator=(typename CheckedValue<T>::Plain(o));
        return *this;
    }
};

// p->m: the element is checked once, as an access of unknown direction; a refused element is
// replaced by a zeroed copy that lives until the end of the full expression (writes to it vanish).
template <class T>
struct CheckedArrow {
    T* ptr;
    alignas(T) unsigned char scratch[sizeof(T)];
    __device__ __forceinline__ T* operator->() { return ptr ? ptr : reinterpret_cast<T*>(scratch); }
};

// Stands in for the user's `T* p` parameter (T keeps its const). Indexing and pointer arithmetic
// work as on T*; the extent is counted from the pointer the kernel was given. Converts to any
// pointer type (unchecked from there on), so passing it to a helper or casting it still compiles;
// the conversion is a template so that p[i] and p + i are not ambiguous with the built-in ones.
template <class T>
class CheckedPtr {
public:
    __device__ __forceinline__ CheckedPtr(T* base, const CheckContext& ctx)
        : m_base(base), m_ptr(base), m_ctx(ctx), m_line(0)
    {
    }

    __device__ __forceinline__ CheckedRef<T> operator[](CheckedIndex i) const { return at(m_ptr + i.value, i.line); }
    __device__ __forceinline__ CheckedRef<T> operator*() const { return at(m_ptr, m_line); }
    __device__ __forceinline__ CheckedArrow<T> operator->() const
    {
        CheckedArrow<T> a{};
        a.ptr = site(m_ptr, m_line).allows(kCheckedAccessed) ? m_ptr : nullptr;
        return a;
    }
    __device__ __forceinline__ CheckedPtr operator+(CheckedIndex i) const { return moved(i.value, i.line); }
    __device__ __forceinline__ friend CheckedPtr operator+(CheckedIndex i, const CheckedPtr& p) { return p.moved(i.value, i.line); }
    __device__ __forceinline__ CheckedPtr operator-(CheckedIndex i) const { return moved(-i.value, i.line); }
    __device__ __forceinline__ long long operator-(const CheckedPtr& o) const { return m_ptr - o.m_ptr; }
    __device__ __forceinline__ CheckedPtr& operator+=(CheckedIndex i) { return *this = moved(i.value, i.line); }
    __device__ __forceinline__ CheckedPtr& operator-=(CheckedIndex i) { return *this = moved(-i.value, i.line); }
    __device__ __forceinline__ CheckedPtr& operator++() { ++m_ptr; return *this; }
    __device__ __forceinline__ CheckedPtr& operator--() { --m_ptr; return *this; }
    __device__ __forceinline__ CheckedPtr operator++(int) { CheckedPtr r = *this; ++m_ptr; return r; }
    __device__ __forceinline__ CheckedPtr operator--(int) { CheckedPtr r = *this; --m_ptr; return r; }

    template <class U>
    __device__ __forceinline__ operator U*() const { return (U*)m_ptr; }
    __device__ __forceinline__ explicit operator bool() const { return m_ptr != nullptr; }
    __device__ __forceinline__ T* get() const { return m_ptr; }

    // The same place seen as elements of U, still checked against the same extent (in bytes from
    // the same base): what ks_cast<U>(p) gives for reinterpret_cast<U*>(p).
    template <class U>
    __device__ __forceinline__ CheckedPtr<U> as() const
    {
        return CheckedPtr<U>((U*)m_base, (U*)m_ptr, m_ctx, m_line);
    }
    // Whether `count` elements from here may be accessed as one (a vector load, a copy): the first
    // and the last are checked, the first refused one recorded.
    __device__ __forceinline__ bool allowsSpan(long long count, unsigned access, unsigned line) const
    {
        if (!site(m_ptr, line).allows(access))
            return false;
        return count <= 1 || site(m_ptr + (count - 1), line).allows(access);
    }

private:
    template <class>
    friend class CheckedPtr;
    __device__ __forceinline__ CheckedPtr(T* base, T* ptr, const CheckContext& ctx, unsigned line)
        : m_base(base), m_ptr(ptr), m_ctx(ctx), m_line(line)
    {
    }
    __device__ __forceinline__ CheckSite site(T* p, unsigned line) const
    {
        return CheckSite{m_ctx, (const char*)m_base, (const char*)p, sizeof(T), alignof(T), line};
    }
    __device__ __forceinline__ CheckedRef<T> at(T* p, unsigned line) const { return CheckedRef<T>(p, site(p, line)); }
    __device__ __forceinline__ CheckedPtr moved(long long by, unsigned line) const
    {
        CheckedPtr r = *this;
        r.m_ptr += by;
        r.m_line = line;
        return r;
    }
    T* m_base;
    T* m_ptr;
    CheckContext m_ctx;
    unsigned m_line;
};

// Kernelscope's generated kernels write reinterpret_cast<U*>(p) as ks_cast<U>(p), an element passed
// by reference as ks_at(p, i) and a span about to be read or written through a raw pointer as
// ks_span(p, count); the array prelude defines them for raw pointers (no cost), these are the
// checked ones, found by argument-dependent lookup. ks_at checks the element as an update (it
// cannot tell what the callee does with the reference); a refused element is the record's sink.
template <class U, class T>
__device__ __forceinline__ CheckedPtr<U> ks_cast(const CheckedPtr<T>& p)
{
    return p.template as<U>();
}
template <class T>
__device__ __forceinline__ T& ks_at(const CheckedPtr<T>& p, CheckedIndex i)
{
    return *&p[i];
}
template <class T>
__device__ __forceinline__ bool ks_span(const CheckedPtr<T>& p, long long count, unsigned access,
                                        unsigned line = __builtin_LINE())
{
    return p.allowsSpan(count, access, line);
}

// Comparisons of checked pointers with each other, raw pointers and nullptr (the template
// conversion takes no part in the built-in ones).
#define KS_TEACH_COMPARE(op)                                                                                          \
    template <class T, class U>                                                                                       \
    __device__ __forceinline__ bool operator op(const CheckedPtr<T>& a, const CheckedPtr<U>& b)                      \
    {                                                                                                                 \
        return a.get() op b.get();                                                                                    \
    }                                                                                                                 \
    template <class T, class U>                                                                                       \
    __device__ __forceinline__ bool operator op(const CheckedPtr<T>& a, U* b) { return a.get() op b; }               \
    template <class T, class U>                                                                                       \
    __device__ __forceinline__ bool operator op(U* a, const CheckedPtr<T>& b) { return a op b.get(); }               \
    template <class T>                                                                                                \
    __device__ __forceinline__ bool operator op(const CheckedPtr<T>& a, decltype(nullptr)) { return a.get() op(T*) nullptr; } \
    template <class T>                                                                                                \
    __device__ __forceinline__ bool operator op(decltype(nullptr), const CheckedPtr<T>& b) { return(T*) nullptr op b.get(); }
KS_TEACH_COMPARE(==)
KS_TEACH_COMPARE(!=)
KS_TEACH_COMPARE(<)
KS_TEACH_COMPARE(<=)
KS_TEACH_COMPARE(>)
KS_TEACH_COMPARE(>=)
#undef KS_TEACH_COMPARE

// Stands in for the user's cudaSurfaceObject_t parameter; converts to it for everything else
// (unchecked from there on).
struct CheckedSurface {
    cudaSurfaceObject_t object;
    CheckContext ctx;
    __device__ __forceinline__ operator cudaSurfaceObject_t() const { return object; }

    // True when the element at byte x, row y may be accessed; else records the access.
    __device__ __forceinline__ bool allows(unsigned access, int x, int y, unsigned size, unsigned line) const
    {
        const long long element = floorDiv(x, size);
        const bool xOut = ctx.extent != kExtentUnchecked && (x < 0 || (unsigned long long)element >= ctx.extent);
        const bool yOut = ctx.height != kExtentUnchecked && (y < 0 || (unsigned long long)y >= ctx.height);
        if (!xOut && !yOut)
            return true;
        CheckedFault f = fault(ctx, access, kCheckedOutOfRange, kCheckedSurface, size, size, line);
        f.element = element;
        f.byteOffset = x;
        f.y = y;
        recordFault(ctx.record, f);
        return false;
    }
};

// Found by argument-dependent lookup for unqualified calls on a CheckedSurface; exact matches, so
// they beat the toolkit's templates that would need the conversion to cudaSurfaceObject_t.
template <class T>
__device__ __forceinline__ void surf2Dwrite(T value, const CheckedSurface& s, int x, int y,
                                            cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
                                            unsigned line = __builtin_LINE())
{
    if (s.allows(kCheckedWrite, x, y, sizeof(T), line))
        ::surf2Dwrite(value, s.object, x, y, mode);
}

template <class T>
__device__ __forceinline__ void surf1Dwrite(T value, const CheckedSurface& s, int x,
                                            cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
                                            unsigned line = __builtin_LINE())
{
    if (s.allows(kCheckedWrite, x, 0, sizeof(T), line))
        ::surf1Dwrite(value, s.object, x, mode);
}

template <class T>
__device__ __forceinline__ T surf2Dread(const CheckedSurface& s, int x, int y,
                                        cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
                                        unsigned line = __builtin_LINE())
{
    return s.allows(kCheckedRead, x, y, sizeof(T), line) ? ::surf2Dread<T>(s.object, x, y, mode) : refusedValue<T>();
}

template <class T>
__device__ __forceinline__ void surf2Dread(T* value, const CheckedSurface& s, int x, int y,
                                           cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
                                           unsigned line = __builtin_LINE())
{
    *value = s.allows(kCheckedRead, x, y, sizeof(T), line) ? ::surf2Dread<T>(s.object, x, y, mode) : refusedValue<T>();
}

template <class T>
__device__ __forceinline__ T surf1Dread(const CheckedSurface& s, int x,
                                        cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
                                        unsigned line = __builtin_LINE())
{
    return s.allows(kCheckedRead, x, 0, sizeof(T), line) ? ::surf1Dread<T>(s.object, x, mode) : refusedValue<T>();
}

template <class T>
__device__ __forceinline__ void surf1Dread(T* value, const CheckedSurface& s, int x,
                                           cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
                                           unsigned line = __builtin_LINE())
{
    *value = s.allows(kCheckedRead, x, 0, sizeof(T), line) ? ::surf1Dread<T>(s.object, x, mode) : refusedValue<T>();
}

// The context of the checked teaching variants (instrument.hpp, InstrumentRequest::checked): the
// "who wrote it" variant's records and counters are reached through checked pointers (checked
// against their allocations, as the host gives them), and every access of the recorded output is
// checked against the output's extent like a CheckedPtr's or a CheckedSurface's (the line is not
// known: 0). The same records result when nothing is refused.
struct CheckedWhoContext {
    CheckedPtr<WhoRecord> records;
    unsigned long long count;
    unsigned long long rowWidth;
    CheckedPtr<unsigned> counters;
    unsigned blockOrder;
    const char* outputBase; // the output pointer the kernel received (buffers); null for a surface
    CheckContext output;    // the output's extent: bytes (buffer) or width and height (surface)

    template <class V>
    __device__ __forceinline__ bool allows(const V* p, unsigned access) const
    {
        return CheckSite{output, outputBase, (const char*)p, sizeof(V), alignof(V), 0}.allows(access);
    }
    template <class V>
    __device__ __forceinline__ V load(const V* p) const
    {
        return allows(p, kCheckedRead) ? *p : refusedValue<V>();
    }
    template <class V>
    __device__ __forceinline__ V* sink(V* p) const
    {
        return sizeof(V) > sizeof(output.record->sink) ? p : reinterpret_cast<V*>(output.record->sink);
    }
    template <class V>
    __device__ __forceinline__ V refused() const
    {
        return refusedValue<V>();
    }
    __device__ __forceinline__ bool allowsSurface(int x, int y, unsigned size) const
    {
        return CheckedSurface{0, output}.allows(kCheckedWrite, x, y, size, 0);
    }
};

} // namespace ks::teach
