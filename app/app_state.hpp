#pragma once
// The data the panels draw from and the commands they push. Panels are functions over this state;
// a panel never reaches into another panel: it pushes a Command that App applies after the UI.

#include "editor/editor_state.hpp"
#include "panels/file_browser.hpp"
#include "supervise/find_fault.hpp"
#include "supervise/protocol.hpp"
#include "teach_state.hpp"

#include "ks/core/file_watcher.hpp"
#include "ks/core/log.hpp"
#include "ks/cuda/context.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/stream.hpp"
#include "ks/gl/gl.hpp"
#include "ks/gl/objects.hpp"
#include "ks/pipeline/infer.hpp"
#include "ks/rtc/cache.hpp"
#include "ks/rtc/kernel_facts.hpp"
#include "ks/rtc/listing.hpp"
#include "ks/rtc/service.hpp"
#include "ks/scene/session.hpp"

#include <deque>
#include <array>
#include <map>
#include <set>
#include <memory>
#include <filesystem>
#include <future>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace ks::app {

// The default demo: the project inferred from this kernel of <data>/kernels/thread_colors.cu.
inline constexpr const char* kDefaultDemoKernel = "thread_colors_surface";
inline std::filesystem::path defaultDemoFile(const std::filesystem::path& dataRoot)
{
    return dataRoot / "kernels" / "thread_colors.cu";
}

struct LogLine {
    log::Level level;
    std::string text;
};

// Filled by the log sink from any thread; read by the UI thread.
struct LogBuffer {
    std::mutex mutex;
    std::deque<LogLine> lines;
    void add(log::Level level, std::string_view text);
};

// What the project panels ask for; App applies it after the UI (see App::applyProjectCommands).
struct ProjectCommands {
    std::optional<std::filesystem::path> open;   // load this project (the current one stays on failure)
    // Run the project inferred from a kernel of a file (File > Open kernel..., a drop, the editor's
    // kernel picker): the file and the kernel ("": its first).
    std::optional<std::pair<std::filesystem::path, std::string>> openKernel;
    // The Arguments panel: infer the open kernel's project again with these bindings (an undoable
    // change), or with the bindings before the last change. A refusal keeps the running project.
    std::optional<pipeline::InferOptions> rebind;
    bool undoRebind = false;
    std::optional<std::filesystem::path> saveAs; // save (to the current file when empty path)
    // A new project from a template (its project file), written to the path, then opened.
    std::optional<std::pair<std::filesystem::path, std::filesystem::path>> newFromTemplate;
    bool save = false;
    bool close = false;
    std::optional<std::pair<std::size_t, std::size_t>> moveStage; // from, to
    bool restart = false;
};

struct JumpTo {
    std::filesystem::path path;
    int line = 0;
    bool focus = true; // put the cursor there (false: only scroll, e.g. when a project opens)
};

// Editor actions of the menu bar and the editor's shortcuts, on the active tab.
enum class EditorAction { Find, Replace, GoToLine, ToggleComment, Undo, Redo };

// The file dialog (panels/file_dialog.cpp over file_browser.hpp) and what its answer is for.
struct FileDialogState {
    enum class Purpose { None, OpenProject, OpenKernel, EditFile, SaveProjectAs, NewProject };
    Purpose purpose = Purpose::None;
    bool save = false;    // a name to save as (else an existing file to open)
    bool opening = false; // open the popup at the next frame
    std::string title;
    std::filesystem::path templateFile; // NewProject: the template
    FileBrowser browser;
    std::string problem; // why the last OK was refused
};

// Help > Guided tour (panels/tour.cpp): the step shown, and what the last frame drew, for tests.
struct TourStep;
struct TourState {
    bool open = false;
    int step = 0;                        // among the tour's steps
    const TourStep* broughtUp = nullptr; // the step whose panel was last shown (View menu) ...
    bool focusPending = false;           // ... and is still to be brought to the front
    std::string panel;                   // the window outlined this frame ("": none)
    std::array<float, 4> highlight{};    // that window's rectangle: x0, y0, x1, y1
};

// The menu bar's own state: its windows, the path fields of its File menu, and where its menus are
// (so tests can click them).
// File > Examples: the shipped projects with a picture of each (assets/thumbnails/NAME.png, made
// by .ci/thumbnails.sh on a GPU) and their one-line description. Read when the window first opens.
struct ExampleEntry {
    std::filesystem::path file;
    std::string name, description;
    gl::Texture2D thumbnail; // empty: none shipped for it
};
struct ExamplesState {
    bool show = false, loaded = false;
    std::vector<ExampleEntry> entries;
};

struct MenuState {
    bool showShortcuts = false, showAbout = false;
    ExamplesState examples;
    TourState tour;
    FileDialogState fileDialog;
    // Panels the user hid (View menu), by window name; View > Reset layout shows them again.
    std::set<std::string> hiddenPanels;
    float height = 0;                                      // of the bar, in pixels
};

