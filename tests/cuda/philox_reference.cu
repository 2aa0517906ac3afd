// Reference values for the Philox fill kernels from cuRAND's device API used the plain way: every
// element makes its own state with curand_init at the documented offset. Uniform floats and bits
// use the scalar calls at word offset 4 * block + i, which checks the layout independently of the
// fill kernels' vector grouping; normals and doubles consume whole Philox blocks, so they start
// at the element's block and take component i % V.
#include "philox_reference.hpp"

#include <curand_kernel.h>

namespace {

__global__ void referenceFloat(float* out, unsigned long long n, unsigned long long seed, unsigned long long block,
                               int kind, float mean, float stddev)
{
    const unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    curandStatePhilox4_32_10_t s;
    if (kind == 0) {
        curand_init(seed, 0, 4 * block + i, &s);
        out[i] = curand_uniform(&s);
        return;
    }
    curand_init(seed, 0, 4 * (block + i / 4), &s);
    const float4 z = curand_normal4(&s);
    const float pick[4] = {z.x, z.y, z.z, z.w};
    const float v = mean + stddev * pick[i % 4];
    out[i] = kind == 2 ? expf(v) : v;
}

__global__ void referenceDouble(double* out, unsigned long long n, unsigned long long seed, unsigned long long block,
                                int kind, double mean, double stddev)
{
    const unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    curandStatePhilox4_32_10_t s;
    curand_init(seed, 0, 4 * (block + i / 2), &s);
    if (kind == 0) {
        const double2 u = curand_uniform2_double(&s);
        out[i] = i % 2 ? u.y : u.x;
        return;
    }
    const double2 z = curand_normal2_double(&s);
    const double v = mean + stddev * (i % 2 ? z.y : z.x);
    out[i] = kind == 2 ? exp(v) : v;
}

__global__ void referenceBits(unsigned* out, unsigned long long n, unsigned long long seed, unsigned long long block)
{
    const unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    curandStatePhilox4_32_10_t s;
    curand_init(seed, 0, 4 * block + i, &s);
    out[i] = curand(&s);
}

unsigned blocksFor(unsigned long long n)
{
    return unsigned((n + 255) / 256);
}

cudaError_t finish(cudaStream_t stream)
{
    const cudaError_t e = cudaGetLastError();
    return e != cudaSuccess ? e : cudaStreamSynchronize(stream);
}

} // namespace

namespace ks::test {

cudaError_t philoxReferenceFloat(float* out, unsigned long long n, std::uint64_t seed, std::uint64_t block, int kind,
                                 float mean, float stddev, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    referenceFloat<<<blocksFor(n), 256, 0, stream>>>(out, n, seed, block, kind, mean, stddev);
    return finish(stream);
}

cudaError_t philoxReferenceDouble(double* out, unsigned long long n, std::uint64_t seed, std::uint64_t block, int kind,
                                  double mean, double stddev, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    referenceDouble<<<blocksFor(n), 256, 0, stream>>>(out, n, seed, block, kind, mean, stddev);
    return finish(stream);
}

cudaError_t philoxReferenceBits(std::uint32_t* out, unsigned long long n, std::uint64_t seed, std::uint64_t block,
                                cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    referenceBits<<<blocksFor(n), 256, 0, stream>>>(reinterpret_cast<unsigned*>(out), n, seed, block);
    return finish(stream);
}

} // namespace ks::test
