// kernelscope --headless --project P and kernelscope --validate P.
#include "platforms.hpp"

#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/cuda/context.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/driver.hpp"
#include "ks/cuda/stream.hpp"
#include "ks/gl/egl_context.hpp"
#include "ks/pipeline/check.hpp"
#include "ks/rtc/cache.hpp"
#include "ks/scene/session.hpp"
#include "watchdog.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <optional>

namespace ks::app {

namespace {

void printProblems(const std::vector<project::Problem>& problems)
{
    for (const project::Problem& p : problems)
        std::fprintf(stderr, "%s\n", p.format().c_str());
}

} // namespace

int runValidate(const AppOptions& options)
{
    const project::LoadResult loaded = project::loadProject(options.validate);
    if (!loaded.ok()) {
        printProblems(loaded.problems);
        return 1;
    }
    rtc::CompileCache cache(rtc::CompileCache::defaultDirectory());
    pipeline::CheckOptions check;
    check.compile.arch = options.check.arch.empty() ? std::string("sm_90") : options.check.arch;
    check.compile.ptxasVerbose = false;
    const std::vector<project::Problem> problems = pipeline::checkProject(*loaded.project, cache, check);
    printProblems(problems);
    if (!problems.empty())
        return 1;
    std::printf("%s: ok (%zu resources, %zu stages, %zu views; kernels compiled for %s)\n",
                options.validate.string().c_str(), loaded.project->resources.size(), loaded.project->stages.size(),
                loaded.project->views.size(), check.compile.arch.c_str());
    return 0;
}

int runProjectHeadless(const AppOptions& options)
{
    const project::LoadResult loaded = project::loadProject(options.project);
    if (!loaded.ok()) {
        printProblems(loaded.problems);
        std::fprintf(stderr, "kernelscope: error: %s is not a valid project\n", options.project.string().c_str());
        return 1;
    }
    const std::filesystem::path dataRoot = paths::dataRoot(options.dataDir);
    const bool cudaAvailable = cuda::driverStatus().available;
    gl::EglOptions eglOptions;
    if (cudaAvailable)
        eglOptions.cudaOrdinal = options.device;
    // Members in construction order: GL context, CUDA context and stream, then the session.
    gl::EglContext context(eglOptions);
    std::optional<cuda::PrimaryContext> cudaContext;
    cuda::Stream stream;
    std::string device = "none";
    pipeline::PipelineOptions po;
    if (cudaAvailable) {
        cudaContext.emplace(options.device);
        stream = cuda::Stream(cuda::Stream::Create{});
        const cuda::DeviceInfo info = cuda::queryDevice(options.device);
        device = info.name + " (" + info.archName() + ")";
        po.cuda = true;
        po.stream = stream.get();
        po.compile.arch = info.archName();
    } else if (!loaded.project->stages.empty()) {
        std::fprintf(stderr, "kernelscope: error: the project has stages but CUDA is unavailable: %s\n",
                     cuda::driverStatus().reason.c_str());
        return 1;
    }
    po.compile.ptxasVerbose = false;
    po.seed = options.seed;

    scene::Session session(*loaded.project, po, dataRoot / "shaders");
    pipeline::Pipeline& pipe = session.pipeline();
    rtc::CompileCache cache(rtc::CompileCache::defaultDirectory());
    const std::vector<project::Problem> buildProblems = pipe.buildAll(cache);
    if (!buildProblems.empty()) {
        printProblems(buildProblems);
        std::fprintf(stderr, "kernelscope: error: the project's kernels did not build\n");
        return 1;
    }
    const std::size_t views = loaded.project->tabs ? std::min<std::size_t>(1, session.viewCount()) : session.viewCount();
    std::vector<std::array<int, 2>> sizes;
    for (std::size_t i = 0; i < views; ++i)
        sizes.push_back({int(i + 1) * options.width / int(views) - int(i) * options.width / int(views), options.height});
    std::vector<pipeline::FrameTimings> timeline;
    std::mutex timelineMutex; // the watchdog writes the timings of a run it stops
    auto writeTimings = [&](const scene::FailedFrame* failed) {
        if (options.timings.empty())
            return true;
        std::ofstream out(options.timings);
        {
            std::lock_guard lock(timelineMutex);
            out << scene::timingsJson(pipe.project(), timeline, device, failed);
        }
        if (!out) {
            std::fprintf(stderr, "kernelscope: error: cannot write %s\n", options.timings.string().c_str());
            return false;
        }
        std::printf("kernelscope: wrote timings of %zu finished frames to %s%s\n", timeline.size(),
                    options.timings.string().c_str(), failed ? " (the failed frame marked)" : "");
        return true;
    };
    // A frame that runs past --frame-limit never ends as far as this run is concerned: the watchdog
    // names the stage still running, writes the timings so far and ends the process (the GPU is
    // freed with it; nothing in this process could stop the kernel).
    FrameWatchdog watchdog(pipe, options.frameLimit, [&](const pipeline::FrameProgress& p) {
        scene::FailedFrame failed{p.frame, "time limit", p.stageName, ""};
        failed.message = describeOverrun(p, options.frameLimit);
        std::fprintf(stderr, "kernelscope: error: %s\n", failed.message.c_str());
        writeTimings(&failed);
        std::fflush(stdout);
        std::fflush(stderr);
        std::_Exit(kExitFrameLimit);
    });
    pipeline::InputState input;
    if (!sizes.empty())
        input.viewportWidth = sizes[0][0], input.viewportHeight = sizes[0][1];
    for (int f = 0; f < options.frames; ++f) {
        if (!sizes.empty())
            session.followViewport(sizes[0][0], sizes[0][1]);
        if (cudaAvailable && !pipe.frame(input)) {
            scene::FailedFrame failed{f, pipe.fault() ? "fault" : "error", "", pipe.error()};
            if (const auto& fault = pipe.fault()) {
                failed.stage = fault->stageName;
                std::fprintf(stderr, "kernelscope: error: %s\n  %s\n", fault->describe().c_str(), pipe.error().c_str());
            } else {
                std::fprintf(stderr, "kernelscope: error: frame %d failed: %s\n", f, pipe.error().c_str());
            }
            watchdog.stop();
            writeTimings(&failed);
            std::fprintf(stderr, "kernelscope: %d of %d frames finished\n", f, options.frames);
            return pipe.fault() ? kExitFault : 1;
        }
        if (!sizes.empty()) {
            session.renderViews(sizes);
            pipe.setRenderMs(session.finishRenderMs());
        }
        if (cudaAvailable) {
            pipeline::FrameTimings t = pipe.timings();
            t.renderMs = session.finishRenderMs();
            std::lock_guard lock(timelineMutex);
            timeline.push_back(std::move(t));
        }
    }
    watchdog.stop();
    glFinish();
    for (const pipeline::Readout& r : session.pipeline().readouts()) {
        std::string values;
        for (double v : r.values) {
            char text[40];
            std::snprintf(text, sizeof text, "%s%.17g", values.empty() ? "" : ", ", v);
            values += text;
        }
        std::printf("kernelscope: read-out %s (%s): %s\n", r.stage.c_str(), r.op.c_str(),
                    r.valid ? values.c_str() : "(did not run)");
    }
    for (const auto& [name, path] : options.dumps) {
        session.dump(name, path);
        std::printf("kernelscope: wrote %s to %s\n", name.c_str(), path.string().c_str());
    }
    if (!options.screenshot.empty()) {
        image::writePng(options.screenshot, session.composite(options.width, options.height));
        std::printf("kernelscope: wrote screenshot %s (%dx%d, %zu views, after %d frames)\n",
                    options.screenshot.string().c_str(), options.width, options.height, views, options.frames);
    }
    if (!writeTimings(nullptr))
        return 1;
    for (std::size_t i = 0; i < views; ++i)
        if (!session.viewError(i).empty()) {
            std::fprintf(stderr, "kernelscope: error: view %zu: %s\n", i, session.viewError(i).c_str());
            return 1;
        }
    std::printf("kernelscope: ran %s for %d frames (%s)\n", loaded.project->name.c_str(), options.frames,
                device.c_str());
    return 0;
}

} // namespace ks::app
