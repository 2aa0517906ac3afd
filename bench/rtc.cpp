// ks_bench_rtc: how fast live kernels build.
//
//   NVRTC compile of a 30-line kernel, cold (a fresh process: NVRTC loads its builtins) and warm
//   (median of repeated compiles of edited source, no cache); a cache hit from request to loaded
//   module (memory and disk; the module load part only with a GPU); a kernel that includes
//   <curand_kernel.h>, warm (the default: lean cuRAND and PCH; then each turned off); the
//   --Ofast-compile levels: compile time, and (with a GPU) three kernels' run time at each level.
//   --options adds what each NVRTC option costs on its own (bare nvrtcCompileProgram calls).
//
// Every timed compile is of a source no earlier compile in the process saw (a changed constant),
// as an edit is. Times are wall clock; the cpu column is the process' CPU time for the same
// samples (steadier on a shared machine; NVRTC compiles on the calling thread).
//
// Usage: ks_bench_rtc [--json FILE] [--reps N] [--arch sm_XX] [--options]
// Runs without a GPU (the compile parts); the goals are the live-kernels issue's.
#include "ks/cuda/context.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/driver.hpp"
#include "ks/cuda/event.hpp"
#include "ks/cuda/launch.hpp"
#include "ks/cuda/memory.hpp"
#include "ks/cuda/stream.hpp"
#include "ks/cuda/module.hpp"
#include "ks/rtc/cache.hpp"
#include "ks/rtc/compiler.hpp"

#include <nvrtc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
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

// `state`: Philox (no skip-ahead tables), or curandState (XORWOW, cuRAND's default: its tables stay in).
std::string curandKernel(int variant, const char* state = "curandStatePhilox4_32_10_t")
{
    return R"(#include <curand_kernel.h>
extern "C" __global__ void noise(float* out, unsigned long long seed, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    )" + std::string(state) + R"( s;
    curand_init(seed, i, 0, &s);
    out[i] = curand_normal(&s) * )" + std::to_string(variant) + R"(.0f;
}
)";
}

// Run-time kernels for the --Ofast-compile rows: an escape-time loop (ALU bound) and math through
// a device function (calls that full optimization inlines). The 30-line stencil is the third.
const char* kEscape = R"(
extern "C" __global__ void escape(unsigned* out, int w, int h, int maxIter)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    const float cr = -2.f + 2.5f * x / w, ci = -1.25f + 2.5f * y / h;
    float zr = 0.f, zi = 0.f;
    int i = 0;
    while (i < maxIter && zr * zr + zi * zi < 4.f) {
        const float t = zr * zr - zi * zi + cr;
        zi = 2.f * zr * zi + ci;
        zr = t;
        ++i;
    }
    out[y * w + x] = i;
}
)";
const char* kWaves = R"(
__device__ float wave(float x, int k) { return sinf(x * k) + cosf(x) * 0.5f; }
extern "C" __global__ void waves(const float* in, float* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc = 0.f;
    for (int k = 1; k <= 8; ++k)
        acc += wave(in[i], k) / k;
    out[i] = acc;
}
)";

double msSince(Clock::time_point t)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

double cpuMs()
{
    rusage u{};
    ::getrusage(RUSAGE_SELF, &u);
    return (double(u.ru_utime.tv_sec) + double(u.ru_stime.tv_sec)) * 1e3 +
           (double(u.ru_utime.tv_usec) + double(u.ru_stime.tv_usec)) / 1e3;
}

double median(std::vector<double> s)
{
    if (s.empty())
        return 0;
    std::sort(s.begin(), s.end());
    return s.size() % 2 ? s[s.size() / 2] : (s[s.size() / 2 - 1] + s[s.size() / 2]) / 2;
}

