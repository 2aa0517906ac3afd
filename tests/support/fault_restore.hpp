#pragma once
// What a new GPU worker is sent after kernel `kernel` of faults.cu (file `cu`) faulted in stage
// "paint" at frame 3 with an illegal address: the Restore that shows the fault (tests of "Find the
// fault" in the app, with a stand-in child on Mesa and the real one on a GPU).

#include "supervise/protocol.hpp"

#include <filesystem>
#include <string>

namespace ks::test {

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

} // namespace ks::test
