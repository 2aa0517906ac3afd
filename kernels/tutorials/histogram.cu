// A 256-bin histogram with global atomics.
__global__ void histogram(const unsigned char* data, unsigned int* hist, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&hist[data[i]], 1u);
}
