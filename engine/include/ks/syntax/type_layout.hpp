#pragma once
// Host size and alignment of a kernel parameter type read from source (KernelParam::type), for
// the types the launch API can pass without knowing more: every CUDA scalar, every pointer, and
// the vector types of <vector_types.h> (float3, int2, double4, ...) with the alignments it
// declares. Qualifiers (const, volatile, __restrict__, __grid_constant__) change nothing.

#include <cstddef>
#include <optional>
#include <string_view>

namespace ks::syntax {

struct TypeLayout {
    std::size_t size = 0;
    std::size_t align = 0;
    friend bool operator==(const TypeLayout&, const TypeLayout&) = default;
};

// The layout of `type` ("const float* __restrict__", "float3", "unsigned long long"); nullopt for
// anything else (a user struct, a reference, a template parameter).
std::optional<TypeLayout> knownTypeLayout(std::string_view type);

} // namespace ks::syntax
