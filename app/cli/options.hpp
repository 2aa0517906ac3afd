#pragma once
// Command-line options of the kernelscope executable.

#include <array>
#include <filesystem>
#include <optional>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ks::app {

// --check FILE.cu and --clear-cache: compile without a GPU or GL and exit (see cli/check_file.hpp).
// The largest window, framebuffer or demo texture side (--size, --image-size): every GL Kernelscope
// runs on allows 16384, and one RGBA8 image of 16384x16384 is already 1 GiB.
inline constexpr int kMaxImageSide = 16384;

struct CheckOptions {
    std::string file;                  // --check; empty: not checking
    std::string arch;                  // --arch; empty: the device's, else sm_90
    std::vector<std::string> defines;  // -DNAME[=VALUE]
    std::vector<std::string> includes; // -I DIR
    bool fastMath = false, lineInfo = false, debug = false, noCache = false;
    std::string cppStandard = "c++17";
    std::string fastCompile = "off";   // --fast-compile off|min|mid|max (the editor's builds too)
    bool clearCache = false;           // --clear-cache
    bool ptx = false, sass = false;    // --ptx, --sass: the listing with source lines, after the report
    bool requested() const { return !file.empty() || clearCache; }
};

struct AppOptions {
    bool headless = false;
    bool headlessBecauseNoDisplay = false; // chosen automatically: no DISPLAY / WAYLAND_DISPLAY
    int frames = 120;                      // headless: frames to render
    bool framesGiven = false;              // --frames was given: a window also closes after them
    std::filesystem::path screenshot;      // headless: PNG of the whole window after the last frame
    std::filesystem::path screenshotDir = "."; // --screenshot-dir: where F12's screenshots go
    std::filesystem::path record;          // headless: a PNG sequence, DIR/frame_NNNNNN.png (a new or empty folder)
    int recordEvery = 1;                   // record every Nth frame (frames are timeStep apart)
    int width = 1600, height = 900;        // window / headless framebuffer size
    bool sizeGiven = false;                // --size: the window opens at it, not at its saved size
    std::filesystem::path dataDir;         // --data-dir, else found from the executable
    std::filesystem::path font;            // a TTF for the UI; else DejaVu Sans if installed
    float fontSize = 16.f;
    // --ui-scale: fonts and spacing scaled (HiDPI); 0: the monitor's content scale in a window, 1 headless.
    float uiScale = 0.f;
    int device = 0;                        // CUDA device ordinal
    // --image-size: the size of --kernel's (or the default demo's) 2-D outputs that nothing else
    // sizes; without it surface textures follow the view showing them (InferOptions::size).
    std::optional<std::array<int, 2>> imageSize;
    float timeStep = 1.f / 60.f;           // headless: simulated seconds per frame
    // The frame pipeline (projects).
    std::filesystem::path project;         // --project: open this project (headless: run it)
    std::filesystem::path validate;        // --validate: check this project and exit
    std::vector<std::pair<std::string, std::filesystem::path>> dumps; // --dump NAME=out.npy
    std::filesystem::path timings;         // --timings out.json
    std::optional<std::uint64_t> seed;     // --seed: overrides the project's seed
    // --kernel FILE.cu[:NAME] runs the project inferred from the kernel's signature
    // (app/cli/kernel_project.hpp), with these bindings asked for on the command line.
    std::string kernelSpec;                                            // --kernel as given
    std::vector<std::pair<std::string, std::string>> args;             // --arg NAME=SPEC
    std::vector<std::pair<std::string, std::vector<std::int64_t>>> shapes; // --shape NAME=D0xD1
    std::optional<std::array<unsigned, 3>> grid, block;                // --grid, --block
    std::filesystem::path saveProject;                                 // --save-project OUT.json
    std::vector<std::filesystem::path> editFiles; // more files to open in editor tabs
    // Headless: after frame `editAtFrame` (1-based), the text of the running kernel's file becomes
    // `editWith`'s content, as if typed (unsaved) and built at once. For tests and demonstrations.
    int editAtFrame = 0;
    std::filesystem::path editWith;
    // The teaching panels. Any of --overlay, --timeline, --inspect, --layout (or --ui) makes a
    // headless run with --project run the whole app, panels included, not just the views.
    bool ui = false;                   // --ui
    std::string layout;                // --layout standard|classroom
    int overlayMode = -1;              // --overlay MODE: an index into teach::kOverlayModes
    float overlayOpacity = 0.65f;      // --overlay-opacity
    std::string stageName;             // --stage NAME: the kernel stage the teaching panels show
    bool timeline = false;             // --timeline: record the block timeline of the first frames
    // Window runs (and their GPU process) keep the panel layout and editor settings between launches
    // in $XDG_CONFIG_HOME/kernelscope; headless runs, tests and --no-settings do not.
    bool keepSettings = false;
    // Device printf: captured for the Console panel where the panels are drawn (a window, its GPU
    // process, a headless run of the whole app; a headless project run: standard output);
    // --printf-buffer sets the driver's printf buffer (0: the driver's own size).
    bool captureDeviceOutput = false;
    std::size_t printfBuffer = 0;
    bool paused = false;               // --paused: the first project opened starts paused (frame 0 runs)
    std::optional<std::array<int, 2>> inspect; // --inspect X,Y: pin the inspector on this element
    int tour = 0; // --tour[=N]: Help > Guided tour open at start, at step N (1: the first; 0: closed)
    // Supervision (docs/architecture.md, "Processes").
    double frameLimit = 2.0;               // --frame-limit S: a frame running longer never ends (0: off)
    bool noSupervise = false;              // --no-supervise: the window runs the GPU work itself
    std::string workerMode;                // --worker MODE (internal): "window" = the shell's worker
    std::vector<std::string> rawArgs;      // argv[1..] as given (the shell passes them to its worker)
    std::filesystem::path recoveryDir;     // where unsaved edits are kept; default RecoveryStore's
    // Find the fault (app/supervise/find_fault.hpp, docs/teaching/instrumentation.md).
    bool findFaults = false;               // --find-faults: a headless run that faults re-runs the frame checked
    double findFaultsLimit = 60;           // --find-faults-limit S: the checked re-run is stopped after this
    // The checked re-run itself (internal options, set by the process that spawns it): run frames
    // 0..checkedFrame-1, then the checked variant of stage checkedStage, and write checkedReport.
    std::int64_t checkedFrame = -1;        // --checked-frame F; -1: not a checked re-run
    std::string checkedStage;              // --checked-stage NAME
    std::filesystem::path checkedReport;   // --checked-report FILE.json
    std::filesystem::path checkedSource;   // --checked-source FILE: the text of the stage's kernel file
    // --checked-variant: which variant runs checked: "checked" (find the fault), "who" or
    // "timeline" (the teaching variants, checked; for .ci/checked-kernels.py).
    std::string checkedVariant = "checked";
    CheckOptions check;
};

// Parses argv. Returns the options, or an exit code when the program should stop (after --help,
// --version, or a usage error: 0 or 2), having printed what it had to.
struct ParseOutcome {
    std::optional<AppOptions> options;
    int exitCode = 0;
};
ParseOutcome parseOptions(int argc, char** argv);

// Up to `most` whole numbers from 1 to `largest` separated by `sep` ("256", "16,16", "1000x3"), as
// --shape, --grid and --block take them (and the Arguments panel's fields); nullopt with `why` set
// when `text` is not that.
std::optional<std::vector<std::int64_t>> parseDims(const std::string& text, char sep, std::size_t most,
                                                   long long largest, std::string& why);

} // namespace ks::app
