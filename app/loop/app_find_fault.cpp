// "Find the fault" in the app (find_fault.hpp): the shown fault's frame run again, checked, in a
// throwaway process started from a background thread; its finding in the fault banner and on the
// line in the editor.
//
// What the re-run runs: the project as it is in this process (its JSON with the current parameter
// values and stage order, written to a temporary folder) and the editor's text of the faulting
// kernel's file, saved or not. It starts from frame 0 and runs to the faulting frame with a fixed
// time step; input the user gave while the project ran (mouse, viewport size) is not replayed.
#include "app.hpp"

#include "ks/core/atomic_file.hpp"
#include "ks/core/error.hpp"
#include "ks/core/file_watcher.hpp"

#include <cstdlib>
#include <fstream>

namespace ks::app {

namespace {

bool writeText(const std::filesystem::path& file, const std::string& text)
{
    try {
        paths::writeFileAtomically(file, text);
        return true;
    } catch (const Error&) {
        return false;
    }
}

} // namespace

EditorTab* App::faultTab()
{
    AppState& s = m_state;
    return s.fault && !s.fault->file.empty() ? s.editor.find(FileWatcher::normalize(s.fault->file)) : nullptr;
}

bool App::findFault()
{
    AppState& s = m_state;
    if (!s.fault || s.fault->kind != "fault" || s.fault->stage.empty() || !s.project.session) {
        log::warning("Find the fault: there is no faulted kernel stage of an open project to look at");
        return false;
    }
    if (s.faultSearch.running()) {
        log::warning("Find the fault: a search is already running");
        return false;
    }
    std::error_code ec;
    std::string pattern = (std::filesystem::temp_directory_path(ec) / "kernelscope-find-fault-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) {
        log::error("Find the fault: cannot make a temporary folder " + pattern);
        return false;
    }
    ShownFault& f = *s.fault;
    if (!f.searchDir.empty())
        std::filesystem::remove_all(f.searchDir, ec);
    f.searchDir = pattern;

    const pipeline::Pipeline& p = s.project.session->pipeline();
    FindFaultRequest request;
    request.executable = kernelscopeExecutable();
    request.project = f.searchDir / "project.json";
    request.frame = f.frame;
    request.stage = f.stage;
    request.workDir = f.searchDir;
    request.faultText = f.summary;
    request.extraArgs = checkedRunOptions(m_options);
    bool written = writeText(request.project, project::serializeProject(p.snapshot(), request.project));
    EditorTab* tab = faultTab();
    if (tab && tab->doc.dirty()) {
        request.source = f.searchDir / tab->doc.path().filename();
        written = written && writeText(request.source, tab->doc.text());
    }
    if (!written) {
        log::error("Find the fault: cannot write the project's copy to " + f.searchDir.string());
        return false;
    }
    if (!s.faultSearch.start(std::move(request)))
        return false;
    const std::string looking = "Looking for the fault: frame " + std::to_string(f.frame) +
                                " runs again in a separate process, with a checked variant of " +
                                (f.kernel.empty() ? "the kernel" : f.kernel) + "...";
    log::info(looking);
    if (tab) {
        tab->faultSearch = FaultSearchState::Running;
        tab->faultFinding = looking;
        tab->faultMark.reset();
    }
    return true;
}

void App::takeFaultSearch()
{
    AppState& s = m_state;
    std::optional<FindFaultResult> r = s.faultSearch.take();
    if (!r || !s.fault) // dismissed while it ran: nothing to show it in
        return;
    std::error_code ec;
    std::filesystem::remove_all(s.fault->searchDir, ec);
    s.fault->searchDir.clear();
    const bool found = r->outcome == FindFaultResult::Outcome::Found;
    std::string text = r->message;
    text[0] = char(std::toupper(static_cast<unsigned char>(text[0])));
    if (!r->logTail.empty())
        text += "\nIts last output:\n" + r->logTail;
    if (found)
        log::error("Find the fault: " + r->message);
    else
        log::warning("Find the fault: " + r->message);
    EditorTab* tab = faultTab();
    if (!tab)
        return;
    tab->faultSearch = found ? FaultSearchState::Done : FaultSearchState::Offered; // may be tried again
    tab->faultFinding = text;
    if (found && r->report.line > 0) {
        rtc::Diagnostic d;
        d.file = tab->doc.path().filename().string();
        d.line = r->report.line;
        d.message = r->report.sentence;
        tab->faultMark = d;
        tab->jumpToLine = d.line;
        tab->jumpFocus = false;
    }
}

} // namespace ks::app
