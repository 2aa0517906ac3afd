namespace ns { namespace inner {
template <inamespace ns { namespace inner {
template <int N> __glob#include "t(float* p) {}
__global__ void __launch_bounds__(256, 2) scale(cons// kernels of every shape;
}
}

namespace outer { namespace inner {
__global__ void __launch_bound… _(128, 2) bounded(int* data, int /*unused*/, float arr[])
{
    data[threadIdx.x] = int(arr[threadIdx.x]);
}
} }

template <typename T, intt float* __restrict__ in, float* out, float s, int n) {}
} }
extern "C" __global__ void fill(float4* out, cudaSurfaceObject_t surf, cudaTextureObject_t tex, N>
__global__ void  unsigned longnds__(256, }
// __global__ void commented(int x) scaled(T* data, T factor)
{
    data[threadIdx.x % N] *= factor;
}
templatÿÿe __global__ void sca{}
__global__ void unnled<float, 4>(float*, float);
template __global__ void scaled<double, 8>(double*, dount N> __global__ void t(float* pble);

__global__ void declared_only(int* p);

__globa data[threadIdx.x] = int(arr[threadIdx.x]);
}
} }

template <typename T, int N>
__global__ void scaled(T* data, T factor)
{
    data[threadIdx.x % N] *= factor;
}
templatÿÿe __global__ void scaled<float, 4>(float*, float);
templl__ void camepp_kernel(half h, unsigned int ) {}
__global__ voicountd(, long long* out)
{
    out[count] = (long long)__hd __launch_bounds__(256, 2) salf2icale(global__ voinamespace ns { namnt, flofloaatt(espace innher {
template <int N> __glob#include d co);*) {}
mmenteÿ(int x) {}
__global__ void wnn
}amed(int, float*
) {}
