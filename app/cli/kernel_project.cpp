#include "cli/kernel_project.hpp"

#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/core/sha256.hpp"
#include "ks/pipeline/check.hpp"
#include "ks/pipeline/infer.hpp"
#include "ks/rtc/cache.hpp"

#include <cstdio>

namespace ks::app {

namespace fs = std::filesystem;

namespace {

void printProblems(const std::vector<project::Problem>& problems)
{
    for (const project::Problem& p : problems)
        std::fprintf(stderr, "%s\n", p.format().c_str());
}

} // namespace

fs::path inferredProjectFile(const fs::path& kernelFile, const pipeline::InferOptions& o)
{
    Sha256 h;
    h.field(fs::absolute(kernelFile).string());
    h.field(o.kernel);
    for (const auto& [name, spec] : o.args)
        h.field(name + "=" + spec);
    for (const auto& [name, shape] : o.shapes) {
        std::string text = name + "=";
        for (std::int64_t d : shape)
            text += std::to_string(d) + "x";
        h.field(text);
    }
    for (const auto* dims : {&o.grid, &o.block})
        h.field(*dims ? std::to_string((**dims)[0]) + "," + std::to_string((**dims)[1]) + "," +
                            std::to_string((**dims)[2])
                      : "-");
    h.field(o.size ? std::to_string((*o.size)[0]) + "x" + std::to_string((*o.size)[1]) : "-");
    fs::path folder = paths::userFolder(paths::UserFolder::Cache);
    if (folder.empty())
        folder = fs::temp_directory_path() / "kernelscope-cache";
    return folder / "inferred" / (kernelFile.stem().string() + "-" + Sha256::hex(h.finish()).substr(0, 16) + ".json");
}

pipeline::InferOptions inferOptions(const AppOptions& o)
{
    pipeline::InferOptions io;
    io.kernel = pipeline::splitKernelSpec(o.kernelSpec).second;
    io.args = o.args;
    io.shapes = o.shapes;
    io.grid = o.grid;
    io.block = o.block;
    io.size = o.imageSize;
    return io;
}

std::optional<int> prepareKernelProject(AppOptions& o)
{
    if (o.kernelSpec.empty())
        return std::nullopt;
    const fs::path file = pipeline::splitKernelSpec(o.kernelSpec).first;
    std::string source;
    try {
        source = paths::readTextFile(file);
    } catch (const Error& e) {
        std::fprintf(stderr, "kernelscope: --kernel %s: %s\n", o.kernelSpec.c_str(), e.text().c_str());
        return 1;
    }
    const pipeline::InferOptions io = inferOptions(o);
    const pipeline::Inference inferred = pipeline::inferProject(file, source, io);
    if (!inferred.ok()) {
        printProblems(inferred.problems);
        std::fprintf(stderr, "kernelscope: error: no project could be made from %s\n", o.kernelSpec.c_str());
        return 1;
    }
    project::Project p = *inferred.project;
    std::printf("kernelscope: %s, its parameters bound as:\n", p.name.c_str());
    for (const pipeline::ParamBinding& b : inferred.bindings)
        std::printf("  %s\n", b.describe().c_str());
    for (const std::string& note : inferred.notes)
        std::printf("  %s\n", note.c_str());
    if (!o.saveProject.empty()) {
        rtc::CompileCache cache(rtc::CompileCache::defaultDirectory());
        pipeline::CheckOptions check;
        check.compile.arch = o.check.arch.empty() ? std::string("sm_90") : o.check.arch;
        check.compile.ptxasVerbose = false;
        p.file = fs::absolute(o.saveProject);
        const std::vector<project::Problem> problems = pipeline::checkProject(p, cache, check);
        if (!problems.empty()) {
            printProblems(problems);
            std::fprintf(stderr, "kernelscope: error: the project made from %s does not check; nothing written\n",
                         o.kernelSpec.c_str());
            return 1;
        }
        try {
            project::saveProject(p, o.saveProject);
        } catch (const Error& e) {
            std::fprintf(stderr, "kernelscope: error: %s\n", e.what());
            return 1;
        }
        std::printf("kernelscope: wrote %s (kernel compiled for %s); run it with --project %s\n",
                    o.saveProject.string().c_str(), check.compile.arch.c_str(), o.saveProject.string().c_str());
        return 0;
    }
    const fs::path where = inferredProjectFile(file, io);
    try {
        fs::create_directories(where.parent_path());
        p.file = where;
        project::saveProject(p, where);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "kernelscope: error: cannot keep the inferred project at %s: %s\n",
                     where.string().c_str(), e.what());
        return 1;
    }
    o.project = where; // the editor opens its kernel stage's file, as for any project
    return std::nullopt;
}

} // namespace ks::app