struct Row {
    std::string name;
    std::vector<double> samples;
    double goal = 0; // ms, 0: none
    std::string note;
    std::vector<double> cpu; // process CPU ms per sample, where measured
    double median() const { return ::median(samples); }
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

// What each NVRTC option costs on its own: bare nvrtcCompileProgram calls (no engine), each
// configuration in turn per round so that a busy machine slows all alike.
void measureOptionCosts(std::vector<Row>& rows, const std::string& arch, int reps, int& variant)
{
    const fs::path pchDir = fs::temp_directory_path() / ("ks-bench-pch-" + std::to_string(::getpid()));
    fs::create_directories(pchDir);
    std::vector<std::string> includes;
    for (const std::string& dir : rtc::defaultIncludePaths())
        includes.push_back("-I" + dir);
    const std::string archOption = "-arch=" + arch;
    std::string virtualArch = arch;
    if (virtualArch.rfind("sm_", 0) == 0)
        virtualArch.replace(0, 3, "compute_");
    std::vector<std::pair<std::string, std::vector<std::string>>> configs = {
        {"nvrtc bare: -arch only", {archOption}},
        {"nvrtc + -std=c++17", {archOption, "-std=c++17"}},
        {"nvrtc + -Xptxas=-v", {archOption, "-Xptxas=-v"}},
        {"nvrtc + include path (kernels, cccl, cuda)", {archOption}},
        {"nvrtc + -lineinfo", {archOption, "-lineinfo"}},
        {"nvrtc + -minimal", {archOption, "-minimal"}},
        {"nvrtc + -pch", {archOption, "-pch", "-pch-dir=" + pchDir.string()}},
        {"nvrtc + -no-cache", {archOption, "-no-cache"}},
        {"nvrtc + --Ofast-compile=max (not used)", {archOption, "--Ofast-compile=max"}},
        {"nvrtc PTX only (-arch=" + virtualArch + ")", {"-arch=" + virtualArch}},
        {"nvrtc with the engine's default options", rtc::buildOptionList(rtc::CompileOptions{})},
    };
    configs[3].second.insert(configs[3].second.end(), includes.begin(), includes.end());
    configs.back().second[0] = archOption;
    configs.back().second.push_back("-pch");
    configs.back().second.push_back("-pch-dir=" + pchDir.string());
    auto once = [&](const std::vector<std::string>& options, double* wall, double* cpu) {
        const std::string source = kernel30(++variant);
        nvrtcProgram program = nullptr;
        nvrtcCreateProgram(&program, source.c_str(), "bench.cu", 0, nullptr, nullptr);
        std::vector<const char*> argv;
        for (const auto& o : options)
            argv.push_back(o.c_str());
        const double c = cpuMs();
        const auto t = Clock::now();
        const nvrtcResult r = nvrtcCompileProgram(program, int(argv.size()), argv.data());
        if (wall)
            *wall = msSince(t);
        if (cpu)
            *cpu = cpuMs() - c;
        nvrtcDestroyProgram(&program);
        if (r != NVRTC_SUCCESS) {
            std::fprintf(stderr, "option-cost compile failed: %s\n", nvrtcGetErrorString(r));
            std::exit(1);
        }
    };
    std::vector<Row> costs;
    for (const auto& [name, options] : configs) {
        once(options, nullptr, nullptr); // untimed: PCH creation, first use of a mode
        costs.push_back(Row{name, {}, 0, "", {}});
    }
    for (int i = 0; i < reps; ++i) {
        for (std::size_t k = 0; k < configs.size(); ++k) {
            double wall = 0, cpu = 0;
            once(configs[k].second, &wall, &cpu);
            costs[k].samples.push_back(wall);
            costs[k].cpu.push_back(cpu);
        }
    }
    const double bare = median(costs[0].cpu);
    for (Row& r : costs) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "cpu %+.1f ms against bare", median(r.cpu) - bare);
        r.note = buf;
        rows.push_back(std::move(r));
    }
    std::error_code ec;
    fs::remove_all(pchDir, ec);
}

