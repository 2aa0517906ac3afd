// ks_bench_soak: the whole app, headless, for many frames on a project with every stage kind and
// every view kind (tests/projects/soak/soak.json), while its kernel is edited every few frames
// (each edit a new source, so a real NVRTC compile; every fifth edit broken), the window is resized
// the layout switched between standard and classroom, and the teaching overlay (who wrote each
// element of the kernel stage's output, recorded by an instrumented variant) switched on and off.
// Resident memory, open descriptors,
// threads, GL objects and (with CUDA) device memory are sampled at the start and every
// --sample-every frames; after the warm-up (the first sample after frame 0) nothing may grow but
// resident memory, within --rss-slack-mib. docs/hardening.md, "Soak".
//
//   ks_bench_soak [--frames N] [--sample-every K] [--edit-every E] [--resize-every R]
//                 [--layout-every L] [--overlay-every O] [--rss-slack-mib M] [--json FILE]
//
// Exit 0 when flat, 1 when something grew (named), 2 on bad usage. Runs on Mesa's software GL
// (no CUDA: the stages are planned and the edits compiled, nothing launches) and on a GPU host.
#include "app.hpp"
#include "cli/options.hpp"
#include "platform/platforms.hpp"

#include "ks/core/log.hpp"
#include "ks/core/paths.hpp"
#include "ks/cuda/memory.hpp"
#include "ks/gl/gl.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Sample {
    int frame = 0;
    double seconds = 0;
    long long rssKiB = 0;  // resident in all
    long long anonKiB = 0; // of it anonymous (heaps, stacks, mappings of no file): what a leak grows
    long long fileKiB = 0; // of it pages of files (the libraries' code as it is first run)
    long long heapKiB = 0; // malloc'd and not freed (every arena): what the program holds
    int fds = 0;
    int threads = 0;
    int glObjects = 0;
    long long deviceUsedMiB = -1; // -1: no CUDA
    int builds = 0;               // edits built so far
};

// A field of /proc/self/status in KiB ("VmRSS", "RssAnon", "RssFile").
long long statusKiB(const std::string& field)
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind(field + ":", 0) == 0)
            return std::atoll(line.c_str() + field.size() + 1);
    return -1;
}

int entries(const char* dir)
{
    int n = 0;
    std::error_code ec;
    for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
        ++n;
    return n;
}

// Live GL objects of every kind, by name: GL hands out small names and reuses freed ones, so a
// leak shows as a count that grows. Probes names 1..kMaxName of each kind.
int glObjectCount()
{
    constexpr GLuint kMaxName = 16384;
    int n = 0;
    for (GLuint name = 1; name <= kMaxName; ++name) {
        n += glIsBuffer(name) + glIsTexture(name) + glIsFramebuffer(name) + glIsRenderbuffer(name) +
             glIsVertexArray(name) + glIsProgram(name) + glIsShader(name) + glIsSampler(name) + glIsQuery(name);
    }
    ks::gl::clearErrors();
    return n;
}

// Device memory this process uses, as the driver accounts it to the process (nvidia-smi's
// compute apps; other processes on the GPU do not count), else the device's memory in use
// (cuMemGetInfo: every process's); -1 without CUDA. `source` says which.
long long deviceUsedMiB(std::string& source)
{
    try {
        const auto info = ks::cuda::memoryInfo();
        if (FILE* smi = ::popen("nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits 2>/dev/null", "r")) {
            long long pid = 0, mib = 0, mine = -1;
            while (std::fscanf(smi, " %lld , %lld", &pid, &mib) == 2)
                if (pid == (long long)::getpid())
                    mine = mib;
            ::pclose(smi);
            if (mine >= 0) {
                source = "this process (nvidia-smi)";
                return mine;
            }
        }
        source = "the device, all processes (cuMemGetInfo)";
        return (long long)((info.totalBytes - info.freeBytes) >> 20);
    } catch (const std::exception&) {
        return -1;
    }
}

// The kernel with a new comment (a new source: the compile cache cannot answer it), and every
// fifth edit broken (a missing ';'): the last good build keeps running.
std::string variant(const std::string& source, int edit)
{
    std::string text = source + "\n// soak edit " + std::to_string(edit) + "\n";
    if (edit % 5 == 4) {
        const auto at = text.find("return;");
        if (at != std::string::npos)
            text.erase(at + 6, 1);
    }
    return text;
}

} // namespace

