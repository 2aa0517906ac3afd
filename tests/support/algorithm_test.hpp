#pragma once
// Struct preambles shared by the unit tests that compile reductions and scans and the GPU tests
// that run them: PyCUDA's min-max collector (test_struct_reduce) and affine maps for scans.

namespace ks::test {

// PyCUDA's test_struct_reduce collector and its aggregate function.
inline const char* const kMinMaxCollectorPreamble = R"(
struct minmax_collector
{
    float cur_min;
    float cur_max;
    __device__ minmax_collector() { }
    __device__ minmax_collector(float cmin, float cmax) : cur_min(cmin), cur_max(cmax) { }
    __device__ minmax_collector(minmax_collector const &src) : cur_min(src.cur_min), cur_max(src.cur_max) { }
    __device__ minmax_collector(minmax_collector const volatile &src) : cur_min(src.cur_min), cur_max(src.cur_max) { }
    __device__ minmax_collector volatile &operator=(minmax_collector const &src) volatile
    {
        cur_min = src.cur_min;
        cur_max = src.cur_max;
        return *this;
    }
};
__device__ minmax_collector agg_mmc(minmax_collector a, minmax_collector b)
{
    return minmax_collector(fminf(a.cur_min, b.cur_min), fmaxf(a.cur_max, b.cur_max));
}
)";

// Affine maps x -> m*x + c composed left to right (associative, not commutative), in 8 bytes
// (affine, compose) and 4 bytes (affine16, compose16): scans with them show any out-of-order
// combination. Integer arithmetic wraps identically on host and device.
inline const char* const kAffinePreamble = R"(
struct affine { unsigned m; unsigned c; };
__device__ affine compose(affine a, affine b) { affine r; r.m = a.m * b.m; r.c = a.c * b.m + b.c; return r; }
struct affine16 { unsigned short m; unsigned short c; };
__device__ affine16 compose16(affine16 a, affine16 b)
{
    affine16 r;
    r.m = (unsigned short)(a.m * b.m);
    r.c = (unsigned short)(a.c * b.m + b.c);
    return r;
}
)";

} // namespace ks::test
