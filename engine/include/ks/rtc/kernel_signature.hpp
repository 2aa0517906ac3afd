#pragma once
// Kernel signatures discovered from CUDA source text, without a compiler: what the kernel facts
// panel, --check and the launch API's argument checks show before (or without) a device.
//
// What it understands: __global__ function definitions at namespace scope, inside namespaces
// (named, nested, inline, `a::b`) and extern "C" blocks or prefixes; template kernels (marked, with
// their parameters as written); attributes between the parts (__launch_bounds__(...),
// __attribute__((...)), [[...]]), qualifiers (const, volatile, __restrict__), pointers,
// references, arrays (which decay to pointers), default arguments, unnamed parameters, and
// parameters whose types contain template arguments or commas inside <>.
//
// Limits (by design: no preprocessor runs): kernels produced by macros are not found; code under
// #if 0 is found anyway (the cross-check against NVRTC's lowered names and the PTX flags it);
// declarations without a body are ignored; parameter types are text, not resolved through typedefs.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::rtc {

struct KernelParameter {
    std::string type; // as written, spacing normalized: "const float*", "float3", "int*"
    std::string name; // "" when unnamed
};

struct KernelSignature {
    std::string name;      // qualified by its namespaces: "saxpy", "ns::inner::scale"
    bool externC = false;  // its symbol is its name
    bool isTemplate = false;
    int line = 0;          // 1-based line of the name
    std::vector<KernelParameter> params;
    std::string launchBounds; // the __launch_bounds__ arguments as written, "" when none

    // "saxpy(float a, const float* x, float* y, int n)"
    std::string display() const;
};

// Every __global__ function definition in `source`, in source order.
std::vector<KernelSignature> findKernels(std::string_view source);

// Host size and alignment of a kernel parameter type, for the types the launch API can pass
// without knowing more: every CUDA scalar, every pointer, and the vector types of
// <vector_types.h> (float3, int2, double4, ...). nullopt for anything else (a user struct).
struct TypeLayout {
    std::size_t size = 0;
    std::size_t align = 0;
    friend bool operator==(const TypeLayout&, const TypeLayout&) = default;
};
std::optional<TypeLayout> knownTypeLayout(std::string_view type);

} // namespace ks::rtc