int main(int argc, char** argv)
{
    CLI::App cli{"Kernelscope soak: the app headless for many frames with edits, resizes and layout changes"};
    int frames = 10000, sampleEvery = 1000, editEvery = 10, resizeEvery = 100, layoutEvery = 250, overlayEvery = 50;
    double rssSlackMiB = 64;
    std::string json, dataDir;
    cli.add_option("--frames", frames)->check(CLI::Range(1, 10000000));
    cli.add_option("--sample-every", sampleEvery)->check(CLI::Range(1, 10000000));
    cli.add_option("--edit-every", editEvery)->check(CLI::Range(1, 10000000));
    cli.add_option("--resize-every", resizeEvery)->check(CLI::Range(1, 10000000));
    cli.add_option("--layout-every", layoutEvery)->check(CLI::Range(1, 10000000));
    cli.add_option("--overlay-every", overlayEvery, "Switch the who-wrote overlay on or off every O frames")
        ->check(CLI::Range(1, 10000000));
    cli.add_option("--rss-slack-mib", rssSlackMiB, "Anonymous resident memory growth allowed after the warm-up");
    cli.add_option("--json", json, "Write the samples as JSON");
    cli.add_option("--data-dir", dataDir, "Kernelscope's data root (default: found from the executable)");
    CLI11_PARSE(cli, argc, argv);
    if (frames < 2 * sampleEvery) {
        std::fprintf(stderr, "--frames must cover at least two samples after frame 0 (2 x --sample-every)\n");
        return 2;
    }

    // A scratch copy of the project (its kernel is edited and, by the recovery store, kept), and
    // scratch cache and state folders: a soak writes nothing outside them.
    const fs::path scratch = fs::temp_directory_path() / ("ks-soak-" + std::to_string(::getpid()));
    fs::create_directories(scratch / "project");
    ::setenv("XDG_CACHE_HOME", (scratch / "cache").c_str(), 1);
    ::setenv("XDG_STATE_HOME", (scratch / "state").c_str(), 1);
    const fs::path root = ks::paths::dataRoot(dataDir);
    // The soak project lives in the source tree's tests/: $KS_SOURCE_DIR, else the data root or a
    // folder above the executable that holds it.
    fs::path projectDir;
    std::vector<fs::path> candidates;
    if (const char* src = std::getenv("KS_SOURCE_DIR"); src && *src)
        candidates.push_back(src);
    candidates.push_back(root);
    for (fs::path d = ks::paths::executableDir(); !d.empty() && d != d.parent_path(); d = d.parent_path())
        candidates.push_back(d);
    for (const fs::path& c : candidates)
        if (fs::exists(c / "tests/projects/soak/soak.json")) {
            projectDir = c / "tests/projects/soak";
            break;
        }
    if (projectDir.empty()) {
        std::fprintf(stderr, "soak: cannot find tests/projects/soak/soak.json (set KS_SOURCE_DIR)\n");
        return 2;
    }
    for (const char* f : {"soak.json", "soak.cu"})
        fs::copy_file(projectDir / f, scratch / "project" / f, fs::copy_options::overwrite_existing);
    const fs::path kernel = scratch / "project" / "soak.cu";
    const std::string source = ks::paths::readTextFile(kernel);

    ks::app::AppOptions options;
    options.headless = true;
    options.width = 1280;
    options.height = 720;
    options.dataDir = root;
    options.project = scratch / "project" / "soak.json";
    options.recoveryDir = scratch / "state" / "recovery";
    options.ui = true;

    std::vector<Sample> samples;
    int status = 0;
    {
        ks::app::HeadlessSession session(options);
        auto& app = session.app();
        const auto start = std::chrono::steady_clock::now();
        int edits = 0;
        std::string deviceSource;
        auto sample = [&](int frame) {
            Sample s;
            s.frame = frame;
            s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            s.rssKiB = statusKiB("VmRSS");
            s.anonKiB = statusKiB("RssAnon");
            s.fileKiB = statusKiB("RssFile");
            const struct mallinfo2 m = ::mallinfo2();
            s.heapKiB = (long long)((m.uordblks + m.hblkhd) / 1024);
            s.fds = entries("/proc/self/fd");
            s.threads = entries("/proc/self/task");
            s.glObjects = glObjectCount();
            s.deviceUsedMiB = deviceUsedMiB(deviceSource);
            s.builds = edits;
            samples.push_back(s);
            std::printf("frame %6d  %7.1f s  rss %7.1f MiB (anon %7.1f, files %6.1f)  heap %7.1f MiB  fds %3d  threads %3d  "
                        "gl objects %4d  device %s  edits %d\n",
                        s.frame, s.seconds, double(s.rssKiB) / 1024.0, double(s.anonKiB) / 1024.0,
                        double(s.fileKiB) / 1024.0, double(s.heapKiB) / 1024.0, s.fds, s.threads, s.glObjects,
                        s.deviceUsedMiB < 0 ? "n/a" : (std::to_string(s.deviceUsedMiB) + " MiB").c_str(), s.builds);
            std::fflush(stdout);
        };
        session.renderFrame();
        sample(0);
        std::int64_t lastOverlayFrame = app.state().teach.overlayFrame;
        int overlayRecordings = 0; // overlay images made from a who-wrote recording (0 without CUDA)
        std::vector<std::string> overlayErrors; // the first few distinct errors of the teaching panels
        for (int f = 1; f <= frames; ++f) {
            if (f % editEvery == 0) {
                if (!app.editDocument(kernel, variant(source, edits))) {
                    std::fprintf(stderr, "soak: the kernel %s is not open in the editor\n", kernel.c_str());
                    return 1;
                }
                ++edits;
                // Each edit built and swapped in (or refused) before the next: 1 build per edit.
                if (!app.settleBuilds(std::chrono::seconds(120))) {
                    std::fprintf(stderr, "soak: edit %d did not build within 120 s\n", edits);
                    return 1;
                }
            }
            if (f % resizeEvery == 0)
                session.resize((f / resizeEvery) % 2 ? 1024 : 1280, (f / resizeEvery) % 2 ? 600 : 720);
            if (f % layoutEvery == 0)
                app.teachCommands().layout = (f / layoutEvery) % 2 ? ks::app::Layout::Classroom : ks::app::Layout::Standard;
            if (f % overlayEvery == 0)
                app.teachCommands().overlayMode = (f / overlayEvery) % 2 ? 0 : -1;
            session.renderFrame();
            const ks::app::TeachState& teach = app.state().teach;
            if (teach.overlayMode >= 0 && teach.overlayFrame != lastOverlayFrame) {
                lastOverlayFrame = teach.overlayFrame;
                ++overlayRecordings;
            }
            if (!teach.error.empty() && overlayErrors.size() < 5 &&
                std::find(overlayErrors.begin(), overlayErrors.end(), teach.error) == overlayErrors.end())
                overlayErrors.push_back(teach.error);
            if (f % sampleEvery == 0)
                sample(f);
        }

        // Flat after the warm-up: from the first sample after frame 0 to the last.
        const Sample& warm = samples[1];
        const Sample& last = samples.back();
        auto grew = [&](const char* what, long long from, long long to, long long slack) {
            if (to > from + slack) {
                std::printf("soak: %s grew after the warm-up: %lld -> %lld\n", what, from, to);
                status = 1;
            }
        };
        grew("open descriptors", warm.fds, last.fds, 0);
        grew("threads", warm.threads, last.threads, 0);
        grew("GL objects", warm.glObjects, last.glObjects, 0);
        grew("anonymous resident memory (KiB)", warm.anonKiB, last.anonKiB, (long long)(rssSlackMiB * 1024));
        if (warm.deviceUsedMiB >= 0) {
            grew("device memory in use (MiB)", warm.deviceUsedMiB, last.deviceUsedMiB, 0);
            std::printf("soak: device memory of %s\n", deviceSource.c_str());
            // With kernels running, switching the overlay on must record (again after each edit).
            const int onPeriods = frames / overlayEvery / 2;
            if (onPeriods > 0 && overlayRecordings < std::min(onPeriods, 1 + frames / std::max(editEvery, overlayEvery) / 2)) {
                std::printf("soak: the overlay recorded %d times in %d periods switched on\n", overlayRecordings, onPeriods);
                status = 1;
            }
        }
        for (const std::string& e : overlayErrors)
            std::printf("soak: the teaching panels said: %s\n", e.c_str());
        if (const auto& session = app.state().project.session)
            std::printf("soak: the pipeline is at frame %lld%s%s%s\n", (long long)session->pipeline().frameIndex(),
                        session->pipeline().paused() ? ", paused" : "", session->pipeline().error().empty() ? "" : "; ",
                        session->pipeline().error().c_str());
        std::printf("soak: %d frames, %d edits (%d broken), overlay switched %d times (%d overlay images), %s\n",
                    frames, edits, edits / 5, frames / overlayEvery, overlayRecordings,
                    status == 0 ? "flat after the warm-up" : "GREW");
    }

    if (!json.empty()) {
        nlohmann::json out = nlohmann::json::array();
        for (const Sample& s : samples)
            out.push_back({{"frame", s.frame}, {"seconds", s.seconds}, {"rssKiB", s.rssKiB}, {"anonKiB", s.anonKiB},
                           {"fileKiB", s.fileKiB}, {"heapKiB", s.heapKiB}, {"fds", s.fds},
                           {"threads", s.threads}, {"glObjects", s.glObjects}, {"deviceUsedMiB", s.deviceUsedMiB},
                           {"edits", s.builds}});
        std::ofstream(json) << out.dump(2) << "\n";
    }
    std::error_code ec;
    fs::remove_all(scratch, ec);
    return status;
}
