// GPU Gems 3, 39.2.1: a naive inclusive scan of one block's elements (Hillis and Steele), in
// shared memory; each block scans its own 256 elements.
__global__ void scan(float *g_odata, float *g_idata, int n)
{
    __shared__ float temp[256];
    int thid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + thid;
    temp[thid] = i < n ? g_idata[i] : 0.0f;
    __syncthreads();
    for (int offset = 1; offset < blockDim.x; offset *= 2) {
        float v = thid >= offset ? temp[thid - offset] : 0.0f;
        __syncthreads();
        temp[thid] += v;
        __syncthreads();
    }
    if (i < n) g_odata[i] = temp[thid];
}
