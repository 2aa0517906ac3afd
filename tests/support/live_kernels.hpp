#pragma once
// Kernel sources shared by the CUDA tests (which launch them) and the unit tests (which compile
// them with NVRTC for sm_90, so that a typo shows without a GPU).

namespace ks::test::live_kernels {

// The PyCUDA tutorial's kernels, verbatim (C++ linkage, as PyCUDA's SourceModule compiles them).
inline constexpr const char* kDoublify = R"(
__global__ void doublify(float *a)
{
  int idx = threadIdx.x + threadIdx.y*4;
  a[idx] *= 2;
}
)";

inline constexpr const char* kMultiplyThem = R"(
__global__ void multiply_them(float *dest, float *a, float *b)
{
  const int i = threadIdx.x;
  dest[i] = a[i] * b[i];
}
)";

inline constexpr const char* kVectors = R"(
extern "C" __global__ void unpack(float3 f, int2 i, double2 d, char c, unsigned short s, long long l,
                                  double4_16a w, float* out)
{
    out[0] = f.x; out[1] = f.y; out[2] = f.z;
    out[3] = float(i.x); out[4] = float(i.y);
    out[5] = float(d.x); out[6] = float(d.y);
    out[7] = float(c); out[8] = float(s); out[9] = float(l);
    out[10] = float(w.x); out[11] = float(w.w);
}
)";

inline constexpr const char* kInOut = R"(
extern "C" __global__ void combine(const float* in, float* inout, float* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] * inout[i];
        inout[i] = inout[i] + in[i];
    }
}
)";

inline constexpr const char* kSaxpy = R"(
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
)";

inline constexpr const char* kTransposeAndHeavy = R"(
template <int Tile>
__global__ void transpose(float* out, const float* in, int width)
{
    __shared__ float tile[Tile][Tile + 1];
    tile[threadIdx.y][threadIdx.x] = in[(blockIdx.y * Tile + threadIdx.y) * width + blockIdx.x * Tile + threadIdx.x];
    __syncthreads();
    out[(blockIdx.x * Tile + threadIdx.y) * width + blockIdx.y * Tile + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
template __global__ void transpose<32>(float*, const float*, int);
__global__ void __launch_bounds__(128) heavy(double* p, double4_16a v, float3 w)
{
    double acc[24];
    for (int i = 0; i < 24; ++i) acc[i] = p[i * threadIdx.x] * v.x + w.y;
    double s = 0;
    for (int i = 0; i < 24; ++i) s += acc[(i * 5 + threadIdx.x) % 24] * acc[i];
    p[threadIdx.x] = s;
}
)";

inline constexpr const char* kAll[] = {kDoublify, kMultiplyThem, kVectors, kInOut, kSaxpy, kTransposeAndHeavy};

} // namespace ks::test::live_kernels
