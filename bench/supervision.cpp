// What the supervised GPU process costs and how fast it recovers (issue 15), on the GPU host.
// Every row: name, median, goal (where the issue sets one) and met/missed.
//   1. A whole-app frame at 1920x1080 (the default demo's texture at 1920x1080; then the 16M
//      particles project) in this process, as --no-supervise runs it, against the same frame
//      across the boundary as the window runs it (two frames in flight; request, worker frame, the
//      shell's copy into its own GL texture, which the window then draws): through GPU memory both
//      GL contexts import, and through the shared CPU memory (the fallback). Steady loops.
//   1b. Interop: a project whose kernel writes 4 buffers; the map + unmap of every frame (host
//      microseconds), in this process and as the GPU process reports it (goal <= 15 us).
//   2. A kernel that never ends (faults/spin.json) with a 1 s frame limit: how long past the limit
//      the shell asks the user, whether it names the stage and kernel, and stop-to-next-frame.
//   3. Fault to next good frame: a project whose kernel writes far out of bounds at frame 3
//      (tests/projects/faults/oob_write.json) runs in a worker under a ShellLink, as the window
//      runs it; from the request of the frame that faulted to the first frame of the replacement
//      worker (start, CUDA context, compile-cache hit, restore of the resources' contents,
//      render), median of --faults runs. Last, and without the panels' raster draw
//      (KS_SKIP_UI_DRAW=1) unless --draw-ui: on the lent GPU hosts every raster draw hangs once
//      a kernel has faulted (docs/supervision.md).
// Usage: ks_bench_supervision [--json out.json] [--faults N] [--frames N] [--rounds N (the demo's, 3)]
//        [--kernelscope PATH]
//        [--only frame|interop|runaway|edit|fault] [--restored-png FILE (the window after the first fault)]
//        [--draw-ui] [--diagnose (part 1: also one frame in flight, and frames not copied; part 1b: the
//        in-process map + unmap split into its calls, with the frame before's GL work queued, flushed
//        or finished)]
// The worker is the app binary: --kernelscope, $KS_KERNELSCOPE, or ../app/kernelscope beside this.
#include "app.hpp"
#include "bench_support.hpp"
#include "cli/options.hpp"
#include "platform/platforms.hpp"
#include "supervise/shell_link.hpp"
#include "supervise/shell_screen.hpp"

#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/gl/egl_context.hpp"
#include "ks/gl/objects.hpp"
#include "ks/io/image.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

using namespace ks;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

