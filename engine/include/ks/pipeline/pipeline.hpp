#pragma once
// The frame pipeline: a project's resources and stages, run frame after frame on one stream.
//
// Each frame: map every registered resource (one call), run the enabled stages in order (each
// between two CUDA events), unmap (one call), copy shared textures for GL (timed as one more
// entry of the timings' stages) and read the timings once the frame's work finished:
// with framesInFlight 0 frame() waits for that before it returns; with N > 0 it returns once the
// frame is queued and only waits for the frame N earlier (whose slot it reuses), so the host queues
// the next frame (and the render pass) while the GPU runs this one. Time is frame * timeStep (a fixed step), so the same project, seed and frame count give
// bit-identical buffers. Pause stops frames; step() runs exactly one while paused; restart() puts
// time, frame index, seeds and resource contents back to the start.
//
// Contract: GL and CUDA contexts current on the calling thread for every call (construction and
// destruction included); the stream must outlive the pipeline.

#include "ks/core/error.hpp"
#include "ks/cuda/event.hpp"
#include "ks/pipeline/array_stages.hpp"
#include "ks/pipeline/frame_clock.hpp"
#include "ks/pipeline/kept_contents.hpp"
#include "ks/pipeline/kernel_stage.hpp"
#include "ks/pipeline/resources.hpp"
#include "ks/pipeline/stage.hpp"
#include "ks/project/project.hpp"
#include "ks/rtc/cache.hpp"

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace ks::pipeline {

struct PipelineOptions {
    bool cuda = false;                  // a CUDA context is current on the GPU rendering GL
    CUstream stream = nullptr;          // where the stages run
    rtc::CompileOptions compile;        // arch etc.
    std::optional<std::uint64_t> seed;  // overrides the project's seed
    // How many frames may be queued and unfinished when frame() returns. 0: none (timings() and
    // readouts() are this frame's). N > 0: timings() and readouts() are of the newest finished frame
    // (older by up to N; finish() waits for all). The headless runner and tests use 0.
    int framesInFlight = 0;
    // Wait for the frame's stages before unmapping its GL resources, so that a kernel that faults
    // never leaves GL waiting on CUDA work that will not finish. Seen with driver 580: with the
    // unmap queued behind a faulting kernel, a faulting headless run took many times longer to end
    // (its GL teardown waited); docs/measurements.md, "Faulting kernels, headless", has the times
    // with this wait. Costs the overlap of the host's queueing of GL with the stages
    // (docs/supervision.md).
    bool containFaults = true;
    // Copy the resources CUDA writes into exported device memory after each frame's stages
    // (ks/pipeline/kept_contents.hpp), so that a process replacing this one after a fault can
    // restore them. The supervised GPU process turns it on; it costs a device copy of those
    // resources per frame and twice their size in device memory (off when over a quarter of the
    // free memory: keptStatus() says so).
    bool keepContents = false;
    // Called on the frame's thread after each stage that ran is queued (between its timing events
    // and the next stage's launch), with the frame, the stage's index and the stream: the app reads
    // the device printf output there, so that it can say which stage printed it.
    std::function<void(std::int64_t frame, std::size_t stage, CUstream stream)> afterStage;
};

struct StageTiming {
    std::string name;
    bool ran = false;
    float ms = 0;                // CUDA events around the stage
    std::optional<double> bytes; // read + written, where known
    double gbPerSecond() const { return bytes && ms > 0 ? *bytes / (double(ms) * 1e6) : 0; }
};

struct FrameTimings {
    bool valid = false;
    std::int64_t frame = -1;
    std::vector<StageTiming> stages;
    // Interop, host microseconds: the map phase (the one map call, one pointer or array query per
    // resource, surface/texture objects re-made where an array changed) and the one unmap call.
    double mapUs = 0, unmapUs = 0;
    double mapCallUs = 0, pointersUs = 0, objectsUs = 0; // mapUs split
    int objectsCreated = 0;
    double queueMs = 0;            // host time to queue the stages (launches, events)
    double keptBytes = 0;          // copied for a restart after the stages (PipelineOptions::keepContents)
    double waitMs = 0;             // host time frame() waited for GPU work (see framesInFlight)
    float stagesMs = 0;            // first stage start to last stage end (CUDA events)
    double renderMs = -1;          // GL timer query of the views' render pass; -1: not measured
    double frameMs = 0;            // host time of the frame() call that queued this frame
};

// Where a queued frame is (Pipeline::progress): the oldest frame queued and not finished, and its
// first stage whose end has not been reached on the GPU.
struct FrameProgress {
    std::int64_t frame = -1;
    int stage = -1;            // position; -1: every stage finished (the frame's tail runs) or unknown
    std::string stageName;
    std::string kernel;        // kernel stages: the kernel's name
    std::filesystem::path file; // kernel stages: the kernel's file (resolved)
    double runningMs = 0;      // since the frame was queued
};

// A sticky CUDA error (see cuda::isStickyError) while a frame ran: the process's CUDA context is
// lost. Which stage it was is known when the stages' end events still answer; otherwise, when one
// kernel stage ran it is named, else `candidates` lists the kernel stages that ran.
struct FaultReport {
    std::int64_t frame = -1;
    long long code = 0;
    std::string codeName;      // "CUDA_ERROR_ILLEGAL_ADDRESS"
    std::string message;       // the error's whole text
    int stage = -1;            // -1: not known
    std::string stageName, kernel;
    std::filesystem::path file;
    std::vector<std::string> candidates;
    // "frame 3: stage "scatter" (kernel scatter in kernels/x.cu) faulted: CUDA_ERROR_ILLEGAL_ADDRESS (700)"
    std::string describe() const;
};

class Pipeline {
public:
    // Reads the kernel files (signatures), creates and registers the resources, creates the
    // stages. Throws ks::Error (Usage) when the resources do not fit in device memory; nothing of
    // the caller's is touched then. A random, math or reduce stage whose plan failed (a name that
    // does not bind, a type mismatch) is created but not ready: its status() says why.
    Pipeline(project::Project project, const PipelineOptions& options);
    ~Pipeline();
    Pipeline(const Pipeline&) = delete;
    Pipeline& operator=(const Pipeline&) = delete;

    // Compiles every kernel stage now through `cache` (a hit costs no compile) and adopts the
    // results. Returns the problems (compile errors at the kernel's lines, and random, math or reduce
    // stages whose names do not bind or types do not match).
    std::vector<project::Problem> buildAll(rtc::CompileCache& cache);
    // For background builds: the requests (stage index and request), and adopting a finished one.
    std::vector<std::pair<std::size_t, rtc::CompileRequest>> buildRequests() const;
    bool adopt(std::size_t stage, std::shared_ptr<const rtc::CompileResult> result);

    // ----- control
    bool paused() const noexcept { return m_paused; }
    void setPaused(bool paused) noexcept { m_paused = paused; }
    void step() noexcept { m_stepPending = true; } // one frame while paused
    void restart();                                // frame 0, time 0, seeds and contents back
    void setSeed(std::uint64_t seed) noexcept { m_seed = seed; }
    std::uint64_t seed() const noexcept { return m_seed; }

    // Runs one frame when running (or a step is pending). Returns whether a frame ran. A failing
    // stage pauses the pipeline and sets error(); it never throws for user errors.
    bool frame(const InputState& input = {});
    // Waits for every queued frame and reads its timings and readouts (a no-op with framesInFlight 0).
    void finish();
    int framesInFlight() const noexcept { return m_options.framesInFlight; }

    // ----- stages
    std::size_t stageCount() const noexcept { return m_stages.size(); }
    Stage& stage(std::size_t i) { return *m_stages[i]; }
    const Stage& stage(std::size_t i) const { return *m_stages[i]; }
    // Moves stage `from` to position `to` (the order they run in).
    void moveStage(std::size_t from, std::size_t to);

    // The next frame that runs stage `stage` calls `run` in its place, once (with the resources
    // mapped, between the stage's timing events). For instrumented variants of a kernel stage
    // (ks/teach/stage_probe.hpp), which launch the same kernel with the same arguments and also
    // record who ran where. A later call replaces a pending one; moving stages drops it.
    using StageSubstitute = std::function<void(FrameContext&)>;
    void substituteNextRun(std::size_t stage, StageSubstitute run);
    bool substitutePending() const noexcept { return bool(m_substitute); }
    std::optional<std::size_t> substituteStage() const noexcept
    {
        return m_substitute ? std::optional<std::size_t>(m_substituteStage) : std::nullopt;
    }

    ResourceSet& resources() noexcept { return m_resources; }
    const ResourceSet& resources() const noexcept { return m_resources; }
    const project::Project& project() const noexcept { return m_project; }
    ParameterValues& parameters() noexcept { return m_parameters; }
    const FrameTimings& timings() const noexcept { return m_timings; }
    // The reduce stages' results of the last frame, in stage order.
    std::vector<Readout> readouts() const;
    void setRenderMs(double ms) noexcept { m_timings.renderMs = ms; }
    std::int64_t frameIndex() const noexcept { return m_frame; }
    // The time the next frame runs at, and the one the last frame ran at (frame_clock.hpp).
    double time() const noexcept { return m_clock.timeOf(m_frame); }
    double lastFrameTime() const noexcept { return m_clock.timeOf(m_frame - 1); }
    // Time controls, from the next frame on: the step each frame adds (> 0; the project's at first),
    // a speed that scales it (>= 0; 0 holds the time while frames run), and the time itself (a
    // scrub: the next frame runs at `time`). Invalid values are ignored (false). A restart keeps the
    // step and speed and starts again at time 0; a saved project keeps the step.
    const FrameClock& clock() const noexcept { return m_clock; }
    bool setTimeStep(double step) noexcept { return m_clock.setStep(step, m_frame); }
    bool setSpeed(double speed) noexcept { return m_clock.setSpeed(speed, m_frame); }
    bool setTime(double time) noexcept { return m_clock.setTime(time, m_frame); }
    const std::string& error() const noexcept { return m_error; }
    // The sticky error that paused the pipeline, if one did (the process must be replaced).
    const std::optional<FaultReport>& fault() const noexcept { return m_fault; }
    // Where the oldest unfinished queued frame is. Thread-safe: a watchdog thread may call it while
    // frame() or finish() waits for the GPU (it makes the pipeline's CUDA context current on the
    // calling thread). nullopt when nothing is queued.
    std::optional<FrameProgress> progress() const;
    bool cuda() const noexcept { return m_options.cuda; }
    const PipelineOptions& options() const noexcept { return m_options; }

    // The project with the current stage order, enabled flags and parameter values (for saving).
    project::Project snapshot() const;

    // ----- contents kept for a restart (PipelineOptions::keepContents)
    const KeptContents* kept() const noexcept { return m_kept.get(); }
    const std::string& keptStatus() const noexcept { return m_keptStatus; }
    // Copies the newest complete slot of another process's kept contents into the resources and
    // makes the frame after it the next to run (time and frame-dependent inputs follow). Random
    // stages that do not reseed each frame go on where an uninterrupted run would be with the
    // Philox kernel path (the default); other generators and Poisson fills start their sequence
    // again at that frame.
    RestoredContents restoreKept(const KeptLayout& layout, const std::array<int, KeptContents::kSlots>& fds);

private:
    project::Project m_project;
    PipelineOptions m_options;
    FrameClock m_clock;
    std::vector<std::optional<syntax::KernelSignature>> m_signatures;
    ResourceSet m_resources;
    std::vector<std::unique_ptr<Stage>> m_stages;
    ParameterValues m_parameters;
    // One per frame in flight (at least one): the frame's stage events and its end event.
    struct FrameSlot {
        std::vector<std::pair<cuda::Event, cuda::Event>> events; // per stage position
        cuda::Event done;
        FrameTimings timings; // host parts, filled when queued
        int first = -1, last = -1;
        bool pending = false;
    };
    // What progress() reads: the stages of each queued frame and their end events (raw handles of
    // the slots' events, valid while the slot is pending), under their own lock.
    struct Watched {
        std::size_t slot = 0;
        std::int64_t frame = -1;
        std::chrono::steady_clock::time_point queuedAt;
        struct Entry {
            int stage = -1;
            std::string name, kernel;
            std::filesystem::path file;
            CUevent end = nullptr;
        };
        std::vector<Entry> entries;
    };
    void watch(std::size_t slot, std::int64_t frame, std::chrono::steady_clock::time_point queuedAt,
               const std::vector<StageTiming>& stages);
    void unwatch(std::size_t slot);
    // First entry of `w` whose end event is not reached (nullptr: all reached); `answered` false
    // when the events no longer answer (a lost context).
    static const Watched::Entry* firstUnfinished(const Watched& w, bool& answered);
    void recordFault(const Error& e);
    mutable std::mutex m_watchMutex;
    std::vector<Watched> m_watched; // oldest first
    CUcontext m_context = nullptr;
    std::optional<FaultReport> m_fault;
    void makeKept();
    std::unique_ptr<KeptContents> m_kept;
    std::string m_keptStatus;
    double complete(std::size_t slot); // waits for the slot's frame, publishes its timings; returns ms waited
    std::vector<FrameSlot> m_slots;
    std::unique_ptr<array::Runtime> m_arrays; // for random, math and reduce stages, on the stream
    FrameTimings m_timings;
    std::uint64_t m_seed = 0;
    std::int64_t m_frame = 0;
    bool m_paused = false;
    bool m_stepPending = false;
    std::string m_error;
    StageSubstitute m_substitute;
    std::size_t m_substituteStage = 0;
};

} // namespace ks::pipeline
