// ks_bench_rtc: how fast live kernels build.
//
//   NVRTC compile of a 30-line kernel, cold (a fresh process: NVRTC loads its builtins) and warm
//   (median of repeated compiles of edited source, no cache); a cache hit from request to loaded
//   module (memory and disk; the module load part only with a GPU); a kernel that includes
//   <curand_kernel.h>, warm, with and without NVRTC's precompiled headers.
//
// Usage: ks_bench_rtc [--json FILE] [--reps N] [--arch sm_XX]
// Runs without a GPU (the compile parts); the goals are the live-kernels issue's.
#include "ks/cuda/context.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/driver.hpp"
#include "ks/cuda/module.hpp"
#include "ks/rtc/cache.hpp"
#include "ks/rtc/compiler.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fs = std::filesystem;
using namespace ks;
using Clock = std::chrono::steady_clock;

namespace {

// About 30 lines: a tiled 1D stencil with shared memory, a loop and a reduction.
std::string kernel30(int variant)
{
    return "// bench kernel, variant " + std::to_string(variant) + R"(
#define RADIUS 3
#define BLOCK 256
extern "C" __global__ void stencil(const float* in, float* out, float* sums, int n, float scale)
{
    __shared__ float tile[BLOCK + 2 * RADIUS];
    __shared__ float partial[BLOCK];
    const int g = blockIdx.x * blockDim.x + threadIdx.x;
    const int l = threadIdx.x + RADIUS;
    tile[l] = g < n ? in[g] : 0.f;
    if (threadIdx.x < RADIUS) {
        tile[l - RADIUS] = g >= RADIUS ? in[g - RADIUS] : 0.f;
        tile[l + BLOCK] = g + BLOCK < n ? in[g + BLOCK] : 0.f;
    }
    __syncthreads();
    float v = 0.f;
    for (int o = -RADIUS; o <= RADIUS; ++o)
        v += tile[l + o] * (1.f / (2 * RADIUS + 1));
    v *= scale + )" + std::to_string(variant) + R"(.0f;
    if (g < n)
        out[g] = v;
    partial[threadIdx.x] = v;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(sums, partial[0]);
}
)";
}

std::string curandKernel(int variant)
{
    return R"(#include <curand_kernel.h>
extern "C" __global__ void noise(float* out, unsigned long long seed, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    curandStatePhilox4_32_10_t s;
    curand_init(seed, i, 0, &s);
    out[i] = curand_normal(&s) * )" + std::to_string(variant) + R"(.0f;
}
)";
}

double msSince(Clock::time_point t)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

struct Row {
    std::string name;
    std::vector<double> samples;
    double goal = 0; // ms, 0: none
    std::string note;
    double median() const
    {
        if (samples.empty())
            return 0;
        std::vector<double> s = samples;
        std::sort(s.begin(), s.end());
        return s.size() % 2 ? s[s.size() / 2] : (s[s.size() / 2 - 1] + s[s.size() / 2]) / 2;
    }
    double min() const { return samples.empty() ? 0 : *std::min_element(samples.begin(), samples.end()); }
};

std::string jsonEscape(const std::string& s)
{
    std::string o;
    for (char c : s) {
        if (c == '"' || c == '\\')
            o += '\\';
        if (c == '\n') {
            o += "\\n";
            continue;
        }
        o += c;
    }
    return o;
}

rtc::CompileResult compileOrDie(const std::string& source, const std::string& name, const rtc::CompileOptions& o)
{
    rtc::CompileResult r = rtc::compile(source, name, o);
    if (!r.ok) {
        std::fprintf(stderr, "bench kernel failed to compile:\n%s\n", r.log.c_str());
        std::exit(1);
    }
    return r;
}

} // namespace