namespace {

using bench::fixed;
using bench::median;

double msBetween(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double, std::milli>(b - a).count();
}

struct Report {
    nlohmann::ordered_json json;
    void row(const std::string& name, double value, const char* unit, std::optional<double> goal = std::nullopt,
             const std::string& note = {})
    {
        std::printf("  %-62s %10.3f %-3s", name.c_str(), value, unit);
        nlohmann::ordered_json j{{"name", name}, {"median", value}, {"unit", unit}};
        if (goal) {
            const bool met = value >= 0 && value <= *goal;
            std::printf("  goal <= %g %s: %s", *goal, unit, met ? "met" : "MISSED");
            j["goal"] = *goal;
            j["met"] = met;
        }
        if (!note.empty()) {
            std::printf("  (%s)", note.c_str());
            j["note"] = note;
        }
        std::printf("\n");
        json["rows"].push_back(j);
    }
    void section(const std::string& t) { std::printf("\n%s\n", t.c_str()); }
    void note(const std::string& t)
    {
        std::printf("  %s\n", t.c_str());
        json["notes"].push_back(t);
    }
};

fs::path findApp(const std::string& given)
{
    if (!given.empty())
        return given;
    if (const char* e = std::getenv("KS_KERNELSCOPE"))
        return e;
    return fs::read_symlink("/proc/self/exe").parent_path().parent_path() / "app" / "kernelscope";
}

app::ShellLink::Config workerConfig(const fs::path& exe, std::vector<std::string> args, double frameLimitMs)
{
    app::ShellLink::Config c;
    c.executable = exe;
    c.args = std::move(args);
    // The worker's state carries the frame limit (the editor's option) and the shell follows it,
    // so the worker is given the same limit, as the window gives it its own arguments.
    c.args.insert(c.args.end(), {"--frame-limit", std::to_string(frameLimitMs / 1000.0), "--worker", "window"});
    c.frameLimitMs = frameLimitMs;
    return c;
}

app::supervise::FrameRequest request(int w, int h, double t)
{
    app::supervise::FrameRequest r;
    r.width = w;
    r.height = h;
    r.time = t;
    r.dt = 1.0 / 60;
    return r;
}

// One frame requested at w x h and waited for; nullopt when the worker gave up, was replaced, or
// sent nothing within `limit`.
std::optional<app::ShellLink::Frame> nextFrame(app::ShellLink& link, int w, int h, std::chrono::seconds limit = 30s)
{
    while (!link.readyForFrame())
        if (link.pump(1ms) || link.dialog() == app::ShellLink::Dialog::GaveUp)
            break;
    link.requestFrame(request(w, h, 0));
    for (const auto until = Clock::now() + limit; Clock::now() < until;) {
        if (std::optional<app::ShellLink::Frame> f = link.pump(100ms))
            return f;
        if (link.dialog() == app::ShellLink::Dialog::GaveUp || link.restarts() > 0)
            return std::nullopt;
    }
    return std::nullopt;
}

// Frames until `n` arrived (or the limit); the last frame's arrival time.
int driveFrames(app::ShellLink& link, int n, int w, int h, std::chrono::seconds limit = 120s)
{
    int got = 0;
    const auto until = Clock::now() + limit;
    while (got < n && Clock::now() < until && link.dialog() != app::ShellLink::Dialog::GaveUp) {
        if (link.readyForFrame())
            link.requestFrame(request(w, h, got / 60.0));
        if (link.pump(50ms))
            ++got;
    }
    return got;
}

void faultToNextFrame(Report& rep, const fs::path& exe, int runs, const fs::path& restoredPng, bool drawUi)
{
    const fs::path project = paths::dataRoot() / "tests" / "projects" / "faults" / "oob_write.json";
    rep.section("3. fault to next good frame (" + project.filename().string() + ", out-of-bounds write at frame 3; " +
                std::to_string(runs) + " runs" + (drawUi ? ")" : "; the workers lay out the panels but skip their raster draw)"));
    rep.json["faultRunsDrawUi"] = drawUi;
    std::vector<double> total, detect, restart;
    std::string said;
    int failures = 0;
    for (int i = 0; i < runs; ++i) {
        app::ShellLink link(workerConfig(exe, {"--project", project.string(), "--size", "1280x720"}, 2000));
        Clock::time_point lastRequest{}, seen{}, next{};
        bool faulted = false;
        const auto until = Clock::now() + 30s;
        int shown = 0;
        while (Clock::now() < until && link.dialog() != app::ShellLink::Dialog::GaveUp) {
            if (link.readyForFrame()) {
                link.requestFrame(request(1280, 720, 0));
                if (!faulted)
                    lastRequest = Clock::now();
            }
            std::optional<app::ShellLink::Frame> f = link.pump(5ms);
            shown += f.has_value();
            if (!faulted && link.restarts() > 0) {
                faulted = true;
                seen = Clock::now();
            }
            if (faulted && f) {
                next = Clock::now();
                break;
            }
        }
        if (!faulted || next == Clock::time_point{}) {
            ++failures;
            rep.note("run " + std::to_string(i) + ": " + (faulted ? "no frame after the fault" : "no fault seen") +
                     " in 30 s, " + std::to_string(shown) + " frames (" + link.lastStatus() + ")");
            if (failures >= 2)
                break;
            continue;
        }
        said = link.history().back().summary + " | " + link.history().back().error;
        if (i == 0)
            rep.note("the new worker's status line: " + link.lastStatus());
        if (i == 0 && !restoredPng.empty() && msBetween(seen, next) < 5000) {
            // The window as the user sees it once the worker is replaced (a few frames in, so that
            // the restored layout has settled), for the docs.
            std::optional<app::ShellLink::Frame> f;
            for (int k = 0; k < 5; ++k) {
                while (!link.readyForFrame())
                    link.pump(5ms);
                link.requestFrame(request(1280, 720, 0));
                while (!(f = link.pump(50ms)) && link.restarts() == 1) {
                }
            }
            if (f) {
                io::Rgba8Image img{f->width, f->height, {}};
                const auto* px = static_cast<const std::uint8_t*>(f->pixels);
                const std::size_t row = std::size_t(f->width) * 4;
                for (int y = f->height - 1; y >= 0; --y)
                    img.pixels.insert(img.pixels.end(), px + std::size_t(y) * row, px + std::size_t(y + 1) * row);
                io::writePng(restoredPng, img);
                rep.note("wrote " + restoredPng.string() + ": the window after the fault, restored");
            }
        }
        total.push_back(msBetween(lastRequest, next));
        detect.push_back(msBetween(lastRequest, seen));
        restart.push_back(msBetween(seen, next));
    }
    rep.note("the shell was told: " + said);
    rep.row("faulting frame requested -> next good frame shown", median(total) / 1000.0, "s", 1.5);
    rep.row("  faulting frame requested -> worker's end seen", median(detect), "ms");
    rep.row("  worker's end seen -> new worker's first frame (restored)", median(restart), "ms");
    if (!total.empty()) {
        std::sort(total.begin(), total.end());
        rep.row("  fault -> next frame, slowest run", total.back() / 1000.0, "s");
    }
    rep.row("runs without a fault and a restored frame", failures, "");
}

void runaway(Report& rep, const fs::path& exe)
{
    const fs::path project = paths::dataRoot() / "tests" / "projects" / "faults" / "spin.json";
    rep.section("2. a kernel that never ends (" + project.filename().string() + " from frame 3), frame limit 1 s");
    app::ShellLink link(workerConfig(exe, {"--project", project.string(), "--size", "1280x720"}, 1000));
    Clock::time_point lastRequest{};
    const auto until = Clock::now() + 60s;
    while (Clock::now() < until && link.dialog() != app::ShellLink::Dialog::FrameTooLong &&
           link.dialog() != app::ShellLink::Dialog::GaveUp) {
        if (link.readyForFrame()) {
            link.requestFrame(request(1280, 720, 0));
            lastRequest = Clock::now();
        }
        link.pump(5ms);
    }
    if (link.dialog() != app::ShellLink::Dialog::FrameTooLong) {
        rep.note("the frame limit was never reported: " + link.dialogText());
        return;
    }
    const double late = msBetween(lastRequest, Clock::now()) - 1000.0;
    rep.row("limit passed -> the user is asked", late / 1000.0, "s", 0.5);
    const std::string text = link.dialogText();
    rep.note("the dialog says: " + text.substr(0, text.find('\n')));
    rep.row("  the dialog names the stage and kernel (1 yes, 0 no)",
            text.find("kernel spin") != std::string::npos && text.find("stage \"paint\"") != std::string::npos ? 1 : 0, "");
    const auto stop = Clock::now();
    link.stopAndRestore();
    if (driveFrames(link, 1, 1280, 720, 60s) == 1) {
        rep.row("stop -> next frame (new worker, restored)", msBetween(stop, Clock::now()) / 1000.0, "s");
        rep.note("the new worker's status line: " + link.lastStatus());
    } else
        rep.note("no frame after stop: " + link.dialogText());
}

// The app's options for `kernelscope --headless ARGS`.
app::AppOptions headlessOptions(const std::vector<std::string>& args)
{
    std::vector<std::string> all = {"kernelscope", "--headless"};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : all)
        argv.push_back(a.data());
    app::ParseOutcome parsed = app::parseOptions(int(argv.size()), argv.data());
    if (!parsed.options)
        throw Error(ErrorDomain::Usage, "parseOptions", 0, "", "bad bench arguments");
    return *parsed.options;
}

