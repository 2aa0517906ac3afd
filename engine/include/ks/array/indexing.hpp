#pragma once
// Integer-array ("fancy") indexing: numpy's take and put, PyCUDA's gpuarray.take, as generated map
// kernels (op_specs.hpp) on the arrays' runtime stream.
//
// numpy's a[idx] along axis k is take(a, idx, k), and a[..., idx, ...] = v is put(a, idx, v, k).
// Indices are an array of any integer dtype and any layout (bool masks are refused). No mode raises
// for an index outside the axis (that would need a synchronisation): IndexMode (op_specs.hpp) says
// where it lands, always inside the axis, so nothing outside the array is read or written.

#include "ks/array/device_array.hpp"
#include "ks/array/op_specs.hpp"

#include <optional>

namespace ks::array {

// numpy.take(a, indices, axis, mode): with no axis, a is read flattened (C order) and the result has
// indices' shape; with one, the result's shape is a.shape[:axis] + indices.shape + a.shape[axis+1:].
// A new C-contiguous array of a's dtype. `a` may have any layout (other views are read through a
// C-order copy). Taking from an empty axis is refused unless no index is given (numpy's IndexError).
DeviceArray take(const DeviceArray& a, const DeviceArray& indices, std::optional<int> axis = std::nullopt,
                 IndexMode mode = IndexMode::FromEnd);

// numpy.put(a, indices, values, mode) with no axis (a.flat[indices] = values), and numpy's
// a[..., indices, ...] = values along `axis`: values (converted to a's dtype) broadcast to the shape
// take(a, indices, axis) would have. numpy's put repeats a short `values`; here it must broadcast.
// With repeated indices one of the values lands, which one is unspecified (numpy: the last).
// `a` may have any writable layout (a broadcast view is refused; other views are written through a
// C-order copy and then assigned back); inputs that overlap `a` are read before anything is written.
void put(const DeviceArray& a, const DeviceArray& indices, const DeviceArray& values,
         std::optional<int> axis = std::nullopt, IndexMode mode = IndexMode::FromEnd);
void put(const DeviceArray& a, const DeviceArray& indices, const Scalar& value, std::optional<int> axis = std::nullopt,
         IndexMode mode = IndexMode::FromEnd);

} // namespace ks::array
