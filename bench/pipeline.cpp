// The frame pipeline's measurements (issue 5), headless on the GPU. Every row: name, median, goal
// (where the issue sets one) and met/missed.
//   1. interop overhead of a frame with 4 buffers (which ResourceSet registers as one shared GL
//      buffer): the map phase (the one map call plus one pointer query per registration) and the
//      one unmap call (goal <= 15 us together), then the same with 1, 8 and 32 MiB of other host
//      memory written between cycles (the CPU's caches as a whole-app frame leaves them), with the
//      pieces measured apart: map and unmap calls for 1, 2 and 4 resources (per-resource slope),
//      4 calls of one resource against one call of 4, each register flag, the pointer and array
//      queries, surface/texture object create+destroy, and whether a texture's CUarray changes
//      between maps (what the object cache relies on);
//   2. the particle demo at 16M particles: frame time against the sum of its stages' bandwidth
//      floors (bytes / measured device copy bandwidth) plus the render pass (goal <= 1.15x);
//   3. a 1920x1080 texture written by a kernel and shown (goal <= 0.35 ms per frame): the frame as
//      a user sees it (a steady loop of N frames, total time / N, frames in flight as the app runs
//      them), with the texture mapped ("interop": "map") and shared ("interop": "shared"), and a
//      serialized frame (glFinish after each) broken into its host and GPU parts.
//   4. a plot's "range": "auto" over 16Ki, 64Ki, 1Mi and 16Mi floats, against reading the whole
//      buffer back.
// Without a CUDA device only the GL rows of 3 and 4 run (Mesa's software GL: they show the bench works,
// not GPU numbers).
// Usage: ks_bench_pipeline [--json out.json] [--frames N] [--particles N] [--only interop|particles|texture|plotrange]
#include "bench_support.hpp"
#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/cuda/context.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/driver.hpp"
#include "ks/cuda/event.hpp"
#include "ks/cuda/memory.hpp"
#include "ks/cuda/stream.hpp"
#include "ks/cuda/surface.hpp"
#include "ks/gl/egl_context.hpp"
#include "ks/gl/objects.hpp"
#include "ks/interop/graphics_resource.hpp"
#include "ks/render/view_renderer.hpp"
#include "ks/scene/session.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>

using namespace ks;
using Clock = std::chrono::steady_clock;

namespace {

using bench::fixed;
using bench::median;

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

std::unique_ptr<scene::Session> start(project::Project p, bool cuda, CUstream stream, const std::string& arch,
                                         rtc::CompileCache& cache, int framesInFlight = 0)
{
    pipeline::PipelineOptions o;
    o.cuda = cuda;
    o.stream = stream;
    o.framesInFlight = framesInFlight;
    o.compile.arch = arch;
    o.compile.ptxasVerbose = false;
    auto s = std::make_unique<scene::Session>(std::move(p), o, paths::dataRoot() / "shaders");
    for (const auto& problem : s->pipeline().buildAll(cache))
        throw Error(ErrorDomain::Usage, "build", 0, "", problem.format());
    return s;
}

double usSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

// The printed table and the JSON rows: name, median, unit, goal, met/missed.
class Report {
public:
    nlohmann::ordered_json json;