// The whole app in this process: total / frames of a steady loop (glFinish at the end), once every
// build has finished and been swapped in (a loop that starts before the demo's first build lands
// times frames without the kernel).
// With `readBack`, each frame is also read into a buffer (rotating over three) as the worker reads
// it into its frame memory: what the readback alone costs (--diagnose).
double inProcessMs(const std::vector<std::string>& args, int frames, bool readBack = false)
{
    app::HeadlessSession s(headlessOptions(args));
    s.app().settleBuilds(std::chrono::seconds(120));
    std::vector<gl::Buffer> slots;
    if (readBack)
        for (int k = 0; k < 3; ++k)
            slots.emplace_back(std::size_t(s.width()) * s.height() * 4);
    for (int f = 0; f < 20; ++f)
        s.renderFrameAt(f / 60.f, 1 / 60.f);
    glFinish();
    const auto t0 = Clock::now();
    for (int f = 0; f < frames; ++f) {
        s.renderFrameAt((20 + f) / 60.f, 1 / 60.f);
        if (readBack)
            s.readPixelsInto(slots[std::size_t(f) % slots.size()].name());
    }
    glFinish();
    return msBetween(t0, Clock::now()) / frames;
}

// How frames cross: rendered in place into textures on GPU memory both GL contexts import (what
// the window does), read into buffers on that memory (KS_FRAME_BUFFERS=1), or read back into the
// shared CPU memory and uploaded.
enum class Transport { InPlace, GpuBuffers, Cpu };
const char* transportName(Transport t)
{
    return t == Transport::InPlace      ? "GPU memory, rendered in place"
           : t == Transport::GpuBuffers ? "GPU memory, read into buffers"
                                        : "CPU memory";
}

