// Data in: a kernel's project inferred from its signature, opened on real data, up to its first
// frame drawn, against reading the data and copying it to the device alone.
//   - a 4096 x 4096 RGBA PNG into a texture (a cudaTextureObject_t parameter);
//   - a 256 MiB .npy of float32 into a buffer (a const float* parameter);
//   - the inferred run against the same project saved (--save-project) and opened again
//     (--project): frame times over the same frames.
// Baselines: decode (PNG) or read (.npy) into host memory, then upload into a GL texture or buffer,
// finished (glFinish). The inferred path does the same work plus the inference, the compile (NVRTC;
// a repeated source is answered by the compile cache, as in the app), the CUDA registration, one
// frame and the views drawn.
//   build/bench/ks_bench_data_in [--json out.json] [--dir DIR] [--frames N]
#include "bench_support.hpp"

#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/cuda/context.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/stream.hpp"
#include "ks/gl/egl_context.hpp"
#include "ks/gl/objects.hpp"
#include "ks/io/image.hpp"
#include "ks/io/npy.hpp"
#include "ks/pipeline/infer.hpp"
#include "ks/rtc/cache.hpp"
#include "ks/scene/session.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Pages the file into the OS cache, so that every timed run reads from memory alike.
void warmFile(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    std::vector<char> chunk(std::size_t(1) << 24);
    while (in.read(chunk.data(), std::streamsize(chunk.size())) || in.gcount() > 0) {
    }
}

struct Run {
    double firstFrameMs = 0;
    std::vector<double> frameMs;
};

Run runInferred(const fs::path& kernel, const ks::pipeline::InferOptions& o, const fs::path& shaders,
                ks::rtc::CompileCache& cache, CUstream stream, int frames, const fs::path* saveAs = nullptr,
                bool reload = false)
{
    const auto t0 = Clock::now();
    ks::project::Project project;
    if (reload) {
        auto loaded = ks::project::loadProject(*saveAs);
        if (!loaded.ok())
            throw std::runtime_error("the saved project does not load: " + loaded.problems.at(0).format());
        project = *loaded.project;
    } else {
        const auto inf = ks::pipeline::inferProject(kernel, ks::paths::readTextFile(kernel), o);
        if (!inf.ok())
            throw std::runtime_error(inf.problems.at(0).format());
        project = *inf.project;
        if (saveAs)
            ks::project::saveProject(project, *saveAs);
    }
    ks::pipeline::PipelineOptions po;
    po.cuda = true;
    po.stream = stream;
    po.compile.arch = ks::cuda::queryDevice(0).archName();
    po.compile.ptxasVerbose = false;
    ks::scene::Session session(project, po, shaders);
    for (const auto& p : session.pipeline().buildAll(cache))
        throw std::runtime_error(p.format());
    Run r;
    for (int f = 0; f < frames; ++f) {
        const auto tf = Clock::now();
        if (!session.pipeline().frame())
            throw std::runtime_error(session.pipeline().error());
        session.renderViews({{1280, 720}});
        glFinish();
        if (f == 0)
            r.firstFrameMs = msSince(t0);
        else
            r.frameMs.push_back(msSince(tf));
    }
    return r;
}

} // namespace

