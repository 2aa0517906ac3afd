#pragma once
// cuRAND fills into device arrays and views (PyCUDA's curandom): straight into the array's memory,
// so a view of a GL buffer mapped for this frame (DeviceArray::view over the mapped pointer) fills
// with no copy. Each fill runs on the array's runtime stream.
//
// Layouts: contiguous arrays and views fill in place; strided views (steps, transposes) fill a
// contiguous temporary that is then copied into the view.
//
// What each dtype gets (what cuRAND defines):
//   uniform   float32, float64: (0, 1]; uint32: raw 32-bit words (uint64 for the Sobol64 family)
//   normal    float32, float64 (any length; see Generator::normal)
//   logNormal float32, float64
//   poisson   uint32

#include "ks/array/device_array.hpp"
#include "ks/rng/generator.hpp"

namespace ks::rng {

void fillUniform(Generator& gen, const array::DeviceArray& a);
void fillNormal(Generator& gen, const array::DeviceArray& a, double mean = 0.0, double stddev = 1.0);
void fillLogNormal(Generator& gen, const array::DeviceArray& a, double mean = 0.0, double stddev = 1.0);
void fillPoisson(Generator& gen, const array::DeviceArray& a, double lambda);

// PyCUDA's curandom.rand: a new array of uniform values in [0, 1) (float32 or float64), from `gen`.
array::DeviceArray rand(Generator& gen, array::Runtime& rt, const array::Dims& shape,
                        array::DType dtype = array::DType::Float32);

// The NVRTC source of rand()'s (0, 1] -> [0, 1) kernel (for tests that compile it without a device).
const char* randFlipSource() noexcept;

} // namespace ks::rng
