// App's handling of the frame pipeline: opening, saving and running projects.
#include "app.hpp"
#include "loop/teach_support.hpp"

#include "ks/core/atomic_file.hpp"
#include "ks/core/error.hpp"
#include "ks/core/log.hpp"
#include "ks/core/paths.hpp"
#include "ks/pipeline/check.hpp"
#include "ks/project/template.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <utility>

namespace ks::app {

namespace fs = std::filesystem;

void PipelineHistory::push(const pipeline::FrameTimings& t)
{
    auto add = [](std::vector<float>& v, float x) {
        if (v.size() == kCapacity)
            v.erase(v.begin());
        v.push_back(x);
    };
    if (stageNames.size() != t.stages.size()) {
        stageNames.clear();
        stageMs.assign(t.stages.size(), {});
    }
    for (std::size_t i = 0; i < t.stages.size(); ++i) {
        stageNames.resize(t.stages.size());
        stageNames[i] = t.stages[i].name;
        add(stageMs[i], t.stages[i].ms);
    }
    add(interopUs, float(t.mapUs + t.unmapUs));
    add(renderMs, float(std::max(0.0, t.renderMs)));
    add(frameMs, float(t.frameMs));
}

namespace {

// The recently opened projects are history, which the XDG base directory rules put in the state
// folder; none is kept without one (no $XDG_STATE_HOME and no $HOME).
fs::path recentFile()
{
    const fs::path state = paths::userFolder(paths::UserFolder::State);
    return state.empty() ? fs::path() : state / "recent_projects";
}

void saveRecent(const std::vector<fs::path>& recent)
{
    const fs::path f = recentFile();
    if (f.empty())
        return;
    std::error_code ec;
    fs::create_directories(f.parent_path(), ec);
    std::string text;
    for (const fs::path& p : recent)
        text += p.string() + "\n";
    try {
        paths::writeFileAtomically(f, text);
    } catch (const Error& e) {
        static bool warned = false; // once: the list lives on in memory
        if (!std::exchange(warned, true))
            log::warning(std::string("cannot keep the list of recent projects: ") + e.what());
    }
}

void remember(std::vector<fs::path>& recent, const fs::path& file)
{
    recent.erase(std::remove(recent.begin(), recent.end(), file), recent.end());
    recent.insert(recent.begin(), file);
    if (recent.size() > 10)
        recent.resize(10);
    saveRecent(recent);
}

} // namespace

std::vector<fs::path> loadRecentProjects()
{
    std::vector<fs::path> out;
    std::ifstream in(recentFile());
    for (std::string line; std::getline(in, line);)
        if (!line.empty())
            out.emplace_back(line);
    return out;
}

bool App::openProject(const fs::path& file)
{
    return openLoadedProject(file, project::loadProject(file));
}

bool App::openLoadedProject(const fs::path& file, project::LoadResult loaded)
{
    AppState& s = m_state;
    if (!loaded.ok()) {
        s.project.problems = loaded.problems;
        for (const project::Problem& p : loaded.problems)
            log::error(p.format());
        log::error("could not open " + file.string() + (s.project.session ? "; the current project stays open" : ""));
        return false;
    }
    pipeline::PipelineOptions po;
    po.cuda = s.cuda.has_value();
    po.stream = s.stream.get();
    po.compile = stageCompileOptions(); // the editor's options, as the stages' later builds
    // The window's frame does not wait for the GPU: one frame may still run while the next is queued
    // (the Timings panel shows the newest finished frame).
    po.framesInFlight = 1;
    // A supervised GPU process keeps the resources' contents where its successor can take them.
    po.keepContents = m_options.workerMode == "window";
    if (m_deviceOutput) // the Console names the stage that printed
        po.afterStage = [this](std::int64_t frame, std::size_t stage, CUstream) {
            takeDeviceOutput(frame, stage);
        };
    try {
        // Built completely before it replaces the running project: a refusal (not enough device
        // memory) leaves the current one running.
        auto next = std::make_unique<scene::Session>(*loaded.project, po, s.dataRoot / "shaders");
        std::vector<project::Problem> problems = next->pipeline().buildAll(*s.compileCache);
        for (const project::Problem& p : problems)
            log::error(p.format());
        s.project.problems = std::move(problems);
        {
            std::lock_guard lock(m_sessionMutex); // frameProgress() reads it from another thread
            m_retiredSession = std::move(s.project.session);
            s.project.session = std::move(next);
        }
        if (std::exchange(m_startPaused, false)) {
            s.project.session->pipeline().setPaused(true);
            s.project.session->pipeline().step(); // frame 0 runs, so that there is something to see
        }
        s.project.history = {};
        s.project.lastTimedFrame = -1;
        s.project.buildsRun = 0;
        s.project.activeView = 0;
        s.project.kernel.reset(); // App::openKernel keeps it again when the project is a kernel's
        m_retiredProbe = std::move(s.project.probe); // its variants and recordings were of the old project
        s.project.stageBuilds.clear();
        s.teach.stage = -1;
        s.teach.editStage = -2;
        s.teach.capturedKey.clear();
        s.teach.overlayFrame = -2;
        s.teach.pinnedElement.reset();
        s.teach.inspection.reset();
    } catch (const Error& e) {
        s.project.problems = {project::Problem{file, {}, e.what()}};
        log::error(std::string("could not open ") + file.string() + ": " + e.what());
        return false;
    }
    remember(s.project.recent, loaded.project->file);
    log::info("opened project " + loaded.project->file.string());
    showStageKernel(teachStage(s));
    return true;
}

void App::applyProjectCommands(ProjectCommands& c)
{
    AppState& s = m_state;
    if (c.newFromTemplate) {
        try {
            const project::NewProject made = project::newProjectFromTemplate(c.newFromTemplate->first,
                                                                             c.newFromTemplate->second);
            log::info("made project " + made.file.string() + " from " + c.newFromTemplate->first.string() + " (" +
                      std::to_string(made.copied.size()) + " kernel file" + (made.copied.size() == 1 ? "" : "s") +
                      " copied beside it)");
            c.open = made.file;
        } catch (const Error& e) {
            log::error(std::string("could not make the new project: ") + e.what());
        }
    }
    if (c.open)
        openProject(*c.open);
    if (c.openKernel) {
        pipeline::InferOptions o;
        o.kernel = c.openKernel->second;
        openKernel(c.openKernel->first, std::move(o), KernelChange::Open);
    }
    if (s.project.kernel && (c.rebind || (c.undoRebind && !s.project.kernel->undo.empty()))) {
        const KernelProject& k = *s.project.kernel;
        openKernel(k.file, c.rebind ? *c.rebind : k.undo.back(), c.rebind ? KernelChange::Rebind : KernelChange::Undo);
    }
    if (c.close) {
        s.project.kernel.reset();
        std::lock_guard lock(m_sessionMutex);
        m_retiredSession = std::move(s.project.session);
        m_retiredProbe = std::move(s.project.probe);
    }
    if (!s.project.session)
        return;
    pipeline::Pipeline& p = s.project.session->pipeline();
    if (c.moveStage)
        p.moveStage(c.moveStage->first, c.moveStage->second);
    if (c.restart) {
        p.restart();
        s.project.history = {};
        s.project.lastTimedFrame = -1;
    }
    if (c.save || c.saveAs) {
        const fs::path target = c.saveAs && !c.saveAs->empty() ? fs::absolute(*c.saveAs) : p.project().file;
        try {
            project::Project snapshot = p.snapshot();
            project::saveProject(snapshot, target);
            remember(s.project.recent, target);
            log::info("saved project " + target.string());
        } catch (const Error& e) {
            log::error(std::string("could not save the project: ") + e.what());
        }
    }
}

std::filesystem::path App::runningKernelFile() const
{
    const AppState& s = m_state;
    const int stage = teachStage(s);
    if (!s.project.session || stage < 0)
        return {};
    const pipeline::Pipeline& p = s.project.session->pipeline();
    return FileWatcher::normalize(p.project().resolve(p.stage(std::size_t(stage)).desc().file));
}

std::uint64_t App::kernelBuilds() const
{
    return m_state.project.buildsRun;
}

void App::projectFrame()
{
    AppState& s = m_state;
    if (!s.project.session)
        return;
    scene::Session& session = *s.project.session;
    session.renderer().reloadIfChanged();
    if (!s.project.viewSizes.empty())
        session.followViewport(s.project.viewSizes[0][0], s.project.viewSizes[0][1]);
    if (session.pipeline().frame(s.project.input)) {
        std::uint64_t builds = 0;
        const pipeline::Pipeline& p = session.pipeline();
        for (std::size_t i = 0; i < p.stageCount(); ++i)
            if (const auto* k = dynamic_cast<const pipeline::KernelStage*>(&p.stage(i)))
                builds += k->buildSerial();
        s.project.buildsRun = builds;
        if (s.fault)
            s.commands.dismissFault = true; // the project runs again: the fault is history
        pipeline::FrameTimings t = session.pipeline().timings();
        if (t.valid && t.frame != s.project.lastTimedFrame) { // each finished frame once
            s.project.lastTimedFrame = t.frame;
            t.renderMs = session.renderMs();
            s.project.history.push(t);
        }
    }
    // What kernels printed that no stage waited for: with the newest frame queued.
    takeDeviceOutput(std::max<std::int64_t>(0, session.pipeline().frameIndex() - 1), std::nullopt);
    teachAfterFrame(); // the overlay of a recording this frame made is drawn with it
    if (!s.project.viewSizes.empty())
        session.renderViews(s.project.viewSizes);
}

} // namespace ks::app