struct Commands {
    std::optional<EditorAction> editorAction;
    // The kernel editor's.
    std::vector<int> textEdited; // tabs whose widget buffer the user changed this frame
    std::optional<int> save;     // tab index (Ctrl+S)
    std::optional<int> buildNow; // tab index (Ctrl+Enter)
    std::optional<std::pair<int, ConflictChoice>> resolveConflict;
    std::optional<std::pair<int, bool>> recovery; // tab index, true: restore the unsaved edits
    bool optionsChanged = false;                  // EditorState's options or their text fields
    std::optional<std::size_t> printfBuffer;      // the Options popup's printf buffer, bytes
    std::optional<std::filesystem::path> openFile;
    std::optional<int> closeTab;
    std::optional<JumpTo> jumpTo; // from another panel: show this line in the editor
    bool dismissFault = false;
    bool findFault = false; // the fault banner's "Find the fault"
    ProjectCommands project;
    TeachCommands teach;
    bool dropTaken = false; // a panel took AppState::drop
};

// Files dropped on the window (GLFW's drop callback: paths and where the pointer was), kept for the
// next frame's panels: a data file dropped on a row of the Arguments panel binds that parameter.
// What no panel takes, App opens after the UI (a .cu runs its inferred project, a .json opens).
struct FileDrop {
    std::vector<std::filesystem::path> paths;
    float x = 0, y = 0; // window pixels, as ImGui's mouse position
};

// A project made from a kernel's signature (File > Open kernel..., a dropped .cu, --kernel): what
// it was inferred from and how each parameter is bound, for the Arguments panel.
struct KernelProject {
    std::filesystem::path file;                // the kernel's source file
    pipeline::InferOptions options;            // the bindings asked for (the running project's)
    pipeline::Inference inference;             // each parameter's binding and why; the launch notes
    std::vector<pipeline::InferOptions> undo;  // the bindings before each change, the newest last
    std::vector<project::Problem> problems;    // why the last change was refused (the project runs on)
    // The panel's fields as typed, by "spec:NAME", "shape:NAME", "grid", "block"; reset to the
    // running bindings when they change.
    std::map<std::string, std::string> fields;
    std::string fieldProblem; // a field's text that is not a binding ("shape: 'x3' is not ...")
};

// Rolling per-frame history of the project pipeline, for the Timings panel.
struct PipelineHistory {
    static constexpr std::size_t kCapacity = 240;
    std::vector<std::string> stageNames;
    std::vector<std::vector<float>> stageMs; // per stage
    std::vector<float> interopUs, renderMs, frameMs;
    void push(const pipeline::FrameTimings& t);
};

// The open project: its running session and the panels' state for it.
struct ProjectState {
    // Declared before the session: a request pending on the session's pipeline refers to it.
    std::unique_ptr<teach::StageProbe> probe;
    std::unique_ptr<scene::Session> session;
    std::optional<KernelProject> kernel;    // when the running project was inferred from a kernel
    std::vector<project::Problem> problems; // of the last open or build that failed
    std::vector<std::filesystem::path> recent;
    std::string pathInput;                  // the panel's open / save-as field
    std::vector<std::array<int, 2>> viewSizes; // last frame's view sizes (the views panel sets them)
    int activeView = 0;                     // in tabs layout
    pipeline::InputState input;
    PipelineHistory history;
    // Builds of kernel stages from the editor's text, by compile-service slot.
    struct StageBuild {
        std::size_t stage = 0;
        std::string name;
        std::uint64_t ticket = 0;
    };
    std::map<std::string, StageBuild> stageBuilds;
    std::int64_t lastTimedFrame = -1; // the newest frame pushed into history (frames finish a call late)
    std::uint64_t buildsRun = 0;      // builds the kernel stages swapped in, as of the last frame that ran
    // The time control's value while it is dragged (the pipeline's last frame time otherwise).
    double scrubTime = 0.0;
    bool scrubbing = false;
};

// What the previous worker process died of, as this one shows it (after a restart).
struct ShownFault {
    std::string kind;     // "fault", "time limit", "crash", "not answering"
    std::int64_t frame = -1;
    std::string stage, kernel;
    std::filesystem::path file;
    std::string error, summary;
    std::string restored; // "at frame 41 with the contents of 3 resources (12.0 MiB) as after frame 40", or why not
    std::filesystem::path searchDir; // the running or last search's folder (a copy of the project, its report)
};

// Recording in the app (File > Record...): the panel asks, the platform that draws the window
// (HeadlessSession: the supervised worker, headless runs) records each frame and says how it goes.
struct RecordState {
    bool showWindow = false;      // the Record window
    bool wanted = false;          // recording asked for (Start) until Stop
    std::string target;           // FILE.mp4, FILE.gif, or a folder for PNG frames
    int format = 0;               // the window's choice: 0 MP4, 1 GIF, 2 PNG frames
    bool viewportOnly = true;     // the Views panel, else the whole window
    int every = 1;                // one frame recorded every `every` frames
    std::array<float, 4> viewportRect{}; // where the views are, pixels, top-left (x0, y0, x1, y1)
    // From the platform:
    bool running = false;
    int written = 0;
    std::string message; // the last recording's result or error
    // A screenshot asked for (F12: the views; Shift+F12, or F12 with the views hidden: the whole
    // window; File menu): the platform takes it after the frame is drawn and says where it went.
    enum class Shot { None, Views, Window };
    Shot shot = Shot::None;
    std::string shotNote;        // the last screenshot's result, in the status line for a while
    std::int64_t shotNoteUntil = 0; // the UI frame (AppState::frameIndex) it shows until
};

