// The walk over a strided view that the built-in reductions' strided variants read through
// (reduction_spec.cpp puts it in their preamble); matches reduction.cpp's Layout. The load goes
// through ks_cast (array prelude), so that in the checked variant ("find the fault",
// ks_device/checked.cuh) a checked pointer is checked at the element's byte offset.

struct ks_layout { int ndim; int pad; long long shape[8]; long long stride[8]; };
__device__ __forceinline__ long long ks_layout_offset(long long i, const ks_layout& l)
{
    long long off = 0;
    for (int d = l.ndim - 1; d > 0; --d) {
        const long long q = i / l.shape[d];
        off += (i - q * l.shape[d]) * l.stride[d];
        i = q;
    }
    if (l.ndim > 0)
        off += i * l.stride[0];
    return off;
}
template <class T>
__device__ __forceinline__ T ks_at(const T* p, long long i, const ks_layout& l)
{
    return *ks_cast<const T>(ks_cast<const char>(p) + ks_layout_offset(i, l));
}
#ifdef KS_TEACH_CHECKED
template <class T>
__device__ __forceinline__ T ks_at(const ks::teach::CheckedPtr<const T>& p, long long i, const ks_layout& l)
{
    return *ks_cast<const T>(ks_cast<const char>(p) + ks_layout_offset(i, l));
}
#endif
