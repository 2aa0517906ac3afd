#pragma once
// Host size and alignment of a kernel parameter type read from source (KernelParam::type), for
// the types the launch API can pass without knowing more: every CUDA scalar, every pointer, and
// the vector types of <vector_types.h> (float3, int2, double4, ...) with the alignments it
// declares. Qualifiers (const, volatile, __restrict__, __grid_constant__) change nothing.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::syntax {

struct TypeLayout {
    std::size_t size = 0;
    std::size_t align = 0;
    friend bool operator==(const TypeLayout&, const TypeLayout&) = default;
};

// The layout of `type` ("const float* __restrict__", "float3", "unsigned long long"); nullopt for
// anything else (a user struct, a reference, a template parameter).
std::optional<TypeLayout> knownTypeLayout(std::string_view type);

// A struct (or class) defined in the source, laid out as C++ lays out a standard-layout type:
// each member at the next multiple of its alignment, the size rounded up to the largest one.
// Members are those of known layout (knownTypeLayout: scalars, vectors, pointers), fixed-size
// arrays of them, and records defined in the same source, flattened into dotted names ("pos.x").
struct RecordField {
    std::string name;      // "mass", "pos.x", "m" (an array member names the whole array)
    std::string type;      // of one element, as written: "float3", "unsigned int", "float*"
    std::size_t offset = 0;
    std::size_t count = 1; // elements of an array member (float m[3][3]: 9)
    TypeLayout element;    // one element's size and alignment
};
struct RecordLayout {
    std::string name; // as defined: "Particle"
    int line = 0;     // 1-based line of its name
    TypeLayout layout;
    std::vector<RecordField> fields; // in declaration order
};

// The layout of the record `name` ("Particle", "ns::Particle": the last part is looked up) defined
// in `source` as `struct N {...};`, `class N {...};` or `typedef struct {...} N;`, with
// `__align__(n)` or `alignas(n)` on the record raising its alignment. Member functions and static
// members change nothing. nullopt, with `why` (when given) saying what stops it, when `source`
// defines no such record, or it has a base class, virtual functions, bit-fields, a union, an
// array extent that is not a number, a member alignment, or a member of another type.
std::optional<RecordLayout> findRecordLayout(std::string_view source, std::string_view name, std::string* why = nullptr);

} // namespace ks::syntax
