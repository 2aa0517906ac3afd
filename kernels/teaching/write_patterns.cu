// Ways of writing an output that the "who wrote it" overlay records (see docs/teaching/
// instrumentation.md): vector members, compound assignment, atomics through &out[i], templates in
// a namespace, and a 3-D launch.

// A float4 per element, written whole and then member by member (three writes per element).
extern "C" __global__ void write_vec(float4* out, const float* in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = make_float4(in[i], 2.f * in[i], 3.f, 4.f);
        out[i].y += 1.f;
        ++out[i].w;
    }
}

// A 16-bin histogram: many threads write each bin (the write-count overlay shows it).
extern "C" __global__ void histogram(unsigned* bins, const unsigned char* v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[v[i] % 16], 1u);
}

namespace demo {
// A template: instantiate it by its arguments ("float", "int, 3") in the launch panel.
template <typename T, int Scale = 2>
__global__ void __launch_bounds__(256) scale_t(T* __restrict__ out, const T* in, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    out[i] = in[i] * T(Scale);
}
} // namespace demo

// One thread per cell of an nx x ny x nz volume, x fastest.
extern "C" __global__ void fill_3d(int* out, int nx, int ny, int nz)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    const int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz)
        return;
    out[(z * ny + y) * nx + x] = x + 1000 * y + 1000000 * z;
}
