#pragma once
// Finds __global__ kernel definitions and their parameters in CUDA C++ source text, for the
// instrumentation rewriter (ks/teach/instrument.hpp). A scanner, not a compiler: it handles
// comments, string literals, preprocessor lines, extern "C", templates, namespaces and attributes
// such as __launch_bounds__; it does not expand macros (a kernel whose name or parameter list comes
// from a macro is not found).
//
// Note for the lead: the rtc helper's kernel facts also discover parameters from source; once that
// lands the two should share one scanner (this one keeps byte ranges, which the rewriter needs).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::teach {

enum class ParamKind {
    Value,   // a scalar, a struct, a vector type: passed by value
    Pointer, // T*: can be an output buffer when T is not const
    Surface, // cudaSurfaceObject_t (or unsigned long long): can be an output image
};

struct SourceRange {
    std::size_t begin = 0, end = 0; // byte offsets in the source, end exclusive
};

struct KernelParam {
    std::string declaration; // comments removed, whitespace collapsed: "const float* __restrict__ a"
    std::string type;        // the declaration without the name: "const float* __restrict__"
    std::string name;        // "" when the parameter is unnamed
    ParamKind kind = ParamKind::Value;
    std::string elementType; // Pointer: the pointee as written, "const float"; else ""
    bool pointeeConst = false;
    SourceRange range;
};

struct KernelDefinition {
    std::string name;
    int line = 0; // 1-based line of the name
    bool externC = false;
    std::vector<std::string> namespaces;         // enclosing namespaces, outermost first ("" = unnamed)
    std::string templateParameters;              // "typename T, int N"; empty when not a template
    std::vector<std::string> templateParameterNames; // "T", "N"
    bool templateParameterPack = false;          // typename... Ts: not supported by the rewriter
    std::vector<std::string> attributes;         // "__launch_bounds__(256, 2)" as written
    std::vector<KernelParam> params;
    SourceRange globalKeyword;                   // the __global__ token
    SourceRange nameToken;
    std::vector<SourceRange> attributeRanges;
    std::size_t bodyBegin = 0;                   // the '{' of the body

    bool isTemplate() const { return !templateParameters.empty(); }
    // "ns::inner::" or "" at global scope (an unnamed namespace contributes nothing).
    std::string qualifier() const;
};

// `source` with comments, preprocessor lines and the contents of string and character literals
// replaced by spaces (quotes kept); same length, newlines kept, so offsets and lines still match.
std::string blankNonCode(std::string_view source);

// Every kernel defined (with a body) in `source`, in order of appearance. Declarations without a
// body are skipped.
std::vector<KernelDefinition> findKernels(std::string_view source);
// The first definition of the kernel called `name` (unqualified), or nullopt.
std::optional<KernelDefinition> findKernel(std::string_view source, std::string_view name);

// Parameters that can be recorded as an output: pointers to non-const elements and surfaces.
std::vector<std::size_t> outputCandidates(const KernelDefinition& kernel);

// 1-based line of byte offset `offset`.
int lineOf(std::string_view source, std::size_t offset);

} // namespace ks::teach
