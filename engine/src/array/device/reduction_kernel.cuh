// The generated reduction kernel (algorithm_source.cpp fills the @NAME@ placeholders), compiled
// into the engine as text (cmake/KsEmbed.cmake). Not a file to compile on its own.

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
