// Edit to pixels: from a changed kernel source to the first frame drawn with the new kernel, through
// the whole app headless (editor document -> compile service -> load and swap at a frame boundary ->
// launch -> the frame's GL drawing finished). Median of 20 edits; goal <= 50 ms.
//
//   ks_bench_edit_to_pixels [--json FILE] [--edits N] [--screenshot FILE] [--fast-compile LEVEL]
//
// Every edit is a real compile: the sources alternate between the demo kernel and its red/blue
// swapped variant, each with a small extra kernel whose constant is unique to the edit and the run,
// so no cache (Kernelscope's memory or disk cache, or NVRTC's own) can answer.
// Without a CUDA device (or headless GL on it) it prints why and exits 0, having run nothing.
#include "app.hpp"
#include "bench_support.hpp"
#include "cli/options.hpp"
#include "platform/platforms.hpp"

#include "ks/pipeline/kernel_stage.hpp"
#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/cuda/driver.hpp"
#include "ks/io/image.hpp"
#include "ks/rtc/compiler.hpp"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

struct Args {
    fs::path json;
    fs::path screenshot;
    int edits = 20;
    std::string fastCompile = "off"; // --fast-compile: NVRTC's --Ofast-compile level for the edits
};

int writeJson(const Args& args, const nlohmann::json& report)
{
    std::printf("%s\n", report.dump(2).c_str());
    if (args.json.empty())
        return 0;
    std::ofstream out(args.json);
    out << report.dump(2) << "\n";
    if (!out) {
        std::fprintf(stderr, "ks_bench_edit_to_pixels: cannot write %s\n", args.json.c_str());
        return 1;
    }
    return 0;
}

int skip(const Args& args, const std::string& reason)
{
    std::printf("ks_bench_edit_to_pixels: skipped: %s\n", reason.c_str());
    return writeJson(args, {{"bench", "edit_to_pixels"}, {"skipped", true}, {"reason", reason}});
}

double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    const double at = p * double(v.size() - 1);
    const auto lo = std::size_t(at);
    const auto hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (at - double(lo));
}

} // namespace