// The same across the boundary, as the window runs it: `inFlight` frames in flight, each frame
// taken by app::ShellScreen as `transport` says and blitted into a framebuffer the size of the
// window, as the window shows it (rendered in place: straight from the slot's texture; otherwise
// from the shell's copy); with `copy` false the shell neither takes nor shows the frames (what the
// transport alone costs). Steady loop; ms -1 when the worker gave up.
struct Across {
    double ms = -1;
    bool throughGpu = false, inPlace = false;
    std::vector<double> workerMs;
    double waitMs = 0, takeMs = 0, pumpMs = 0; // per frame: the shell's wait before asking, its take and blit, its pump
    std::vector<double> interopUs;             // the worker's map + unmap per frame, as it reported them
};
Across acrossMs(const fs::path& exe, const std::vector<std::string>& args, int w, int h, int frames,
                Transport transport, bool demo, int inFlight = 2, bool copy = true)
{
    gl::EglContext egl{gl::EglOptions{}};
    app::ShellScreen screen;
    app::ShellLink::Config config = workerConfig(exe, args, 0);
    config.framesInFlight = inFlight;
    if (transport != Transport::Cpu)
        config.shellGl = app::ShellScreen::shellGl();
    if (config.shellGl)
        config.shellGl->textures = transport == Transport::InPlace;
    app::ShellLink link(config);
    const gl::Framebuffer window(w, h); // stands in for the window's framebuffer
    Across a;
    bool built = false; // a frame of the demo's build came (the project's stages build before their first frame)
    auto show = [&](int n) {
        int shown = 0;
        for (const auto until = Clock::now() + 120s; shown < n && Clock::now() < until;) {
            if (link.dialog() == app::ShellLink::Dialog::GaveUp || link.restarts() > 0)
                return false;
            while (link.readyForFrame()) { // keep `inFlight` frames on their way
                const auto t = Clock::now();
                screen.finishReading();
                a.waitMs += msBetween(t, Clock::now());
                link.requestFrame(request(w, h, shown / 60.0));
            }
            const auto t0 = Clock::now();
            const std::optional<app::ShellLink::Frame> f = link.pump(50ms);
            const auto t1 = Clock::now();
            a.pumpMs += msBetween(t0, t1);
            if (!f)
                continue;
            a.throughGpu = f->gpuMemory != 0;
            a.inPlace = a.throughGpu && link.gpuFrameMemory() && link.gpuFrameMemory()->width > 0;
            built = built || f->kernelBuild > 0;
            if (copy && !screen.take(*f, link))
                continue;
            if (copy)
                screen.blit(h, window.name());
            a.takeMs += msBetween(t1, Clock::now());
            a.workerMs.push_back(f->workerMs);
            if (f->interopUs >= 0)
                a.interopUs.push_back(f->interopUs);
            ++shown;
        }
        return shown == n;
    };
    if (!show(20))
        return a;
    for (int k = 0; k < 100 && demo && !built; ++k) // warm up until the demo kernel's first build runs
        if (!show(5))
            return a;
    glFinish();
    a.workerMs.clear();
    a.interopUs.clear();
    a.waitMs = a.takeMs = a.pumpMs = 0;
    const auto t0 = Clock::now();
    if (!show(frames))
        return a;
    glFinish();
    a.ms = msBetween(t0, Clock::now()) / frames;
    a.waitMs /= frames;
    a.takeMs /= frames;
    a.pumpMs /= frames;
    return a;
}

