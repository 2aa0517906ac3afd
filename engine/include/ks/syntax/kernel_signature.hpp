#pragma once
// Kernel signatures read from CUDA source text, without a compiler: the one scanner behind
// --validate's binding checks, the kernel facts panel and `kernelscope --check`, the launch API's
// argument checks, the editor's stage picker and the teaching variants' rewriter (which edits the
// source at the byte ranges kept here).
//
// What it understands: __global__ function definitions at namespace scope, inside namespaces
// (named, unnamed, nested, inline, `a::b`) and extern "C" blocks or prefixes; template kernels
// (with their parameters as written); attributes between the parts (__launch_bounds__(...),
// __cluster_dims__(...), __maxnreg__(...), __attribute__((...)), alignas, __noinline__,
// __forceinline__; [[...]] is skipped, not listed); qualifiers (const, volatile, __restrict__, __grid_constant__);
// pointers, references, arrays (which decay to pointers), default arguments, unnamed parameters, and types whose
// template arguments hold commas or comparisons. Comments, string and character literals (raw strings too) and
// preprocessor lines are never read as code (ks/syntax/lexer.hpp).
//
// Limits (by design: no preprocessor runs): kernels produced by macros are not found; code under
// #if 0 is found anyway; declarations without a body, explicit instantiations and explicit
// specializations (`k<float>(...) {}`) are not definitions it lists; a __global__ inside a class or
// a function body is not at namespace scope and is skipped; parameter types are text, not
// resolved through typedefs.

#include "ks/syntax/type_layout.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::syntax {

enum class ParamKind { Pointer, Value, Surface, Texture, Unknown };

struct SourceRange {
    std::size_t begin = 0, end = 0; // byte offsets in the source, end exclusive
};

struct KernelParam {
    std::string declaration; // comments removed, white space collapsed: "const float* __restrict__ a"
    std::string type;        // normalised type text without the name: "const float* __restrict__";
                             // an array decays: `float a[]` is "float*"
    std::string name;        // "" when unnamed
    // Pointer: T* (one level). Surface: cudaSurfaceObject_t, CUsurfObject. Texture:
    // cudaTextureObject_t, CUtexObject. Value: any other type passed by value (whether or not the
    // caller knows it). Unknown: T**, references, function pointers, packs, what is not a type.
    ParamKind kind = ParamKind::Unknown;
    // The pointee of a pointer, the type of a value; qualifiers, __restrict__, struct/class and a
    // leading "::" removed: "float", "float4", "unsigned int", "T", "ns::Particle".
    std::string baseType;
    int pointerDepth = 0;
    bool pointeeConst = false; // `const T*` / `T const*`: the kernel only reads through it
    int line = 0;              // 1-based line of the parameter's first token
    SourceRange range;         // the whole parameter, default argument included
    // A struct passed by value or pointed to (a Value or Pointer whose baseType is no CUDA type):
    // its layout when the same source defines it (findRecordLayout), else why not. Both empty for
    // other parameters and for template parameters.
    std::optional<RecordLayout> record;
    std::string recordProblem;
};

struct KernelSignature {
    std::string name;                                // unqualified: "scale"
    std::vector<std::string> namespaces;             // enclosing namespaces, outermost first ("" = unnamed);
                                                     // a qualification written before the name joins them
    std::string qualifiedName() const;               // "ns::inner::scale" (unnamed namespaces add nothing)
    bool externC = false;                            // its symbol is its name
    std::string templateParameters;                  // "typename T, int N"; empty when not a template
    std::vector<std::string> templateParameterNames; // "T", "N"
    bool templateParameterPack = false;              // typename... Ts
    bool isTemplate() const { return !templateParameters.empty(); }
    std::vector<std::string> attributes; // "__launch_bounds__(256, 2)" as written (comments removed);
                                         // those with arguments, not __noinline__ and the like
    std::string launchBounds;            // the __launch_bounds__ arguments, "" when none: "256, 2"
    int line = 0;                        // 1-based line of the name
    std::vector<KernelParam> params;
    SourceRange globalKeyword, nameToken;     // the __global__ token; the name token
    std::vector<SourceRange> attributeRanges; // every attribute between __global__ and the name
    std::size_t bodyBegin = 0;                // the '{' of the body

    // "ns::saxpy(float a, const float* x, float* y, int n)": the qualified name, each parameter's
    // type and name.
    std::string display() const;
};

// Every __global__ function definition (with a body) in `source`, in source order.
std::vector<KernelSignature> findKernels(std::string_view source);
// The first definition whose unqualified or qualified name is `name`, or nullopt.
std::optional<KernelSignature> findKernel(std::string_view source, std::string_view name);

// A kernel's name as C++ and NVRTC's name expressions write it, split: "ns::scale<double, 4>" is
// {"ns::scale", {"double", "4"}}; a name without '<' has no arguments.
struct NameExpression {
    std::string name;
    std::vector<std::string> templateArguments;
};
NameExpression splitNameExpression(std::string_view expression);

// `kernel` with its template parameters replaced by `arguments` wherever a parameter's type names
// one ("T* data" of scale<double> is "double* data"): what binds and launches an instantiation.
// Throws nothing; the caller checks the argument count (templateParameterNames.size()).
KernelSignature instantiate(KernelSignature kernel, const std::vector<std::string>& arguments);

// The kernel a project stage names by expression ("saxpy", "ns::square", "scale<double>"),
// instantiated when it is a template given its arguments. nullopt, with `why` (when given) saying
// what is wrong, when there is no such kernel, a template lacks its arguments or has another
// number of them, or a non-template is given some.
std::optional<KernelSignature> findKernelByExpression(std::string_view source, std::string_view expression,
                                                      std::string* why = nullptr);
// The same among `kernels`, what findKernels gave for the source (for a caller that has them).
std::optional<KernelSignature> findKernelByExpression(std::vector<KernelSignature> kernels, std::string_view expression,
                                                      std::string* why = nullptr);

// 1-based line of byte `offset` of `source` (an offset past the end counts as the end).
int lineOf(std::string_view source, std::size_t offset);

} // namespace ks::syntax
