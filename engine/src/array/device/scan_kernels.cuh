// The generated scan kernels (algorithm_source.cpp fills the @NAME@ placeholders), compiled into
// the engine as text (cmake/KsEmbed.cmake). Not a file to compile on its own.

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