// A project whose one kernel writes 4 float4 buffers of 1M elements each (the interop measure of
// ks_bench_pipeline, as a whole project), in a temp folder.
fs::path fourBuffersProject()
{
    const fs::path dir = fs::temp_directory_path() / "ks-bench-four-buffers";
    fs::create_directories(dir);
    std::ofstream(dir / "four.cu") << R"cu(extern "C" __global__ void four(float4* a, float4* b, float4* c, float4* d, int n, float t)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float4 v = make_float4(t, float(i & 1023) / 1024.f, float(i >> 10) / 1024.f, 1.f);
    a[i] = v;
    b[i] = v;
    c[i] = v;
    d[i] = v;
}
)cu";
    nlohmann::json j = {{"kernelscope", 1}, {"name", "bench: 4 buffers"}, {"seed", 1}};
    for (const char* r : {"b0", "b1", "b2", "b3"})
        j["resources"][r] = {{"kind", "buffer"}, {"type", "float4"}, {"shape", {1024, 1024}}};
    j["stages"] = nlohmann::json::array({{{"kind", "kernel"}, {"name", "four"}, {"file", "four.cu"}, {"kernel", "four"},
                                          {"cover", "b0"}, {"block", {256}},
                                          {"args", {"b0", "b1", "b2", "b3", {{"count", "b0"}}, {{"builtin", "time"}}}}}});
    j["views"] = nlohmann::json::array({{{"kind", "image"}, {"name", "b0"}, {"source", "b0"}}});
    std::ofstream(dir / "four.json") << j.dump(2);
    return dir / "four.json";
}

// What GL work is left to the next frame's map: none done (as the in-process loop runs), the frame's
// GL commands flushed (as a window's swap and the GPU process's fence do), or finished (the GPU
// idle, as ks_bench_pipeline's interop rows measure the calls).
enum class AfterFrame { Nothing, Flush, Finish };
const char* afterFrameName(AfterFrame a)
{
    return a == AfterFrame::Nothing ? "nothing after each frame"
           : a == AfterFrame::Flush ? "glFlush after each frame"
                                    : "glFinish after each frame";
}

// The pieces of every frame's map + unmap in this process (host microseconds, one entry per
// finished frame), `after` done after each frame.
struct InteropPieces {
    std::vector<double> total, call, pointers, unmap;
};
InteropPieces interopPiecesInProcess(const std::vector<std::string>& args, int frames, AfterFrame after)
{
    app::HeadlessSession s(headlessOptions(args));
    s.app().settleBuilds(std::chrono::seconds(120));
    InteropPieces p;
    std::int64_t seen = -1;
    for (int f = 0; f < frames + 20; ++f) {
        s.renderFrameAt(f / 60.f, 1 / 60.f);
        if (after == AfterFrame::Flush)
            glFlush();
        else if (after == AfterFrame::Finish)
            glFinish();
        const scene::Session* session = s.app().state().project.session.get();
        if (!session)
            break;
        const pipeline::FrameTimings& t = session->pipeline().timings();
        if (f < 20 || !t.valid || t.frame == seen)
            continue;
        seen = t.frame;
        p.total.push_back(t.mapUs + t.unmapUs);
        p.call.push_back(t.mapCallUs);
        p.pointers.push_back(t.pointersUs);
        p.unmap.push_back(t.unmapUs);
    }
    return p;
}

