#pragma once
// kernelscope --kernel FILE.cu[:NAME]: the project inferred from a kernel's signature
// (ks/pipeline/infer.hpp), made before anything else runs, so that the headless runner, the window,
// its GPU process and --validate all open it as they open any project.

#include "cli/options.hpp"

#include "ks/pipeline/infer.hpp"

#include <filesystem>
#include <optional>

namespace ks::app {

// With options.kernelSpec set: infers the project and prints each parameter's binding with its
// reason. With --save-project, checks it (the kernel compiles; no GPU needed), writes it and
// returns 0; problems are printed and give 1. Otherwise the project is written to Kernelscope's
// cache folder, options.project names it, and nullopt
// says: go on and run it. Without --kernel: nullopt, options untouched.
std::optional<int> prepareKernelProject(AppOptions& options);

// The bindings --kernel, --arg, --shape, --grid and --block ask for (options.kernelSpec's kernel).
pipeline::InferOptions inferOptions(const AppOptions& options);

// Where a project inferred from `kernelFile` with `options` is kept: one file per kernel and set of
// bindings in Kernelscope's cache folder, so that a window's GPU process, which infers again from
// the same arguments, writes the same file (and the app, inferring after a change, a new one).
std::filesystem::path inferredProjectFile(const std::filesystem::path& kernelFile, const pipeline::InferOptions& options);

} // namespace ks::app
