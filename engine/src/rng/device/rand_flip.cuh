// rand()'s last step: [0, 1) from cuRAND's (0, 1]. 1 - x maps 1 to 0 and keeps every value
// inside. Compiled into the engine as text (cmake/KsEmbed.cmake); rand_source.cpp hands it to NVRTC.

extern "C" __global__ void ks_rng_flip_f32(float* p, long long n)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        p[i] = 1.0f - p[i];
}
extern "C" __global__ void ks_rng_flip_f64(double* p, long long n)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        p[i] = 1.0 - p[i];
}
