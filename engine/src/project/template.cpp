#include "ks/project/template.hpp"

#include "ks/core/atomic_file.hpp"
#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/project/project.hpp"

#include <map>
#include <regex>
#include <set>
#include <system_error>

namespace ks::project {

namespace fs = std::filesystem;

namespace {

// `file` and the files it includes with quotes from its own folder, recursively (each once).
void withQuotedIncludes(const fs::path& file, std::set<fs::path>& out)
{
    if (!out.insert(file).second)
        return;
    static const std::regex include(R"re(^\s*#\s*include\s*"([^"]+)")re");
    const std::string text = paths::readTextFile(file);
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        std::smatch m;
        const std::string line = text.substr(start, end - start);
        if (std::regex_search(line, m, include)) {
            const fs::path name = m[1].str();
            const fs::path next = file.parent_path() / name;
            std::error_code ec;
            if (name.has_filename() && !name.has_parent_path() && fs::is_regular_file(next, ec))
                withQuotedIncludes(next, out);
        }
        start = end + 1;
    }
}

} // namespace

NewProject newProjectFromTemplate(const fs::path& templateFile, const fs::path& targetIn)
{
    const char* fn = "ks::project::newProjectFromTemplate";
    const fs::path target = fs::absolute(targetIn).lexically_normal();
    if (target.extension() != ".json")
        throwUsage(fn, "a project file ends in .json: " + target.string());
    std::error_code ec;
    if (fs::exists(fs::symlink_status(target, ec)))
        throwUsage(fn, target.string() + " exists already; choose a new name");
    LoadResult loaded = loadProject(templateFile);
    if (!loaded.ok())
        throwUsage(fn, "the template " + templateFile.string() + " does not load: " +
                           (loaded.problems.empty() ? std::string("unknown problem") : loaded.problems[0].format()));
    Project p = std::move(*loaded.project);
    const fs::path folder = target.parent_path();

    // What to copy, by its new name; a name two different files would take is refused.
    std::map<fs::path, fs::path> copies; // new name -> source
    for (StageDesc& s : p.stages) {
        if (s.file.empty())
            continue;
        std::set<fs::path> files;
        withQuotedIncludes(fs::weakly_canonical(p.resolve(s.file)), files);
        for (const fs::path& f : files) {
            const auto [it, added] = copies.emplace(f.filename(), f);
            if (!added && it->second != f)
                throwUsage(fn, "the template's stages name two files called " + f.filename().string());
        }
        s.file = fs::path(s.file).filename();
    }
    for (const auto& [name, source] : copies) {
        const fs::path dest = folder / name;
        if (fs::exists(fs::symlink_status(dest, ec)) &&
            (!fs::is_regular_file(dest, ec) || paths::readTextFile(dest) != paths::readTextFile(source)))
            throwUsage(fn, dest.string() + " exists already with other contents; choose another folder");
    }
    fs::create_directories(folder, ec);
    if (ec)
        throw Error(ErrorDomain::System, "create_directories", ec.value(), "", "cannot make " + folder.string() + ": " + ec.message());
    NewProject made;
    for (const auto& [name, source] : copies) {
        const fs::path dest = folder / name;
        if (!fs::exists(dest, ec)) {
            paths::writeFileAtomically(dest, paths::readTextFile(source));
            made.copied.push_back(dest);
        }
    }
    p.name = target.stem().string();
    p.file = target;
    saveProject(p, target);
    made.file = target;
    return made;
}

} // namespace ks::project
