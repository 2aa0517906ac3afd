// Occupancy: a block-wide sum through dynamic shared memory (at least blockDim.x floats; blockDim.x
// a power of 2). Raise the dynamic shared memory or the block size in the launch panel and watch
// the theoretical occupancy and its limiter change; the block timeline shows how many blocks each
// SM then holds at once.
extern "C" __global__ void block_sum(const float* in, float* blockSums, int n)
{
    extern __shared__ float partial[];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : 0.f;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        blockSums[blockIdx.x] = partial[0];
}
