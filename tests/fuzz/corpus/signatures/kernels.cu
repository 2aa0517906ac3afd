namespace ns { namespace inner {
template <int N> __global__ void t(float* p) {}
__global__ void __launch_bounds__(256, 2) scale(const float* __restrict__ in, float* out, float s, int n) {}
} }
extern "C" __global__ void fill(float4* out, cudaSurfaceObject_t surf, cudaTextureObject_t tex, unsigned long long n)
{
}
// __global__ void commented(int x) {}
__global__ void unnamed(int, float*) {}
