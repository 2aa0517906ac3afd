#pragma once
// A new project from a template (the app's File > New project from a template): the template's
// project file written to a new place with its own copies of the kernel files its stages name (and
// the files they include with quotes from the same folder), so that editing the new project never
// changes the template. Pure file work: no GL, no CUDA.
#include <filesystem>
#include <vector>

namespace ks::project {

struct NewProject {
    std::filesystem::path file;                  // the new project file
    std::vector<std::filesystem::path> copied;   // the kernel files copied beside it
};

// Writes the project at `templateFile` to `target` (a .json path that does not exist yet; its
// folder is made when missing), named after target's stem, each kernel stage's file copied into
// target's folder under its own name. A file of that name already there with other contents, a
// template that does not load, or a target that exists: ks::Error naming it, nothing written.
NewProject newProjectFromTemplate(const std::filesystem::path& templateFile, const std::filesystem::path& target);

} // namespace ks::project
