#pragma once
// Checking a project without running it (kernelscope --validate): every kernel compiles through the
// compile cache (NVRTC; no GPU needed), the kernel exists in its file, and every argument binding
// matches its kernel parameter (count, kind and type). Problems point at the project's JSON
// position or at the kernel file's line. In the pipeline layer because it uses the pipeline's
// planning (kernel signatures, array stage plans); the project layer stays below the pipeline.

#include "ks/project/project.hpp"
#include "ks/rtc/cache.hpp"
#include "ks/syntax/kernel_signature.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ks::pipeline {

// The value type bindings see in a kernel parameter: the pointee of a Pointer, the type of a Value
// (project::parseValueType of its base type); nullopt for other kinds and for a type that is no
// CUDA scalar or vector type (a user struct, a template parameter, half).
std::optional<project::ValueType> paramValueType(const syntax::KernelParam& param);

// "'const float4* p' (a read-only pointer)": a kernel parameter in a message. A Value of a type
// without a value type is "a parameter of a type Kernelscope cannot bind", as an Unknown is.
std::string describeParam(const syntax::KernelParam& param);

// Why `binding` cannot feed `param` of a kernel in `project`; nullopt when it can.
std::optional<std::string> bindingMismatch(const project::Project& project, const project::ArgBinding& binding,
                                           const syntax::KernelParam& param);

// The argument list of `stage` against `signature`: count and each binding.
std::vector<project::Problem> checkStageBindings(const project::Project& project, const project::StageDesc& stage,
                                                 const syntax::KernelSignature& signature);

// Why kernel stage `s`'s launch (its block, and its grid or the grid that covers its resource)
// cannot run on any CUDA GPU (compute capability 7.5 and newer); nullopt when it can. The rule is
// cuda::checkLaunch, which every launch applies again with the device's and the kernel's limits.
std::optional<std::string> launchProblem(const project::Project& project, const project::StageDesc& s);

struct CheckOptions {
    rtc::CompileOptions compile; // arch etc.; sm_90 by default
    // false: every check short of the compiles (kernel files read, signatures and bindings, array
    // stage plans and their generated source); what the project fuzzer runs.
    bool compileKernels = true;
};

// A random, math or reduce stage: its names bind and types match (the stage's plan), and the kernel
// it generates compiles for options.compile.arch. Problems point at the stage in the project.
std::vector<project::Problem> checkArrayStage(const project::Project& project, const project::StageDesc& stage,
                                              rtc::CompileCache& cache, const CheckOptions& options = {});

// Everything above for every kernel stage, plus the compile. `cache` serves the compiles.
std::vector<project::Problem> checkProject(const project::Project& project, rtc::CompileCache& cache,
                                           const CheckOptions& options = {});

} // namespace ks::pipeline
