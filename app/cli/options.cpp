#include "cli/options.hpp"

#include "platform/video_encoder.hpp"
#include "version.hpp"

#include "ks/teach/overlay.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <filesystem>

#include <cstdlib>
#include <iostream>

namespace ks::app {

std::optional<std::vector<std::int64_t>> parseDims(const std::string& text, char sep, std::size_t most,
                                                   long long largest, std::string& why)
{
    std::vector<std::int64_t> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(sep, start), text.size());
        const std::string digits = text.substr(start, end - start);
        if (digits.empty() || digits.size() > 12 ||
            !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
            why = "'" + text + "' is not whole numbers separated by '" + std::string(1, sep) + "'";
            return std::nullopt;
        }
        out.push_back(std::stoll(digits));
        if (out.back() < 1 || out.back() > largest) {
            why = "'" + text + "': each number is from 1 to " + std::to_string(largest);
            return std::nullopt;
        }
        start = end + 1;
    }
    if (out.size() > most) {
        why = "'" + text + "' has more than " + std::to_string(most) + " numbers";
        return std::nullopt;
    }
    return out;
}

ParseOutcome parseOptions(int argc, char** argv)
{
    AppOptions o;
    CLI::App cli{"Kernelscope: live CUDA kernels on OpenGL, with Dear ImGui panels.\n"
                 "With no display (no DISPLAY or WAYLAND_DISPLAY) it runs headless and writes a screenshot.",
                 "kernelscope"};
    cli.footer("\nYour own kernel on your own data (each parameter's binding is printed with its reason):\n"
               "  kernelscope --kernel kernels/tutorials/vector_add.cu\n"
               "  kernelscope --kernel kernels/tutorials/sobel.cu --arg in=photo.png --size 1280x720\n"
               "  kernelscope --kernel kernels/tutorials/scale_template.cu:scale<double> --arg data=x.npy --arg factor=3\n"
               "  kernelscope --headless --kernel kernels/tutorials/vector_add.cu --arg A=a.npy --arg B=b.npy \\\n"
               "              --frames 1 --dump C=c.npy\n"
               "  kernelscope --kernel kernels/tutorials/sobel.cu --arg in=photo.png --save-project sobel.json\n"
               "  kernelscope --headless --project sobel.json --frames 1 --dump out=edges.png\n"
               "More: docs/cli.md");
    cli.set_version_flag("--version", [] { return versionText(); },
                         "Print the version and commit, and the CUDA, NVRTC, OpenGL, ImGui and GLFW versions, and exit");
    cli.add_flag("--headless", o.headless,
                 "Render offscreen through EGL (NVIDIA's EGL device, or Mesa's software device) instead of a window");
    cli.add_option("--frames", o.frames,
                   "Number of frames to render before exiting (headless default 120; a window runs until closed "
                   "unless this is given)")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    cli.add_option("--screenshot-dir", o.screenshotDir,
                   "Folder for the screenshots F12 (the views) and Shift+F12 (the window) save, as "
                   "kernelscope-YYYYMMDD-HHMMSS.png (default: the current folder)");
    cli.add_option("--screenshot", o.screenshot,
                   "Write a PNG of the whole window (scene and panels) after the last frame");
    cli.add_option("--record", o.record,
                   "Record the run at a fixed rate of one frame every --record-every frames, whatever the run's "
                   "speed (headless and --no-supervise: frames of --time-step; a supervised window: the whole "
                   "window at 60 frames a second of video): FILE.mp4 (H.264) or FILE.gif (at most 50 frames a "
                   "second: faster is resampled) through the ffmpeg "
                   "program, or else a folder of PNG "
                   "frames, DIR/frame_NNNNNN.png (NNNNNN: the frame), new or empty. In a supervised window a "
                   "new GPU process ends the recording; what it recorded stays in its file");
    cli.add_option("--record-every", o.recordEvery, "With --record, record every Nth frame (default 1)")
        ->check(CLI::Range(1, 1000000));
    std::string size;
    cli.add_option("--size", size, "Window or headless framebuffer size, WIDTHxHEIGHT (default 1600x900)");
    std::string image;
    cli.add_option("--image-size", image,
                   "Size of the 2-D outputs of --kernel (or the default demo) that no data or --shape sizes, "
                   "WIDTHxHEIGHT: surface textures (default: the size of the view showing them) and 2-D buffers "
                   "(default 1024x1024)");
    cli.add_option("--data-dir", o.dataDir,
                   "Folder holding shaders/ and kernels/ (default: found next to the executable, or $KS_DATA_DIR)");
    cli.add_option("--font", o.font, "TrueType font for the UI (default: DejaVu Sans when installed; none: ImGui's built-in font)");
    cli.add_option("--font-size", o.fontSize, "UI font size in pixels")->check(CLI::Range(8.f, 64.f))->capture_default_str();
    cli.add_option("--ui-scale", o.uiScale,
                   "Scale the fonts and the panels' spacing, 0.5 to 4 (default: the monitor's content scale in a "
                   "window, 1 headless)")
        ->check(CLI::Range(0.5f, 4.f));
    cli.add_option("--device", o.device, "CUDA device ordinal")->check(CLI::NonNegativeNumber)->capture_default_str();
    std::string block, grid;
    cli.add_option("--block", block,
                   "The block shape of --kernel's launch (or the default demo's), X[,Y[,Z]] (default 256, or 16,16 "
                   "for a kernel that indexes in 2-D)");
    cli.add_option("--grid", grid, "--kernel: the grid, X[,Y[,Z]] (default: blocks that cover the first output)");
    std::vector<std::string> argSpecs, shapeSpecs;
    cli.add_option("--arg", argSpecs,
                   "--kernel: bind parameter NAME to SPEC, NAME=SPEC: FILE.npy, an image (FILE.png, .jpg, .bmp, "
                   ".hdr), FILE.raw:DTYPE:D0xD1, zeros, ones, range, random[:SEED], normal[:SEED], or a number; "
                   "a scalar also count:BUFFER, width:BUFFER, height:BUFFER or builtin:NAME (time, dt, frame, "
                   "seed, ...) (repeatable)")
        ->take_all();
    cli.add_option("--shape", shapeSpecs, "--kernel: the shape of buffer NAME, NAME=D0[xD1] (repeatable)")->take_all();
    cli.add_option("--save-project", o.saveProject,
                   "--kernel: write the inferred project to OUT.json and exit (no GPU needed: it parses and "
                   "compiles)");
    cli.add_option("--time-step", o.timeStep, "Headless: simulated seconds per frame")->capture_default_str();
    cli.add_option("--kernel", o.kernelSpec,
                   "Run a kernel of FILE.cu on data made from its signature, FILE.cu[:NAME] (NAME: a kernel, or a "
                   "template's instantiation such as scale<double>; default the file's first kernel). Each "
                   "parameter's binding is printed with its reason; --arg, --shape, --grid and --block change them");
    cli.add_option("--edit", o.editFiles, "More .cu files to open in editor tabs")->check(CLI::ExistingFile);
    cli.add_option("--edit-at-frame", o.editAtFrame,
                   "Headless: after this frame, replace the running kernel file's text in the editor with "
                   "--edit-with's (unsaved, built at once)")
        ->check(CLI::PositiveNumber);
    cli.add_option("--edit-with", o.editWith, "Headless: the replacement text for --edit-at-frame")
        ->check(CLI::ExistingFile);

    CheckOptions& check = o.check;
    cli.add_option("--check", check.file,
                   "Compile FILE.cu with NVRTC (no GPU or display needed), print diagnostics as FILE:LINE:COL: "
                   "severity: message and each kernel's facts; exit 0 ok, 1 compile errors, 2 bad usage");
    cli.add_option("--arch", check.arch, "Target architecture, e.g. sm_90, for --check, --validate and for the editor's builds when there is no GPU "
                   "(default: the GPU's, else sm_90)")
        ->check(CLI::Validator(
            [](const std::string& a) {
                return a.rfind("sm_", 0) == 0 || a.rfind("compute_", 0) == 0 ? std::string()
                                                                             : "expected sm_XX or compute_XX";
            },
            "ARCH"));
    cli.add_option("-D", check.defines, "--check: define a macro, NAME or NAME=VALUE (repeatable)");
    cli.add_option("-I", check.includes, "--check: add an include folder (repeatable)");
    cli.add_flag("--fast-math", check.fastMath, "--check: compile with --use_fast_math");
    cli.add_flag("--lineinfo", check.lineInfo, "--check: compile with -lineinfo");
    cli.add_flag("--ptx", check.ptx, "--check: print the PTX, each run of instructions under its source line");
    cli.add_flag("--sass", check.sass,
                 "--check: print the SASS (the toolkit's nvdisasm), each run of instructions under its source line");
    cli.add_flag("-G", check.debug, "--check: compile device code for debugging (-G)");
    cli.add_option("--fast-compile", check.fastCompile,
                   "NVRTC's --Ofast-compile level for --check and the editor's builds, off|min|mid|max: "
                   "faster compiles, less optimized code")
        ->check(CLI::IsMember({"off", "min", "mid", "max"}))
        ->capture_default_str();
    cli.add_option("--std", check.cppStandard, "--check: C++ standard")
        ->check(CLI::IsMember({"c++11", "c++14", "c++17", "c++20"}))
        ->capture_default_str();
    cli.add_flag("--no-cache", check.noCache, "--check: compile even if the compile cache has the build; store nothing");
    cli.add_flag("--clear-cache", check.clearCache, "Delete the compile cache ($XDG_CACHE_HOME/kernelscope) and exit");

    // The frame pipeline: projects, validation, dumps and timings.
    cli.add_option("--project", o.project, "Open a project file (JSON; see docs/projects.md); headless: run it");
    cli.add_option("--validate", o.validate,
                   "Check a project without running it (no GPU needed): JSON, fields, files, kernel compiles, "
                   "bindings. Prints FILE:LINE:COL: error: message per problem; exit 1 when there are any");
    std::vector<std::string> dumps;
    cli.add_option("--dump", dumps, "Headless: after the last frame write resource NAME as a NumPy file, NAME=out.npy")
        ->take_all();
    cli.add_option("--timings", o.timings, "Headless: write every frame's stage, interop and render timings as JSON");
    cli.add_flag("--ui", o.ui, "Headless with --project: run the whole app (panels and views), not just the views");
    cli.add_option("--layout", o.layout, "Panel layout: standard, or classroom (large fonts, editor beside the picture, "
                                         "launch panel open)")
        ->check(CLI::IsMember({"standard", "classroom"}))
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    cli.add_flag("--tour{1}", o.tour, "Open Help > Guided tour at start (--tour=N: at its step N), for a class")
        ->check(CLI::Range(0, 64));
    std::string overlay;
    cli.add_option("--overlay", overlay, "Colour the selected kernel stage's output by the thread that wrote it: "
                                         "blockIdx, threadIdx, \"linear thread id\", warp, lane, SM, "
                                         "\"block start order\" or \"write count\"");
    cli.add_option("--overlay-opacity", o.overlayOpacity, "Opacity of the overlay, 0..1")
        ->check(CLI::Range(0.f, 1.f))
        ->capture_default_str();
    cli.add_option("--stage", o.stageName, "The kernel stage the launch panel, overlay and timeline show (by name; "
                                           "default: the first kernel stage)");
    cli.add_flag("--timeline", o.timeline, "Record the block timeline of the selected kernel stage");
    cli.add_option("--printf-buffer", o.printfBuffer,
                   "Size of the driver's buffer for device printf, e.g. 8MB (default 1 MiB); output past it in one "
                   "kernel is lost (CU_LIMIT_PRINTF_FIFO_SIZE)")
        ->transform(CLI::AsSizeValue(false))
        ->check(CLI::Range(std::size_t(4096), std::size_t(1) << 32));
    cli.add_flag("--paused", o.paused,
                 "Start paused: frame 0 runs, then Space resumes and Right (or .) steps one frame");
    std::string inspect;
    cli.add_option("--inspect", inspect, "Pin the inspector on element X,Y of the recorded output (X alone for 1-D)");
    cli.add_option("--frame-limit", o.frameLimit,
                   "Seconds a frame may take before it is reported as never ending (default 2; 0: no limit). "
                   "The app offers to wait or stop; a headless run stops with exit status 4")
        ->check(CLI::Range(0.0, 3600.0))
        ->capture_default_str();
    cli.add_flag("--no-supervise", o.noSupervise,
                 "Run the GPU work in the window's own process (by default a supervised worker process does it, "
                 "so a faulting or endless kernel cannot take the app down)");
    bool noSettings = false;
    cli.add_flag("--no-settings", noSettings,
                 "Neither read nor write the saved settings (panel layout, window size, editor options) in "
                 "$XDG_CONFIG_HOME/kernelscope; headless runs never use them");
    cli.add_option("--worker", o.workerMode, "Internal: run as the supervised worker of a window")->group("");
    cli.add_flag("--find-faults", o.findFaults,
                 "Headless with --project: when a frame faults, re-run it in a new process with a checked variant "
                 "of the kernel and print the first bad access as FILE:LINE: error: ... (the exit status stays 3)");
    cli.add_option("--find-faults-limit", o.findFaultsLimit, "Seconds the checked re-run of --find-faults may take")
        ->check(CLI::Range(1.0, 3600.0))
        ->capture_default_str();
    cli.add_option("--checked-frame", o.checkedFrame, "Internal: the checked re-run of a faulting frame")
        ->check(CLI::NonNegativeNumber)
        ->group("");
    cli.add_option("--checked-stage", o.checkedStage, "Internal: the stage of --checked-frame")->group("");
    cli.add_option("--checked-report", o.checkedReport, "Internal: where --checked-frame writes its report")->group("");
    cli.add_option("--checked-source", o.checkedSource, "Internal: the text of --checked-stage's kernel file")
        ->check(CLI::ExistingFile)
        ->group("");
    cli.add_option("--checked-variant", o.checkedVariant,
                   "Internal: the variant --checked-frame runs checked: checked, who or timeline")
        ->check(CLI::IsMember({"checked", "who", "timeline"}))
        ->group("");
    std::uint64_t seed = 0;
    auto* seedOption = cli.add_option("--seed", seed, "Seed for the project's random stages (overrides the project's)");

    try {
        cli.parse(argc, argv);
        o.framesGiven = cli.count("--frames") > 0;
        if (*seedOption)
            o.seed = seed;
        for (const std::string& d : dumps) {
            const auto eq = d.find('=');
            if (eq == std::string::npos || eq == 0 || eq + 1 == d.size())
                throw CLI::ValidationError("--dump", "expected NAME=FILE.npy, found '" + d + "'");
            o.dumps.emplace_back(d.substr(0, eq), d.substr(eq + 1));
        }
        if ((!o.dumps.empty() || !o.timings.empty()) && o.project.empty() && o.kernelSpec.empty())
            throw CLI::ValidationError("--dump/--timings", "need --project or --kernel");
        auto nameEquals = [](const std::string& text, const char* what) {
            const auto eq = text.find('=');
            if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
                throw CLI::ValidationError(what, std::string("expected NAME=") +
                                                     (std::string(what) == "--arg" ? "SPEC" : "D0xD1") + ", found '" +
                                                     text + "'");
            return std::pair<std::string, std::string>(text.substr(0, eq), text.substr(eq + 1));
        };
        auto dims = [](const std::string& text, char sep, std::size_t most, long long largest, const char* what) {
            std::string why;
            if (auto out = parseDims(text, sep, most, largest, why))
                return *out;
            throw CLI::ValidationError(what, why);
        };
        for (const std::string& a : argSpecs)
            o.args.push_back(nameEquals(a, "--arg"));
        for (const std::string& a : shapeSpecs) {
            auto [name, text] = nameEquals(a, "--shape");
            o.shapes.emplace_back(name, dims(text, 'x', 2, std::int64_t(1) << 40, "--shape"));
        }
        auto dim3 = [&](const std::string& text, long long largest, const char* what) {
            const std::vector<std::int64_t> v = dims(text, ',', 3, largest, what);
            std::array<unsigned, 3> out{1, 1, 1};
            for (std::size_t i = 0; i < v.size(); ++i)
                out[i] = unsigned(v[i]);
            return out;
        };
        if (!grid.empty())
            o.grid = dim3(grid, 2147483647ll, "--grid");
        if ((!o.args.empty() || !o.shapes.empty() || o.grid || !o.saveProject.empty()) && o.kernelSpec.empty())
            throw CLI::ValidationError("--arg/--shape/--grid/--save-project", "go with --kernel FILE.cu[:NAME]");
        if (!o.kernelSpec.empty() && !o.project.empty())
            throw CLI::ValidationError("--kernel", "runs the project made from a kernel; --project opens a saved "
                                                   "one: give one of them");
        // Two positive whole numbers separated by `sep`, nothing else ("16x16junk" is refused).
        auto parsePair = [](const std::string& text, char sep, int& a, int& b, const char* what) {
            const auto at = text.find(sep);
            if (at == std::string::npos)
                throw CLI::ValidationError(what, "expected two numbers separated by '" + std::string(1, sep) + "'");
            auto number = [&](std::string_view digits) {
                long long v = 0;
                if (digits.empty() || digits.size() > 9 ||
                    !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
                    throw CLI::ValidationError(what, "'" + text + "' is not two whole numbers");
                for (char c : digits)
                    v = v * 10 + (c - '0');
                return int(v);
            };
            a = number(std::string_view(text).substr(0, at));
            b = number(std::string_view(text).substr(at + 1));
            if (a <= 0 || b <= 0)
                throw CLI::ValidationError(what, "both numbers must be positive");
        };
        // Framebuffers and textures of at most kMaxImageSide on a side: every GL Kernelscope runs on
        // (Mesa's software GL, NVIDIA's) allows 16384; one RGBA8 image that size is already 1 GiB.
        auto checkImageSize = [](int w, int h, const char* what) {
            if (w > kMaxImageSide || h > kMaxImageSide)
                throw CLI::ValidationError(what, std::to_string(w) + "x" + std::to_string(h) + " is larger than " +
                                                     std::to_string(kMaxImageSide) + "x" +
                                                     std::to_string(kMaxImageSide) + ", the largest image Kernelscope makes");
        };
        if (!size.empty()) {
            parsePair(size, 'x', o.width, o.height, "--size");
            checkImageSize(o.width, o.height, "--size");
            o.sizeGiven = true;
        }
        if (!image.empty()) {
            int w = 0, h = 0;
            parsePair(image, 'x', w, h, "--image-size");
            checkImageSize(w, h, "--image-size");
            o.imageSize = std::array<int, 2>{w, h};
        }
        if (!block.empty()) {
            o.block = dim3(block, 2147483647ll, "--block");
            const long long threads = static_cast<long long>((*o.block)[0]) * (*o.block)[1] * (*o.block)[2];
            if (threads > 1024)
                throw CLI::ValidationError("--block", block + " is " + std::to_string(threads) +
                                                          " threads per block; CUDA allows at most 1024 (X*Y*Z)");
        }
        if (!std::isfinite(o.timeStep) || o.timeStep <= 0 || o.timeStep > 3600)
            throw CLI::ValidationError("--time-step", "a number of seconds above 0 and at most 3600, not " +
                                                          std::to_string(o.timeStep));
        // Files the run will write: their folder must exist now, not after the last frame.
        auto checkOutput = [](const std::filesystem::path& file, const char* what) {
            if (file.empty())
                return;
            std::error_code ec;
            const std::filesystem::path folder = file.has_parent_path() ? file.parent_path() : ".";
            if (std::filesystem::is_directory(file, ec))
                throw CLI::ValidationError(what, file.string() + " is a folder; name a file in it");
            if (!std::filesystem::is_directory(folder, ec))
                throw CLI::ValidationError(what, "cannot write " + file.string() + ": the folder " + folder.string() +
                                                     " does not exist");
        };
        checkOutput(o.screenshot, "--screenshot");
        if (!o.record.empty() && videoFormatOf(o.record)) {
            checkOutput(o.record, "--record");
            std::string why;
            if (findFfmpeg(&why).empty())
                throw CLI::ValidationError("--record", why);
        } else if (!o.record.empty()) {
            std::error_code ec;
            if (std::filesystem::exists(o.record, ec) && !std::filesystem::is_directory(o.record, ec))
                throw CLI::ValidationError("--record", o.record.string() + " is not a folder");
            if (std::filesystem::is_directory(o.record, ec) && !std::filesystem::is_empty(o.record, ec))
                throw CLI::ValidationError("--record", o.record.string() +
                                                           " holds files already; name a new or empty folder "
                                                           "(nothing there is replaced)");
            const auto parent = std::filesystem::absolute(o.record).parent_path();
            if (!std::filesystem::is_directory(parent, ec))
                throw CLI::ValidationError("--record", "cannot make " + o.record.string() + ": the folder " +
                                                           parent.string() + " does not exist");
        }
        checkOutput(o.timings, "--timings");
        for (const auto& dump : o.dumps)
            checkOutput(dump.second, "--dump");
        if (!overlay.empty()) {
            const auto mode = teach::parseOverlayMode(overlay);
            if (!mode)
                throw CLI::ValidationError("--overlay", "unknown mode '" + overlay + "'");
            o.overlayMode = int(std::find(std::begin(teach::kOverlayModes), std::end(teach::kOverlayModes), *mode) -
                                std::begin(teach::kOverlayModes));
        }
        if (!inspect.empty()) {
            const auto comma = inspect.find(',');
            try {
                std::size_t used = 0;
                const int x = std::stoi(inspect, &used);
                const int y = comma == std::string::npos ? 0 : std::stoi(inspect.substr(comma + 1));
                if (x < 0 || y < 0 || (comma == std::string::npos && used != inspect.size()))
                    throw std::invalid_argument("negative");
                o.inspect = std::array<int, 2>{x, y};
            } catch (const std::exception&) {
                throw CLI::ValidationError("--inspect", "expected X,Y (or X) of non-negative numbers, found '" + inspect + "'");
            }
        }
        o.ui = o.ui || o.overlayMode >= 0 || o.timeline || o.inspect || !o.layout.empty() || o.tour > 0;
        if ((!o.dumps.empty() || !o.timings.empty()) && o.ui)
            throw CLI::ValidationError("--dump/--timings", "are for headless project runs without the panels; "
                                                           "--ui, --layout, --overlay, --timeline, --inspect and "
                                                           "--tour open the app, which writes neither");
        if (o.findFaults && (o.project.empty() || o.checkedFrame >= 0))
            throw CLI::ValidationError("--find-faults", "needs --project (and is not for a checked re-run)");
        if (o.checkedFrame >= 0 && (o.project.empty() || o.checkedStage.empty() || o.checkedReport.empty()))
            throw CLI::ValidationError("--checked-frame", "needs --project, --checked-stage and --checked-report");
        if (o.checkedFrame < 0 && (!o.checkedStage.empty() || !o.checkedReport.empty() || !o.checkedSource.empty() ||
                                   o.checkedVariant != "checked"))
            throw CLI::ValidationError("--checked-stage", "--checked-stage, --checked-report, --checked-source and "
                                                          "--checked-variant go with --checked-frame");
        if (o.checkedFrame >= 0)
            o.headless = true; // a throwaway process: never a window, never the app's panels
        if ((check.ptx || check.sass) && check.file.empty())
            throw CLI::ValidationError("--ptx", "--ptx and --sass print the listing of --check FILE.cu");
        if ((o.editAtFrame > 0) != !o.editWith.empty())
            throw CLI::ValidationError("--edit-at-frame", "--edit-at-frame and --edit-with go together");
    } catch (const CLI::ParseError& e) {
        // --help and --version exit 0; every usage error exits 2, as the header promises.
        return {std::nullopt, cli.exit(e) == 0 ? 0 : 2};
    }
    for (int i = 1; i < argc; ++i)
        o.rawArgs.emplace_back(argv[i]);
    o.keepSettings = !noSettings && !o.headless; // a window's GPU process (--worker) too
    if (!o.workerMode.empty()) {
        o.captureDeviceOutput = true;
        return {o, 0}; // the worker renders offscreen for its shell, display or not
    }
    const char* display = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    if (!o.headless && !(display && *display) && !(wayland && *wayland)) {
        o.headless = true;
        o.headlessBecauseNoDisplay = true;
        if (o.screenshot.empty())
            o.screenshot = "kernelscope-screenshot.png";
    }
    // Device printf goes to the Console wherever the panels are drawn: a window, and a headless run
    // of the whole app (its screenshot shows the Console as a window would). A headless project run
    // without the panels leaves it on standard output; the capture passes it on there too.
    o.captureDeviceOutput = !o.headless || o.ui || (o.project.empty() && o.kernelSpec.empty());
    return {o, 0};
}

} // namespace ks::app
