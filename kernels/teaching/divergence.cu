// Warps and divergence. Each thread computes `iterations` steps of a small recurrence; the branch
// picks one of two recurrences. In diverge_by_lane the two halves of every warp take different
// branches, so the warp runs both one after the other; in diverge_by_warp whole warps agree and
// nothing is serialised. Same work, same result layout: compare the block timelines.
__device__ float stepA(float v) { return v * 0.999f + 0.5f; }
__device__ float stepB(float v) { return v * 0.998f - 0.25f; }

extern "C" __global__ void diverge_by_lane(float* out, int iterations, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = (float)i;
    if (threadIdx.x % 2 == 0)
        for (int k = 0; k < iterations; ++k) v = stepA(v);
    else
        for (int k = 0; k < iterations; ++k) v = stepB(v);
    out[i] = v;
}

extern "C" __global__ void diverge_by_warp(float* out, int iterations, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = (float)i;
    if ((threadIdx.x / warpSize) % 2 == 0)
        for (int k = 0; k < iterations; ++k) v = stepA(v);
    else
        for (int k = 0; k < iterations; ++k) v = stepB(v);
    out[i] = v;
}
