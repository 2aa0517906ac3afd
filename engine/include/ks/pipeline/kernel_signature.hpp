#pragma once
// The parameter lists of the __global__ functions in a CUDA source, read from the source text so
// that bindings can be checked without a GPU (kernelscope --validate). Comments are skipped;
// template kernels are listed with `templated` set (they cannot be bound by name).
//
// This reads declarations, not the preprocessed program: a kernel declared through a macro is not
// found. When the compile service's parameter discovery (checked against cuFuncGetParamInfo) is
// available it supersedes this for loaded modules.

#include "ks/project/value_type.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::pipeline {

struct KernelParam {
    enum class Kind { Pointer, Value, Surface, Texture, Unknown };
    Kind kind = Kind::Unknown;
    std::string name;
    std::string typeText;              // as written, whitespace normalised: "const float4 *"
    std::optional<project::ValueType> type; // pointee for Pointer, the value for Value; nullopt if not a CUDA type
    bool constPointee = false;         // `const T*`: the kernel only reads
    int line = 0;                      // 1-based line of the parameter in the source
};

struct KernelSignature {
    std::string name;
    bool externC = false;
    bool templated = false;
    int line = 0; // of the kernel's name
    std::vector<KernelParam> params;
};

std::vector<KernelSignature> findKernels(std::string_view source);
// "const float4* (a pointer to float4 the kernel only reads)"-style description for messages.
std::string describeParam(const KernelParam& p);

} // namespace ks::pipeline