int main(int argc, char** argv)
{
    Args args;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--json" && i + 1 < argc)
            args.json = argv[++i];
        else if (a == "--screenshot" && i + 1 < argc)
            args.screenshot = argv[++i];
        else if (a == "--edits" && i + 1 < argc)
            args.edits = std::max(1, std::atoi(argv[++i]));
        else if (a == "--fast-compile" && i + 1 < argc && ks::rtc::parseFastCompile(argv[i + 1]))
            args.fastCompile = argv[++i];
        else {
            std::fprintf(stderr, "usage: ks_bench_edit_to_pixels [--json FILE] [--edits N] [--screenshot FILE] "
                                 "[--fast-compile off|min|mid|max]\n");
            return 2;
        }
    }
    if (!ks::cuda::driverStatus().available)
        return skip(args, "no CUDA device: " + ks::cuda::driverStatus().reason);

    try {
        const fs::path dir = fs::temp_directory_path() / ("ks_bench_edit_" + std::to_string(::getpid()));
        fs::create_directories(dir);
        const fs::path kernel = dir / "live.cu";
        const fs::path dataRoot = ks::paths::dataRoot();
        const std::string original = ks::paths::readTextFile(dataRoot / "kernels" / "thread_colors.cu");
        { std::ofstream(kernel) << original; }

        ks::app::AppOptions options;
        options.headless = true;
        options.width = 1600;
        options.height = 900;
        options.kernelSpec = kernel.string() + ":thread_colors_surface"; // the default demo's project, from a copy
        options.recoveryDir = dir / "recovery";
        options.dataDir = dataRoot;
        options.check.fastCompile = args.fastCompile;
        std::unique_ptr<ks::app::HeadlessSession> session;
        try {
            session = std::make_unique<ks::app::HeadlessSession>(options);
        } catch (const ks::Error& e) {
            if (e.domain() == ks::ErrorDomain::Egl)
                return skip(args, std::string("no headless GL on the CUDA device: ") + e.what());
            throw;
        }
        ks::app::App& app = session->app();
        const ks::app::AppState& s = app.state();
        app.settleBuilds(std::chrono::seconds(120));
        for (int i = 0; i < 3; ++i)
            session->renderFrame();
        const auto* stage = s.project.session && s.project.session->pipeline().stageCount() > 0
                                ? dynamic_cast<const ks::pipeline::KernelStage*>(&s.project.session->pipeline().stage(0))
                                : nullptr;
        if (!stage || !stage->function() || !s.project.session->pipeline().error().empty())
            return skip(args, "the demo does not run: " + app.statusLine());

        // A unique tag per run keeps the disk cache of earlier runs out of the measurement.
        const std::string nonce = std::to_string(::getpid()) + "-" +
                                  std::to_string(Clock::now().time_since_epoch().count());
        const int warmup = 2;
        std::vector<double> totalMs, compileMs;
        std::vector<int> frames;
        for (int i = 0; i < warmup + args.edits; ++i) {
            // A kernel with this edit's constant changes the generated code, so that NVRTC's own cache
            // (in the driver's compute cache) cannot answer either; a changed comment alone would let it.
            const std::string text = ks::bench::editedDemoKernel(original, i, nonce);
            const std::uint64_t before = app.kernelBuilds();
            const auto t0 = Clock::now();
            app.editDocument(kernel, text);
            int n = 0;
            while (app.kernelBuilds() <= before) {
                session->renderFrame();
                glFinish(); // "drawn": the frame's GL work is done, not just queued
                ++n;
                if (Clock::now() - t0 > std::chrono::seconds(30)) {
                    std::fprintf(stderr, "ks_bench_edit_to_pixels: edit %d never reached the screen: %s\n", i,
                                 stage->status().c_str());
                    return 1;
                }
            }
            const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
            if (i < warmup)
                continue;
            totalMs.push_back(ms);
            compileMs.push_back(stage->lastBuild() ? stage->lastBuild()->compileMs : 0.0);
            frames.push_back(n);
        }
        if (!args.screenshot.empty())
            ks::io::writePng(args.screenshot, session->screenshot());
        const std::string device = s.device() ? s.device()->name : std::string();
        session.reset();
        fs::remove_all(dir);

        const double median = percentile(totalMs, 0.5);
        std::printf("edit to pixels, %d edits (after %d warm-up), headless %dx%d, --Ofast-compile=%s\n", args.edits, warmup,
                    options.width, options.height, args.fastCompile.c_str());
        std::printf("  %-28s %10s %10s %10s %10s\n", "", "median", "min", "p90", "max");
        auto row = [](const char* name, const std::vector<double>& v) {
            std::printf("  %-28s %10.2f %10.2f %10.2f %10.2f\n", name, percentile(v, 0.5), percentile(v, 0.0),
                        percentile(v, 0.9), percentile(v, 1.0));
        };
        row("edit -> first new frame (ms)", totalMs);
        row("  of which NVRTC (ms)", compileMs);
        std::printf("  goal <= 50 ms: %s\n", median <= 50.0 ? "met" : "NOT met");
        nlohmann::json report = {{"bench", "edit_to_pixels"},
                                 {"skipped", false},
                                 {"device", device},
                                 {"edits", args.edits},
                                 {"fast_compile", args.fastCompile},
                                 {"median_ms", median},
                                 {"min_ms", percentile(totalMs, 0.0)},
                                 {"p90_ms", percentile(totalMs, 0.9)},
                                 {"max_ms", percentile(totalMs, 1.0)},
                                 {"median_compile_ms", percentile(compileMs, 0.5)},
                                 {"goal_ms", 50.0},
                                 {"goal_met", median <= 50.0},
                                 {"samples_ms", totalMs},
                                 {"frames_per_edit", frames}};
        return writeJson(args, report);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ks_bench_edit_to_pixels: error: %s\n", e.what());
        return 1;
    }
}
