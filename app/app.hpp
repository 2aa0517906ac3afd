#pragma once
// The application: one owner of all state, members declared in construction order so that C++
// tears them down in reverse (the project and GL objects before the CUDA context; the GL context itself
// belongs to the platform, which outlives the App).
//
// Thread: everything here runs on the thread whose GL context is current.

#include "app_state.hpp"
#include "cli/options.hpp"
#include "supervise/protocol.hpp"

#include <imgui.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace ks::proc {
class OutputCapture;
}

namespace ks::app {

// The fonts the UI uses; `mono` is the source editor's (null: the UI font).
struct UiFonts {
    ImFont* ui = nullptr;
    ImFont* mono = nullptr;
    ImFont* uiLarge = nullptr; // the classroom layout's (null: the UI font)
    ImFont* monoLarge = nullptr;
    // The source font at more sizes (mono's 2x and 3x): the editor's zoom draws with the nearest
    // size at or above the one asked for, scaled down, so zoomed text stays sharp.
    std::vector<ImFont*> monoZoom;
};

class App {
public:
    // The platform's GL context must be current; `glDescription` says what it is. Opens what the
    // options name (--project, --kernel), else the default demo: the project inferred from
    // kernels/thread_colors.cu's thread_colors_surface, which runs like any other. Its kernel file
    // opens in the editor and its first build is submitted; nothing here waits for a compile.
    App(const AppOptions& options, std::filesystem::path dataRoot, std::string glDescription, UiFonts fonts = {});
    ~App();
    App(const App&) = delete;
    App& operator=(const App&) = delete;

    // One frame: CUDA work, then the UI. Call between ImGui::NewFrame() and ImGui::Render().
    void frame(float timeSeconds, float deltaSeconds);

    const AppState& state() const noexcept { return m_state; }
    std::string statusLine() const;
    // The newest finished frame's interop map + unmap, host microseconds; -1 before any.
    double lastInteropUs() const;

    // Replaces the text of the open file `path` as if the user typed it (unsaved), and builds it
    // at once, without the typing pause. For the headless runner, tests and benchmarks. Returns
    // false when no tab holds `path`.
    bool editDocument(const std::filesystem::path& path, std::string text);
    // Recording (RecordState): the platform reports whether it records, how many frames it wrote,
    // and when it stops, what came of it. startRecording/stopRecording are what the Record window's
    // buttons do (for tests and the headless runner too).
    void recordingStatus(bool running, int written, std::string message);
    void startRecording(std::string target, bool viewportOnly, int every);
    void stopRecording() { m_state.record.wanted = false; }
    // Screenshots (F12, File menu; RecordState::shot): where they go, and what came of one.
    std::filesystem::path screenshotDir() const { return m_options.screenshotDir; }
    void screenshotTaken(std::string message);
    // Fires pending typing-pause builds and waits until the compile service is idle, at most
    // `timeout`; the next frame() takes the results in. Returns false on timeout.
    bool settleBuilds(std::chrono::milliseconds timeout);
    // The teaching panels' commands, applied at the end of the next frame as if a panel had pushed
    // them (for tests and scripted runs).
    TeachCommands& teachCommands() noexcept { return m_state.commands.teach; }
    // The same for the project commands (open a kernel's project as the editor's kernel picker does,
    // rebind, close, ...).
    ProjectCommands& projectCommands() noexcept { return m_state.commands.project; }
    // ----- settings (app_settings.cpp): panel places, layout, hidden panels, the editor's options
    supervise::UiSettings uiSettings() const;
    // Writes settings.json when keepSettings is on and they changed since the last write (checked
    // at most once a second unless `now`). frame() calls it; so does the destructor, with `now`.
    void keepUserSettings(bool now = false);
    // ----- supervision (app_supervised.cpp; docs/architecture.md, "Processes")
    // What the shell keeps to restore this App in a new process.
    supervise::AppSnapshot snapshot() const;
    // Puts a snapshot back (tabs with their unsaved text, project with its parameters and stage
    // order, camera, layout) with the project paused, and shows `fault` in the status line, the
    // stage list and the editor of its kernel. With `restore.kept` and its two descriptors
    // (`keptFds`), the resources' contents come back as after the last good frame and the project
    // resumes at the frame after it. Call before the first frame.
    void restore(const supervise::Restore& restore, const std::vector<int>& keptFds = {});
    // Where the running project keeps its resources' contents for a restart (null: nothing kept).
    const pipeline::KeptContents* keptContents() const;
    // The sticky CUDA error this process hit, if it did, with the frame, stage and kernel (the
    // process must be replaced); nullopt while CUDA works.
    std::optional<supervise::FaultNotice> lostContext() const;
    // A window's GPU process asks to be replaced (kind "restart") when a setting can only take
    // effect in a new CUDA context: device printf's buffer, once a kernel that prints has run. The
    // worker sends its state, then this notice, and ends; the shell starts the next one with both.
    const std::optional<supervise::FaultNotice>& restartRequest() const noexcept { return m_restartRequest; }
    // Device printf's buffer, `bytes` (the Options popup, --printf-buffer): now, when the driver
    // still takes it; else in a new GPU process (restartRequest) for a window's worker, or at the
    // next start. EditorState::printfBuffer keeps the choice, in the settings and the snapshot.
    void setPrintfBuffer(std::size_t bytes);
    // Where the GPU is in the oldest unfinished project frame. Thread-safe (the worker's reporter
    // thread calls it while frame() waits for the GPU); nullopt when no project frame is queued or
    // the project is being replaced.
    std::optional<pipeline::FrameProgress> frameProgress() const;

