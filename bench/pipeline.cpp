// The frame pipeline's measurements (issue 5), headless on the GPU:
//   1. interop overhead: one map + one unmap of a frame with 4 registered buffers (goal <= 15 us);
//   2. the particle demo at 16M particles: frame time against the sum of its stages' bandwidth
//      floors (bytes / measured device copy bandwidth) plus the render pass (goal <= 1.15x);
//   3. a 1920x1080 texture written by a kernel and shown (goal <= 0.35 ms per frame).
// Usage: ks_bench_pipeline [--json out.json] [--frames N] [--particles N]
#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/cuda/context.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/driver.hpp"
#include "ks/cuda/event.hpp"
#include "ks/cuda/memory.hpp"
#include "ks/cuda/stream.hpp"
#include "ks/gl/egl_context.hpp"
#include "ks/pipeline/session.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

using namespace ks;
using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v)
{
    if (v.empty())
        return -1;
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
    return v[v.size() / 2];
}

project::Project load(const std::string& name)
{
    const auto r = project::loadProject(paths::dataRoot() / "projects" / name);
    if (!r.ok())
        throw Error(ErrorDomain::Usage, "loadProject", 0, "", r.problems.empty() ? name : r.problems[0].format());
    return *r.project;
}

// Device-to-device copy bandwidth (bytes read + written per second), 1 GiB, median of 20.
double copyBandwidth(CUstream stream)
{
    const std::size_t bytes = std::size_t(1) << 30;
    cuda::DeviceMemory a(bytes), b(bytes);
    KS_CU(cuMemsetD32Async, a.get(), 0x3f800001u, bytes / 4, stream); // never zeros
    cuda::Event e0(cuda::Event::Create{}), e1(cuda::Event::Create{});
    std::vector<double> gbs;
    for (int i = 0; i < 21; ++i) {
        e0.record(stream);
        KS_CU(cuMemcpyDtoDAsync, b.get(), a.get(), bytes, stream);
        e1.record(stream);
        e1.synchronize();
        if (i)
            gbs.push_back(2.0 * double(bytes) / (double(e1.elapsedMsSince(e0)) * 1e6));
    }
    return median(gbs);
}

std::unique_ptr<pipeline::Session> start(project::Project p, CUstream stream, const std::string& arch,
                                         rtc::CompileCache& cache)
{
    pipeline::PipelineOptions o;
    o.cuda = true;
    o.stream = stream;
    o.compile.arch = arch;
    o.compile.ptxasVerbose = false;
    auto s = std::make_unique<pipeline::Session>(std::move(p), o, paths::dataRoot() / "shaders");
    for (const auto& problem : s->pipeline().buildAll(cache))
        throw Error(ErrorDomain::Usage, "build", 0, "", problem.format());
    return s;
}

} // namespace