// The app's interop (map + unmap of a frame's resources, host microseconds) in this process and in
// the worker, for the same project: the medians of every frame's. With `diagnose`, the in-process
// frames' pieces with the GL work of the frame before left queued, flushed or finished.
void interopAcross(Report& rep, const fs::path& exe, int frames, bool diagnose)
{
    rep.section("1b. interop per frame, a project with 4 buffers, in this process and in the GPU process (" +
                std::to_string(frames) + " frames each)");
    const std::vector<std::string> args = {"--size", "1280x720", "--project", fourBuffersProject().string()};
    const InteropPieces in = interopPiecesInProcess(args, frames, AfterFrame::Nothing);
    const Across a = acrossMs(exe, args, 1280, 720, frames, Transport::InPlace, false);
    rep.row("map + unmap of the 4 buffers, in process (median)", median(in.total), "us", 15.0);
    rep.row("map + unmap of the 4 buffers, in the GPU process (median)", a.interopUs.empty() ? -1 : median(a.interopUs),
            "us", 15.0, std::to_string(a.interopUs.size()) + " frames reported");
    if (!diagnose)
        return;
    for (AfterFrame after : {AfterFrame::Nothing, AfterFrame::Flush, AfterFrame::Finish}) {
        const InteropPieces p = after == AfterFrame::Nothing ? in : interopPiecesInProcess(args, frames, after);
        if (p.total.empty())
            continue;
        rep.row(std::string("in process, ") + afterFrameName(after) + ": map + unmap", median(p.total), "us", 15.0,
                "map call " + fixed(median(p.call)) + " + pointer " + fixed(median(p.pointers)) + " + unmap call " +
                    fixed(median(p.unmap)) + "; " + std::to_string(p.total.size()) + " frames");
    }
}

// particles.json with `count` particles, in a temp folder (its kernel paths made absolute).
fs::path particlesProject(std::int64_t count)
{
    const fs::path src = paths::dataRoot() / "projects" / "particles.json";
    nlohmann::json j = nlohmann::json::parse(std::ifstream(src));
    for (auto& [name, r] : j["resources"].items())
        if (r.contains("count"))
            r["count"] = count;
        else if (r.contains("shape"))
            r["shape"] = nlohmann::json::array({count});
    for (auto& s : j["stages"])
        if (s.contains("file"))
            s["file"] = fs::weakly_canonical(src.parent_path() / s["file"].get<std::string>()).string();
    const fs::path out = fs::temp_directory_path() / ("ks-bench-particles-" + std::to_string(count) + ".json");
    std::ofstream(out) << j.dump(2);
    return out;
}

