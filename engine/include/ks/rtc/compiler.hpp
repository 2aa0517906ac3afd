#pragma once
// Run-time compilation of CUDA C++ with NVRTC. A failed compile of user code is a value (ok ==
// false plus diagnostics), never an exception; exceptions are for NVRTC itself failing.
// Thread-safe: independent compiles may run on several threads at once.

#include "ks/rtc/diagnostics.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ks::rtc {

struct CompileOptions {
    std::string arch = "sm_90"; // target: "sm_90" gives CUBIN, "compute_90" gives PTX only
    bool fastMath = false;
    bool lineInfo = false;
    bool debug = false;                    // -G
    std::string cppStandard = "c++17";     // -std=
    std::vector<std::string> defines;      // "NAME" or "NAME=VALUE"
    std::vector<std::string> includePaths; // in addition to the defaults
    bool ptxasVerbose = true;              // -Xptxas=-v: registers/shared/spills into the log
    std::vector<std::string> extra;        // passed through verbatim
};

// The include path every compile gets: the data root's kernels/include, then the CUDA Toolkit's
// include folder (and its cccl folder where it exists), found from $CUDA_HOME, $CUDA_PATH, the
// toolkit Kernelscope was built with, then /usr/local/cuda.
std::vector<std::string> defaultIncludePaths();
std::string cudaIncludeDir();

// The NVRTC option list for `options` (defaults included), as passed to nvrtcCompileProgram.
std::vector<std::string> buildOptionList(const CompileOptions& options);

struct CompileResult {
    bool ok = false;
    std::vector<Diagnostic> diagnostics;
    std::string log;                 // NVRTC's log verbatim
    std::vector<std::uint8_t> cubin; // empty when arch is virtual
    std::string ptx;
    // For each name expression asked for, NVRTC's lowered (mangled) name; "" when not found.
    std::vector<std::string> loweredNames;
    double compileMs = 0;
};

// Compiles `source`, which the user knows as `fileName` (diagnostics use it). `nameExpressions`
// are C++ names of kernels ("my_kernel", "ns::tmpl<float>") whose lowered names are wanted.
CompileResult compile(const std::string& source, const std::string& fileName, const CompileOptions& options,
                      const std::vector<std::string>& nameExpressions = {});

// "12.8" / "13.0"
std::string nvrtcVersionString();

} // namespace ks::rtc
