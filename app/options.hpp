#pragma once
// Command-line options of the kernelscope executable.

#include <filesystem>
#include <optional>
#include <string>

namespace ks::app {

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
};

// Parses argv. Returns the options, or an exit code when the program should stop (after --help,
// --version, or a usage error: 0 or 2), having printed what it had to.
struct ParseOutcome {
    std::optional<AppOptions> options;
    int exitCode = 0;
};
ParseOutcome parseOptions(int argc, char** argv);

} // namespace ks::app
