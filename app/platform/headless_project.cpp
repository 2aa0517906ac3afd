// kernelscope --headless --project P and kernelscope --validate P.
#include "platform/platforms.hpp"
#include "platform/mesa_cache_guard.hpp"
#include "platform/recorder.hpp"

#include "ks/core/atomic_file.hpp"
#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/cuda/context.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/driver.hpp"
#include "ks/cuda/memory.hpp"
#include "ks/cuda/stream.hpp"
#include "ks/gl/egl_context.hpp"
#include "ks/gl/objects.hpp"
#include "ks/pipeline/check.hpp"
#include "ks/rtc/cache.hpp"
#include "ks/scene/session.hpp"
#include "ks/teach/fault_report.hpp"
#include "ks/teach/stage_probe.hpp"
#include "supervise/find_fault.hpp"
#include "platform/watchdog.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>

namespace ks::app {

namespace {

void printProblems(const std::vector<project::Problem>& problems)
{
    for (const project::Problem& p : problems)
        std::fprintf(stderr, "%s\n", p.format().c_str());
}

// --checked-frame: what the checked re-run knows of its stage, and its report.
struct CheckedRun {
    std::size_t stage = 0;
    CheckedReport report;

    // Writes the report and says so; returns the exit status (0 once a report is written).
    int finish(const AppOptions& options)
    {
        if (!writeCheckedReport(options.checkedReport, report)) {
            std::fprintf(stderr, "kernelscope: error: cannot write %s\n", options.checkedReport.string().c_str());
            return 1;
        }
        std::printf("kernelscope: checked frame %lld of stage \"%s\": %s\n", (long long)report.frame,
                    report.stage.c_str(), report.ran ? report.sentence.c_str() : report.error.c_str());
        return 0;
    }
};

std::string accessWord(unsigned access)
{
    switch (access) {
    case teach::kCheckedRead: return "read";
    case teach::kCheckedWrite: return "write";
    case teach::kCheckedUpdate: return "update";
    default: return "access";
    }
}

// Finds options.checkedStage among the kernel stages and gives it (and every stage that builds the
// same file) the text of --checked-source. False, with the report's error set, when there is none.
bool prepareCheckedRun(const AppOptions& options, pipeline::Pipeline& pipe, CheckedRun& run)
{
    const pipeline::KernelStage* checked = nullptr;
    for (std::size_t i = 0; i < pipe.stageCount() && !checked; ++i)
        if (pipe.stage(i).desc().name == options.checkedStage)
            if ((checked = dynamic_cast<const pipeline::KernelStage*>(&pipe.stage(i))))
                run.stage = i;
    if (!checked) {
        run.report.error = "the project has no kernel stage \"" + options.checkedStage + "\"";
        return false;
    }
    const std::filesystem::path file = pipe.project().resolve(checked->desc().file);
    run.report.kernel = checked->desc().kernel;
    run.report.file = file.string();
    if (options.checkedSource.empty())
        return true;
    const std::string text = paths::readTextFile(options.checkedSource);
    for (std::size_t i = 0; i < pipe.stageCount(); ++i)
        if (auto* k = dynamic_cast<pipeline::KernelStage*>(&pipe.stage(i)); k && pipe.project().resolve(k->desc().file) == file)
            k->setSourceText(text);
    return true;
}

// The variant --checked-variant names.
teach::VariantKind checkedVariantKind(const AppOptions& options)
{
    return options.checkedVariant == "who"        ? teach::VariantKind::WhoWrote
           : options.checkedVariant == "timeline" ? teach::VariantKind::BlockTimeline
                                                  : teach::VariantKind::Checked;
}

// The checked variant's capture of frame options.checkedFrame, into the report.
void takeCheckedCapture(const teach::StageProbe& probe, teach::VariantKind kind, CheckedRun& run)
{
    const teach::ProbeCapture* c = probe.latest(kind);
    if (!c || c->frame != run.report.frame || !c->checks) {
        run.report.error = "the checked variant did not run in frame " + std::to_string(run.report.frame) +
                           (probe.error().empty() ? "" : ": " + probe.error());
        return;
    }
    const teach::CheckedFault& f = c->checked.first;
    run.report.ran = true;
    run.report.found = c->checked.claimed != 0;
    run.report.sentence = teach::describeCheckedRun(c->checked, c->definition, kind);
    run.report.failures = c->checked.failures;
    if (!run.report.found)
        return;
    run.report.line = int(f.line);
    run.report.access = accessWord(f.access);
    run.report.element = f.element;
    bool instrumentation = false;
    run.report.param = teach::checkedParameterName(f.param, c->definition, kind, &instrumentation);
    if (instrumentation)
        run.report.line = 0; // a line of the generated wrapper, not of the user's file
    if (f.param < c->bindings.resources.size())
        run.report.resource = c->bindings.resources[f.param];
}

// --find-faults, after the run's CUDA context is gone: the checked re-run of the faulting frame in
// a new process, its finding printed for people and for editors (FILE:LINE: error: ...).
void findTheFault(const AppOptions& options, const pipeline::FaultReport& fault)
{
    const std::vector<std::string> stages = fault.stage >= 0 ? std::vector<std::string>{fault.stageName} : fault.candidates;
    if (stages.empty()) {
        std::fprintf(stderr, "kernelscope: cannot look for the fault: no kernel stage is known to have run\n");
        return;
    }
    std::error_code ec;
    std::string pattern = (std::filesystem::temp_directory_path(ec) / "kernelscope-find-fault-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) {
        std::fprintf(stderr, "kernelscope: cannot look for the fault: no temporary folder (%s)\n", pattern.c_str());
        return;
    }
    const std::filesystem::path work = pattern;
    FindFaultRequest request;
    request.executable = kernelscopeExecutable();
    request.project = std::filesystem::absolute(options.project);
    request.frame = fault.frame;
    request.workDir = work;
    request.faultText = fault.describe();
    request.extraArgs = checkedRunOptions(options);
    request.limit = std::chrono::milliseconds(std::int64_t(options.findFaultsLimit * 1000.0));
    for (const std::string& stage : stages) {
        request.stage = stage;
        std::fprintf(stderr, "kernelscope: looking for the fault: frame %lld again in a new process, with a checked "
                             "variant of stage \"%s\"\n", (long long)fault.frame, stage.c_str());
        const FindFaultResult r = findFault(request);
        std::fprintf(stderr, "kernelscope: %s\n", r.message.c_str());
        if (const std::string line = compilerStyleLine(r); !line.empty())
            std::fprintf(stderr, "%s\n", line.c_str());
        if (!r.logTail.empty()) {
            std::istringstream tail(r.logTail);
            for (std::string l; std::getline(tail, l);)
                std::fprintf(stderr, "  | %s\n", l.c_str());
        }
        if (r.outcome == FindFaultResult::Outcome::Found)
            break;
    }
    std::filesystem::remove_all(work, ec);
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

namespace {

// The run of runProjectHeadless (or, with --checked-frame, the checked re-run); `faultOut` gets
// the report of a frame that faulted.
int runProject(const AppOptions& options, std::optional<pipeline::FaultReport>& faultOut)
{
    const bool checking = options.checkedFrame >= 0;
    CheckedRun checkedRun;
    checkedRun.report.frame = options.checkedFrame;
    checkedRun.report.stage = options.checkedStage;
    checkedRun.report.variant = options.checkedVariant;
    const teach::VariantKind checkedKind = checkedVariantKind(options);
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
    allocateMesaShaderCacheIndex();
    std::optional<cuda::PrimaryContext> cudaContext;
    cuda::Stream stream;
    std::string device = "none";
    pipeline::PipelineOptions po;
    if (cudaAvailable) {
        cudaContext.emplace(options.device);
        if (options.printfBuffer > 0) { // before any kernel: the driver takes it only until one prints
            try {
                cuda::setContextLimit(cuda::ContextLimit::PrintfFifoSize, options.printfBuffer);
            } catch (const Error& e) {
                std::fprintf(stderr, "kernelscope: warning: device printf keeps the driver's buffer of %s: %s\n",
                             cuda::formatBytes(cuda::contextLimit(cuda::ContextLimit::PrintfFifoSize)).c_str(), e.what());
            }
        }
        stream = cuda::Stream(cuda::Stream::Create{});
        const cuda::DeviceInfo info = cuda::queryDevice(options.device);
        device = info.name + " (" + info.archName() + ")";
        po.cuda = true;
        po.stream = stream.get();
        po.compile.arch = info.archName();
    } else if (!loaded.project->stages.empty()) {
        std::fprintf(stderr, "kernelscope: error: the project has stages but CUDA is unavailable: %s\n",
                     cuda::driverStatus().reason.c_str());
        if (checking) {
            checkedRun.report.error = "CUDA is unavailable: " + cuda::driverStatus().reason;
            checkedRun.finish(options);
        }
        return 1;
    }
    po.compile.ptxasVerbose = false;
    po.seed = options.seed;

    rtc::CompileCache cache(rtc::CompileCache::defaultDirectory());
    teach::StageProbe probe(&cache); // before the session: a request pending on its pipeline refers to it
    scene::Session session(*loaded.project, po, dataRoot / "shaders");
    pipeline::Pipeline& pipe = session.pipeline();
    if (checking && !prepareCheckedRun(options, pipe, checkedRun))
        return checkedRun.finish(options);
    const std::vector<project::Problem> buildProblems = pipe.buildAll(cache);
    if (!buildProblems.empty()) {
        printProblems(buildProblems);
        std::fprintf(stderr, "kernelscope: error: the project's kernels did not build\n");
        if (checking) {
            checkedRun.report.error = "the project's kernels did not build: " + buildProblems.front().format();
            return checkedRun.finish(options);
        }
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
        std::string text;
        {
            std::lock_guard lock(timelineMutex);
            text = scene::timingsJson(pipe.project(), timeline, device, failed);
        }
        try {
            paths::writeFileAtomically(options.timings, text);
        } catch (const Error& e) {
            std::fprintf(stderr, "kernelscope: error: cannot write the timings: %s\n", e.what());
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
    const int frames = checking ? int(options.checkedFrame) + 1 : options.frames;
    FrameRecorder recorder(checking ? std::filesystem::path() : options.record, options.recordEvery,
                           double(session.pipeline().project().timeStep));
    for (int f = 0; f < frames; ++f) {
        if (!sizes.empty())
            session.followViewport(sizes[0][0], sizes[0][1]);
        if (checking && f == options.checkedFrame) {
            if (checkedKind == teach::VariantKind::WhoWrote && teach::StageProbe::outputChoices(pipe, checkedRun.stage).empty()) {
                checkedRun.report.applicable = false;
                checkedRun.report.error = "the kernel has no output bound to a resource to record";
                return checkedRun.finish(options);
            }
            teach::ProbeRequest request{checkedRun.stage, checkedKind, {}, 0};
            request.checked = true;
            if (cudaAvailable && checkedKind == teach::VariantKind::BlockTimeline)
                request.smCount = unsigned(cuda::queryDevice(options.device).smCount);
            if (!probe.request(pipe, request)) {
                checkedRun.report.error = probe.error();
                return checkedRun.finish(options);
            }
        }
        if (cudaAvailable && !pipe.frame(input)) {
            scene::FailedFrame failed{f, pipe.fault() ? "fault" : "error", "", pipe.error()};
            if (const auto& fault = pipe.fault()) {
                failed.stage = fault->stageName;
                std::fprintf(stderr, "kernelscope: error: %s\n  %s\n", fault->describe().c_str(), pipe.error().c_str());
            } else {
                std::fprintf(stderr, "kernelscope: error: frame %d failed: %s\n", f, pipe.error().c_str());
            }
            watchdog.stop();
            if (checking) {
                checkedRun.report.faulted = pipe.fault() && f == options.checkedFrame;
                checkedRun.report.error = (f == options.checkedFrame ? "" : "frame " + std::to_string(f) +
                                                                                " failed before the checked frame: ") +
                                          (pipe.fault() ? pipe.fault()->describe() + ": " : "") + pipe.error();
                return checkedRun.finish(options);
            }
            writeTimings(&failed);
            std::fprintf(stderr, "kernelscope: %d of %d frames finished\n", f, options.frames);
            faultOut = pipe.fault();
            return pipe.fault() ? kExitFault : 1;
        }
        if (checking) { // no views, timings or output: only the checked frame's record matters
            if (f == options.checkedFrame) {
                watchdog.stop();
                takeCheckedCapture(probe, checkedKind, checkedRun);
                return checkedRun.finish(options);
            }
            continue;
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
        recorder.frameDone(f + 1, [&] { return session.composite(options.width, options.height); });
    }
    watchdog.stop();
    recorder.finish();
    recorder.report();
    gl::finishPolled();
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
        io::writePng(options.screenshot, session.composite(options.width, options.height));
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

} // namespace

int runProjectHeadless(const AppOptions& options)
{
    std::optional<pipeline::FaultReport> fault;
    const int status = runProject(options, fault);
    // Here every CUDA object of the run is gone, so the faulted context does not stand in the way
    // of the new process's.
    if (status == kExitFault && options.findFaults && fault)
        findTheFault(options, *fault);
    return status;
}

} // namespace ks::app