    // "Find the fault" (app_find_fault.cpp): re-runs the shown fault's frame in a throwaway process
    // with the checked variant of its kernel, in the background. Returns false (and logs why) when
    // there is no fault to look for, no project, or a search already runs. Its finding shows in the
    // fault banner and marks the line in the editor once it is back (see frame()).
    bool findFault();
    bool faultSearchRunning() const noexcept { return m_state.faultSearch.running(); }

    // Files dropped on the window at (x, y) (window pixels, as ImGui's mouse position): taken in
    // by the next frame. A .npy or image dropped on a row of the Arguments panel binds that
    // parameter to it; else a .cu runs the project inferred from its first kernel, and a .json
    // opens as a project.
    void dropFiles(std::vector<std::filesystem::path> paths, float x, float y);

    // The kernel file of the open project's teaching stage (its first kernel stage unless another
    // is picked): what --edit-with edits. Empty without a project.
    std::filesystem::path runningKernelFile() const;
    // How many builds the open project's kernel stages have swapped in, as of the last frame that
    // ran (0: none yet). A new build of any stage counts it up from its first frame on.
    std::uint64_t kernelBuilds() const;

private:
    void applyCommands(double now);
    void takeFaultSearch();
    EditorTab* faultTab();
    // The frame pipeline: open/save/close projects, run the open project's frame.
    void applyProjectCommands(ProjectCommands& commands);
    bool openProject(const std::filesystem::path& file);
    bool openLoadedProject(const std::filesystem::path& file, project::LoadResult loaded);
    // A project inferred from a kernel (app_kernel.cpp): infers it from `file` with `options`,
    // keeps it in the cache folder and runs it. `change` says what becomes of the undo steps. A
    // kernel or binding that gives problems keeps the running project; the problems go to the log
    // and to the Arguments panel (or the Project panel's, when no kernel project runs).
    enum class KernelChange { Open, Rebind, Undo };
    bool openKernel(std::filesystem::path file, pipeline::InferOptions options, KernelChange change);
    // The default demo's project (see App::App), with --image-size and --block applied.
    bool openDefaultProject();
    // The running project's kernel state back after a restart (its bindings inferred again).
    void restoreKernel(std::filesystem::path file, pipeline::InferOptions options,
                       std::vector<pipeline::InferOptions> undo);
    void applyDrop();
    void projectFrame();
    // The teaching panels (app_teach.cpp): recordings requested before the frame, the overlay and
    // the inspection taken in after it.
    void teachBeforeFrame();
    void teachAfterFrame();
    void applyTeachCommands(TeachCommands& commands);
    // Opens the kernel file of project stage `stage` in the editor, at the kernel.
    void showStageKernel(int stage);
    // The live-kernel loop (loop/app_editor.cpp).
    void openDocument(const std::filesystem::path& path);
    // Builds `tab`'s text: through the open project's stages that run its file when they are due
    // (its text changed, or `optionsChanged`), else as the file alone for its diagnostics.
    void submitBuild(EditorTab& tab, bool optionsChanged = false);
    // What every build of the user's text compiles with: the editor's options (Edit > Options:
    // defines, include paths, -G, fast math, fast compile, the C++ standard) with line information
    // always on (the PTX / SASS tab needs it).
    rtc::CompileOptions buildOptions() const;
    // What the open project's kernel stages build with: buildOptions() for the running device's
    // architecture, with ptxas' report (registers and spills for the PTX / SASS tab).
    rtc::CompileOptions stageCompileOptions() const;
    // Starts the listings of the active file's newest good build off the UI thread (once per
    // build) and takes finished ones in: ListingState. Never waits.
    void updateListings();
    // The Options popup's defines and include-path fields into the compile options.
    void applyOptionFields();
    // The editor's settings from the process this one replaces; rebuilds the open files when the
    // compile options differ from those they were built with.
    void restoreEditorSettings(const supervise::EditorSettings& settings, bool fromFile);
    // Puts settings back: from the settings file (`fromFile`), --layout and --printf-buffer win over it.
    void restoreUiSettings(const supervise::UiSettings& ui, bool fromFile = false);
    void loadUserSettings(); // settings.json, when there is one (a malformed one is kept aside)
    // Device printf (app_console.cpp): the printf buffer's size and the capture of standard output;
    // after a stage (`stage`) or after the frame (none), what the GPU printed into the Console.
    void startDeviceOutput();
    void takeDeviceOutput(std::int64_t frame, std::optional<std::size_t> stage);
    void pollFiles();
    void pollBuilds();
    // Builds the open project's kernel stages that run `tab`'s file from its text; returns the
    // ticket and slot of one of them (the tab can show its result), or nullopt when none was due.
    std::optional<std::pair<std::uint64_t, std::string>> submitStageBuilds(const EditorTab& tab, bool optionsChanged);
    void adoptStageBuild(const rtc::CompletedCompile& done); // a project stage's build; others are ignored
    void fireTypingPauses(double now);
    // The open project's parameters, resources and the running kernel's bindings, for the
    // editor's completion and hover (EditorState::projectNames, runningBindings).
    void editorProjectFacts();
    void applyEditorCommands(double now);
    void textReplaced(EditorTab& tab);

