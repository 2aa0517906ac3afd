#pragma once
// Checking a project without running it (kernelscope --validate): every kernel compiles through the
// compile cache (NVRTC; no GPU needed), the kernel exists in its file, and every argument binding
// matches its kernel parameter (count, kind and type). Problems point at the project's JSON
// position or at the kernel file's line. In the pipeline layer because it uses the pipeline's
// planning (kernel signatures, array stage plans); the project layer stays below the pipeline.

#include "ks/pipeline/kernel_signature.hpp"
#include "ks/project/project.hpp"
#include "ks/rtc/cache.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ks::pipeline {

// Why `binding` cannot feed `param` of a kernel in `project`; nullopt when it can.
std::optional<std::string> bindingMismatch(const project::Project& project, const project::ArgBinding& binding,
                                           const KernelParam& param);

// The argument list of `stage` against `signature`: count and each binding.
std::vector<project::Problem> checkStageBindings(const project::Project& project, const project::StageDesc& stage,
                                                 const KernelSignature& signature);

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
