// App's projects made from a kernel's signature (ks/pipeline/infer.hpp): the default demo, File >
// Open kernel..., a dropped .cu file, --kernel, the editor's kernel picker, and the Arguments
// panel's changes of a binding and their undo.
#include "app.hpp"
#include "cli/kernel_project.hpp"

#include "ks/core/error.hpp"
#include "ks/core/log.hpp"
#include "ks/core/paths.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

namespace ks::app {

namespace fs = std::filesystem;

namespace {

// The inference for `file` with `options`; nullopt with `problems` when there is none to run.
std::optional<pipeline::Inference> inferFrom(const fs::path& file, const pipeline::InferOptions& options,
                                             std::vector<project::Problem>& problems)
{
    std::string source;
    try {
        source = paths::readTextFile(file);
    } catch (const Error& e) {
        problems = {project::Problem{file, {}, e.text()}};
        return std::nullopt;
    }
    pipeline::Inference inferred = pipeline::inferProject(file, source, options);
    if (!inferred.ok()) {
        problems = std::move(inferred.problems);
        if (problems.empty())
            problems.push_back({file, {}, "no project could be made from " + file.filename().string()});
        return std::nullopt;
    }
    return inferred;
}

std::string lowerExtension(const fs::path& path)
{
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return ext;
}

} // namespace

bool App::openKernel(fs::path file, pipeline::InferOptions options, KernelChange change)
{
    AppState& s = m_state;
    file = fs::absolute(file);
    // The undo steps the new bindings will have (taken now: opening forgets the running kernel's).
    std::vector<pipeline::InferOptions> undo;
    if (s.project.kernel && change != KernelChange::Open) {
        undo = s.project.kernel->undo;
        if (change == KernelChange::Rebind)
            undo.push_back(s.project.kernel->options);
        else if (!undo.empty())
            undo.pop_back();
    }
    std::vector<project::Problem> problems;
    std::optional<pipeline::Inference> inferred = inferFrom(file, options, problems);
    for (const project::Problem& p : problems)
        log::error(p.format());
    if (inferred) {
        // Kept in the cache folder (a file to save from, and what a new GPU process reads); a cache
        // that cannot be written (full, read-only) costs only that: the project runs from memory.
        const fs::path where = inferredProjectFile(file, options);
        project::Project p = *inferred->project;
        p.file = where;
        try {
            fs::create_directories(where.parent_path());
            project::saveProject(p, where);
        } catch (const std::exception& e) {
            log::warning("the project made from " + file.filename().string() + " is not kept in " +
                         where.parent_path().string() + " (" + e.what() + "); it runs from memory, and File > "
                         "Save project as... still writes it");
        }
        project::LoadResult loaded;
        loaded.project = std::move(p);
        if (!openLoadedProject(where, std::move(loaded))) // it logs its own problems
            problems = s.project.problems;
    }
    if (!problems.empty()) {
        const bool rebinding = change != KernelChange::Open && s.project.kernel;
        if (rebinding) {
            s.project.kernel->problems = std::move(problems);
            s.project.kernel->fieldProblem.clear();
        }
        else
            s.project.problems = std::move(problems);
        log::error(rebinding ? "the bindings were not changed: the project made with them keeps running"
                             : "could not run a project made from " + file.string() +
                                   (s.project.session ? "; the current project stays open" : ""));
        return false;
    }
    KernelProject& k = s.project.kernel.emplace();
    k.file = std::move(file);
    k.options = std::move(options);
    k.inference = std::move(*inferred);
    k.undo = std::move(undo);
    for (const pipeline::ParamBinding& b : k.inference.bindings)
        log::info(b.describe());
    return true;
}

bool App::openDefaultProject()
{
    pipeline::InferOptions o = inferOptions(m_options); // --block and --image-size
    o.kernel = kDefaultDemoKernel;
    return openKernel(defaultDemoFile(m_state.dataRoot), std::move(o), KernelChange::Open);
}

void App::restoreKernel(fs::path file, pipeline::InferOptions options, std::vector<pipeline::InferOptions> undo)
{
    std::vector<project::Problem> problems;
    std::optional<pipeline::Inference> inferred = inferFrom(file, options, problems);
    if (!inferred) {
        log::warning("the bindings of " + file.string() + " cannot be shown again: " +
                     (problems.empty() ? std::string() : problems.front().format()));
        return;
    }
    KernelProject& k = m_state.project.kernel.emplace();
    k.file = std::move(file);
    k.options = std::move(options);
    k.inference = std::move(*inferred);
    k.undo = std::move(undo);
}

void App::dropFiles(std::vector<fs::path> paths, float x, float y)
{
    if (!paths.empty())
        m_state.drop = FileDrop{std::move(paths), x, y};
}

void App::applyDrop()
{
    AppState& s = m_state;
    const std::optional<FileDrop> drop = std::exchange(s.drop, std::nullopt);
    if (!drop || std::exchange(s.commands.dropTaken, false))
        return;
    for (const fs::path& path : drop->paths) {
        const std::string ext = lowerExtension(path);
        if (ext == ".cu" || ext == ".cuh") {
            openKernel(path, {}, KernelChange::Open);
            return;
        }
        if (ext == ".json") {
            openProject(path);
            return;
        }
    }
    log::warning("dropped " + drop->paths.front().filename().string() +
                 ": drop a .cu file to run its first kernel, a project (.json) to open it, or a .npy or image "
                 "file on a parameter's row of the Arguments panel to bind it");
}

} // namespace ks::app
