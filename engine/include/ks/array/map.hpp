#pragma once
// Running a MapSpec (kernel_source.hpp) over device arrays: the engine of every element-wise
// operation. Picks the contiguous kernel (16-byte vector accesses when every pointer is aligned) when
// all arrays are C-contiguous with the output's shape, else the strided kernel after collapsing the
// dimensions that are contiguous for every operand; broadcasts array inputs (numpy rules) to the
// output shape. Kernels load once per runtime (Runtime::kernel), so a repeated operation costs a hash
// lookup and a launch, on the runtime's stream.

#include "ks/array/device_array.hpp"
#include "ks/array/kernel_source.hpp"

#include <span>
#include <variant>

namespace ks::array {

using MapArg = std::variant<DeviceArray, Scalar>;

// Output arrays must have spec.outputs' dtypes and one shape; array inputs spec.inputs' dtypes and a
// shape that broadcasts to it; scalar inputs are converted to their MapOperand dtype. An input that
// overlaps an output with a different layout is copied first (numpy's overlap rule), so in-place
// forms (out == input) run without a copy. Size 0 launches nothing. A spec with no outputs (put's
// scatter, which writes through an address it is passed) runs over its first array input's shape;
// the caller orders inputs that overlap what it writes.
void runMap(const MapSpec& spec, std::span<const DeviceArray> outputs, std::span<const MapArg> inputs);

// Dimension collapsing (host logic, exposed for tests): merges adjacent axes that are contiguous for
// every array (stride[d] == stride[d+1] * shape[d+1]) and drops axes of extent 1. `strides` holds
// one Dims per array and is rewritten; the collapsed shape is returned (rank >= 1).
Dims collapseDims(const Dims& shape, std::span<Dims> strides);

} // namespace ks::array
