// The generated reduction kernel with 16-byte loads (algorithm_source.cpp fills the @NAME@
// placeholders), compiled into the engine as text (cmake/KsEmbed.cmake). Not a file to compile on its own.

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
