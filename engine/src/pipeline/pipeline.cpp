#include "ks/pipeline/pipeline.hpp"

#include "ks/array/runtime.hpp"
#include "ks/core/error.hpp"
#include "ks/core/log.hpp"
#include "ks/core/paths.hpp"
#include "ks/cuda/driver.hpp"
#include "ks/cuda/memory.hpp"

#include <algorithm>
#include <chrono>

namespace ks::pipeline {

using project::StageKind;

namespace {

std::optional<syntax::KernelSignature> signatureOf(const project::Project& p, const project::StageDesc& s)
{
    if (s.kind != StageKind::Kernel)
        return std::nullopt;
    try {
        return syntax::findKernelByExpression(paths::readTextFile(p.resolve(s.file)), s.kernel);
    } catch (const Error&) {
    }
    return std::nullopt;
}

std::vector<const syntax::KernelSignature*> pointers(const std::vector<std::optional<syntax::KernelSignature>>& v)
{
    std::vector<const syntax::KernelSignature*> out;
    for (const auto& s : v)
        out.push_back(s ? &*s : nullptr);
    return out;
}

} // namespace

Pipeline::Pipeline(project::Project project, const PipelineOptions& options)
    : m_project(std::move(project)), m_options(options), m_clock(m_project.timeStep),
      m_seed(options.seed.value_or(m_project.seed))
{
    bool arrays = false;
    for (const project::StageDesc& s : m_project.stages) {
        arrays = arrays || s.kind == StageKind::Random || s.kind == StageKind::Math || s.kind == StageKind::Reduce;
        m_signatures.push_back(signatureOf(m_project, s));
    }
    m_resources = ResourceSet(m_project, deriveUses(m_project, pointers(m_signatures)), options.cuda);
    for (std::size_t i = 0; i < m_project.stages.size(); ++i) {
        const project::StageDesc& s = m_project.stages[i];
        switch (s.kind) {
        case StageKind::Kernel: m_stages.push_back(std::make_unique<KernelStage>(s, m_signatures[i], options.cuda)); break;
        case StageKind::Random: m_stages.push_back(std::make_unique<RandomStage>(s, m_project)); break;
        case StageKind::Math: m_stages.push_back(std::make_unique<MathStage>(s, m_project)); break;
        case StageKind::Reduce: m_stages.push_back(std::make_unique<ReduceStage>(s, m_project)); break;
        case StageKind::Copy: m_stages.push_back(std::make_unique<CopyStage>(s)); break;
        }
    }
    if (options.cuda && arrays) {
        array::RuntimeOptions ro;
        ro.stream = options.stream;
        ro.arch = options.compile.arch;
        m_arrays = std::make_unique<array::Runtime>(std::move(ro));
    }
    for (const project::ParameterDesc& q : m_project.parameters)
        m_parameters.push_back(q.value);
    if (options.cuda) {
        KS_CU(cuCtxGetCurrent, &m_context);
        m_slots.resize(std::size_t(std::max(1, options.framesInFlight)));
        for (FrameSlot& slot : m_slots) {
            slot.done = cuda::Event(cuda::Event::Create{});
            // One pair per stage, and one for the copies of shared textures after the stages.
            for (std::size_t i = 0; i <= m_stages.size(); ++i)
                slot.events.emplace_back(cuda::Event(cuda::Event::Create{}), cuda::Event(cuda::Event::Create{}));
        }
        if (options.keepContents)
            makeKept();
    }
}

void Pipeline::makeKept()
{
    KeptLayout layout = keptLayout(m_resources);
    if (layout.entries.empty()) {
        m_keptStatus = "nothing to keep: no resource is written by CUDA";
        return;
    }
    const cuda::MemoryInfo memory = cuda::memoryInfo();
    const std::size_t need = KeptContents::kSlots * std::size_t(layout.slotBytes);
    if (need > memory.freeBytes / 4) {
        m_keptStatus = "resource contents are not kept for a restart: two copies (" + cuda::formatBytes(need) +
                       ") would take more than a quarter of the free device memory (" +
                       cuda::formatBytes(memory.freeBytes) + ")";
        log::warning(m_keptStatus);
        return;
    }
    try {
        m_kept = std::make_unique<KeptContents>(std::move(layout));
        m_keptStatus = "kept after each frame: " + std::to_string(m_kept->layout().entries.size()) + " resources, " +
                       cuda::formatBytes(std::size_t(m_kept->layout().contentBytes()));
    } catch (const Error& e) {
        m_keptStatus = std::string("resource contents are not kept for a restart: ") + e.what();
        log::warning(m_keptStatus);
    }
}

RestoredContents Pipeline::restoreKept(const KeptLayout& layout, const std::array<int, KeptContents::kSlots>& fds)
{
    finish();
    RestoredContents r;
    if (!m_options.cuda) {
        r.why = "CUDA is unavailable";
        return r;
    }
    // This process's own slots get them too: a fault before its first frame restores them again.
    r = pipeline::restoreKept(m_resources, m_options.stream, layout, fds, m_kept.get());
    if (r.frame >= 0) {
        m_frame = r.frame + 1; // the frame after the one the contents are from runs next
        m_error.clear();
    }
    return r;
}

Pipeline::~Pipeline()
{
    try {
        finish(); // nothing queued may outlive the stages' modules and host copies
    } catch (const Error& e) {
        log::error(std::string("pipeline: ") + e.what());
    }
    if (m_resources.mapped()) {
        try {
            m_resources.unmap();
        } catch (const Error& e) {
            log::error(std::string("pipeline: ") + e.what());
        }
    }
}

double Pipeline::complete(std::size_t index)
{
    FrameSlot& slot = m_slots[index];
    slot.pending = false;
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    slot.done.synchronize();
    unwatch(index);
    const double waited = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    FrameTimings& t = slot.timings;
    if (slot.last >= 0) {
        for (std::size_t i = 0; i < t.stages.size(); ++i)
            if (t.stages[i].ran)
                t.stages[i].ms = slot.events[i].second.elapsedMsSince(slot.events[i].first);
        t.stagesMs = slot.events[std::size_t(slot.last)].second.elapsedMsSince(slot.events[std::size_t(slot.first)].first);
        for (std::size_t i = 0; i < m_stages.size() && i < t.stages.size(); ++i)
            if (auto* r = dynamic_cast<ReduceStage*>(m_stages[i].get()); r && t.stages[i].ran)
                r->collect(index);
    }
    t.valid = true;
    t.renderMs = m_timings.renderMs;
    m_timings = std::move(t);
    return waited;
}

void Pipeline::finish()
{
    // Oldest first: the slot the next frame would reuse holds the oldest queued frame.
    for (std::size_t k = 0; k < m_slots.size(); ++k) {
        const std::size_t i = std::size_t((m_frame + std::int64_t(k)) % std::int64_t(m_slots.size()));
        if (m_slots[i].pending)
            complete(i);
    }
}

std::vector<project::Problem> Pipeline::buildAll(rtc::CompileCache& cache)
{
    std::vector<project::Problem> problems;
    // Random, math and reduce stages build when they first run; a plan that failed is a problem now.
    for (const auto& s : m_stages)
        if (s->desc().kind != StageKind::Kernel && s->desc().kind != StageKind::Copy && !s->ready())
            problems.push_back({m_project.file, s->desc().pos, "stage \"" + s->desc().name + "\": " + s->status()});
    for (auto& [index, request] : buildRequests()) {
        auto result = cache.compile(request.source, request.fileName, request.options, request.nameExpressions);
        for (const rtc::Diagnostic& d : result->diagnostics)
            if (d.severity == rtc::Severity::Error)
                problems.push_back({d.file.empty() ? request.fileName : d.file, {d.line, d.column}, d.message});
        adopt(index, result);
        auto& k = static_cast<KernelStage&>(*m_stages[index]);
        if (result->ok && m_options.cuda && !k.ready())
            problems.push_back({request.fileName, {}, "stage \"" + k.desc().name + "\": " + k.status()});
    }
    return problems;
}

std::vector<std::pair<std::size_t, rtc::CompileRequest>> Pipeline::buildRequests() const
{
    std::vector<std::pair<std::size_t, rtc::CompileRequest>> out;
    for (std::size_t i = 0; i < m_stages.size(); ++i)
        if (auto* k = dynamic_cast<const KernelStage*>(m_stages[i].get()))
            out.emplace_back(i, k->buildRequest(m_project, m_options.compile));
    return out;
}

bool Pipeline::adopt(std::size_t stage, std::shared_ptr<const rtc::CompileResult> result)
{
    auto* k = stage < m_stages.size() ? dynamic_cast<KernelStage*>(m_stages[stage].get()) : nullptr;
    if (!k)
        return false;
    finish(); // the old module may still run in a queued frame
    return k->adopt(std::move(result));
}

void Pipeline::restart()
{
    finish();
    m_frame = 0;
    m_clock.setTime(0.0, 0);
    m_error.clear();
    m_seed = m_options.seed.value_or(m_project.seed);
    m_resources.resetContents();
    m_timings = {};
}

void Pipeline::moveStage(std::size_t from, std::size_t to)
{
    if (from >= m_stages.size() || to >= m_stages.size() || from == to)
        return;
    finish(); // queued frames' timings are read by stage position
    auto s = std::move(m_stages[from]);
    m_stages.erase(m_stages.begin() + std::ptrdiff_t(from));
    m_stages.insert(m_stages.begin() + std::ptrdiff_t(to), std::move(s));
    m_substitute = nullptr; // it named a position
}

void Pipeline::substituteNextRun(std::size_t stage, StageSubstitute run)
{
    if (stage >= m_stages.size())
        throwUsage("Pipeline::substituteNextRun", "no stage " + std::to_string(stage));
    m_substitute = std::move(run);
    m_substituteStage = stage;
}

bool Pipeline::frame(const InputState& input)
{
    if (m_paused && !m_stepPending)
        return false;
    m_stepPending = false;
    if (!m_options.cuda) {
        // Nothing runs without CUDA; views still show the resources' initial contents.
        if (!m_stages.empty() && m_error.empty())
            m_error = "CUDA is unavailable: stages do not run";
        ++m_frame;
        return false;
    }
    using Clock = std::chrono::steady_clock;
    auto ms = [](Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    const auto t0 = Clock::now();
    const std::size_t index = std::size_t(m_frame % std::int64_t(m_slots.size()));
    FrameSlot& slot = m_slots[index];
    FrameTimings t;
    t.frame = m_frame;
    FrameContext ctx;
    ctx.stream = m_options.stream;
    ctx.resources = &m_resources;
    ctx.project = &m_project;
    ctx.parameters = &m_parameters;
    ctx.input = input;
    ctx.frame = m_frame;
    ctx.timeStep = m_clock.advance();
    ctx.time = m_clock.timeOf(m_frame);
    ctx.seed = m_seed;
    ctx.arrays = m_arrays.get();
    ctx.slot = index;
    int first = -1, last = -1;
    try {
        if (slot.pending) // the frame framesInFlight earlier: its events and host copies are reused now
            t.waitMs += complete(index);
        t.mapUs = m_resources.map(ctx.stream);
        const InteropCosts& c = m_resources.lastCosts();
        t.mapCallUs = c.mapCallUs;
        t.pointersUs = c.pointersUs;
        t.objectsUs = c.objectsUs;
        t.objectsCreated = c.objectsCreated;
        const auto q0 = Clock::now();
        for (std::size_t i = 0; i < m_stages.size(); ++i) {
            Stage& s = *m_stages[i];
            StageTiming st;
            st.name = s.desc().name;
            st.bytes = s.bytesMoved(m_resources);
            if (s.enabled() && (!s.desc().once || m_frame == 0)) {
                if (!s.ready())
                    throwUsage("Pipeline", "stage \"" + s.desc().name + "\" cannot run: " + s.status());
                slot.events[i].first.record(ctx.stream);
                if (m_substitute && m_substituteStage == i) {
                    const StageSubstitute run = std::move(m_substitute);
                    m_substitute = nullptr;
                    run(ctx);
                } else {
                    s.run(ctx);
                }
                slot.events[i].second.record(ctx.stream);
                if (m_options.afterStage)
                    m_options.afterStage(m_frame, i, ctx.stream);
                st.ran = true;
                if (first < 0)
                    first = int(i);
                last = int(i);
            }
            t.stages.push_back(std::move(st));
        }
        if (m_kept && last >= 0) // after the stages on their stream: only a frame whose stages all ran
            t.keptBytes = double(m_kept->capture(m_resources, ctx.stream, m_frame));
        t.queueMs = ms(q0, Clock::now());
        if (m_options.containFaults && last >= 0 && m_resources.mapped()) {
            // Watched first: a stage that never ends is seen and named while this waits.
            watch(index, m_frame, t0, t.stages);
            const auto w0 = Clock::now();
            slot.events[std::size_t(last)].second.synchronize();
            t.waitMs += ms(w0, Clock::now());
        }
        t.unmapUs = m_resources.unmap();
        if (m_resources.sharedCount() > 0) {
            // Shared textures' arrays into their slots for GL: timed like a stage, after the stages.
            const std::size_t i = m_stages.size();
            StageTiming st;
            st.name = "shared textures: copy for GL";
            slot.events[i].first.record(ctx.stream);
            const std::size_t copied = m_resources.queueMirrors(ctx.stream);
            slot.events[i].second.record(ctx.stream);
            st.ran = true;
            st.bytes = 2.0 * double(copied);
            if (first < 0)
                first = int(i);
            last = int(i);
            t.stages.push_back(std::move(st));
        }
        slot.done.record(ctx.stream);
        watch(index, m_frame, t0, t.stages);
        slot.first = first;
        slot.last = last;
        slot.pending = true;
        if (m_options.framesInFlight <= 0) {
            slot.timings = std::move(t);
            const double waited = complete(index);
            m_timings.waitMs += waited;
            m_timings.frameMs = ms(t0, Clock::now());
        } else {
            t.frameMs = ms(t0, Clock::now());
            slot.timings = std::move(t);
            // Publish the newest finished frames without waiting, oldest first.
            for (std::size_t k = 1; k < m_slots.size(); ++k) {
                const std::size_t i = (index + k) % m_slots.size();
                if (!m_slots[i].pending || !m_slots[i].done.done())
                    break;
                complete(i);
            }
        }
    } catch (const Error& e) {
        recordFault(e);
        if (m_resources.mapped()) {
            try {
                m_resources.unmap(); // forgets the mapping even when the call fails (a lost context)
            } catch (const Error& again) {
                if (!cuda::lostContext())
                    log::warning(std::string("unmapping after a failed frame: ") + again.what());
            }
        }
        m_error = e.what();
        m_paused = true;
        log::error("pipeline paused: " + m_error);
        return false;
    }
    m_error.clear();
    ++m_frame;
    return true;
}

void Pipeline::watch(std::size_t slot, std::int64_t frame, std::chrono::steady_clock::time_point queuedAt,
                     const std::vector<StageTiming>& stages)
{
    Watched w;
    w.slot = slot;
    w.frame = frame;
    w.queuedAt = queuedAt;
    const FrameSlot& s = m_slots[slot];
    for (std::size_t i = 0; i < s.events.size(); ++i) {
        Watched::Entry e;
        e.stage = int(i);
        if (i < m_stages.size()) {
            if (i >= stages.size() || !stages[i].ran)
                continue;
            const project::StageDesc& d = m_stages[i]->desc();
            e.name = d.name;
            if (d.kind == StageKind::Kernel) {
                e.kernel = d.kernel;
                e.file = m_project.resolve(d.file);
            }
        } else {
            if (m_resources.sharedCount() == 0)
                continue;
            e.name = "shared textures: copy for GL";
        }
        e.end = s.events[i].second.get();
        w.entries.push_back(std::move(e));
    }
    std::lock_guard lock(m_watchMutex);
    std::erase_if(m_watched, [&](const Watched& x) { return x.slot == slot; });
    m_watched.push_back(std::move(w));
}

void Pipeline::unwatch(std::size_t slot)
{
    std::lock_guard lock(m_watchMutex);
    std::erase_if(m_watched, [&](const Watched& x) { return x.slot == slot; });
}

const Pipeline::Watched::Entry* Pipeline::firstUnfinished(const Watched& w, bool& answered)
{
    answered = true;
    for (const Watched::Entry& e : w.entries) {
        const CUresult r = cuda::driver().cuEventQuery(e.end);
        if (r == CUDA_SUCCESS)
            continue;
        if (r != CUDA_ERROR_NOT_READY)
            answered = false;
        return &e;
    }
    return nullptr;
}

std::optional<FrameProgress> Pipeline::progress() const
{
    std::lock_guard lock(m_watchMutex);
    if (m_watched.empty() || !m_context)
        return std::nullopt;
    cuda::driver().cuCtxSetCurrent(m_context);
    const Watched& w = m_watched.front();
    FrameProgress p;
    p.frame = w.frame;
    p.runningMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - w.queuedAt).count();
    bool answered = true;
    if (const Watched::Entry* e = firstUnfinished(w, answered); e && answered) {
        p.stage = e->stage;
        p.stageName = e->name;
        p.kernel = e->kernel;
        p.file = e->file;
    }
    return p;
}

void Pipeline::recordFault(const Error& e)
{
    if (e.domain() != ErrorDomain::Cuda || !cuda::isStickyError(CUresult(e.code())) || m_fault)
        return;
    FaultReport f;
    f.code = e.code();
    f.codeName = e.codeName();
    f.message = e.what();
    f.frame = m_frame;
    std::lock_guard lock(m_watchMutex);
    if (!m_watched.empty()) {
        const Watched& w = m_watched.front();
        f.frame = w.frame;
        bool answered = true;
        const Watched::Entry* suspect = firstUnfinished(w, answered);
        if (!answered) { // the events share the lost context's fate: name the one kernel stage, or list them
            suspect = nullptr;
            for (const Watched::Entry& x : w.entries)
                if (!x.kernel.empty()) {
                    f.candidates.push_back(x.name);
                    suspect = suspect ? nullptr : &x;
                }
            if (f.candidates.size() != 1)
                suspect = nullptr;
        }
        if (suspect) {
            f.stage = suspect->stage;
            f.stageName = suspect->name;
            f.kernel = suspect->kernel;
            f.file = suspect->file;
            f.candidates.clear();
        }
    }
    m_fault = std::move(f);
}

std::string FaultReport::describe() const
{
    std::string where;
    if (stage >= 0)
        where = "stage \"" + stageName + "\"" +
                (kernel.empty() ? std::string() : " (kernel " + kernel + " in " + file.filename().string() + ")");
    else if (!candidates.empty()) {
        where = "one of the stages";
        for (std::size_t i = 0; i < candidates.size(); ++i)
            where += (i ? ", \"" : " \"") + candidates[i] + "\"";
    } else
        where = "the frame";
    return "frame " + std::to_string(frame) + ": " + where + " faulted: " + codeName + " (" + std::to_string(code) + ")";
}

std::vector<Readout> Pipeline::readouts() const
{
    std::vector<Readout> out;
    for (const auto& s : m_stages)
        if (const auto* r = dynamic_cast<const ReduceStage*>(s.get()))
            out.push_back(r->readout());
    return out;
}

project::Project Pipeline::snapshot() const
{
    project::Project p = m_project;
    p.timeStep = m_clock.step();
    p.stages.clear();
    for (const auto& s : m_stages)
        p.stages.push_back(s->desc());
    for (std::size_t i = 0; i < p.parameters.size() && i < m_parameters.size(); ++i)
        p.parameters[i].value = m_parameters[i];
    for (project::ResourceDesc& r : p.resources)
        if (const Resource* live = m_resources.find(r.name); live && !r.followViewport)
            r = live->desc;
    return p;
}

} // namespace ks::pipeline
