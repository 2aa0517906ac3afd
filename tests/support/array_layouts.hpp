#pragma once
// The layout matrix: every public entry point of ks::array (and ks::rng's fills) that takes a
// DeviceArray, run over every layout a view can have, against host references. Each entry point
// either matches numpy's answer or refuses with an error naming the layout; an entry point that
// writes must leave every element outside its view as it was.
//
// The list is checked against the public headers (ArrayLayouts.EveryEntryPointIsInTheMatrix, a unit
// test): a function added to those headers fails that test until it has a row here or is listed,
// with the reason, among the names that read and write no elements.
#include "ks/array/device_array.hpp"
#include "ks/array/op_specs.hpp"
#include "ks/array/runtime.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ks::test {

// One view of a freshly uploaded base array, with where each of its elements lies in the base.
struct LayoutView {
    std::string layout;                  // one of layoutNames()
    array::DeviceArray base;             // owned, C-contiguous
    std::vector<double> baseValues;      // base's values as the device holds them
    array::DeviceArray view;             // the layout under test (shares base's storage)
    std::vector<std::int64_t> baseIndex; // base index of each view element, in C order

    std::vector<double> values() const; // the view's elements in C order, from the host copy
};

// "contiguous", "offset", "step 2", "negative step", "transposed", "broadcast", "0-size", "0-d".
// The 2-D layouts have shape (3, 4).
const std::vector<std::string>& layoutNames();

// float32, base element k = 0.1 + 0.07 k: distinct, positive, below 2.
LayoutView makeLayout(array::Runtime& rt, const std::string& layout);
// `value(k)` is base element k (converted to `dtype`).
LayoutView makeLayout(array::Runtime& rt, const std::string& layout, array::DType dtype,
                      const std::function<double(std::int64_t)>& value);

// What an entry point does with the array in the layout under test.
enum class Role {
    Reads,  // any layout is read; a result is compared with the host's
    Writes, // the view is the destination: a broadcast view is refused (its elements share memory)
    ReadsContiguous, // needs C-contiguous arrays (ElementwiseKernel, as PyCUDA): other views are refused
};

struct EntryPoint {
    // The public name as its header declares it: "sum", "operator+", "DeviceArray::fill",
    // "ReductionKernel::operator()"; a suffix in parentheses tells two rows of one name apart.
    std::string name;
    Role role = Role::Reads;
    // Whether the row refuses a layout beyond what its role says (min of a 0-size array).
    std::function<bool(const std::string& layout)> alsoRefuses;
    // Runs the entry point on the layout and checks the outcome with gtest assertions; throws
    // ks::Error when the engine refuses.
    std::function<void(array::Runtime&, const LayoutView&)> run;
};

const std::vector<EntryPoint>& arrayEntryPoints();

// The host reference of take and put: where index j lands on an axis of n > 0 elements under
// `mode` (IndexMode's contract).
std::int64_t landing(std::int64_t j, std::int64_t n, array::IndexMode mode);

// Public declarations that read and write no elements (layout queries, views, the generic map under
// every row), each with the reason it is not in the matrix.
struct NotAnEntryPoint {
    std::string name;
    std::string reason;
};
const std::vector<NotAnEntryPoint>& notEntryPoints();

// The headers the matrix is checked against, relative to the source tree.
const std::vector<std::string>& entryPointHeaders();

} // namespace ks::test