int main(int argc, char** argv)
{
    std::string json;
    fs::path dir = fs::temp_directory_path() / "ks-bench-data-in";
    int frames = 60;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--json"))
            json = argv[i + 1];
        else if (!std::strcmp(argv[i], "--dir"))
            dir = argv[i + 1];
        else if (!std::strcmp(argv[i], "--frames"))
            frames = std::max(2, std::atoi(argv[i + 1]));
    }
    try {
        fs::create_directories(dir);
        ks::gl::EglContext egl(ks::gl::EglOptions{.cudaOrdinal = 0});
        ks::cuda::PrimaryContext context(0);
        ks::cuda::Stream stream(ks::cuda::Stream::Create{});
        const auto device = ks::cuda::queryDevice(0);
        const fs::path shaders = ks::paths::dataRoot() / "shaders";
        ks::rtc::CompileCache cache(dir / "cache");

        // The data: a 4096 x 4096 RGBA picture (smooth, so the PNG is of a photo's size) and
        // 64 Mi floats.
        const int side = 4096;
        const fs::path png = dir / "photo.png", npy = dir / "big.npy";
        if (!fs::exists(png)) {
            ks::io::Rgba8Image img;
            img.width = img.height = side;
            img.pixels.resize(std::size_t(side) * side * 4);
            for (int y = 0; y < side; ++y)
                for (int x = 0; x < side; ++x) {
                    std::uint8_t* p = &img.pixels[(std::size_t(y) * side + std::size_t(x)) * 4];
                    p[0] = std::uint8_t(x * 255 / side), p[1] = std::uint8_t(y * 255 / side);
                    p[2] = std::uint8_t(((x ^ y) >> 4) & 255), p[3] = 255;
                }
            ks::io::writePng(png, img);
        }
        const std::size_t floats = std::size_t(64) << 20;
        if (!fs::exists(npy)) {
            std::vector<float> v(floats);
            for (std::size_t i = 0; i < floats; ++i)
                v[i] = float(i % 1000) * 0.001f;
            ks::io::writeNpy(npy, "<f4", {std::int64_t(floats)}, v.data(), v.size() * 4);
        }
        const fs::path kernels = dir / "kernels.cu";
        std::ofstream(kernels) << "__global__ void touchTexture(cudaTextureObject_t photo, float* out)\n"
                                  "{ if (threadIdx.x == 0) out[0] = tex2D<float4>(photo, 0.5f, 0.5f).x; }\n"
                                  "__global__ void touchBuffer(const float* big, float* out)\n"
                                  "{ if (threadIdx.x == 0) out[0] = big[0]; }\n";
        warmFile(png);
        warmFile(npy);

        std::printf("data in on %s: median of 5 runs each (files in the OS cache)\n", device.name.c_str());
        struct Row {
            const char* what;
            double baseline, inferred;
        };
        std::vector<Row> rows;
        // PNG into a texture.
        {
            std::vector<double> base, full;
            for (int r = 0; r < 5; ++r) {
                auto t0 = Clock::now();
                ks::io::ImageOptions io;
                io.channels = 4;
                const ks::io::HostArray a = ks::io::readImage(png, io);
                ks::gl::Texture2D t(side, side, GL_RGBA8, GL_NEAREST);
                t.upload(GL_RGBA, GL_UNSIGNED_BYTE, a.bytes.data());
                glFinish();
                base.push_back(msSince(t0));
                ks::pipeline::InferOptions o;
                o.kernel = "touchTexture";
                o.args = {{"photo", png.string()}};
                o.shapes = {{"out", {1}}};
                o.grid = std::array<unsigned, 3>{1, 1, 1};
                o.block = std::array<unsigned, 3>{32, 1, 1};
                full.push_back(runInferred(kernels, o, shaders, cache, stream.get(), 1).firstFrameMs);
            }
            rows.push_back({"4096x4096 RGBA PNG -> texture", ks::bench::median(base), ks::bench::median(full)});
        }
        // .npy into a buffer.
        {
            std::vector<double> base, full;
            for (int r = 0; r < 5; ++r) {
                auto t0 = Clock::now();
                const ks::io::HostArray a = ks::io::readNpy(npy);
                ks::gl::Buffer b(a.bytes.size(), a.bytes.data());
                glFinish();
                base.push_back(msSince(t0));
                ks::pipeline::InferOptions o;
                o.kernel = "touchBuffer";
                o.args = {{"big", npy.string()}};
                o.shapes = {{"out", {1}}};
                o.grid = std::array<unsigned, 3>{1, 1, 1};
                o.block = std::array<unsigned, 3>{32, 1, 1};
                full.push_back(runInferred(kernels, o, shaders, cache, stream.get(), 1).firstFrameMs);
            }
            rows.push_back({"256 MiB float32 .npy -> buffer", ks::bench::median(base), ks::bench::median(full)});
        }
        std::printf("  %-34s %12s %16s %8s\n", "", "read+upload", "first frame", "ratio");
        for (const Row& r : rows)
            std::printf("  %-34s %9.1f ms %13.1f ms %7.2fx\n", r.what, r.baseline, r.inferred, r.inferred / r.baseline);

        // The round trip: the same frames from the inferred project and from it saved and reopened.
        const fs::path saved = dir / "saved.json";
        const fs::path tutorial = ks::paths::dataRoot() / "kernels" / "tutorials" / "mandelbrot.cu";
        ks::pipeline::InferOptions mo;
        const Run inferred = runInferred(tutorial, mo, shaders, cache, stream.get(), frames, &saved);
        const Run reopened = runInferred(tutorial, mo, shaders, cache, stream.get(), frames, &saved, true);
        const double a = ks::bench::median(inferred.frameMs), b = ks::bench::median(reopened.frameMs);
        std::printf("  mandelbrot.cu 1024x1024, %d frames: inferred %.3f ms/frame, saved and reopened %.3f ms/frame\n",
                    frames - 1, a, b);
        if (!json.empty()) {
            std::ofstream out(json);
            out << "{\"device\": \"" << device.name << "\", \"rows\": [";
            for (std::size_t i = 0; i < rows.size(); ++i)
                out << (i ? ", " : "") << "{\"what\": \"" << rows[i].what << "\", \"baselineMs\": " << rows[i].baseline
                    << ", \"firstFrameMs\": " << rows[i].inferred << "}";
            out << "], \"roundTrip\": {\"frames\": " << frames - 1 << ", \"inferredMs\": " << a
                << ", \"reopenedMs\": " << b << "}}\n";
        }
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ks_bench_data_in: %s\n", e.what());
        return 1;
    }
}