    void row(const std::string& name, double value, const char* unit, std::optional<double> goal = std::nullopt,
             const std::string& note = {})
    {
        char line[512];
        std::snprintf(line, sizeof line, "  %-66s %10.3f %-3s", name.c_str(), value, unit);
        std::string text = line;
        nlohmann::ordered_json j{{"name", name}, {"median", value}, {"unit", unit}};
        if (goal) {
            const bool met = value >= 0 && value <= *goal;
            std::snprintf(line, sizeof line, "  goal <= %g %s: %s", *goal, unit, met ? "met" : "MISSED");
            text += line;
            j["goal"] = *goal;
            j["met"] = met;
        }
        if (!note.empty()) {
            text += "  (" + note + ")";
            j["note"] = note;
        }
        std::printf("%s\n", text.c_str());
        json["rows"].push_back(j);
    }
    void section(const std::string& title) { std::printf("\n%s\n", title.c_str()); }
    void note(const std::string& text) { std::printf("  %s\n", text.c_str()); }
};

// GL buffers registered with CUDA, for the interop pieces measured on their own.
struct RegisteredBuffers {
    std::vector<gl::Buffer> buffers;
    std::vector<interop::GraphicsResource> registrations;
    std::vector<CUgraphicsResource> handles;
    RegisteredBuffers(int n, std::size_t bytes, interop::RegisterFlags flags)
    {
        std::vector<float> data(bytes / sizeof(float), 1.5f); // never zeros
        for (int i = 0; i < n; ++i) {
            buffers.emplace_back(bytes, data.data());
            registrations.push_back(interop::GraphicsResource::registerBuffer(buffers.back().name(), flags));
            handles.push_back(registrations.back().get());
        }
    }
};

struct MapUnmap {
    double mapUs, unmapUs;
};

// Medians of the one map call and the one unmap call of handles[0, n), over `iterations` cycles.
MapUnmap mapUnmapCalls(CUgraphicsResource* handles, unsigned n, CUstream stream, int iterations)
{
    std::vector<double> m, u;
    for (int i = 0; i < iterations + 50; ++i) {
        const auto t0 = Clock::now();
        KS_CU(cuGraphicsMapResources, n, handles, stream);
        const auto t1 = Clock::now();
        KS_CU(cuGraphicsUnmapResources, n, handles, stream);
        const auto t2 = Clock::now();
        KS_CU(cuStreamSynchronize, stream); // the next cycle starts idle, as a frame's would
        glFinish();
        if (i >= 50) {
            m.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
            u.push_back(std::chrono::duration<double, std::micro>(t2 - t1).count());
        }
    }
    return {median(m), median(u)};
}

void interopSection(Report& rep, CUstream stream, int iterations)
{
    using F = interop::RegisterFlags;
    const std::size_t bytes = std::size_t(16) << 20; // 1M float4, as a project's buffer
    rep.section("1. interop (host microseconds, medians over " + std::to_string(iterations) + " cycles)");

    // The pipeline's own path: ResourceSet, 4 read/write buffers, map phase + unmap.
    {
        project::Project p;
        p.file = paths::dataRoot() / "projects" / "bench_interop.json";
        std::vector<pipeline::ResourceUse> uses;
        for (int i = 0; i < 4; ++i) {
            project::ResourceDesc r;
            r.name = "b" + std::to_string(i);
            r.element = {project::ScalarType::Float32, 4};
            r.count = 1 << 20;
            p.resources.push_back(r);
            uses.push_back({.cudaReads = true, .cudaWrites = true});
        }
        pipeline::ResourceSet set(p, uses, true);
        // As frames run them: each cycle starts with the GPU idle (the previous frame finished), so
        // the calls' host cost is measured, not a queue of earlier cycles they may wait behind.
        // `touchBytes` of other host memory written between cycles stands in for a frame's other
        // work (the panels, the views), which leaves the driver's code and data out of the CPU's
        // caches by the next map.
        std::vector<unsigned char> other;
        auto cycles = [&](std::size_t touchBytes) {
            other.assign(touchBytes, 0);
            std::vector<double> total, phase, call, pointers, unmap;
            for (int i = 0; i < iterations + 50; ++i) {
                for (std::size_t k = 0; k < other.size(); k += 64)
                    other[k] = static_cast<unsigned char>(other[k] + 1);
                const double m = set.map(stream);
                const auto c = set.lastCosts();
                const double u = set.unmap();
                KS_CU(cuStreamSynchronize, stream);
                glFinish();
                if (i >= 50) {
                    total.push_back(m + u);
                    phase.push_back(m);
                    call.push_back(c.mapCallUs);
                    pointers.push_back(c.pointersUs);
                    unmap.push_back(u);
                }
            }
            return std::array<double, 5>{median(total), median(phase), median(call), median(pointers), median(unmap)};
        };
        const auto warm = cycles(0);
        const std::string regs = std::to_string(set.registrationCount());
        rep.row("ResourceSet, 4 buffers: map phase + unmap (per frame)", warm[0], "us", 15.0,
                "host calls; the 4 share " + regs + " registration(s)");
        rep.row("  map phase (call + one pointer query per registration)", warm[1], "us");
        rep.row("    cuGraphicsMapResources, one call of " + regs, warm[2], "us");
        rep.row("    cuGraphicsResourceGetMappedPointer x" + regs, warm[3], "us");
        rep.row("  cuGraphicsUnmapResources, one call of " + regs, warm[4], "us");
        for (std::size_t mib : {1, 8, 32}) {
            const auto cold = cycles(mib << 20);
            rep.row("  the same, " + std::to_string(mib) + " MiB of other host memory written between cycles", cold[0],
                    "us", std::nullopt,
                    "map call " + fixed(cold[2]) + " + pointer " + fixed(cold[3]) + " + unmap " + fixed(cold[4]) +
                        ": the calls' cost with the CPU's caches as a frame leaves them");
        }
        // Back to back, nothing between the cycles: how many map/unmap cycles the GPU completes per
        // second (each orders the CUDA stream after GL and GL after it), as time per cycle.
        const auto t0 = Clock::now();
        for (int i = 0; i < iterations; ++i) {
            set.map(stream);
            set.unmap();
        }
        KS_CU(cuStreamSynchronize, stream);
        glFinish();
        rep.row("  back-to-back cycles, wall time per cycle (GPU-side synchronisation)", usSince(t0) / iterations,
                "us", std::nullopt, "the GL<->CUDA ordering each cycle costs on the GPU's timeline");
    }

    // The calls alone, by resource count (the per-resource slope) and by register flag.
    {
        RegisteredBuffers rw(4, bytes, F::None);
        for (unsigned n : {1u, 2u, 4u}) {
            const MapUnmap c = mapUnmapCalls(rw.handles.data(), n, stream, iterations);
            rep.row("map call, " + std::to_string(n) + " read/write buffer(s) in one call", c.mapUs, "us");
            rep.row("unmap call, " + std::to_string(n) + " read/write buffer(s) in one call", c.unmapUs, "us");
        }
        std::vector<double> separate, pointer;
        for (int i = 0; i < iterations + 50; ++i) {
            const auto t0 = Clock::now();
            for (CUgraphicsResource& h : rw.handles)
                KS_CU(cuGraphicsMapResources, 1u, &h, stream);
            for (CUgraphicsResource& h : rw.handles)
                KS_CU(cuGraphicsUnmapResources, 1u, &h, stream);
            const double us = usSince(t0);
            KS_CU(cuStreamSynchronize, stream);
            glFinish();
            KS_CU(cuGraphicsMapResources, 4u, rw.handles.data(), stream);
            const auto t1 = Clock::now();
            for (CUgraphicsResource h : rw.handles) {
                CUdeviceptr ptr = 0;
                std::size_t size = 0;
                KS_CU(cuGraphicsResourceGetMappedPointer, &ptr, &size, h);
            }
            const double pointerUs = usSince(t1) / 4;
            KS_CU(cuGraphicsUnmapResources, 4u, rw.handles.data(), stream);
            KS_CU(cuStreamSynchronize, stream);
            glFinish();
            if (i >= 50) {
                separate.push_back(us);
                pointer.push_back(pointerUs);
            }
        }
        rep.row("4 buffers mapped and unmapped one call each (8 calls)", median(separate), "us",
                std::nullopt, "against one call of 4: why the pipeline batches");
        rep.row("cuGraphicsResourceGetMappedPointer, per buffer", median(pointer), "us");
    }
    for (auto [flags, name] : {std::pair{F::ReadOnly, "read-only"}, std::pair{F::WriteDiscard, "write-discard"}}) {
        RegisteredBuffers b(4, bytes, flags);
        const MapUnmap c = mapUnmapCalls(b.handles.data(), 4, stream, iterations);
        rep.row(std::string("map + unmap calls, 4 ") + name + " buffers", c.mapUs + c.unmapUs, "us",
                std::nullopt, "map " + fixed(c.mapUs) + " + unmap " + fixed(c.unmapUs));
    }

    // A 1920x1080 RGBA8 texture written through a surface: the calls, the array query, the objects.
    {
        gl::Texture2D tex(1920, 1080, GL_RGBA8, GL_NEAREST);
        interop::GraphicsResource reg =
            interop::GraphicsResource::registerImage(tex.name(), GL_TEXTURE_2D, F::SurfaceLoadStore | F::WriteDiscard);
        CUgraphicsResource h = reg.get();
        const MapUnmap c = mapUnmapCalls(&h, 1, stream, iterations);
        rep.row("map call, one 1920x1080 texture (surface load/store)", c.mapUs, "us");
        rep.row("unmap call, one 1920x1080 texture", c.unmapUs, "us");
        std::vector<double> arrayUs, surfUs, texUs;
        CUarray previous = nullptr;
        int changes = 0;
        for (int i = 0; i < iterations + 50; ++i) {
            KS_CU(cuGraphicsMapResources, 1u, &h, stream);
            auto t0 = Clock::now();
            CUarray a = nullptr;
            KS_CU(cuGraphicsSubResourceGetMappedArray, &a, h, 0u, 0u);
            const double au = usSince(t0);
            changes += previous && a != previous;
            previous = a;
            t0 = Clock::now();
            { cuda::SurfaceObject s(a); }
            const double su = usSince(t0);
            t0 = Clock::now();
            {
                cuda::TextureObject::Options o;
                o.readAsFloat = true;
                cuda::TextureObject t(a, o);
            }
            const double tu = usSince(t0);
            KS_CU(cuGraphicsUnmapResources, 1u, &h, stream);
            if (i >= 50) {
                arrayUs.push_back(au);
                surfUs.push_back(su);
                texUs.push_back(tu);
            }
        }
        rep.row("cuGraphicsSubResourceGetMappedArray, per texture", median(arrayUs), "us");
        rep.row("surface object create + destroy (now only when the array changes)", median(surfUs), "us");
        rep.row("texture object create + destroy (now only when the array changes)", median(texUs), "us");
        rep.row("times the texture's CUarray changed between maps", double(changes), "", std::nullopt,
                "of " + std::to_string(iterations + 49) + " remaps; 0 means the object cache always hits");
    }
}

// A steady loop of `frames` frames (what a user sees): total time / frames, ms. `body` queues one frame.
// 4. A plot's "range": "auto": the finite values' minimum and maximum (ViewRenderer::plotValueRange,
// called with each frame's render: read back up to 16,384 floats, a compute pass on GL beyond),
// against reading the whole buffer back for the CPU to scan.
void plotRangeSection(Report& rep, int frames)
{
    rep.section("4. plot \"range\": \"auto\" (median of " + std::to_string(frames) + ")");
    render::ViewRenderer renderer(paths::dataRoot() / "shaders");
    project::ViewDesc v;
    v.kind = project::ViewKind::Plot;
    v.autoRange = true;
    for (std::int64_t n : {std::int64_t(1) << 14, std::int64_t(1) << 16, std::int64_t(1) << 20, std::int64_t(1) << 24}) {
        std::vector<float> host(static_cast<std::size_t>(n));
        for (std::size_t i = 0; i < host.size(); ++i)
            host[i] = float(std::sin(double(i) * 0.37)) * 3.f;
        host[host.size() / 3 + 1] = 11.f;
        const gl::Buffer buffer(host.size() * 4, host.data());
        render::ViewInputs in;
        in.source.buffer = {buffer.name(), 0, host.size() * 4};
        in.source.element = {project::ScalarType::Float32, 1};
        in.source.count = n;
        std::vector<double> pass, readBack;
        for (int f = 0; f < frames + 5; ++f) {
            glFinish();
            auto t0 = Clock::now();
            const auto range = renderer.plotValueRange(v, in);
            const double passUs = usSince(t0);
            if (!range || (*range)[1] != 11.0)
                throw Error(ErrorDomain::Usage, "plotValueRange", 0, "", "wrong range");
            glFinish();
            t0 = Clock::now();
            buffer.download(host.data(), host.size() * 4);
            float hi = -1e30f;
            for (float x : host)
                hi = std::max(hi, x);
            const double readUs = usSince(t0);
            if (f >= 5)
                pass.push_back(passUs), readBack.push_back(readUs);
        }
        const std::string size = std::to_string(n >> 10) + "Ki floats";
        rep.row("  " + size + ": plotValueRange (" + (n > 16384 ? "compute pass, 8 KB read back)" : "read back, CPU scan)"),
                median(pass) / 1000.0, "ms");
        rep.row("  " + size + ": whole buffer read back + CPU scan (for comparison)", median(readBack) / 1000.0, "ms");
    }
}

template <class Body>
double steadyMs(int frames, CUstream stream, bool cuda, Body body)
{
    for (int f = 0; f < 10; ++f)
        body();
    glFinish();
    if (cuda)
        KS_CU(cuStreamSynchronize, stream);
    const auto t0 = Clock::now();
    for (int f = 0; f < frames; ++f)
        body();
    glFinish();
    if (cuda)
        KS_CU(cuStreamSynchronize, stream);
    return usSince(t0) / 1000.0 / frames;
}

} // namespace

