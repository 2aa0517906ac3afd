// A dot product: a shared-memory reduction per block, then one atomicAdd per block.
__global__ void dot(const float* a, const float* b, float* c, int n)
{
    __shared__ float cache[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    cache[threadIdx.x] = i < n ? a[i] * b[i] : 0.0f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            cache[threadIdx.x] += cache[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(c, cache[0]);
}
