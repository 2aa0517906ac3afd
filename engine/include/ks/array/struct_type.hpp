#pragma once
// Element types that are not numbers: CUDA's vector types (float3, int2, double4, ...) and structs
// that user device code defines, for DeviceArray (empty, zeros, fillElement, copies, assign, take,
// put, host transfers) and for ElementwiseKernel arguments. Such an array has DType::Struct;
// arithmetic, math, comparisons, casts to numbers and reductions refuse it with an error naming the
// type. Sizes and alignments come from ks/syntax/type_layout.hpp, the layout reader the launch
// panel uses.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace ks::array {

struct StructType {
    std::string name;      // what device code calls it: "float3", "Particle"
    std::size_t size = 0;  // bytes, a multiple of `align`
    std::size_t align = 0; // a power of two
    std::string preamble;  // device code that defines it; empty for CUDA's vector types

    // CUDA's vector type `name` ("float3", "int2", "double4", "uchar4", ...) with the size and
    // alignment <vector_types.h> declares. Throws ks::Error for any other name.
    static std::shared_ptr<const StructType> vector(std::string_view name);
    // The struct (or class, or typedef'd struct) `name` that `preamble` defines, laid out as C++
    // lays it out (syntax::findRecordLayout says which definitions it reads). Throws ks::Error with
    // the reason when the preamble defines no such record or one whose layout cannot be read.
    static std::shared_ptr<const StructType> record(std::string name, std::string preamble);

    // The same element type: same name, size and alignment (the preamble's text may differ).
    bool sameAs(const StructType& other) const noexcept
    {
        return name == other.name && size == other.size && align == other.align;
    }
};

} // namespace ks::array
