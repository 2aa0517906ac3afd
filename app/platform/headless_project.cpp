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

#include <cstdio>
#include <fstream>
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
    pipeline::InputState input;
    if (!sizes.empty())
        input.viewportWidth = sizes[0][0], input.viewportHeight = sizes[0][1];
    for (int f = 0; f < options.frames; ++f) {
        if (!sizes.empty())
            session.followViewport(sizes[0][0], sizes[0][1]);
        if (cudaAvailable && !pipe.frame(input)) {
            std::fprintf(stderr, "kernelscope: error: frame %d failed: %s\n", f, pipe.error().c_str());
            return 1;
        }
        if (!sizes.empty()) {
            session.renderViews(sizes);
            pipe.setRenderMs(session.finishRenderMs());
        }
        if (cudaAvailable) {
            pipeline::FrameTimings t = pipe.timings();
            t.renderMs = session.finishRenderMs();
            timeline.push_back(std::move(t));
        }
    }
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
    if (!options.timings.empty()) {
        std::ofstream out(options.timings);
        out << scene::timingsJson(pipe.project(), timeline, device);
        if (!out) {
            std::fprintf(stderr, "kernelscope: error: cannot write %s\n", options.timings.string().c_str());
            return 1;
        }
        std::printf("kernelscope: wrote timings of %zu frames to %s\n", timeline.size(),
                    options.timings.string().c_str());
    }
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
