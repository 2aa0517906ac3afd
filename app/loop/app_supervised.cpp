// App's side of supervision: the snapshot the shell keeps, restoring it in a new worker, the lost
// context and the GPU's progress (docs/architecture.md, "Processes").
#include "app.hpp"
#include "loop/recording_target.hpp"
#include "loop/teach_support.hpp"

#include "ks/core/error.hpp"
#include "ks/core/log.hpp"
#include "ks/cuda/driver.hpp"
#include "ks/cuda/memory.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <imgui.h>

namespace ks::app {

namespace {

// The previous process's kept contents into `p`'s resources; says what came back (status line).
std::string restoreContents(pipeline::Pipeline& p, const std::optional<supervise::KeptMemory>& kept,
                            const std::vector<int>& fds, const std::string& projectPath)
{
    if (!kept || kept->layout.slotBytes == 0)
        return "";
    if (fds.size() != 2 || kept->projectPath != projectPath) {
        log::warning("resource contents not restored: " +
                     std::string(fds.size() != 2 ? "their memory did not come with the restore" : "they are of another project"));
        return "";
    }
    try {
        const pipeline::RestoredContents rc = p.restoreKept(kept->layout, {fds[0], fds[1]});
        if (rc.frame < 0) {
            log::warning("resource contents not restored: " + rc.why);
            return "at frame 0 (resource contents not restored: " + rc.why + ")";
        }
        std::string text = "at frame " + std::to_string(rc.frame + 1) + " with the contents of " +
                           std::to_string(rc.resources) + (rc.resources == 1 ? " resource (" : " resources (") +
                           cuda::formatBytes(std::size_t(rc.bytes)) + ") as after frame " + std::to_string(rc.frame);
        if (!rc.skipped.empty())
            text += "; not restored (changed): " + std::to_string(rc.skipped.size());
        char ms[32];
        std::snprintf(ms, sizeof ms, "%.1f ms", rc.ms);
        log::info("restored " + text + " in " + ms);
        return text;
    } catch (const Error& e) {
        log::warning(std::string("resource contents not restored: ") + e.what());
        return "";
    }
}

} // namespace

supervise::AppSnapshot App::snapshot() const
{
    const AppState& s = m_state;
    supervise::AppSnapshot snap;
    for (const auto& tab : s.editor.tabs) {
        supervise::TabSnapshot t;
        t.path = tab->doc.path().string();
        t.modified = tab->doc.dirty();
        if (t.modified)
            t.text = tab->doc.text();
        t.cursorLine = tab->cursorLine;
        TextHistory::Saved steps = tab->history.save();
        t.undo = std::move(steps.undo);
        t.redo = std::move(steps.redo);
        t.historyBase = steps.base;
        snap.tabs.push_back(std::move(t));
    }
    snap.activeTab = s.editor.activeTab;
    if (s.project.session) {
        const pipeline::Pipeline& p = s.project.session->pipeline();
        snap.projectPath = p.project().file.string();
        snap.projectJson = project::serializeProject(p.snapshot(), p.project().file);
        if (const auto& k = s.project.kernel) {
            snap.kernelFile = k->file.string();
            snap.kernelOptions = k->options;
            snap.kernelUndo = k->undo;
        }
        const render::OrbitCamera& c = s.project.session->camera();
        snap.camera = {c.target.x, c.target.y, c.target.z, c.distance, c.yaw, c.pitch, c.fov};
        for (std::size_t i = 0; i < s.project.session->viewCount(); ++i) {
            const std::optional<render::PlotFrame>& z = s.project.session->plotZoom(i);
            snap.plotZooms.push_back(z ? std::vector<double>{z->x0, z->x1, z->y0, z->y1} : std::vector<double>{});
        }
        snap.pipelineFrame = p.frameIndex();
    }
    snap.ui = uiSettings();
    const std::size_t keep = std::min<std::size_t>(s.console.lines.size(), 1000); // the newest
    snap.console.assign(s.console.lines.end() - std::ptrdiff_t(keep), s.console.lines.end());
    snap.consoleDropped = s.console.dropped + (s.console.lines.size() - keep);
    snap.teachStage = s.teach.stage;
    snap.tourStep = s.menu.tour.open ? s.menu.tour.step : -1;
    snap.frameLimit = s.editor.frameLimitSeconds;
    if (s.record.running || s.record.wanted)
        snap.recording = s.record.target;
    return snap;
}

const pipeline::KeptContents* App::keptContents() const
{
    return m_state.project.session ? m_state.project.session->pipeline().kept() : nullptr;
}

void App::restore(const supervise::Restore& r, const std::vector<int>& keptFds)
{
    AppState& s = m_state;
    const supervise::AppSnapshot& snap = r.state;
    std::string restoredText;
    restoreUiSettings(snap.ui);
    s.console.lines.assign(snap.console.begin(), snap.console.end()); // what the old process printed
    s.console.dropped = snap.consoleDropped;
    s.menu.tour = TourState{}; // the tour goes on at its step (drawTour clamps it to the steps there are)
    s.menu.tour.open = snap.tourStep >= 0;
    s.menu.tour.step = std::max(0, snap.tourStep);
    if (snap.frameLimit >= 0)
        s.editor.frameLimitSeconds = float(snap.frameLimit);
    if (!snap.recording.empty()) {
        // The recording's encoder went with the old process and finished its file with the frames it
        // had (ffmpeg outlives it); a new recording must not write over that file.
        RecordState& rec = s.record;
        rec.target = nextFreeRecordingTarget(snap.recording).string();
        rec.format = recordingFormatOf(rec.target);
        rec.message = "The recording stopped when the GPU process was replaced: what it recorded until then is in " +
                      snap.recording + ". Start recording again to go on (into " + rec.target + ").";
        rec.showWindow = true;
        log::warning(rec.message);
    }
    if (!snap.projectPath.empty()) {
        project::LoadResult loaded = snap.projectJson.empty() ? project::loadProject(snap.projectPath)
                                                              : project::parseProject(snap.projectJson, snap.projectPath);
        if (openLoadedProject(snap.projectPath, std::move(loaded))) {
            if (!snap.kernelFile.empty())
                restoreKernel(snap.kernelFile, snap.kernelOptions, snap.kernelUndo);
            scene::Session& session = *s.project.session;
            session.pipeline().setPaused(true);
            if (snap.camera.size() == 7) {
                render::OrbitCamera& c = session.camera();
                c.target = {snap.camera[0], snap.camera[1], snap.camera[2]};
                c.distance = snap.camera[3];
                c.yaw = snap.camera[4];
                c.pitch = snap.camera[5];
                c.fov = snap.camera[6];
            }
            const auto& views = session.pipeline().project().views;
            for (std::size_t i = 0; i < std::min(snap.plotZooms.size(), views.size()); ++i) {
                const std::vector<double>& z = snap.plotZooms[i];
                if (z.size() != 4 || !std::isfinite(z[0] + z[1] + z[2] + z[3]) || !(z[1] > z[0]) || !(z[3] > z[2]))
                    continue;
                render::PlotFrame f{z[0], z[1], z[2], z[3], views[i].yScale == project::PlotScale::Log};
                if (!f.logY || f.y0 > 0)
                    session.setPlotZoom(i, f);
            }
            s.teach.stage = snap.teachStage;
            restoredText = restoreContents(session.pipeline(), r.kept, keptFds, snap.projectPath);
        }
    }
    // Tabs in their order, unsaved text put back as unsaved edits (they build at once: a cache hit).
    for (const supervise::TabSnapshot& t : snap.tabs) {
        const std::filesystem::path path = t.path;
        openDocument(path);
        if (t.modified)
            editDocument(path, t.text);
        if (EditorTab* tab = s.editor.find(path)) {
            tab->jumpToLine = std::max(1, t.cursorLine), tab->jumpFocus = false;
            // The steps are edits of the text the old process had: when the file changed on disk
            // since (an unmodified tab reads it again), they are dropped.
            tab->history.restore({t.undo, t.redo, t.historyBase}, tab->doc.text(), tab->cursorOffset);
            tab->historyGeneration = tab->widgetGeneration;
        }
    }
    if (snap.activeTab >= 0 && snap.activeTab < int(s.editor.tabs.size()))
        s.editor.selectTab = snap.activeTab;

    if (r.fault && r.fault->kind == "restart") { // asked for, not a fault: the project goes on
        log::info(r.fault->summary);
        if (s.project.session)
            s.project.session->pipeline().setPaused(false);
    } else if (r.fault) {
        const supervise::FaultNotice& f = *r.fault;
        s.fault = ShownFault{f.kind, f.frame, f.stage, f.kernel, f.file, f.error, f.summary, restoredText};
        log::error("the GPU process was replaced: " + f.summary);
        if (!f.file.empty()) {
            openDocument(f.file);
            if (EditorTab* tab = s.editor.find(FileWatcher::normalize(f.file))) {
                tab->faultNote = "This kernel " + std::string(f.kind == "time limit" ? "was stopped" : "faulted") +
                                 ": " + f.summary + ". Kernelscope replaced its GPU process and restored your work; "
                                 "the project is paused. Fix the kernel, then press Run in the Project panel.";
                if (f.kind == "fault" && !f.stage.empty() && s.project.session)
                    tab->faultSearch = FaultSearchState::Offered;
                s.editor.selectTab = int(std::find_if(s.editor.tabs.begin(), s.editor.tabs.end(),
                                                      [&](auto& t) { return t.get() == tab; }) -
                                         s.editor.tabs.begin());
                if (const auto k = std::find_if(tab->kernels.begin(), tab->kernels.end(),
                                                 [&](const syntax::KernelSignature& sig) { return sig.qualifiedName() == f.kernel; });
                    k != tab->kernels.end())
                    s.commands.jumpTo = JumpTo{tab->doc.path(), k->line, false};
            }
        }
    }
}

std::optional<supervise::FaultNotice> App::lostContext() const
{
    const std::optional<cuda::LostContext> lost = cuda::lostContext();
    if (!lost)
        return std::nullopt;
    const AppState& s = m_state;
    supervise::FaultNotice n;
    n.kind = "fault";
    n.error = lost->message;
    const std::string code = cuda::resultName(lost->code) + " (" + std::to_string(int(lost->code)) + ")";
    if (s.project.session && s.project.session->pipeline().fault()) {
        const pipeline::FaultReport& f = *s.project.session->pipeline().fault();
        n.frame = f.frame;
        n.stage = f.stageName;
        n.kernel = f.kernel;
        n.file = f.file.string();
        n.summary = f.describe();
    } else if (!s.project.session) {
        n.frame = s.frameIndex;
        n.summary = "frame " + std::to_string(n.frame) + ": CUDA failed with no project open: " + code;
    } else {
        n.frame = s.project.session->pipeline().frameIndex();
        n.summary = "frame " + std::to_string(n.frame) + ": CUDA failed outside the stages: " + code;
    }
    return n;
}

std::optional<pipeline::FrameProgress> App::frameProgress() const
{
    std::unique_lock lock(m_sessionMutex, std::try_to_lock);
    if (!lock.owns_lock() || !m_state.project.session)
        return std::nullopt;
    return m_state.project.session->pipeline().progress();
}

} // namespace ks::app
