// kernels of every shape the scanner knows
#include <cuda_fp16.h>
/* __global__ void commented_out(int x) {} */
#define NOT_A_KERNEL "__global__ void in_a_string()"

extern "C" __global__ void plain(float* __restrict__ out, const float* in, int n, float scale = 2.0f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * scale;
}

extern "C" {
__global__ void vectors(float3 v, int2 i, double2 d, char c, short s, unsigned long long u, float* out)
{
    out[0] = v.x + i.y + d.x + c + s + u;
}
}

namespace outer { namespace inner {
__global__ void __launch_bounds__(128, 2) bounded(int* data, int /*unused*/, float arr[])
{
    data[threadIdx.x] = int(arr[threadIdx.x]);
}
} }

template <typename T, int N>
__global__ void scaled(T* data, T factor)
{
    data[threadIdx.x % N] *= factor;
}
template __global__ void scaled<float, 4>(float*, float);
template __global__ void scaled<double, 8>(double*, double);

__global__ void declared_only(int* p);

__global__ void cpp_kernel(half h, unsigned int count, long long* out)
{
    out[count] = (long long)__half2float(h);
}