void frames(Report& rep, const fs::path& exe, int n, int demoRounds, bool diagnose)
{
    rep.section("1. whole-app frames at 1920x1080, in this process and across the boundary (" + std::to_string(n) +
                " frames each)");
    struct Case {
        std::string name;
        std::vector<std::string> args;
        double goal;
    };
    const fs::path particles = particlesProject(16 * 1024 * 1024);
    const std::vector<Case> cases = {
        {"default demo, 1920x1080 texture", {"--size", "1920x1080", "--image-size", "1920x1080"}, 1.10},
        {"16M particles project", {"--size", "1920x1080", "--project", particles.string()}, 1.05},
    };
    for (const Case& c : cases) {
        // The short demo frame is at the mercy of clocks and the host's scheduler: --rounds rounds
        // (3), each in process, then across through GPU memory, then through CPU memory, and the
        // ratio of the medians (and each round's, and how many rounds met the goal). The
        // 16M-particle frame is steady: one round.
        const bool demo = c.name.rfind("default demo", 0) == 0;
        const int rounds = demo ? demoRounds : 1;
        std::vector<double> in;
        std::map<Transport, std::vector<double>> across;
        for (int round = 0; round < rounds; ++round) {
            in.push_back(inProcessMs(c.args, n));
            const std::string tag = rounds > 1 ? " (round " + std::to_string(round + 1) + ")" : "";
            rep.row(c.name + ": in process (--no-supervise)" + tag, in.back(), "ms");
            for (const Transport t : {Transport::InPlace, Transport::GpuBuffers, Transport::Cpu}) {
                const Across a = acrossMs(exe, c.args, 1920, 1080, n, t, demo);
                across[t].push_back(a.ms);
                const std::string how = transportName(t);
                if (t != Transport::Cpu && !a.throughGpu)
                    rep.note("frames did not come through GPU memory here (see the worker's messages)");
                else if (t == Transport::InPlace && !a.inPlace)
                    rep.note("frames were not rendered in place here (see the worker's messages)");
                rep.row(c.name + ": across, " + how + tag, a.ms, "ms");
                rep.row("  the worker's time per frame, request to pixels queued or read (median)", median(a.workerMs), "ms");
                rep.row("  the shell's time per frame: waiting for its copies / pumping / copying", a.waitMs, "ms",
                        std::nullopt, std::to_string(a.pumpMs).substr(0, 5) + " / " + std::to_string(a.takeMs).substr(0, 5));
                rep.row(c.name + ": across (" + how + ") / in process" + tag,
                        a.ms > 0 && in.back() > 0 ? a.ms / in.back() : -1, "x",
                        t == Transport::InPlace && rounds == 1 ? std::optional<double>(c.goal) : std::nullopt);
            }
        }
        if (rounds > 1) {
            const double mi = median(in);
            rep.row(c.name + ": in process, median of " + std::to_string(rounds) + " rounds", mi, "ms");
            for (const Transport t : {Transport::InPlace, Transport::GpuBuffers, Transport::Cpu}) {
                const double m = median(across[t]);
                const std::string how = transportName(t);
                rep.row(c.name + ": across (" + how + "), median of " + std::to_string(rounds) + " rounds", m, "ms");
                rep.row(c.name + ": across (" + how + ") / in process, medians", m > 0 && mi > 0 ? m / mi : -1, "x",
                        t == Transport::InPlace ? std::optional<double>(c.goal) : std::nullopt);
                if (t != Transport::InPlace)
                    continue;
                std::vector<double> ratios;
                int met = 0;
                for (int r = 0; r < rounds; ++r) {
                    ratios.push_back(in[r] > 0 ? across[t][r] / in[r] : -1);
                    met += ratios.back() > 0 && ratios.back() <= c.goal;
                }
                rep.row(c.name + ": across (" + how + ") / in process, median of the rounds' ratios", median(ratios),
                        "x", std::nullopt, std::to_string(met) + " of " + std::to_string(rounds) + " rounds met the goal");
            }
        }
        if (diagnose) { // where the time across goes: one frame in flight; no copy by the shell
            rep.row("  diagnosis: in process, each frame also read into a buffer", inProcessMs(c.args, n, true), "ms");
            const Across one = acrossMs(exe, c.args, 1920, 1080, n, Transport::InPlace, demo, 1);
            rep.row("  diagnosis: rendered in place, one frame in flight", one.ms, "ms");
            const Across bare = acrossMs(exe, c.args, 1920, 1080, n, Transport::InPlace, demo, 2, false);
            rep.row("  diagnosis: rendered in place, frames not copied by the shell", bare.ms, "ms");
        }
    }
}

