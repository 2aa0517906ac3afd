#pragma once
// PyCUDA's ElementwiseKernel in C++: a kernel from a C argument list, an operation on element `i`, a
// name and an optional preamble, run over the first array argument's size (or a range/slice of
// indices).
//
//   ks::array::ElementwiseKernel lin("float a, float *x, float b, float *y, float *z",
//                                    "z[i] = a*x[i] + b*y[i]", "linear_combination");
//   lin(rt, {2.f, x, 3.f, y, z});
//
// In the operation, `i` and `n` are `long long` (64-bit, unlike PyCUDA's unsigned), pointers are the
// arrays' element-0 addresses (arrays must be C-contiguous, as in PyCUDA), and the device prelude
// (ks::complex64/128, ks::cast, ks::sin, ...) is available. Argument types: any name parseDType
// knows ("float", "unsigned int", "double", "ks::complex64", "pycuda::complex<float>", "half", ...),
// with an optional `const` and `*`; and for arrays (`float3 *v`), CUDA's vector types and structs
// the preamble defines (StructType, ks/array/struct_type.hpp), whose arrays must have that element
// type. A struct is passed in an array, never by value. Compile errors point at the user's lines ("operation", line N; the
// preamble as "preamble").

#include "ks/array/device_array.hpp"
#include "ks/array/map.hpp"
#include "ks/rtc/compiler.hpp"

#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ks::array {

class Runtime;

struct KernelArgument {
    std::string name;
    DType dtype = DType::Float32;
    bool pointer = false;
    bool isConst = false;
    std::string typeText; // as written ("unsigned int")
    std::shared_ptr<const StructType> structType; // for DType::Struct
};

// Parses PyCUDA's argument string. Throws ks::Error naming the argument it cannot read. With
// `structPreamble`, a pointer argument's type that is no dtype may be a CUDA vector type or a struct
// that the preamble defines (DType::Struct); without, it is an error.
std::vector<KernelArgument> parseKernelArguments(std::string_view arguments,
                                                 const std::string* structPreamble = nullptr);
// The type generated code declares the argument with: the dtype's CUDA type or the struct's name.
std::string argumentTypeName(const KernelArgument& a);

// How an ElementwiseKernel's operation touches its arrays, for the vectorised contiguous entry
// (name() + "_vec": `width` elements per 16-byte-or-narrower access, then a scalar tail). It exists
// only when every array argument appears as `name[i]` alone (no other index, no `&name[i]`, not in
// the preamble), there is no loop_prep/after_loop and no return/break/continue/goto/asm/atomics.
struct ElementwiseVectorPlan {
    int width = 1;                  // 1: no vector entry
    std::vector<bool> load, store;  // per argument: its Vec is loaded before / stored after the op
    std::string operation;          // the operation with each `x[i]` as `ks_v_x.v[ks_e]`
};
ElementwiseVectorPlan planElementwiseVector(const std::vector<KernelArgument>& args, std::string_view operation,
                                            std::string_view preamble, bool hasLoopPrepOrAfterLoop);

struct ElementwiseCall {
    // PyCUDA's range=: indices start, start+step, ... while < stop (> stop for a negative step), taken
    // as given. Overrides the size of the first array.
    std::optional<Slice> range;
    // PyCUDA's slice=: like range, but normalised against the first array's size (negative values
    // count from the end).
    std::optional<Slice> slice;
};

class ElementwiseKernel {
public:
    // `loopPrep` runs in each thread before the loop, `afterLoop` after it (PyCUDA's loop_prep and
    // after_loop). Throws ks::Error for an argument list it cannot parse or one without an array.
    ElementwiseKernel(std::string arguments, std::string operation, std::string name = "kernel",
                      std::string preamble = {}, std::string loopPrep = {}, std::string afterLoop = {});

    const std::vector<KernelArgument>& arguments() const noexcept { return m_arguments; }
    const std::string& name() const noexcept { return m_name; }
    // The full CUDA source: entry points name() (over 0..n) and name() + "_range" (start/stop/step).
    const std::string& source() const noexcept { return m_source; }
    // The vector entry's plan (width 1 when the operation does not allow it).
    const ElementwiseVectorPlan& vectorPlan() const noexcept { return m_vector; }

    // Compiles through the runtime's compile cache: a value with ok/diagnostics/log (no throw for
    // errors in the user's code).
    std::shared_ptr<const rtc::CompileResult> compile(Runtime& rt) const;

    // Runs on the runtime's stream. Arguments in declaration order: DeviceArray for pointers (dtype
    // must match, C-contiguous), Scalar for values (converted to the declared type). Throws ks::Error
    // for a wrong count/kind/dtype, and with the diagnostics if the code does not compile.
    void operator()(Runtime& rt, std::span<const MapArg> args, const ElementwiseCall& call = {}) const;
    void operator()(Runtime& rt, std::initializer_list<MapArg> args, const ElementwiseCall& call = {}) const
    {
        (*this)(rt, std::span<const MapArg>(args.begin(), args.size()), call);
    }

private:
    std::vector<KernelArgument> m_arguments;
    std::string m_name;
    std::string m_source;
    ElementwiseVectorPlan m_vector;
};

} // namespace ks::array