// The Console panel: device printf output, captured from the GPU process's standard output
// (App::takeDeviceOutput). Bounded: past kMaxLines the oldest lines go and are counted.
struct ConsoleState {
    static constexpr std::size_t kMaxLines = 5000;
    std::deque<supervise::ConsoleLine> lines;
    std::string partial;           // a line not ended yet
    std::uint64_t dropped = 0;     // lines dropped (over kMaxLines, or over what the capture keeps)
    std::size_t printfBuffer = 0;  // the driver's printf buffer (CU_LIMIT_PRINTF_FIFO_SIZE), bytes
    std::string bufferNote;        // why the size chosen (EditorState::printfBuffer) is not the driver's
    bool capturing = false;        // off in headless runs: the output goes to standard output
    bool autoScroll = true;
    // Appends `text` as lines of `frame` and `stage`; a line not ended waits for its end.
    void add(std::int64_t frame, const std::string& stage, std::string_view text);
};

// The Compile log's "PTX / SASS" tab (panels/listing_panel.cpp): the active file's newest good
// build as listings whose lines know their source lines. App::updateListings makes them off the UI
// thread, once per build; the panel only draws them and pushes jumps.
struct ListingState {
    // The listings of one build. Immutable once made; shared with the job that made them.
    struct Made {
        rtc::Listing ptx;
        rtc::PtxasReport resources; // registers, shared and local memory, spills per kernel
    };
    struct Sass {
        rtc::Listing listing;
        std::string note; // why there is none (no disassembler: how to get one), or what it lacks
    };
    // The build they are of, kept alive here, so that a later build can never be taken for it (an
    // address can be reused; a shared_ptr held cannot).
    std::shared_ptr<const rtc::CompileResult> of;
    std::filesystem::path file;
    std::shared_ptr<const Made> made;  // null while the job runs
    std::shared_ptr<const Sass> sass;  // null while nvdisasm runs
    std::future<std::shared_ptr<const Made>> madeJob;
    std::future<std::shared_ptr<const Sass>> sassJob;
    // Jobs of builds superseded before they finished: dropped once done, so that replacing one
    // never waits for it (a std::async future's destructor would). The app's end waits for them.
    std::vector<std::future<std::shared_ptr<const Made>>> retiredMade;
    std::vector<std::future<std::shared_ptr<const Sass>>> retiredSass;

    bool showSass = false;   // the tab shows SASS, else PTX
    bool ownWindow = false;  // shown in a window of its own (kListingWindow), not in the tab
    int scrolledForLine = 0; // the editor line the listing last scrolled to
    bool scrollToLine = false; // scroll to scrollLine's first instruction in the next frame
    std::size_t scrollLine = 0;
};

struct AppState {
    std::filesystem::path dataRoot;
    cuda::SystemInfo system;
    gl::ContextInfo glInfo;
    std::string glDescription;
    std::vector<int> glCudaDevices; // CUDA devices rendering the GL context
    std::optional<cuda::PrimaryContext> cuda;
    cuda::Stream stream;
    // Builds run on the service's worker; its results are taken in at frame boundaries. The cache
    // outlives the service that compiles into it.
    std::optional<rtc::CompileCache> compileCache;
    std::optional<rtc::CompileService> compiler;
    std::string arch = "sm_90";
    ProjectState project; // declared after the CUDA context and stream: destroyed before them
    TeachState teach;
    LogBuffer log;
    std::optional<FileWatcher> watcher; // empty when inotify is unavailable
    std::optional<project::RecoveryStore> recovery;
    EditorState editor;
    MenuState menu;
    RecordState record;
    ConsoleState console;
    ListingState listing;
    Commands commands;
    std::optional<FileDrop> drop;    // dropped since the last frame (App::dropFiles)
    std::optional<ShownFault> fault; // shown until dismissed or the project runs again
    FaultSearch faultSearch;         // "Find the fault": the checked re-run's process, watched from a thread
    float fps = 0;
    double lastFrameMs = 0;
    double smoothedFrameMs = 0;
    long long frameIndex = 0;

    // The open project's kernels run on a GPU this frame (the status bar's colour).
    bool cudaRunning() const { return cuda && project.session && project.session->pipeline().error().empty(); }
    const cuda::DeviceInfo* device() const
    {
        return cuda && system.devices.size() > std::size_t(cuda->ordinal()) ? &system.devices[std::size_t(cuda->ordinal())]
                                                                           : nullptr;
    }
};

} // namespace ks::app
