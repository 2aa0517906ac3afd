#pragma once
// kernelscope --kernel FILE.cu[:NAME]: the project inferred from a kernel's signature
// (ks/pipeline/infer.hpp), made before anything else runs, so that the headless runner, the window,
// its GPU process and --validate all open it as they open any project.

#include "options.hpp"

#include <optional>

namespace ks::app {

// With options.kernelSpec set: infers the project and prints each parameter's binding with its
// reason. With --save-project, checks it (the kernel compiles; no GPU needed), writes it and
// returns 0; problems are printed and give 1. Otherwise the project is written to Kernelscope's
// cache folder, options.project names it, and nullopt
// says: go on and run it. Without --kernel: nullopt, options untouched.
std::optional<int> prepareKernelProject(AppOptions& options);

} // namespace ks::app