// What --Ofast-compile costs at run time: each kernel built at every level, launched 20 times
// after 3 untimed launches, timed with events (median); the note gives the ratio to the fully
// optimized build of the same kernel.
void measureFastCompileRunTimes(std::vector<Row>& rows, const rtc::CompileOptions& options, int& variant)
{
    const cuda::Stream stream{cuda::Stream::Create{}};
    const int n = 1 << 24, w = 1920, h = 1080;
    cuda::DeviceMemory in(std::size_t(n) * sizeof(float)), out(std::size_t(n) * sizeof(float)),
        sums(sizeof(float)), counts(std::size_t(w) * h * sizeof(unsigned));
    {
        std::vector<float> host(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i)
            host[std::size_t(i)] = float(i % 1000) * 0.01f - 5.f;
        in.upload(host.data(), host.size() * sizeof(float));
    }
    struct Case {
        std::string name, source, symbol;
        std::function<void(const cuda::Function&)> launch;
    };
    const std::vector<Case> cases = {
        {"30-line stencil, 16M floats", kernel30(++variant), "stencil",
         [&](const cuda::Function& f) {
             cuda::launch(f, {{unsigned(n / 256), 1, 1}, {256, 1, 1}, 0}, stream.get(), in, out, sums, n, 1.f);
         }},
        {"escape-time loop, 1920x1080, 256 iterations", kEscape, "escape",
         [&](const cuda::Function& f) {
             cuda::launch(f, {{unsigned(w / 16), unsigned((h + 15) / 16), 1}, {16, 16, 1}, 0}, stream.get(), counts, w,
                          h, 256);
         }},
        {"sinf/cosf through a device function, 16M", kWaves, "waves",
         [&](const cuda::Function& f) {
             cuda::launch(f, {{unsigned(n / 256), 1, 1}, {256, 1, 1}, 0}, stream.get(), in, out, n);
         }},
    };
    const cuda::Event start{cuda::Event::Create{}}, stop{cuda::Event::Create{}};
    for (const Case& c : cases) {
        double offMedian = 0;
        for (rtc::FastCompile level : rtc::kFastCompileLevels) {
            rtc::CompileOptions o = options;
            o.fastCompile = level;
            const rtc::CompileResult r = compileOrDie(c.source, "bench_runtime.cu", o);
            const cuda::Module module(r.cubin.data());
            const cuda::Function f = module.function(c.symbol);
            Row row{"run " + c.name + ", --Ofast-compile=" + std::string(rtc::fastCompileName(level)), {}, 0, ""};
            for (int i = 0; i < 23; ++i) {
                start.record(stream.get());
                c.launch(f);
                stop.record(stream.get());
                stop.synchronize();
                if (i >= 3)
                    row.samples.push_back(double(stop.elapsedMsSince(start)));
            }
            if (level == rtc::FastCompile::Off)
                offMedian = row.median();
            char buf[96];
            std::snprintf(buf, sizeof buf, "%.2fx the fully optimized build; %d registers", row.median() / offMedian,
                          f.attributes().numRegs);
            row.note = buf;
            rows.push_back(std::move(row));
        }
    }
}

} // namespace

