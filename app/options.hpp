#pragma once
// Command-line options of the kernelscope executable.

#include <filesystem>
#include <optional>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ks::app {

// --check FILE.cu and --clear-cache: compile without a GPU or GL and exit (see ks/rtc/check.hpp).
struct CheckOptions {
    std::string file;                  // --check; empty: not checking
    std::string arch;                  // --arch; empty: the device's, else sm_90
    std::vector<std::string> defines;  // -DNAME[=VALUE]
    std::vector<std::string> includes; // -I DIR
    bool fastMath = false, lineInfo = false, debug = false, noCache = false;
    std::string cppStandard = "c++17";
    bool clearCache = false;           // --clear-cache
    bool requested() const { return !file.empty() || clearCache; }
};

struct AppOptions {
    bool headless = false;
    bool headlessBecauseNoDisplay = false; // chosen automatically: no DISPLAY / WAYLAND_DISPLAY
    int frames = 120;                      // headless: frames to render
    bool framesGiven = false;              // --frames was given: a window also closes after them
    std::filesystem::path screenshot;      // headless: PNG of the whole window after the last frame
    int width = 1600, height = 900;        // window / headless framebuffer size
    std::filesystem::path dataDir;         // --data-dir, else found from the executable
    std::filesystem::path font;            // a TTF for the UI; else DejaVu Sans if installed
    float fontSize = 16.f;
    int device = 0;                        // CUDA device ordinal
    int blockX = 16, blockY = 16;          // the demo's block shape
    int imageWidth = 768, imageHeight = 512;
    float timeStep = 1.f / 60.f;           // headless: simulated seconds per frame
    CheckOptions check;
    // The frame pipeline (projects).
    std::filesystem::path project;         // --project: open this project (headless: run it)
    std::filesystem::path validate;        // --validate: check this project and exit
    std::vector<std::pair<std::string, std::filesystem::path>> dumps; // --dump NAME=out.npy
    std::filesystem::path timings;         // --timings out.json
    std::optional<std::uint64_t> seed;     // --seed: overrides the project's seed
    std::string arch = "sm_90";            // --validate's compile target when no device is there
};

// Parses argv. Returns the options, or an exit code when the program should stop (after --help,
// --version, or a usage error: 0 or 2), having printed what it had to.
struct ParseOutcome {
    std::optional<AppOptions> options;
    int exitCode = 0;
};
ParseOutcome parseOptions(int argc, char** argv);

} // namespace ks::app
