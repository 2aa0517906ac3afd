#pragma once
// Checking a project without running it (kernelscope --validate): every kernel compiles through the
// compile cache (NVRTC; no GPU needed), the kernel exists in its file, and every argument binding
// matches its kernel parameter (count, kind and type). Problems point at the project's JSON
// position or at the kernel file's line.

#include "ks/pipeline/kernel_signature.hpp"
#include "ks/project/project.hpp"
#include "ks/rtc/cache.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ks::project {

// Why `binding` cannot feed `param` of a kernel in `project`; nullopt when it can.
std::optional<std::string> bindingMismatch(const Project& project, const ArgBinding& binding,
                                           const pipeline::KernelParam& param);

// The argument list of `stage` against `signature`: count and each binding.
std::vector<Problem> checkStageBindings(const Project& project, const StageDesc& stage,
                                        const pipeline::KernelSignature& signature);

struct CheckOptions {
    rtc::CompileOptions compile; // arch etc.; sm_90 by default
};

// A random, math or reduce stage: its names bind and types match (the stage's plan), and the kernel
// it generates compiles for options.compile.arch. Problems point at the stage in the project.
std::vector<Problem> checkArrayStage(const Project& project, const StageDesc& stage, rtc::CompileCache& cache,
                                     const CheckOptions& options = {});

// Everything above for every kernel stage, plus the compile. `cache` serves the compiles.
std::vector<Problem> checkProject(const Project& project, rtc::CompileCache& cache, const CheckOptions& options = {});

} // namespace ks::project