int main(int argc, char** argv)
{
    std::string jsonPath, arch;
    int reps = 10;
    bool optionCosts = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--json" && i + 1 < argc)
            jsonPath = argv[++i];
        else if (a == "--reps" && i + 1 < argc)
            reps = std::max(1, std::atoi(argv[++i]));
        else if (a == "--arch" && i + 1 < argc)
            arch = argv[++i];
        else if (a == "--options")
            optionCosts = true;
        else if (a == "--cold-child") {
            // One compile in a fresh process: prints its time and exits.
            rtc::CompileOptions o;
            o.arch = argc > i + 1 ? argv[i + 1] : "sm_90";
            const auto t = Clock::now();
            compileOrDie(kernel30(0), "bench.cu", o);
            std::printf("%.3f\n", msSince(t));
            return 0;
        } else {
            std::fprintf(stderr, "usage: ks_bench_rtc [--json FILE] [--reps N] [--arch sm_XX] [--options]\n");
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
    // Every compile gets a source no earlier one had, in this process or (NVRTC's own cache in the
    // driver's compute cache outlives it) most likely in an earlier run on this machine: one of 160
    // bases per run. The variant ends up as a float constant, so it stays below 2^24 (above it
    // neighbouring integers round to the same float, the same code, and NVRTC's cache answers).
    const int runBase = int((std::uint64_t(::getpid()) * 7919u + std::uint64_t(::time(nullptr))) % 160u) * 100000;
    int variant = runBase;

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
    // Runs `reps` compiles of `make(new variant)` with `o`, after two untimed ones (NVRTC's first
    // compiles of a mode in a process create its PCH and load what that mode needs).
    auto timeCompiles = [&](Row row, const auto& make, const rtc::CompileOptions& o, int count) {
        const std::string file = row.name.find("curand") != std::string::npos ? "bench_curand.cu" : "bench.cu";
        const rtc::CompileResult first = compileOrDie(make(++variant), file, o);
        compileOrDie(make(++variant), file, o);
        std::vector<double> engine;
        int pchUsed = 0;
        rtc::CompileResult last;
        for (int i = 0; i < count; ++i) {
            const double c = cpuMs();
            const auto t = Clock::now();
            last = compileOrDie(make(++variant), file, o);
            row.samples.push_back(msSince(t));
            row.cpu.push_back(cpuMs() - c);
            engine.push_back(last.compileMs - last.nvrtcMs);
            pchUsed += last.pch == rtc::PchUse::Used;
        }
        row.note += (row.note.empty() ? "" : "; ") + std::string("mode ") +
                    std::string(rtc::compileModeName(last.mode));
        if (last.curandTablesLeftOut)
            row.note += ", curand tables left out";
        else if (file == "bench_curand.cu")
            row.note += ", curand tables kept (" + last.curandTablesReason + ")";
        char buf[160];
        std::snprintf(buf, sizeof buf, "; engine's own work %.2f ms; PTX %zu KiB", median(engine),
                      last.ptx.size() / 1024);
        row.note += buf;
        if (o.precompiledHeaders && rtc::nvrtcSupportsPch())
            row.note += "; PCH " + std::string(rtc::pchUseName(first.pch)) + " by the first compile (" +
                        std::to_string(int(first.compileMs)) + " ms), reused in " + std::to_string(pchUsed) + " of " +
                        std::to_string(count);
        rows.push_back(row);
    };
    const int warmReps = std::max(reps, 10);
    const int curandReps = std::max(reps / 2, 3);
    compileOrDie(kernel30(++variant), "bench.cu", options);

    // Warm 30-line kernel: the default, then the alternatives.
    rtc::CompileOptions minimal = options;
    minimal.minimal = true;
    rtc::CompileOptions noPch = options;
    noPch.precompiledHeaders = false;
    rtc::CompileOptions nvrtcCacheOn = options;
    nvrtcCacheOn.nvrtcCache = true;
    timeCompiles({"compile 30-line kernel, warm (the default)", {}, 20, ""}, kernel30, options, warmReps);
    timeCompiles({"compile 30-line kernel, warm, -minimal", {}, 20, ""}, kernel30, minimal, warmReps);
    timeCompiles({"compile 30-line kernel, warm, PCH off", {}, 20, ""}, kernel30, noPch, warmReps);
    timeCompiles({"compile 30-line kernel, warm, NVRTC cache on", {}, 20, "without -no-cache"}, kernel30, nvrtcCacheOn,
                 warmReps);
    // --Ofast-compile levels (less optimized code: the run-time rows below say how much), in rounds
    // of (off, min, mid, max) so that all four meet the same conditions: on the lent H100 hosts
    // compile times drifted within a run (by up to a third, either way), so rows measured one after
    // the other compared the conditions of the moment as much as the levels.
    {
        const auto& levels = rtc::kFastCompileLevels;
        std::vector<Row> level(levels.size());
        std::vector<rtc::CompileOptions> levelOptions;
        for (std::size_t k = 0; k < levels.size(); ++k) {
            levelOptions.push_back(options);
            levelOptions.back().fastCompile = levels[k];
            level[k] = {"compile 30-line kernel, warm, --Ofast-compile=" + std::string(rtc::fastCompileName(levels[k])) +
                            " (rounds)",
                        {}, 20, ""};
            compileOrDie(kernel30(++variant), "bench.cu", levelOptions.back()); // untimed: first use of the mode
        }
        for (int i = 0; i < warmReps; ++i)
            for (std::size_t k = 0; k < levels.size(); ++k) {
                const double c = cpuMs();
                const auto t = Clock::now();
                compileOrDie(kernel30(++variant), "bench.cu", levelOptions[k]);
                level[k].samples.push_back(msSince(t));
                level[k].cpu.push_back(cpuMs() - c);
            }
        const double off = level[0].median();
        for (std::size_t k = 0; k < levels.size(); ++k) {
            char buf[96];
            std::snprintf(buf, sizeof buf, "%.2fx the time of off in the same rounds%s", level[k].median() / off,
                          k ? "; less optimized code" : "");
            level[k].note = buf;
            rows.push_back(std::move(level[k]));
        }
    }
    // Not an edit: one source again and again with NVRTC's own cache on (off by default), which
    // serves it from the driver's compute cache, so only where a driver is installed. Earlier runs
    // of this bench that repeated sources measured this, not a compile.
    timeCompiles({"compile 30-line kernel, the SAME source again", {}, 0, "not an edit: NVRTC's own cache on"},
                 [&](int) { return kernel30(runBase - 1); }, nvrtcCacheOn, warmReps);

    // Cache hits: memory, then disk through a fresh cache object each time.
    const fs::path cacheDir = fs::temp_directory_path() / ("ks-bench-cache-" + std::to_string(::getpid()));
    {
        rtc::CompileCache cache(cacheDir);
        // Misses first: what the cache adds to a compile (key, lookup, disk write).
        Row miss{"compile 30-line kernel, warm, through the cache", {}, 20, ""};
        std::vector<double> own;
        for (int i = 0; i < warmReps; ++i) {
            const double c = cpuMs();
            const auto t = Clock::now();
            const auto r = cache.compile(kernel30(++variant), "bench.cu", options);
            miss.samples.push_back(msSince(t));
            miss.cpu.push_back(cpuMs() - c);
            own.push_back(miss.samples.back() - r->compileMs);
        }
        char buf[96];
        std::snprintf(buf, sizeof buf, "a miss each time; the cache's own work %.2f ms (key, lookup, disk write)",
                      median(own));
        miss.note = buf;
        rows.push_back(miss);
        const std::string source = kernel30(++variant);
        cache.compile(source, "bench.cu", options);
        Row memory{gpu ? "cache hit (memory) to loaded module" : "cache hit (memory), lookup only", {}, 1,
                   gpu ? "request, key (include scan), lookup, cuModuleLoadData" : "no GPU: module load not measured"};
        Row disk{gpu ? "cache hit (disk) to loaded module" : "cache hit (disk), lookup only", {}, 1, memory.note};
        for (int i = 0; i < warmReps; ++i) {
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

    // curand, warm: the default (lean cuRAND, PCH), then each turned off, then a XORWOW kernel.
    rtc::CompileOptions tablesKept = options;
    tablesKept.leanCurand = false;
    rtc::CompileOptions leanNoPch = options;
    leanNoPch.precompiledHeaders = false;
    const auto philox = [](int v) { return curandKernel(v); };
    timeCompiles({"compile curand kernel, warm (the default)", {}, 150, ""}, philox, options, curandReps);
    timeCompiles({"compile curand kernel, warm, tables kept", {}, 150, "lean cuRAND off"}, philox, tablesKept,
                 curandReps);
    timeCompiles({"compile curand kernel, warm, PCH off", {}, 150, ""}, philox, leanNoPch, curandReps);
    timeCompiles({"compile curand XORWOW kernel, warm", {}, 150, "curandState"},
                 [](int v) { return curandKernel(v, "curandState"); }, options, curandReps);

    // The default once more, after everything else: how far compile times drifted during the run.
    timeCompiles({"compile 30-line kernel, warm (the default), again at the end", {}, 20, ""}, kernel30, options,
                 warmReps);
    if (gpu)
        measureFastCompileRunTimes(rows, options, variant);
    if (optionCosts)
        measureOptionCosts(rows, arch, warmReps, variant);

    std::printf("ks_bench_rtc: NVRTC %s, arch %s, device %s\n\n", rtc::nvrtcVersionString().c_str(), arch.c_str(),
                device.c_str());
    std::printf("%-48s %10s %10s %10s %4s %8s  %s\n", "measure", "median ms", "min ms", "cpu ms", "n", "goal ms", "");
    for (const Row& r : rows) {
        const char* verdict = r.goal == 0 || r.samples.empty() ? "" : r.median() <= r.goal ? "ok" : "MISSED";
        const std::string cpu = r.cpu.empty() ? "-" : std::to_string(median(r.cpu)).substr(0, 7);
        std::printf("%-48s %10.3f %10.3f %10s %4zu %8s  %s%s%s\n", r.name.c_str(), r.median(), r.min(), cpu.c_str(),
                    r.samples.size(), r.goal ? std::to_string(int(r.goal)).c_str() : "-", verdict,
                    r.note.empty() ? "" : "  ", r.note.c_str());
    }
    if (!jsonPath.empty()) {
        std::ofstream out(jsonPath);
        out << "{\n  \"bench\": \"rtc\",\n  \"nvrtc\": \"" << rtc::nvrtcVersionString() << "\",\n  \"arch\": \"" << arch
            << "\",\n  \"device\": \"" << jsonEscape(device) << "\",\n  \"gpu\": " << (gpu ? "true" : "false")
            << ",\n  \"results\": [\n";
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const Row& r = rows[i];
            out << "    {\"name\": \"" << jsonEscape(r.name) << "\", \"median_ms\": " << r.median()
                << ", \"min_ms\": " << r.min() << ", \"cpu_median_ms\": " << median(r.cpu) << ", \"n\": " << r.samples.size() << ", \"goal_ms\": " << r.goal
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
