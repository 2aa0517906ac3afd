#pragma once
// What `kernelscope --version` prints: the version and commit, and the versions of what the app
// runs on (CUDA toolkit, driver, NVRTC, GL and its renderer, Dear ImGui, GLFW). Never throws: a
// part that is missing says why ("CUDA driver: not found (...)").

#include <string>

namespace ks::app {

extern const char* const kGitCommit; // generated at build time (cmake/write_git_commit.cmake)

std::string versionText();
// The same with the OpenGL line given: what a running app knows of its own context (versionText()
// makes a headless EGL context of its own to ask, which would replace the app's current one).
std::string versionText(const std::string& gl);

} // namespace ks::app