int main(int argc, char** argv)
{
    std::string jsonPath, only;
    int frames = 200;
    std::int64_t particles = 16 * 1024 * 1024;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--json") && i + 1 < argc)
            jsonPath = argv[++i];
        else if (!std::strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = std::max(10, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--particles") && i + 1 < argc)
            particles = std::atoll(argv[++i]);
        else if (!std::strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else {
            std::fprintf(stderr, "usage: %s [--json out.json] [--frames N] [--particles N] [--only interop|particles|texture|plotrange]\n",
                         argv[0]);
            return 2;
        }
    }
    auto wanted = [&](const char* name) { return only.empty() || only == name; };
    try {
        const bool cudaOk = cuda::driverStatus().available;
        if (!cudaOk)
            std::printf("no CUDA device (%s): only the GL rows run, on this machine's GL\n",
                        cuda::driverStatus().reason.c_str());
        gl::EglOptions eo;
        eo.cudaOrdinal = cudaOk ? 0 : -1;
        gl::EglContext egl(eo);
        std::optional<cuda::PrimaryContext> ctx;
        std::optional<cuda::Stream> streamOwner;
        std::string arch = "sm_90";
        Report rep;
        if (cudaOk) {
            ctx.emplace(0);
            streamOwner.emplace(cuda::Stream::Create{});
            const cuda::DeviceInfo dev = cuda::queryDevice(0);
            arch = dev.archName();
            rep.json["device"] = dev.name;
        }
        const CUstream stream = cudaOk ? streamOwner->get() : nullptr;
        rtc::CompileCache cache(rtc::CompileCache::defaultDirectory());
        rep.json["gl"] = egl.description();
        std::printf("GL: %s\n", egl.description().c_str());

        if (cudaOk && wanted("interop"))
            interopSection(rep, stream, 1000);

        if (cudaOk && wanted("particles")) {
            const double bw = copyBandwidth(stream);
            rep.json["copyBandwidthGBs"] = bw;
            // 2. Particles at 16M: random fills once, then integrate + bounding box (two reduce stages,
            // min and max) + render points.
            project::Project p = load("particles.json");
            for (project::ResourceDesc& r : p.resources)
                r.count = particles;
            auto s = start(std::move(p), true, stream, arch, cache);
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
                frame.push_back(usSince(t0) / 1000.0);
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
            rep.section("2. particles, " + std::to_string(particles) + " (device copy bandwidth " +
                        std::to_string(int(bw)) + " GB/s read + write)");
            rep.row("frame, serialized (frame + render + glFinish)", median(frame), "ms");
            rep.row("  integrate (floor " + fixed(floorIntegrate) + " ms)", median(integrate), "ms");
            rep.row("  bounding box (floor " + fixed(floorBox) + " ms)", median(bbox), "ms");
            rep.row("  render pass (GL timer)", median(render), "ms");
            rep.row("serialized frame / (floors + render)", median(frame) / target, "x", 1.15);
            {
                // The same run as the app makes it: two frames in flight, no glFinish per frame.
                project::Project q = load("particles.json");
                for (project::ResourceDesc& r : q.resources)
                    r.count = particles;
                s.reset();
                s = start(std::move(q), true, stream, arch, cache, 2);
            }
            const double steady = steadyMs(frames, stream, true, [&] {
                s->pipeline().frame();
                s->renderViews(size);
            });
            s->pipeline().finish();
            rep.row("steady loop, 2 frames in flight: total / frames", steady, "ms");
            rep.row("steady frame / (floors + render)", steady / target, "x", 1.15);
        }

        if (wanted("texture")) {
            // 3. A 1920x1080 texture written by a kernel and shown.
            rep.section("3. 1920x1080 texture written by a kernel and shown (" + std::to_string(frames) + " frames)");
            auto make = [&](int inFlight, bool shared = false) {
                project::Project p = load("thread_colors.json");
                p.resources[0].width = 1920;
                p.resources[0].height = 1080;
                p.resources[0].sharedInterop = shared;
                return start(std::move(p), cudaOk, stream, arch, cache, inFlight);
            };
            const std::vector<std::array<int, 2>> size{{1920, 1080}};
            for (const auto& [inFlight, shared] : {std::pair{1, false}, {2, false}, {1, true}, {2, true}}) {
                if (!cudaOk)
                    break;
                auto s = make(inFlight, shared);
                if (shared && s->pipeline().resources().sharedCount() == 0) {
                    rep.note("interop \"shared\" is unavailable here (see the log): its rows are skipped");
                    break;
                }
                const std::string interop = shared ? "interop shared" : "interop map";
                std::vector<double> frameHost, renderHost, mapCall, unmapCall, wait;
                std::int64_t seen = -1;
                const double steady = steadyMs(frames, stream, true, [&] {
                    auto t0 = Clock::now();
                    s->pipeline().frame();
                    frameHost.push_back(usSince(t0) / 1000.0);
                    t0 = Clock::now();
                    s->renderViews(size);
                    renderHost.push_back(usSince(t0) / 1000.0);
                    const pipeline::FrameTimings& t = s->pipeline().timings();
                    if (t.valid && t.frame != seen) { // each finished frame once
                        seen = t.frame;
                        mapCall.push_back(t.mapCallUs);
                        unmapCall.push_back(t.unmapUs);
                        wait.push_back(t.waitMs);
                    }
                });
                s->pipeline().finish();
                rep.row(interop + ", steady loop, " + std::to_string(inFlight) + " frame(s) in flight: total / frames",
                        steady, "ms", 0.35);
                rep.row("  host time in Pipeline::frame (map, launch, unmap, wait for an old frame)", median(frameHost), "ms");
                if (!shared) {
                    rep.row("    map call (high: it waits on the host for GL)", median(mapCall), "us");
                    rep.row("    unmap call", median(unmapCall), "us");
                }
                rep.row("    wait for the frame " + std::to_string(inFlight) + " earlier", median(wait), "ms");
                rep.row(shared ? "  host time in renderViews (waits for the frame's copy, GL calls queued)"
                               : "  host time in renderViews (GL calls queued)",
                        median(renderHost), "ms");
            }
            if (cudaOk) {
                // Interop shared, serialized as below (frame, render, glFinish each frame).
                auto s = make(0, true);
                if (s->pipeline().resources().sharedCount() > 0) {
                    std::vector<double> frame;
                    for (int f = 0; f < frames + 10; ++f) {
                        const auto t0 = Clock::now();
                        s->pipeline().frame();
                        s->renderViews(size);
                        glFinish();
                        if (f >= 10)
                            frame.push_back(usSince(t0) / 1000.0);
                    }
                    rep.row("interop shared, serialized frame (frame + render + glFinish each frame)", median(frame),
                            "ms", 0.35);
                }
            }
            {
                // Serialized: each frame finished before the next; the parts of one frame.
                auto s = make(0);
                std::vector<double> frame, pipelineHost, mapUs, callUs, objectsUs, queueMs, unmapUs, waitMs, renderHost,
                    finishMs, renderGpu, kernel;
                for (int f = 0; f < frames + 10; ++f) {
                    const auto t0 = Clock::now();
                    s->pipeline().frame();
                    const auto t1 = Clock::now();
                    s->renderViews(size);
                    const auto t2 = Clock::now();
                    glFinish();
                    const auto t3 = Clock::now();
                    if (f < 10)
                        continue;
                    auto ms = [](Clock::time_point a, Clock::time_point b) {
                        return std::chrono::duration<double, std::milli>(b - a).count();
                    };
                    frame.push_back(ms(t0, t3));
                    pipelineHost.push_back(ms(t0, t1));
                    renderHost.push_back(ms(t1, t2));
                    finishMs.push_back(ms(t2, t3));
                    renderGpu.push_back(s->finishRenderMs());
                    const pipeline::FrameTimings& t = s->pipeline().timings();
                    if (t.valid) {
                        mapUs.push_back(t.mapUs);
                        callUs.push_back(t.mapCallUs);
                        objectsUs.push_back(t.objectsUs);
                        queueMs.push_back(t.queueMs);
                        unmapUs.push_back(t.unmapUs);
                        waitMs.push_back(t.waitMs);
                        kernel.push_back(t.stages.empty() ? -1 : t.stages[0].ms);
                    }
                }
                rep.row("serialized frame (frame + render + glFinish each frame)", median(frame), "ms", 0.35,
                        "the old measurement");
                if (cudaOk) {
                    rep.row("  Pipeline::frame host time", median(pipelineHost), "ms");
                    rep.row("    map phase", median(mapUs), "us");
                    rep.row("      of which the map call", median(callUs), "us");
                    rep.row("      of which surface/texture objects", median(objectsUs), "us");
                    rep.row("    queue the kernel (events + launch)", median(queueMs), "ms");
                    rep.row("    unmap call", median(unmapUs), "us");
                    rep.row("    wait for the frame's GPU work", median(waitMs), "ms");
                    rep.row("    kernel (CUDA events)", median(kernel), "ms");
                }
                rep.row("  renderViews host time", median(renderHost), "ms");
                rep.row("  glFinish wait", median(finishMs), "ms");
                rep.row("  render pass (GL timer query)", median(renderGpu), "ms");
            }
            {
                // Each side alone, steady.
                auto s = make(cudaOk ? 2 : 0);
                if (cudaOk) {
                    const double cudaOnly = steadyMs(frames, stream, true, [&] { s->pipeline().frame(); });
                    s->pipeline().finish();
                    rep.row("CUDA side alone, steady (map, kernel, unmap; 2 in flight)", cudaOnly, "ms");
                }
                const double glOnly = steadyMs(frames, stream, cudaOk, [&] { s->renderViews(size); });
                rep.row("GL side alone, steady (render pass into 1920x1080)", glOnly, "ms");
            }
        }
        if (wanted("plotrange"))
            plotRangeSection(rep, frames);
        if (!jsonPath.empty()) {
            std::ofstream(jsonPath) << rep.json.dump(2) << "\n";
            std::printf("wrote %s\n", jsonPath.c_str());
        }
    } catch (const Error& e) {
        std::fprintf(stderr, "ks_bench_pipeline: error: %s\n", e.what());
        return 1;
    }
    return 0;
}
