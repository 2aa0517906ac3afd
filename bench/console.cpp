// Device printf into the Console panel: how many lines a second the app takes in while it keeps
// 60 frames a second. A headless session with the capture a window's GPU process has
// (captureDeviceOutput) runs a kernel whose first N threads each print one line every frame, for N
// from 64 up; each frame is timed whole (the kernel, the wait for its output, the console's intake
// and the UI with the Console panel open). Frames are not paced, so a frame's time is its cost.
//   build/bench/ks_bench_console [--frames 120] [--json out.json]
// A row per N: median, 99th percentile and worst frame, the lines that reached the console, and the
// lines per second at 60 fps (N * 60) when the 99th percentile is within 16.7 ms.
#include "app.hpp"
#include "app_state.hpp"
#include "bench_support.hpp"
#include "cli/options.hpp"
#include "ks/core/atomic_file.hpp"
#include "ks/core/paths.hpp"
#include "ks/cuda/context.hpp"
#include "platform/platforms.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

using Clock = std::chrono::steady_clock;

struct Row {
    int threads = 0;
    double medianMs = 0, p99Ms = 0, worstMs = 0;
    std::size_t linesIn = 0, expected = 0, dropped = 0;
};

Row measure(const std::filesystem::path& dir, int threads, int frames)
{
    // A unique constant per run keeps the build a real one (no cache answers for an old source).
    const std::string source = "extern \"C\" __global__ void chatter(float* out, int n, int frame)\n"
                               "{\n"
                               "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                               "    if (i < n)\n"
                               "        out[i] = float(i);\n"
                               "    if (i < " + std::to_string(threads) + ")\n"
                               "        printf(\"thread %5d says hello in frame %6d\\n\", i, frame);\n"
                               "}\n";
    const std::filesystem::path file = dir / ("chatter_" + std::to_string(threads) + ".cu");
    std::ofstream(file) << source;

    ks::app::AppOptions options;
    options.headless = true;
    options.width = 1600;
    options.height = 900;
    options.dataDir = ks::paths::dataRoot();
    options.kernelSpec = file.string() + ":chatter";
    options.shapes = {{"out", {std::int64_t(std::max(threads, 256))}}};
    options.captureDeviceOutput = true;
    options.printfBuffer = std::size_t(64) << 20; // the FIFO never overflows: the console is measured
    options.recoveryDir = dir / "recovery";
    ks::app::HeadlessSession session(options);
    ks::app::App& app = session.app();
    const ks::app::AppState& s = app.state();
    Row row;
    row.threads = threads;
    if (!s.project.session || !app.settleBuilds(std::chrono::seconds(60))) {
        std::fprintf(stderr, "ks_bench_console: the kernel did not build: %s\n", app.statusLine().c_str());
        return row;
    }
    for (int i = 0; i < 3; ++i)
        session.renderFrame(); // the console panel opens with the first line
    const std::size_t before = s.console.lines.size() + s.console.dropped;
    std::vector<double> ms;
    for (int f = 0; f < frames; ++f) {
        const auto t0 = Clock::now();
        session.renderFrame();
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    row.linesIn = s.console.lines.size() + s.console.dropped - before;
    row.dropped = s.console.dropped;
    row.expected = std::size_t(threads) * std::size_t(frames);
    std::sort(ms.begin(), ms.end());
    row.medianMs = ms[ms.size() / 2];
    row.p99Ms = ms[std::min(ms.size() - 1, ms.size() * 99 / 100)];
    row.worstMs = ms.back();
    return row;
}

} // namespace

int main(int argc, char** argv)
{
    int frames = 120;
    std::string json;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--frames"))
            frames = std::max(10, std::atoi(argv[i + 1]));
        else if (!std::strcmp(argv[i], "--json"))
            json = argv[i + 1];
    }
    const ks::cuda::DriverStatus& status = ks::cuda::driverStatus();
    if (!status.available || status.deviceCount == 0) {
        std::printf("ks_bench_console: no CUDA device (%s); nothing to measure.\n", status.reason.c_str());
        return 0;
    }
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("ks_bench_console_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::vector<Row> rows;
    try {
        for (int threads : {64, 256, 1024, 4096, 16384, 65536})
            rows.push_back(measure(dir, threads, frames));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ks_bench_console: %s\n", e.what());
        std::filesystem::remove_all(dir);
        return 1;
    }
    std::filesystem::remove_all(dir);

    std::printf("\n%-10s %10s %10s %10s %12s %12s %14s\n", "lines/frame", "median ms", "p99 ms", "worst ms",
                "lines in", "of printed", "lines/s @60");
    std::string jsonRows;
    double best = 0;
    for (const Row& r : rows) {
        const bool keeps60 = r.p99Ms > 0 && r.p99Ms <= 1000.0 / 60.0;
        const double perSecond = keeps60 ? r.threads * 60.0 : 0;
        best = std::max(best, perSecond);
        std::printf("%-10d %10.2f %10.2f %10.2f %12zu %12.3f %14s\n", r.threads, r.medianMs, r.p99Ms, r.worstMs,
                    r.linesIn, r.expected ? double(r.linesIn) / double(r.expected) : 0.0,
                    keeps60 ? std::to_string(int(perSecond)).c_str() : "below 60 fps");
        char buf[512];
        std::snprintf(buf, sizeof buf,
                      "%s    {\"name\": \"%d printf lines a frame: frame time\", \"median\": %.3f, \"unit\": \"ms\", "
                      "\"note\": \"99th percentile %.2f ms, worst %.2f ms; %zu of %zu lines reached the console%s\"}",
                      jsonRows.empty() ? "" : ",\n", r.threads, r.medianMs, r.p99Ms, r.worstMs, r.linesIn, r.expected,
                      keeps60 ? "" : "; below 60 fps");
        jsonRows += buf;
    }
    std::printf("\nlines per second shown at 60 fps (99th percentile within 16.7 ms): %.0f\n", best);
    if (!json.empty()) {
        char buf[256];
        std::snprintf(buf, sizeof buf,
                      ",\n    {\"name\": \"lines a second shown at 60 fps\", \"median\": %.0f, \"unit\": \"lines/s\", "
                      "\"note\": \"the most printed lines a frame, times 60, with the 99th percentile frame within "
                      "16.7 ms\"}",
                      best);
        ks::paths::writeFileAtomically(json, "{\"bench\": \"ks_bench_console\", \"frames\": " + std::to_string(frames) +
                                                 ", \"rows\": [\n" + jsonRows + buf + "\n]}\n");
        std::printf("wrote %s\n", json.c_str());
    }
    return 0;
}
