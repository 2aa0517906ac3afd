#pragma once
// Reference values for the Philox fill kernels, computed with cuRAND's device API the plain way
// (one curand_init per element, at the offset ks::rng::Generator documents), in
// philox_reference.cu. Each launches on `stream` and synchronises it.
#include <cuda_runtime_api.h>

#include <cstdint>

namespace ks::test {

// kind: 0 uniform, 1 normal, 2 log-normal. Element i of a fill that starts at Philox block `block`.
cudaError_t philoxReferenceFloat(float* out, unsigned long long n, std::uint64_t seed, std::uint64_t block, int kind,
                                 float mean, float stddev, cudaStream_t stream);
cudaError_t philoxReferenceDouble(double* out, unsigned long long n, std::uint64_t seed, std::uint64_t block, int kind,
                                  double mean, double stddev, cudaStream_t stream);
cudaError_t philoxReferenceBits(std::uint32_t* out, unsigned long long n, std::uint64_t seed, std::uint64_t block,
                                cudaStream_t stream);

} // namespace ks::test
