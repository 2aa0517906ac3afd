#pragma once
// What `kernelscope --version` prints: the version and commit, and the versions of what the app
// runs on (CUDA toolkit, driver, NVRTC, GL and its renderer, Dear ImGui, GLFW). Never throws: a
// part that is missing says why ("CUDA driver: not found (...)").

#include <string>

namespace ks::app {

extern const char* const kGitCommit; // generated at build time (cmake/write_git_commit.cmake)

std::string versionText();

} // namespace ks::app