int main(int argc, char** argv)
{
    std::string jsonPath;
    int frames = 200;
    std::int64_t particles = 16 * 1024 * 1024;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--json") && i + 1 < argc)
            jsonPath = argv[++i];
        else if (!std::strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = std::max(10, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--particles") && i + 1 < argc)
            particles = std::atoll(argv[++i]);
        else {
            std::fprintf(stderr, "usage: %s [--json out.json] [--frames N] [--particles N]\n", argv[0]);
            return 2;
        }
    }
    try {
        if (!cuda::driverStatus().available) {
            std::fprintf(stderr, "ks_bench_pipeline: no CUDA device: %s\n", cuda::driverStatus().reason.c_str());
            return 1;
        }
        gl::EglOptions eo;
        eo.cudaOrdinal = 0;
        gl::EglContext egl(eo);
        cuda::PrimaryContext ctx(0);
        cuda::Stream stream(cuda::Stream::Create{});
        const cuda::DeviceInfo dev = cuda::queryDevice(0);
        rtc::CompileCache cache(rtc::CompileCache::defaultDirectory());
        nlohmann::ordered_json report;
        report["device"] = dev.name;
        report["gl"] = egl.description();

        // 1. Interop overhead with 4 buffers (all registered read/write).
        {
            project::Project p;
            p.file = paths::dataRoot() / "projects" / "bench_interop.json";
            std::vector<pipeline::ResourceUse> uses;
            for (int i = 0; i < 4; ++i) {
                project::ResourceDesc r;
                r.name = "b" + std::to_string(i);
                r.element = {pipeline::ScalarType::Float32, 4};
                r.count = 1 << 20;
                p.resources.push_back(r);
                uses.push_back({.cudaReads = true, .cudaWrites = true});
            }
            pipeline::ResourceSet set(p, uses, true);
            std::vector<double> us;
            for (int i = 0; i < 1000 + 50; ++i) {
                const double m = set.map(stream.get());
                const double u = set.unmap();
                if (i >= 50)
                    us.push_back(m + u);
            }
            report["interop"] = {{"resources", 4}, {"medianMapUnmapUs", median(us)}, {"goalUs", 15}};
            std::printf("interop: map+unmap of 4 buffers: median %.2f us (goal <= 15 us)\n", median(us));
        }

        const double bw = copyBandwidth(stream.get());
        report["copyBandwidthGBs"] = bw;
        std::printf("device copy bandwidth: %.0f GB/s (read + write)\n", bw);

        // 2. Particles at 16M: random fills once, then integrate + bounding box (two reduce stages, min
        // and max) + render points.
        {
            project::Project p = load("particles.json");
            for (project::ResourceDesc& r : p.resources)
                r.count = particles;
            auto s = start(std::move(p), stream.get(), dev.archName(), cache);
            const std::vector<std::array<int, 2>> size{{1920, 1080}};
            s->pipeline().frame(); // init + first step
            s->renderViews(size);
            glFinish();
            std::vector<double> frame, integrate, bbox, render;
            for (int f = 0; f < frames; ++f) {
                const auto t0 = Clock::now();
                s->pipeline().frame();
                s->renderViews(size);
                glFinish();
                frame.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
                const auto& t = s->pipeline().timings();
                double box = 0;
                for (const auto& st : t.stages) {
                    if (st.name == "integrate")
                        integrate.push_back(st.ms);
                    if (st.name.rfind("bounding box", 0) == 0)
                        box += st.ms;
                }
                bbox.push_back(box);
                render.push_back(s->finishRenderMs());
            }
            // Bytes: integrate reads pos, vel and writes pos, vel, speed; each box stage (min, max) reads pos.
            const double n = double(particles);
            const double floorIntegrate = n * (16 + 16 + 16 + 16 + 4) / (bw * 1e6);
            const double floorBox = 2 * n * 16 / (bw * 1e6);
            const double target = floorIntegrate + floorBox + median(render);
            report["particles"] = {{"count", particles},
                                   {"medianFrameMs", median(frame)},
                                   {"medianIntegrateMs", median(integrate)},
                                   {"medianBoundingBoxMs", median(bbox)},
                                   {"medianRenderMs", median(render)},
                                   {"floorIntegrateMs", floorIntegrate},
                                   {"floorBoundingBoxMs", floorBox},
                                   {"ratioToFloorsPlusRender", median(frame) / target},
                                   {"goalRatio", 1.15}};
            std::printf("particles %lld: frame %.3f ms; integrate %.3f ms (floor %.3f), bbox %.3f ms (floor %.3f), "
                        "render %.3f ms; frame / (floors + render) = %.2fx (goal <= 1.15x)\n",
                        (long long)particles, median(frame), median(integrate), floorIntegrate, median(bbox), floorBox,
                        median(render), median(frame) / target);
        }

        // 3. A 1920x1080 texture written by a kernel and shown.
        {
            project::Project p = load("thread_colors.json");
            p.resources[0].width = 1920;
            p.resources[0].height = 1080;
            auto s = start(std::move(p), stream.get(), dev.archName(), cache);
            const std::vector<std::array<int, 2>> size{{1920, 1080}};
            std::vector<double> frame, kernel;
            for (int f = 0; f < frames + 10; ++f) {
                const auto t0 = Clock::now();
                s->pipeline().frame();
                s->renderViews(size);
                glFinish();
                if (f >= 10) {
                    frame.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
                    kernel.push_back(s->pipeline().timings().stages[0].ms);
                }
            }
            report["texture1080p"] = {{"medianFrameMs", median(frame)}, {"medianKernelMs", median(kernel)}, {"goalMs", 0.35}};
            std::printf("1920x1080 texture written and shown: frame %.3f ms (kernel %.3f ms; goal <= 0.35 ms)\n",
                        median(frame), median(kernel));
        }
        if (!jsonPath.empty()) {
            std::ofstream(jsonPath) << report.dump(2) << "\n";
            std::printf("wrote %s\n", jsonPath.c_str());
        }
    } catch (const Error& e) {
        std::fprintf(stderr, "ks_bench_pipeline: error: %s\n", e.what());
        return 1;
    }
    return 0;
}
