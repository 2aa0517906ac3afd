#include "ks/rng/fill.hpp"

// Kept apart from fill.cpp so that compiling the source needs no array runtime.

namespace ks::rng {
namespace {

// [0, 1) from cuRAND's (0, 1]: 1 - x maps 1 to 0 and keeps every value inside.
const char* const kFlipSource = R"(
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
)";

} // namespace

const char* randFlipSource() noexcept
{
    return kFlipSource;
}

} // namespace ks::rng
