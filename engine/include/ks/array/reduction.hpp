#pragma once
// Reductions over device arrays: PyCUDA's ReductionKernel and the built-ins (sum, dot, min, max,
// any, all, subset_sum/min/max).
//
// How they run: one kernel launch. A fixed grid (the device's resident blocks, fewer for small
// inputs) strides over the input and each block leaves one partial; the block that finishes last
// (one atomic counter per stream, which it resets) combines the partials in block order and writes
// the result. Inputs that are 16-byte aligned and whose map reads each array only at [i] load 16
// bytes at a time, in tiles of 4 x 256 vectors (2 x 256 per array with two arrays) that blocks take
// in turn, from a grid of three resident waves. The order of every combination depends only on the
// input size and the device, so a reduction gives the same bits on every run.
//
// All work is queued on the runtime's stream; functions returning a DeviceArray do not synchronise
// (read the result with toHost, which does). Results are 0-d arrays (shape (), one element).
// Partials and the counter are the stream's own (Runtime::onePassScratch): a call allocates nothing.
//
// The reduce expression must be associative and commutative (the combination order is fixed but
// not the sequential order), like PyCUDA's.

#include "ks/array/algorithm_source.hpp"
#include "ks/array/device_array.hpp"
#include "ks/array/map.hpp"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>

namespace ks::cuda {
class Function;
}

namespace ks::array {

class Runtime;

class ReductionKernel {
public:
    // Generates the kernels and compiles them through the runtime (the compile cache makes a second
    // kernel with the same spec cost no compile; the runtime loads the module once). A compile
    // failure throws ks::Error (Nvrtc) with the diagnostics and the numbered source.
    ReductionKernel(Runtime& rt, ReductionSpec spec);

    const ReductionSpec& spec() const noexcept { return m_spec; }
    const GeneratedReduction& generated() const noexcept { return m_generated; }
    // sizeof(outType) as the device sees it.
    std::size_t valueSize() const noexcept { return m_valueSize; }
    // outType as a dtype, when it names one ("float", "int", ...); nullopt for structs.
    std::optional<DType> outDType() const noexcept { return m_outDType; }

    // red(args...): arrays (DeviceArray) for pointer arguments, numbers for by-value ones, in the
    // order of the argument string; reduces over the size of the first array. Needs outDType().
    // A raw device pointer (a mapped GL buffer) goes in as DeviceArray::view over it. Arrays of any
    // layout: the kernel reads element i of each array in C order, so other views (strided,
    // transposed, broadcast) are read through a C-order copy. PyCUDA refuses them instead.
    DeviceArray operator()(std::initializer_list<MapArg> args) const;
    DeviceArray operator()(std::span<const MapArg> args) const;
    // PyCUDA's out=: writes the result into `out`'s single element (any view: a[i], a slice of 1).
    void into(const DeviceArray& out, std::initializer_list<MapArg> args) const;
    void into(const DeviceArray& out, std::span<const MapArg> args) const;
    // The result copied to the host (synchronises); sizeof(T) must equal valueSize().
    template <class T>
    T toHost(std::initializer_list<MapArg> args) const
    {
        T value{};
        toHostBytes(std::span<const MapArg>(args.begin(), args.size()), &value, sizeof(T));
        return value;
    }
    // The raw form: reduces `n` items (the range of `i`) into the device address `out`, and into
    // `mirror` too where it is not 0 (say page-locked host memory, for a read-out that needs no
    // copy after the kernel).
    void launch(CUdeviceptr out, std::int64_t n, std::span<const MapArg> args, CUdeviceptr mirror = 0) const;

private:
    void toHostBytes(std::span<const MapArg> args, void* host, std::size_t bytes) const;
    std::int64_t sizeFromArguments(std::span<const MapArg> args) const;

    Runtime* m_runtime;
    ReductionSpec m_spec;
    GeneratedReduction m_generated;
    std::string m_key;
    const cuda::Function* m_scalar = nullptr; // the grid-stride kernel, owned by the runtime
    const cuda::Function* m_vector = nullptr; // the 16-byte kernel; null when the map is not element-wise
    std::size_t m_valueSize = 0;
    std::optional<DType> m_outDType;
};

// ----- built-ins. Any layout: contiguous arrays take the vector path, other views a strided map.
// Complex dtypes: sum, dot (no conjugation, like numpy's dot), any, all and subsetSum; min and max of
// complex values are a ks::Error.

// numpy's sum: bool and signed integers accumulate in int64, unsigned in uint64, floats in their own
// type; `dtype` overrides. The sum of an empty array is 0.
DeviceArray sum(const DeviceArray& a, std::optional<DType> dtype = std::nullopt);
// The result goes into out's single element, accumulated in out's dtype.
void sum(const DeviceArray& a, const DeviceArray& out);
// sum(a * b) over all elements, in promoteTypes(a, b) (or `dtype`). Shapes must match.
DeviceArray dot(const DeviceArray& a, const DeviceArray& b, std::optional<DType> dtype = std::nullopt);
void dot(const DeviceArray& a, const DeviceArray& b, const DeviceArray& out);
// numpy's min/max: NaN propagates; an empty array is an error.
DeviceArray min(const DeviceArray& a);
DeviceArray max(const DeviceArray& a);
void min(const DeviceArray& a, const DeviceArray& out);
void max(const DeviceArray& a, const DeviceArray& out);
// Bool results: any element != 0 (NaN counts); all elements != 0. Empty: any false, all true.
DeviceArray any(const DeviceArray& a);
DeviceArray all(const DeviceArray& a);
// Reductions over a[indices[k]] for every k: `indices` an integer array (any integer dtype); both
// in any layout (other views are read through a C-order copy). PyCUDA's subset_sum/subset_min/subset_max.
DeviceArray subsetSum(const DeviceArray& indices, const DeviceArray& a, std::optional<DType> dtype = std::nullopt);
DeviceArray subsetMin(const DeviceArray& indices, const DeviceArray& a);
DeviceArray subsetMax(const DeviceArray& indices, const DeviceArray& a);

// The spec each built-in compiles (for tests that compile them without a device): `kind` one of
// "sum", "dot", "min", "max", "any", "all", "subset_sum", "subset_min", "subset_max"; `in` and `in2`
// the input dtypes (in2 for dot; the index dtype for subsets), `out` the accumulator; `strided` the
// layout-walking variant.
ReductionSpec builtinReductionSpec(const std::string& kind, DType in, DType in2, DType out, bool strided);
// Its name (the kernel's prefix), without building the spec.
std::string builtinReductionName(const std::string& kind, DType in, DType in2, DType out, bool strided);

} // namespace ks::array
