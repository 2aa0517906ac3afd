// The live-kernel loop of the App: documents opened and watched, builds submitted to the compile
// service (after a typing pause, on Ctrl+Enter, when another program saved the file), finished
// builds taken in at the frame boundary and a good one swapped into the project's stages that run
// the file.
#include "app.hpp"
#include "editor/editor_text.hpp"
#include "loop/recording_target.hpp"
#include "loop/teach_support.hpp"

#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

namespace ks::app {

namespace {

double steadySeconds()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// What a project stage passes for an argument, as the editor's hover says it: "buffer a",
// "parameter alpha", "the width of img", "the value 2".
std::string boundText(const project::Project& p, const project::ArgBinding& b)
{
    using Kind = project::ArgBinding::Kind;
    switch (b.kind) {
    case Kind::Resource: {
        const project::ResourceDesc* r = p.resource(b.name);
        return std::string(r && r->isTexture() ? "texture " : "buffer ") + b.name;
    }
    case Kind::Surface: return "a surface object of " + b.name;
    case Kind::Texture: return "a texture object of " + b.name;
    case Kind::Parameter: return "parameter " + b.name;
    case Kind::Builtin: return "builtin " + b.name;
    case Kind::Count: return "the element count of " + b.name;
    case Kind::Width: return "the width of " + b.name;
    case Kind::Height: return "the height of " + b.name;
    case Kind::Literal:
        return "the value " + project::formatNumbers(std::vector<double>(
                                  b.literal.begin(), b.literal.begin() + std::clamp(b.literalType.components, 1, 4)));
    case Kind::Record: return "struct member values";
    case Kind::Bytes: return "raw bytes";
    }
    return {};
}

std::vector<std::string> splitList(const std::string& text, const char* separators)
{
    std::vector<std::string> out;
    std::string item;
    auto flush = [&] {
        const auto b = item.find_first_not_of(" \t");
        const auto e = item.find_last_not_of(" \t");
        if (b != std::string::npos)
            out.push_back(item.substr(b, e - b + 1));
        item.clear();
    };
    for (char c : text) {
        if (std::strchr(separators, c))
            flush();
        else
            item += c;
    }
    flush();
    return out;
}

} // namespace

void App::openDocument(const std::filesystem::path& path)
{
    AppState& s = m_state;
    EditorState& ed = s.editor;
    const std::filesystem::path normal = FileWatcher::normalize(path);
    if (EditorTab* open = ed.find(normal)) {
        ed.selectTab = int(std::find_if(ed.tabs.begin(), ed.tabs.end(), [&](auto& t) { return t.get() == open; }) -
                           ed.tabs.begin());
        return;
    }
    try {
        auto tab = std::make_unique<EditorTab>(project::KernelDocument(normal));
        tab->debounce.setDelay(ed.pauseSeconds);
        if (auto found = s.recovery->find(normal)) {
            if (found->text != tab->doc.text())
                tab->recovery = std::move(found); // offered in the editor: restore or discard
            else
                s.recovery->remove(normal);
        }
        if (s.watcher) {
            try {
                s.watcher->watch(normal);
            } catch (const Error& e) {
                log::warning(std::string("not watching ") + normal.string() + ": " + e.what());
            }
        }
        ed.tabs.push_back(std::move(tab));
        ed.selectTab = int(ed.tabs.size()) - 1;
        submitBuild(*ed.tabs.back());
    } catch (const Error& e) {
        log::error("cannot open " + normal.string() + ": " + e.what());
    }
}

void App::applyOptionFields()
{
    EditorState& ed = m_state.editor;
    ed.options.defines = splitList(ed.definesText, " ,;");
    ed.options.includePaths = splitList(ed.includesText, ";\n");
}

rtc::CompileOptions App::buildOptions() const
{
    rtc::CompileOptions o = m_state.editor.options;
    // The PTX / SASS tab maps source lines to instructions both ways. -lineinfo adds only .loc
    // directives (the same code and registers: a unit test compares them), and no prelude is
    // injected, so the lines are the user's.
    o.lineInfo = true;
    return o;
}

rtc::CompileOptions App::stageCompileOptions() const
{
    rtc::CompileOptions o = buildOptions();
    o.arch = m_state.arch;
    return o;
}

void App::submitBuild(EditorTab& tab, bool optionsChanged)
{
    AppState& s = m_state;
    // Unsaved edits reach the disk before the compiler sees them: a crash in a build (or after it)
    // cannot take them away.
    if (tab.doc.dirty() && tab.recoveredRevision != tab.doc.revision() && !tab.recovery) {
        if (s.recovery->write(tab.doc.path(), tab.doc.text()))
            tab.recoveredRevision = tab.doc.revision();
    }
    if (tab.scannedRevision != tab.doc.revision()) {
        tab.kernels = syntax::findKernels(tab.doc.text());
        tab.words = syntax::identifiersOf(tab.doc.text()); // what completion offers of the file
        tab.wordsRead = true;
        ++tab.wordsGeneration;
        tab.scannedRevision = tab.doc.revision();
    }
    // The project's stages that run this file build its text; the tab shows one of those builds (the
    // kernel that runs, with the project's options) rather than compiling the same text again.
    if (const auto stageBuild = submitStageBuilds(tab, optionsChanged)) {
        tab.build.ticket = stageBuild->first;
        tab.build.slot = stageBuild->second;
    } else {
        rtc::CompileRequest request;
        request.slot = tab.doc.path().string();
        request.source = tab.doc.text();
        request.fileName = tab.doc.path().filename().string();
        request.options = buildOptions();
        // Quoted includes resolve next to the file, as they would for nvcc; kernels/include of this
        // data root is always there (the engine's default follows the executable's).
        request.options.includePaths.push_back(tab.doc.path().parent_path().string());
        request.options.includePaths.push_back((s.dataRoot / "kernels" / "include").string());
        tab.build.slot = request.slot;
        tab.build.ticket = s.compiler->submit(std::move(request));
    }
    tab.build.submittedRevision = tab.doc.revision();
    tab.build.submittedAt = steadySeconds();
    tab.build.inFlight = true;
    tab.debounce.cancel();
}

void App::textReplaced(EditorTab& tab)
{
    // Replaced from outside the widget: the next typing is not joined to the step before, and the
    // widest line is measured again.
    tab.buffer = tab.doc.text();
    ++tab.widgetGeneration;
    // A reload or a restore: the text before it is an undo step of its own.
    tab.history.observe(tab.doc.text(), tab.cursorOffset, steadySeconds(), false);
    tab.historyGeneration = tab.widgetGeneration;
}

void App::pollFiles()
{
    AppState& s = m_state;
    if (!s.watcher)
        return;
    for (const std::filesystem::path& path : s.watcher->poll()) {
        EditorTab* tab = s.editor.find(path);
        if (!tab)
            continue;
        const std::string name = path.filename().string();
        switch (tab->doc.syncWithDisk()) {
        case project::DiskChange::None:
            break;
        case project::DiskChange::Reloaded:
            textReplaced(*tab);
            tab->message = "reloaded: changed on disk";
            log::info(name + " changed on disk: reloaded and rebuilding");
            submitBuild(*tab);
            break;
        case project::DiskChange::Conflict:
            tab->message.clear();
            log::warning(name + " changed on disk while it has unsaved edits here: choose in the editor");
            break;
        case project::DiskChange::Deleted:
            tab->message = "deleted on disk; Save writes it back";
            log::warning(name + " was deleted on disk; its text stays open (unsaved)");
            break;
        }
    }
}

std::optional<std::pair<std::uint64_t, std::string>> App::submitStageBuilds(const EditorTab& tab, bool optionsChanged)
{
    AppState& s = m_state;
    std::optional<std::pair<std::uint64_t, std::string>> submitted;
    if (!s.project.session)
        return submitted;
    // The open project's kernel stages that run this file follow its text, saved or not.
    pipeline::Pipeline& p = s.project.session->pipeline();
    for (std::size_t i = 0; i < p.stageCount(); ++i) {
        auto* k = dynamic_cast<pipeline::KernelStage*>(&p.stage(i));
        const std::filesystem::path file = p.project().resolve(k ? k->desc().file : std::filesystem::path());
        if (!k || FileWatcher::normalize(file) != tab.doc.path())
            continue;
        std::string current = k->sourceText();
        if (current.empty()) {
            try {
                current = paths::readTextFile(file);
            } catch (const Error&) {
            }
        }
        if (current == tab.doc.text() && !optionsChanged)
            continue; // what the stage runs already
        k->setSourceText(tab.doc.text());
        rtc::CompileRequest request = k->buildRequest(p.project(), stageCompileOptions());
        request.slot = "project#" + std::to_string(i) + "#" + request.slot;
        const std::string slot = request.slot;
        const std::uint64_t ticket = s.compiler->submit(std::move(request));
        s.project.stageBuilds[slot] = {i, k->desc().name, ticket};
        if (!submitted)
            submitted = {{ticket, slot}};
    }
    return submitted;
}

void App::adoptStageBuild(const rtc::CompletedCompile& done)
{
    AppState& s = m_state;
    const auto found = s.project.stageBuilds.find(done.slot);
    if (found == s.project.stageBuilds.end())
        return; // not a stage's build, or one for a project that closed
    const ProjectState::StageBuild b = found->second;
    if (done.ticket != b.ticket || !done.result || !s.project.session)
        return;
    s.project.stageBuilds.erase(found);
    pipeline::Pipeline& p = s.project.session->pipeline();
    if (b.stage >= p.stageCount() || p.stage(b.stage).desc().name != b.name)
        return; // the stages were reordered meanwhile
    if (p.adopt(b.stage, done.result)) {
        log::info("stage \"" + b.name + "\": the new kernel runs from the next frame");
        if (p.stage(b.stage).desc().once)
            p.restart(); // a stage that runs once runs again, from the initial data
    } else
        log::info("stage \"" + b.name + "\": " + p.stage(b.stage).status());
}

void App::pollBuilds()
{
    AppState& s = m_state;
    EditorState& ed = s.editor;
    for (rtc::CompletedCompile& done : s.compiler->poll()) {
        EditorTab* tab = nullptr; // the tab waiting for this build: of its file, or a stage's of its text
        for (auto& t : ed.tabs)
            if (t->build.slot == done.slot && t->build.ticket == done.ticket)
                tab = t.get();
        adoptStageBuild(done);
        if (!tab || !done.result)
            continue; // closed, or superseded by a newer build of the same file
        BuildState& b = tab->build;
        b.inFlight = false;
        b.result = done.result;
        b.resultRevision = b.submittedRevision;
        b.resultTotalMs = done.totalMs;
        b.resultSource = done.cacheSource;
        b.errors = b.warnings = 0;
        for (const auto& d : done.result->diagnostics) {
            b.errors += d.severity == rtc::Severity::Error && !d.likelyCause;
            b.warnings += d.severity == rtc::Severity::Warning;
        }
        if (!done.result->ok)
            log::info(tab->doc.path().filename().string() + ": " + std::to_string(b.errors) + " error(s)");
    }
}

void App::fireTypingPauses(double now)
{
    for (auto& tab : m_state.editor.tabs)
        if (tab->debounce.fire(now))
            submitBuild(*tab);
}

void App::recordingStatus(bool running, int written, std::string message)
{
    RecordState& r = m_state.record;
    r.running = running;
    r.written = written;
    if (!message.empty()) {
        r.message = std::move(message);
        log::info(r.message);
    }
}

void App::screenshotTaken(std::string message)
{
    RecordState& r = m_state.record;
    r.shot = RecordState::Shot::None;
    if (message.rfind("no screenshot", 0) == 0)
        log::warning(message);
    else
        log::info(message);
    r.shotNote = std::move(message);
    r.shotNoteUntil = m_state.frameIndex + 300; // about 5 s at 60 frames a second
}

void App::startRecording(std::string target, bool viewportOnly, int every)
{
    RecordState& r = m_state.record;
    r.target = std::move(target);
    r.format = recordingFormatOf(r.target);
    r.viewportOnly = viewportOnly;
    r.every = std::max(1, every);
    r.message.clear();
    r.written = 0;
    r.wanted = true;
}

bool App::editDocument(const std::filesystem::path& path, std::string text)
{
    EditorTab* tab = m_state.editor.find(FileWatcher::normalize(path));
    if (!tab)
        return false;
    tab->doc.edit(std::move(text));
    textReplaced(*tab);
    submitBuild(*tab);
    return true;
}

bool App::settleBuilds(std::chrono::milliseconds timeout)
{
    for (auto& tab : m_state.editor.tabs)
        if (tab->debounce.pending())
            submitBuild(*tab);
    const auto end = std::chrono::steady_clock::now() + timeout;
    while (m_state.compiler->busy()) {
        if (std::chrono::steady_clock::now() >= end)
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
}

// Find, replace, go to line and comment toggling on the active tab (the menu's and the editor's
// shortcuts). A text change goes through `c.textEdited`, like typing.
static void applyEditorAction(EditorState& ed, int index, EditorTab& tab, EditorAction action, Commands& c)
{
    FindState& f = ed.findBar;
    switch (action) {
    case EditorAction::Find:
    case EditorAction::Replace: {
        f.open = f.focusField = true;
        f.replace = action == EditorAction::Replace;
        f.current = -1;
        f.message.clear();
        const int b = tab.selectionBegin, e = tab.selectionEnd;
        if (e > b && tab.buffer.find('\n', std::size_t(b)) >= std::size_t(e)) // a selection on one line
            f.needle = tab.buffer.substr(std::size_t(b), std::size_t(e - b));
        break;
    }
    case EditorAction::GoToLine:
        f.gotoOpen = true;
        f.gotoLine = tab.cursorLine;
        break;
    case EditorAction::ToggleComment: {
        const text::Edit e = text::toggleLineComments(tab.buffer, std::size_t(tab.selectionBegin),
                                                      std::size_t(tab.selectionEnd));
        if (e.text == tab.buffer)
            break;
        tab.buffer = e.text;
        ++tab.widgetGeneration; // replaced from outside the widget
        c.textEdited.push_back(index);
        tab.refocusOffset = int(e.selBegin); // and the keyboard back, the lines selected
        tab.pendingSelectEnd = int(e.selEnd);
        break;
    }
    case EditorAction::Undo:
    case EditorAction::Redo: {
        const std::optional<TextHistory::Step> step = action == EditorAction::Undo
                                                          ? tab.history.undo(tab.buffer, tab.cursorOffset)
                                                          : tab.history.redo(tab.buffer, tab.cursorOffset);
        if (!step)
            break;
        tab.buffer = step->text;
        ++tab.widgetGeneration;
        c.textEdited.push_back(index);
        tab.refocusOffset = std::min(step->cursor, int(step->text.size()));
        break;
    }
    }
}

void App::applyEditorCommands(double now)
{
    AppState& s = m_state;
    EditorState& ed = s.editor;
    Commands& c = s.commands;
    auto tabAt = [&](int i) -> EditorTab* { return i >= 0 && i < int(ed.tabs.size()) ? ed.tabs[std::size_t(i)].get() : nullptr; };

    if (EditorTab* tab = c.editorAction ? tabAt(ed.activeTab) : nullptr)
        applyEditorAction(ed, ed.activeTab, *tab, *c.editorAction, c);
    for (int i : c.textEdited) {
        if (EditorTab* tab = tabAt(i)) {
            tab->doc.edit(tab->buffer);
            // Typed into the widget (not replaced in it from outside) may join the step being typed.
            const bool typing = !c.editorAction && tab->widgetGeneration == tab->historyGeneration;
            tab->history.observe(tab->doc.text(), tab->cursorOffset, now, typing);
            tab->historyGeneration = tab->widgetGeneration;
            tab->message.clear();
            if (!tab->doc.dirty()) {
                s.recovery->remove(tab->doc.path()); // typed back to the saved text
                tab->recoveredRevision = 0;
            }
            if (ed.buildOnPause)
                tab->debounce.touch(now);
        }
    }
    if (EditorTab* tab = c.save ? tabAt(*c.save) : nullptr) {
        const std::string name = tab->doc.path().filename().string();
        try {
            if (tab->doc.save()) {
                s.recovery->remove(tab->doc.path());
                tab->recoveredRevision = 0;
                tab->recovery.reset();
                tab->message = "saved";
                log::info("saved " + tab->doc.path().string());
                if (tab->build.submittedRevision != tab->doc.revision())
                    submitBuild(*tab);
            } else {
                tab->message = "not saved: it changed on disk; choose below";
                log::warning(name + " changed on disk since it was opened; not saved (choose in the editor)");
            }
        } catch (const Error& e) {
            tab->message = std::string("save failed: ") + e.what();
            log::error("cannot save " + tab->doc.path().string() + ": " + e.what());
        }
    }
    if (EditorTab* tab = c.buildNow ? tabAt(*c.buildNow) : nullptr)
        submitBuild(*tab);
    if (c.resolveConflict) {
        if (EditorTab* tab = tabAt(c.resolveConflict->first)) {
            try {
                switch (c.resolveConflict->second) {
                case ConflictChoice::ReloadFromDisk:
                    tab->doc.reloadFromDisk();
                    s.recovery->remove(tab->doc.path());
                    textReplaced(*tab);
                    submitBuild(*tab);
                    break;
                case ConflictChoice::KeepMine:
                    tab->doc.keepMine();
                    break;
                case ConflictChoice::SaveMine:
                    tab->doc.saveMineOverDisk();
                    s.recovery->remove(tab->doc.path());
                    tab->message = "saved over the disk version";
                    break;
                }
            } catch (const Error& e) {
                tab->message = std::string("save failed: ") + e.what();
                log::error(e.what());
            }
        }
    }
    if (c.recovery) {
        if (EditorTab* tab = tabAt(c.recovery->first); tab && tab->recovery) {
            if (c.recovery->second) {
                tab->doc.edit(tab->recovery->text);
                textReplaced(*tab);
                tab->recoveredRevision = tab->doc.revision(); // the recovery file holds it already
                tab->message = "restored unsaved edits";
                submitBuild(*tab);
            } else {
                s.recovery->remove(tab->doc.path());
            }
            tab->recovery.reset();
        }
    }
    if (c.printfBuffer)
        setPrintfBuffer(*c.printfBuffer);
    if (c.optionsChanged) {
        applyOptionFields();
        for (auto& tab : ed.tabs)
            submitBuild(*tab, true);
    }
    if (c.openFile)
        openDocument(*c.openFile);
    if (c.jumpTo) {
        if (EditorTab* tab = ed.find(FileWatcher::normalize(c.jumpTo->path))) {
            tab->jumpToLine = c.jumpTo->line;
            tab->jumpFocus = c.jumpTo->focus;
            ed.selectTab = int(std::find_if(ed.tabs.begin(), ed.tabs.end(), [&](auto& t) { return t.get() == tab; }) -
                               ed.tabs.begin());
        }
    }
    if (EditorTab* tab = c.closeTab ? tabAt(*c.closeTab) : nullptr) {
        if (tab->doc.dirty()) {
            tab->message = "unsaved edits: save first (or edit back) to close";
        } else { // a project stage running the file keeps its last build
            if (s.watcher)
                s.watcher->unwatch(tab->doc.path());
            ed.tabs.erase(ed.tabs.begin() + *c.closeTab);
            ed.selectTab = std::min(*c.closeTab, int(ed.tabs.size()) - 1);
        }
    }
}

void App::editorProjectFacts()
{
    AppState& s = m_state;
    EditorState& ed = s.editor;
    ed.projectNames.clear();
    ed.runningBindings.clear();
    if (!s.project.session)
        return;
    const pipeline::Pipeline& p = s.project.session->pipeline();
    const project::Project& project = p.project();
    for (const project::ParameterDesc& q : project.parameters) {
        char range[96];
        std::snprintf(range, sizeof range, ", %g to %g", q.min, q.max);
        ed.projectNames.push_back({q.name, syntax::CompletionKind::Parameter, project::cudaTypeName(q.type) + range,
                                   "A parameter of the project: its slider sets it while the kernel runs."});
    }
    for (const project::ResourceDesc& r : project.resources) {
        std::string detail = r.isTexture() ? "texture " + std::string(project::formatName(r.format))
                                           : "buffer of " + std::to_string(r.count) + " " +
                                                 project::cudaTypeName(r.element);
        ed.projectNames.push_back({r.name, syntax::CompletionKind::Resource, std::move(detail),
                                   "A resource of the project, passed to kernels that name it."});
    }
    // What the running kernel's parameters get: inferred bindings, or the stage's arguments in
    // order.
    if (s.project.kernel) {
        for (const pipeline::ParamBinding& b : s.project.kernel->inference.bindings)
            ed.runningBindings[b.param] = b.bound;
        return;
    }
    const int stage = teachStage(s);
    if (stage < 0 || ed.runningKernel.empty())
        return;
    const EditorTab* tab = ed.find(ed.runningFile);
    if (!tab)
        return;
    // By name alone (a template's arguments change the parameters' types, not their names).
    const std::string name = syntax::splitNameExpression(ed.runningKernel).name;
    const auto kernel = std::find_if(tab->kernels.begin(), tab->kernels.end(), [&](const syntax::KernelSignature& k) {
        return k.name == name || k.qualifiedName() == name;
    });
    if (kernel == tab->kernels.end())
        return;
    const auto& args = p.stage(std::size_t(stage)).desc().args;
    for (std::size_t i = 0; i < kernel->params.size() && i < args.size(); ++i)
        if (!kernel->params[i].name.empty())
            ed.runningBindings[kernel->params[i].name] = boundText(project, args[i]);
}

} // namespace ks::app
