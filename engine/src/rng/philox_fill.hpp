#pragma once
// Philox4x32-10 fill kernels of ks::rng::Generator (nvcc-compiled, engine/src/rng/philox_fill.cu);
// private to the rng layer.
//
// Stream layout: a fill that starts at Philox block `counter` (a block is one 128-bit Philox output,
// four 32-bit words) takes element i from block counter + i / V, where V is 4 for 32-bit outputs
// (float, uint32) and 2 for doubles (two words per double, as cuRAND makes them). The element
// equals what cuRAND's device API gives for a state made with curand_init(seed, 0, 4 * (counter +
// i / V)): component i % V of curand_uniform4 / curand_normal4 (float), curand_uniform2_double /
// curand_normal2_double (double), curand4 (bits). Normals are mean + stddev * z; log-normals
// exp(mean + stddev * z). Each fill consumes ceil(n / V) whole blocks, so the next fill starts at a
// fresh block and never reuses a word.
//
// Launches are asynchronous on `stream` (the runtime shares the driver API's primary context);
// a launch failure throws ks::Error (CudaRuntime) naming the kernel.

#include <cuda.h> // CUstream
#include <ks_device/records.cuh>

#include <cstddef>
#include <cstdint>

namespace ks::rng::detail {

enum class PhiloxDistribution { Uniform, Normal, LogNormal };

struct PhiloxLaunch {
    std::uint64_t seed = 0;
    std::uint64_t counter = 0; // first Philox block
    CUstream stream = nullptr;
    unsigned smCount = 0; // the device's SM count (grids of compute-bound fills are capped by it); 0: unknown
    // Non-null: the fill's checked variant runs instead (Generator::setCheckedFills): every store
    // checked against extentBytes from `out` on (ks::teach::kExtentUnchecked: not checked), a
    // refused one not made, the launch's first in *record (device memory, zeroed by the caller).
    ks::teach::CheckedRecord* record = nullptr;
    unsigned long long extentBytes = 0;
};

// Each returns the Philox blocks consumed (ceil(n / V)); n == 0 launches nothing.
std::uint64_t philoxFill(float* out, std::size_t n, PhiloxDistribution d, float mean, float stddev,
                         const PhiloxLaunch& launch);
std::uint64_t philoxFill(double* out, std::size_t n, PhiloxDistribution d, double mean, double stddev,
                         const PhiloxLaunch& launch);
std::uint64_t philoxBits(std::uint32_t* out, std::size_t n, const PhiloxLaunch& launch);

} // namespace ks::rng::detail