int main(int argc, char** argv)
{
    std::string jsonPath, arch;
    int reps = 10;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--json" && i + 1 < argc)
            jsonPath = argv[++i];
        else if (a == "--reps" && i + 1 < argc)
            reps = std::max(1, std::atoi(argv[++i]));
        else if (a == "--arch" && i + 1 < argc)
            arch = argv[++i];
        else if (a == "--cold-child") {
            // One compile in a fresh process: prints its time and exits.
            rtc::CompileOptions o;
            o.arch = argc > i + 1 ? argv[i + 1] : "sm_90";
            const auto t = Clock::now();
            compileOrDie(kernel30(0), "bench.cu", o);
            std::printf("%.3f\n", msSince(t));
            return 0;
        } else {
            std::fprintf(stderr, "usage: ks_bench_rtc [--json FILE] [--reps N] [--arch sm_XX]\n");
            return 2;
        }
    }
    const bool gpu = cuda::driverStatus().available;
    std::optional<cuda::PrimaryContext> context;
    std::string device = "none (" + cuda::driverStatus().reason + ")";
    if (gpu) {
        context.emplace(0);
        const cuda::DeviceInfo d = cuda::queryDevice(0);
        device = d.name;
        if (arch.empty())
            arch = d.archName();
    }
    if (arch.empty())
        arch = "sm_90";
    rtc::CompileOptions options;
    options.arch = arch;
    std::vector<Row> rows;

    // Cold: fresh processes, each compiling once.
    {
        Row row{"compile 30-line kernel, cold (fresh process)", {}, 0, "NVRTC loads its builtins"};
        for (int i = 0; i < std::min(reps, 5); ++i) {
            if (FILE* p = ::popen(("'" + fs::read_symlink("/proc/self/exe").string() + "' --cold-child " + arch).c_str(), "r")) {
                double ms = 0;
                if (std::fscanf(p, "%lf", &ms) == 1)
                    row.samples.push_back(ms);
                ::pclose(p);
            }
        }
        rows.push_back(row);
    }
    // Warm: edited source each time (no cache), after one compile in this process.
    compileOrDie(kernel30(0), "bench.cu", options);
    // The default (the -minimal fast path when the scan allows), the full headers (fast path off:
    // the default before the fast path existed) and -minimal forced.
    {
        rtc::CompileOptions full = options;
        full.autoMinimal = false;
        rtc::CompileOptions minimal = options;
        minimal.minimal = true;
        const std::pair<const char*, const rtc::CompileOptions*> variants[] = {
            {"compile 30-line kernel, warm (no cache)", &options},
            {"compile 30-line kernel, warm, full headers", &full},
            {"compile 30-line kernel, warm, -minimal forced", &minimal}};
        // Two passes over the variants, the first untimed: NVRTC's first compiles of a mode in a
        // process (builtins, automatic PCH) made whichever row came first look slow (seen on an
        // H200: the first row 56 ms, the same compile in a later row 5-8 ms).
        // Every compile gets a source no earlier compile in this process saw: NVRTC reuses work for
        // a source it compiled before, which made rows that repeated an earlier row's sources look
        // several times faster than a real edit (seen on an H200: 6.5 ms against 40 ms).
        int variant = 0;
        for (int pass = 0; pass < 2; ++pass) {
            for (const auto& [name, o] : variants) {
                ++variant;
                Row row{name, {}, 20, ""};
                for (int i = 1; i <= std::max(reps, 10); ++i) {
                    const auto t = Clock::now();
                    const rtc::CompileResult r = compileOrDie(kernel30(i + 100 * variant), "bench.cu", *o);
                    row.samples.push_back(msSince(t));
                    row.note = "mode " + std::string(rtc::compileModeName(r.mode));
                }
                if (pass == 1)
                    rows.push_back(row);
            }
        }
    }
    // Cache hits: memory, then disk through a fresh cache object each time.
    const fs::path cacheDir = fs::temp_directory_path() / ("ks-bench-cache-" + std::to_string(::getpid()));
    {
        rtc::CompileCache cache(cacheDir);
        const std::string source = kernel30(1000);
        cache.compile(source, "bench.cu", options);
        Row memory{gpu ? "cache hit (memory) to loaded module" : "cache hit (memory), lookup only", {}, 1,
                   gpu ? "request, key (include scan), lookup, cuModuleLoadData" : "no GPU: module load not measured"};
        Row disk{gpu ? "cache hit (disk) to loaded module" : "cache hit (disk), lookup only", {}, 1, memory.note};
        for (int i = 0; i < std::max(reps, 10); ++i) {
            auto t = Clock::now();
            auto hit = cache.request(source, "bench.cu", options);
            if (gpu)
                cuda::Module m(hit.result->cubin.data());
            memory.samples.push_back(msSince(t));
            rtc::CompileCache fresh(cacheDir);
            t = Clock::now();
            auto diskHit = fresh.request(source, "bench.cu", options);
            if (diskHit.source != rtc::CacheSource::Disk)
                disk.note = "NOT a disk hit: " + std::string(rtc::cacheSourceName(diskHit.source));
            if (gpu)
                cuda::Module m(diskHit.result->cubin.data());
            disk.samples.push_back(msSince(t));
        }
        rows.push_back(memory);
        rows.push_back(disk);
        std::error_code ec;
        fs::remove_all(cacheDir, ec);
    }
    // curand, warm, with and without PCH (the first compile of each mode is not counted).
    // Each configuration is warmed with two untimed compiles of its own (the first creates the PCH).
    for (auto [pch, fullHeaders] : {std::pair{true, false}, std::pair{true, true}, std::pair{false, false}}) {
        rtc::CompileOptions o = options;
        o.precompiledHeaders = pch;
        o.autoMinimal = !fullHeaders;
        const int base = 1000 * (1 + (pch ? 1 : 0) + (fullHeaders ? 2 : 0)); // unique sources per row
        const rtc::CompileResult first = compileOrDie(curandKernel(base), "bench_curand.cu", o);
        compileOrDie(curandKernel(base + 1), "bench_curand.cu", o);
        Row row{std::string("compile curand kernel, warm, PCH ") + (pch ? "on" : "off") +
                    (fullHeaders ? ", full headers" : ""),
                {}, 150, "mode " + std::string(rtc::compileModeName(first.mode))};
        if (pch)
            row.note += "; first compile (creates the PCH) " + std::to_string(int(first.compileMs)) + " ms; PCH " +
                        std::string(rtc::pchUseName(first.pch));
        if (pch && !rtc::nvrtcSupportsPch())
            row.note = "NVRTC " + rtc::nvrtcVersionString() + " has no PCH";
        int used = 0;
        for (int i = 1; i <= std::max(reps / 2, 3); ++i) {
            const auto t = Clock::now();
            const rtc::CompileResult r = compileOrDie(curandKernel(base + 1 + i), "bench_curand.cu", o);
            row.samples.push_back(msSince(t));
            used += r.pch == rtc::PchUse::Used;
        }
        if (pch)
            row.note += "; reused in " + std::to_string(used) + " of " + std::to_string(row.samples.size());
        rows.push_back(row);
    }

    std::printf("ks_bench_rtc: NVRTC %s, arch %s, device %s\n\n", rtc::nvrtcVersionString().c_str(), arch.c_str(),
                device.c_str());
    std::printf("%-48s %10s %10s %4s %8s  %s\n", "measure", "median ms", "min ms", "n", "goal ms", "");
    for (const Row& r : rows) {
        const char* verdict = r.goal == 0 || r.samples.empty() ? "" : r.median() <= r.goal ? "ok" : "MISSED";
        std::printf("%-48s %10.3f %10.3f %4zu %8s  %s%s%s\n", r.name.c_str(), r.median(), r.min(), r.samples.size(),
                    r.goal ? std::to_string(int(r.goal)).c_str() : "-", verdict, r.note.empty() ? "" : "  ",
                    r.note.c_str());
    }
    if (!jsonPath.empty()) {
        std::ofstream out(jsonPath);
        out << "{\n  \"bench\": \"rtc\",\n  \"nvrtc\": \"" << rtc::nvrtcVersionString() << "\",\n  \"arch\": \"" << arch
            << "\",\n  \"device\": \"" << jsonEscape(device) << "\",\n  \"gpu\": " << (gpu ? "true" : "false")
            << ",\n  \"results\": [\n";
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const Row& r = rows[i];
            out << "    {\"name\": \"" << jsonEscape(r.name) << "\", \"median_ms\": " << r.median()
                << ", \"min_ms\": " << r.min() << ", \"n\": " << r.samples.size() << ", \"goal_ms\": " << r.goal
                << ", \"met\": " << (r.goal == 0 || r.median() <= r.goal ? "true" : "false") << ", \"note\": \""
                << jsonEscape(r.note) << "\", \"samples_ms\": [";
            for (std::size_t j = 0; j < r.samples.size(); ++j)
                out << (j ? ", " : "") << r.samples[j];
            out << "]}" << (i + 1 < rows.size() ? "," : "") << "\n";
        }
        out << "  ]\n}\n";
        if (!out) {
            std::fprintf(stderr, "cannot write %s\n", jsonPath.c_str());
            return 1;
        }
        std::printf("\nwrote %s\n", jsonPath.c_str());
    }
    return 0;
}
