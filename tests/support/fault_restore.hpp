#pragma once
// For the tests of "Find the fault" in the app (a stand-in child on Mesa, the real one on a GPU):
// the Restore that shows a fault, and the headless app's options.

#include "cli/options.hpp"
#include "supervise/protocol.hpp"
#include "test_support.hpp"

#include <filesystem>
#include <string>

namespace ks::test {

// What a new GPU worker is sent after kernel `kernel` of faults.cu (file `cu`) faulted in stage
// "paint" at frame 3 with an illegal address.
inline app::supervise::Restore restoreShowingFault(const std::string& kernel, const std::filesystem::path& cu,
                                                   const std::filesystem::path& project = {})
{
    app::supervise::FaultNotice fault;
    fault.kind = "fault";
    fault.frame = 3;
    fault.stage = "paint";
    fault.kernel = kernel;
    fault.file = cu.string();
    fault.error = "cuEventSynchronize CUDA_ERROR_ILLEGAL_ADDRESS (700)";
    fault.summary = "frame 3: stage \"paint\" (kernel " + kernel + " in faults.cu) faulted: CUDA_ERROR_ILLEGAL_ADDRESS (700)";
    app::supervise::Restore restore;
    restore.fault = fault;
    restore.state.projectPath = project.string(); // as the shell keeps it (empty: the project open stays)
    return restore;
}

// A headless 1280x720 app on `project`, its recovery files under `dir`.
inline app::AppOptions findFaultAppOptions(const std::filesystem::path& project, const std::filesystem::path& dir)
{
    app::AppOptions options;
    options.headless = true;
    options.width = 1280;
    options.height = 720;
    options.project = project;
    options.dataDir = sourceDir();
    options.recoveryDir = dir / "recovery";
    return options;
}

} // namespace ks::test
