#include "options.hpp"

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>

namespace ks::app {

ParseOutcome parseOptions(int argc, char** argv)
{
    AppOptions o;
    CLI::App cli{"Kernelscope: live CUDA kernels on OpenGL, with Dear ImGui panels.\n"
                 "With no display (no DISPLAY or WAYLAND_DISPLAY) it runs headless and writes a screenshot.",
                 "kernelscope"};
    cli.set_version_flag("--version", std::string("kernelscope ") + KS_VERSION);
    cli.add_flag("--headless", o.headless,
                 "Render offscreen through EGL (NVIDIA's EGL device, or Mesa's software device) instead of a window");
    cli.add_option("--frames", o.frames,
                   "Number of frames to render before exiting (headless default 120; a window runs until closed "
                   "unless this is given)")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    cli.add_option("--screenshot", o.screenshot,
                   "Write a PNG of the whole window (scene and panels) after the last frame");
    std::string size;
    cli.add_option("--size", size, "Window or headless framebuffer size, WIDTHxHEIGHT (default 1600x900)");
    std::string image;
    cli.add_option("--image-size", image, "Size of the demo's CUDA-written texture, WIDTHxHEIGHT (default 768x512)");
    cli.add_option("--data-dir", o.dataDir,
                   "Folder holding shaders/ and kernels/ (default: found next to the executable, or $KS_DATA_DIR)");
    cli.add_option("--font", o.font, "TrueType font for the UI (default: DejaVu Sans when installed)");
    cli.add_option("--font-size", o.fontSize, "UI font size in pixels")->check(CLI::Range(8.f, 64.f))->capture_default_str();
    cli.add_option("--device", o.device, "CUDA device ordinal")->check(CLI::NonNegativeNumber)->capture_default_str();
    std::string block;
    cli.add_option("--block", block, "The demo's block shape, X,Y (default 16,16)");
    cli.add_option("--time-step", o.timeStep, "Headless: simulated seconds per frame")->capture_default_str();

    try {
        cli.parse(argc, argv);
        o.framesGiven = cli.count("--frames") > 0;
        auto parsePair = [](const std::string& text, char sep, int& a, int& b, const char* what) {
            const auto at = text.find(sep);
            if (at == std::string::npos)
                throw CLI::ValidationError(what, "expected two numbers separated by '" + std::string(1, sep) + "'");
            try {
                a = std::stoi(text.substr(0, at));
                b = std::stoi(text.substr(at + 1));
            } catch (const std::exception&) {
                throw CLI::ValidationError(what, "'" + text + "' is not two numbers");
            }
            if (a <= 0 || b <= 0)
                throw CLI::ValidationError(what, "both numbers must be positive");
        };
        if (!size.empty())
            parsePair(size, 'x', o.width, o.height, "--size");
        if (!image.empty())
            parsePair(image, 'x', o.imageWidth, o.imageHeight, "--image-size");
        if (!block.empty())
            parsePair(block, ',', o.blockX, o.blockY, "--block");
    } catch (const CLI::ParseError& e) {
        return {std::nullopt, cli.exit(e)};
    }
    const char* display = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    if (!o.headless && !(display && *display) && !(wayland && *wayland)) {
        o.headless = true;
        o.headlessBecauseNoDisplay = true;
        if (o.screenshot.empty())
            o.screenshot = "kernelscope-screenshot.png";
    }
    return {o, 0};
}

} // namespace ks::app