// Edit to pixels through a save on disk (as from any editor; the app's file watcher reloads and
// rebuilds): from writing the kernel to the first frame that ran the new build, in this process and
// across the boundary. Every edit is a real compile (bench::editedDemoKernel).
void editToPixels(Report& rep, const fs::path& exe, int edits)
{
    rep.section("4. edit to pixels, the demo kernel saved on disk, in this process and across the boundary (" +
                std::to_string(edits) + " edits each, after 2 warm-up)");
    const fs::path dir = fs::temp_directory_path() / ("ks-bench-edit-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path kernel = dir / "live.cu";
    const std::string original = paths::readTextFile(paths::dataRoot() / "kernels" / "thread_colors.cu");
    std::ofstream(kernel) << original;
    const std::string nonce = std::to_string(::getpid()) + "-" + std::to_string(Clock::now().time_since_epoch().count());
    int edit = 0;
    auto save = [&] {
        std::ofstream(kernel) << bench::editedDemoKernel(original, edit++, nonce);
    };
    const std::vector<std::string> args = {"--kernel", kernel.string(), "--size", "1600x900"};
    std::vector<double> in, across;
    {
        app::HeadlessSession s(headlessOptions(args));
        s.app().settleBuilds(std::chrono::seconds(120));
        for (int i = 0; i < 3; ++i) // the finished build is swapped in at a frame boundary
            s.renderFrame();
        if (s.app().kernelBuilds() == 0) {
            rep.note("skipped: the demo does not run here (" + s.app().statusLine() + ")");
            fs::remove_all(dir);
            return;
        }
        for (int i = 0; i < edits + 2; ++i) {
            const std::uint64_t before = s.app().kernelBuilds();
            const auto t0 = Clock::now();
            save();
            while (s.app().kernelBuilds() <= before && Clock::now() - t0 < 30s) {
                s.renderFrame();
                glFinish();
            }
            if (i >= 2)
                in.push_back(msBetween(t0, Clock::now()));
        }
    }
    {
        app::ShellLink link(workerConfig(exe, args, 0));
        std::uint64_t build = 0;
        auto frame = [&] {
            const std::optional<app::ShellLink::Frame> f = nextFrame(link, 1600, 900);
            if (f)
                build = f->kernelBuild;
            return f.has_value();
        };
        for (int k = 0; k < 30 && (build == 0 || k < 5); ++k) // the first build, then a few frames
            frame();
        for (int i = 0; i < edits + 2; ++i) {
            const std::uint64_t before = build;
            const auto t0 = Clock::now();
            save();
            while (build <= before && Clock::now() - t0 < 30s)
                if (!frame())
                    break;
            if (i >= 2)
                across.push_back(msBetween(t0, Clock::now()));
        }
    }
    fs::remove_all(dir);
    rep.row("edit saved -> first frame with the new build, in process", median(in), "ms");
    rep.row("edit saved -> first frame with the new build, across the boundary", median(across), "ms",
            median(in), "goal: the in-process median of this run");
}

} // namespace

int main(int argc, char** argv)
{
    std::string jsonPath, only, appPath, restoredPng;
    int faults = 20, frameCount = 120, rounds = 3;
    bool drawUi = false, diagnose = false;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--json") && i + 1 < argc)
            jsonPath = argv[++i];
        else if (!std::strcmp(argv[i], "--faults") && i + 1 < argc)
            faults = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--frames") && i + 1 < argc)
            frameCount = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc && std::atoi(argv[i + 1]) > 0)
            rounds = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--kernelscope") && i + 1 < argc)
            appPath = argv[++i];
        else if (!std::strcmp(argv[i], "--restored-png") && i + 1 < argc)
            restoredPng = argv[++i];
        else if (!std::strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!std::strcmp(argv[i], "--draw-ui"))
            drawUi = true;
        else if (!std::strcmp(argv[i], "--diagnose"))
            diagnose = true;
        else {
            std::fprintf(stderr,
                         "usage: %s [--json out.json] [--faults N] [--frames N] [--rounds N] [--kernelscope PATH] "
                         "[--only frame|interop|runaway|edit|fault] [--restored-png FILE] [--draw-ui] [--diagnose]\n",
                         argv[0]);
            return 2;
        }
    }
    try {
        const fs::path exe = findApp(appPath);
        if (!fs::exists(exe)) {
            std::fprintf(stderr, "ks_bench_supervision: no app binary at %s (give --kernelscope)\n", exe.c_str());
            return 2;
        }
        Report rep;
        rep.json["bench"] = "supervision";
        rep.json["kernelscope"] = exe.string();
        auto wanted = [&](const char* part) { return only.empty() || only == part; };
        // Faults last: on the lent GPU hosts every raster draw of every later process hangs once a
        // kernel has faulted (docs/supervision.md), so the other parts would not finish after them.
        if (wanted("frame"))
            frames(rep, exe, frameCount, rounds, diagnose);
        if (wanted("interop"))
            interopAcross(rep, exe, frameCount, diagnose);
        if (wanted("runaway"))
            runaway(rep, exe);
        if (wanted("edit"))
            editToPixels(rep, exe, 20);
        if (wanted("fault")) {
            if (!drawUi)
                ::setenv("KS_SKIP_UI_DRAW", "1", 1); // the workers inherit it
            faultToNextFrame(rep, exe, faults, restoredPng, drawUi);
        }
        if (!jsonPath.empty()) {
            std::ofstream(jsonPath) << rep.json.dump(2) << "\n";
            std::printf("wrote %s\n", jsonPath.c_str());
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ks_bench_supervision: %s\n", e.what());
        return 1;
    }
    return 0;
}