    AppOptions m_options;
    bool m_startPaused = false; // --paused, until the first project opens
    std::string m_savedSettings; // the settings as last read or written (JSON)
    std::chrono::steady_clock::time_point m_settingsCheckedAt{};
    bool m_settingsWarned = false;
    UiFonts m_fonts;
    mutable std::mutex m_sessionMutex; // guards replacing m_state.project.session (see frameProgress)
    AppState m_state;
    // A project session (and its probe) replaced or closed by a frame's commands lives on until the
    // next frame starts: the commands come after the panels, so that frame's draw data, rendered
    // after App::frame returns, still shows its views' textures (binding a deleted texture is a GL
    // error, which the next checked call reported: reopening a project failed on its first frame).
    // Declared after m_state (which holds the CUDA stream and context): destroyed before it.
    std::unique_ptr<teach::StageProbe> m_retiredProbe;
    std::unique_ptr<scene::Session> m_retiredSession;
    std::unique_ptr<proc::OutputCapture> m_deviceOutput; // standard output, while the Console captures it
    std::optional<supervise::FaultNotice> m_restartRequest;
    bool m_printfKernelRan = false; // a stage whose kernel prints has run (the driver's printf buffer is fixed)
    log::Sink m_previousSink;
};

// Recently opened projects ($XDG_STATE_HOME/kernelscope/recent_projects, else
// ~/.local/state/kernelscope/recent_projects), newest first.
std::vector<std::filesystem::path> loadRecentProjects();

// Loads the UI font (options.font, else DejaVu Sans if installed, else ImGui's built-in font) and
// the editor's (DejaVu Sans Mono if installed).
UiFonts loadFonts(const AppOptions& options);
// Colours and spacing of Kernelscope's UI.
void applyStyle(float uiScale = 1.f); // scaled by --ui-scale (HiDPI); 0 is 1

} // namespace ks::app
