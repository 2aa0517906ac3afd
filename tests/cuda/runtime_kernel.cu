// An nvcc-compiled kernel launched through the CUDA runtime, used to check that runtime launches
// and the engine's driver-API objects share the primary context.
#include <cuda_runtime.h>

__global__ void addOneKernel(float* p, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += 1.f;
}

cudaError_t launchAddOne(float* p, int n, cudaStream_t stream)
{
    addOneKernel<<<(n + 255) / 256, 256, 0, stream>>>(p, n);
    cudaError_t e = cudaGetLastError();
    return e != cudaSuccess ? e : cudaStreamSynchronize(stream);
}
