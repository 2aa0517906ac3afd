#include "ks/teach/stage_probe.hpp"

#include "ks/core/error.hpp"
#include "ks/core/log.hpp"
#include "ks/teach/launch_analysis.hpp"

namespace ks::teach {

namespace {

// "scale<float, 4>" -> {"scale", "float, 4"}.
std::pair<std::string, std::string> splitTemplate(const std::string& kernel)
{
    const std::size_t open = kernel.find('<');
    if (open == std::string::npos || kernel.back() != '>')
        return {kernel, {}};
    return {kernel.substr(0, open), kernel.substr(open + 1, kernel.size() - open - 2)};
}

const pipeline::KernelStage* kernelStage(const pipeline::Pipeline& p, std::size_t stage)
{
    return stage < p.stageCount() ? dynamic_cast<const pipeline::KernelStage*>(&p.stage(stage)) : nullptr;
}

bool bindsResource(const project::ArgBinding& b)
{
    return b.kind == project::ArgBinding::Kind::Resource || b.kind == project::ArgBinding::Kind::Surface;
}

} // namespace

std::vector<OutputChoice> StageProbe::outputChoices(const pipeline::Pipeline& p, std::size_t stage)
{
    std::vector<OutputChoice> out;
    const pipeline::KernelStage* k = kernelStage(p, stage);
    if (!k || !k->signature())
        return out;
    const auto& params = k->signature()->params;
    const auto& args = k->desc().args;
    for (const std::size_t i : outputCandidates(*k->signature()))
        if (i < args.size() && bindsResource(args[i]) && p.resources().find(args[i].name))
            out.push_back({params[i].name, args[i].name});
    return out;
}

std::shared_ptr<const StageProbe::Built> StageProbe::build(const pipeline::Pipeline& p, const pipeline::KernelStage& stage,
                                           const ProbeRequest& request, std::string& outputParam)
{
    const auto [name, templateArguments] = splitTemplate(stage.desc().kernel);
    const rtc::CompileRequest source = stage.buildRequest(p.project(), p.options().compile);
    InstrumentRequest ir;
    ir.source = source.source;
    ir.fileName = source.fileName;
    ir.kernel = name;
    ir.kind = request.kind;
    ir.outputParam = outputParam;
    ir.checked = request.checked;
    const bool checks = request.checked || request.kind == VariantKind::Checked; // Checked always checks
    const std::string key = std::to_string(int(request.kind)) + (checks ? "c|" : "|") + outputParam + "|" +
                            rtc::CompileCache::key(source.source, source.fileName, source.options, {name});
    if (auto it = m_built.find(key); it != m_built.end())
        return it->second;
    const VariantBuild b = buildVariant(ir, source.options, templateArguments, m_cache);
    if (!b.compile.ok) {
        m_error = "the instrumented variant of " + name + " did not build: ";
        for (const rtc::Diagnostic& d : b.compile.diagnostics)
            if (d.severity == rtc::Severity::Error) {
                m_error += d.message + " (" + d.file + ":" + std::to_string(d.line) + ")";
                break;
            }
        if (b.compile.diagnostics.empty())
            m_error += b.compile.log;
        return nullptr;
    }
    auto built = std::make_shared<Built>();
    built->module = cuda::Module(b.compile.cubin.data());
    built->function = built->module.function(b.loweredEntry);
    built->outputIndex = b.variant.outputIndex;
    built->checkedKinds = b.variant.checkedKinds;
    built->definition = b.variant.kernel;
    m_built[key] = built;
    m_builtOrder.push_back(key);
    while (m_builtOrder.size() > kKeptVariants) { // a run it was handed keeps its own reference
        m_built.erase(m_builtOrder.front());
        m_builtOrder.pop_front();
    }
    return built;
}

bool StageProbe::request(pipeline::Pipeline& p, const ProbeRequest& request)
{
    m_error.clear();
    const pipeline::KernelStage* stage = kernelStage(p, request.stage);
    if (!stage) {
        m_error = "stage " + std::to_string(request.stage) + " is not a kernel stage";
        return false;
    }
    if (!p.cuda() || !stage->ready()) {
        m_error = "stage \"" + stage->desc().name + "\" is not running: " + stage->status();
        return false;
    }
    ProbeCapture capture;
    capture.kind = request.kind;
    capture.checks = request.checked || request.kind == VariantKind::Checked;
    capture.stage = request.stage;
    capture.stageName = stage->desc().name;
    capture.kernel = stage->desc().kernel;
    std::string outputParam = request.outputParam;
    if (request.kind == VariantKind::WhoWrote) {
        const std::vector<OutputChoice> choices = outputChoices(p, request.stage);
        const OutputChoice* choice = nullptr;
        for (const OutputChoice& c : choices)
            if (outputParam.empty() || c.param == outputParam) {
                choice = &c;
                break;
            }
        if (!choice) {
            m_error = outputParam.empty()
                          ? "kernel " + stage->desc().kernel + " has no output (a non-const pointer or a surface) bound to a resource"
                          : "parameter \"" + outputParam + "\" of " + stage->desc().kernel +
                                " is not an output bound to a resource";
            return false;
        }
        outputParam = choice->param;
        capture.outputParam = choice->param;
        capture.resource = choice->resource;
        const pipeline::Resource* r = p.resources().find(choice->resource);
        const auto extent = pipeline::resourceExtent(r->desc);
        capture.width = int(extent[0]);
        capture.height = int(extent[1]);
    }
    try {
        std::shared_ptr<const Built> built = build(p, *stage, request, outputParam);
        if (!built)
            return false;
        const unsigned smCount = request.smCount;
        p.substituteNextRun(request.stage, [this, built, stage, capture, smCount](pipeline::FrameContext& ctx) mutable {
            capture.timeline.blocks.clear();
            if (capture.kind == VariantKind::BlockTimeline)
                capture.residentBlocksPerSm = built->function.maxActiveBlocksPerSM(
                    int(stage->launchConfig(*ctx.resources).block.count()),
                    stage->launchConfig(*ctx.resources).sharedBytes);
            capture.model.smCount = smCount;
            run(*built, *stage, ctx, std::move(capture));
        });
    } catch (const Error& e) {
        m_error = e.what();
        return false;
    }
    // A stage that runs once runs again only after a restart; a paused pipeline runs one step.
    if (stage->desc().once && p.frameIndex() > 0)
        p.restart();
    if (p.paused())
        p.step();
    return true;
}

void StageProbe::run(const Built& built, const pipeline::KernelStage& stage, pipeline::FrameContext& ctx,
                     ProbeCapture capture)
{
    std::vector<pipeline::ArgSlot> slots = stage.arguments(ctx);
    std::vector<void*> arguments(slots.size());
    for (std::size_t i = 0; i < slots.size(); ++i)
        arguments[i] = slots[i].bytes.data();
    capture.launch = stage.launchConfig(*ctx.resources);
    capture.frame = ctx.frame;
    capture.serial = ++m_serial;
    if (capture.checks) {
        // The kinds the scanner saw, padded to the launch's arguments (a signature the scanner
        // could not read in full leaves the rest unchecked).
        std::vector<syntax::ParamKind> kinds = built.checkedKinds;
        kinds.resize(arguments.size(), syntax::ParamKind::Value);
        const pipeline::ResourceSet& resources = *ctx.resources;
        capture.bindings = checkedBindings(stage.desc(), kinds, [&resources](std::string_view name) {
            const pipeline::Resource* r = resources.find(name);
            return r ? &r->desc : nullptr;
        });
        capture.definition = built.definition;
    }
    VariantChecks checks{capture.bindings.extents, {}, {}};
    const VariantChecks* teachingChecks = capture.checks ? &checks : nullptr;
    if (capture.kind == VariantKind::WhoWrote) {
        const std::size_t count = std::size_t(capture.width) * std::size_t(capture.height);
        capture.who = runWhoVariant(built.function, capture.launch, arguments, count, std::size_t(capture.width),
                                    ctx.stream, teachingChecks);
        capture.checked = capture.who.checked.value_or(CheckedRecord{});
        m_who = std::move(capture);
    } else if (capture.kind == VariantKind::BlockTimeline) {
        capture.timeline = runTimelineVariant(built.function, capture.launch, arguments, ctx.stream, teachingChecks);
        capture.checked = capture.timeline.checked.value_or(CheckedRecord{});
        capture.model = analyzeTimeline(capture.timeline.blocks, capture.model.smCount,
                                        unsigned(std::max(1, capture.residentBlocksPerSm)));
        m_timeline = std::move(capture);
    } else {
        capture.checked = runCheckedVariant(built.function, capture.launch, arguments, capture.bindings.extents,
                                            ctx.stream);
        m_checked = std::move(capture);
    }
}

bool StageProbe::pending(const pipeline::Pipeline& p) const
{
    return p.substitutePending();
}

const ProbeCapture* StageProbe::latest(VariantKind kind) const
{
    const std::optional<ProbeCapture>& c = kind == VariantKind::WhoWrote        ? m_who
                                           : kind == VariantKind::BlockTimeline ? m_timeline
                                                                                : m_checked;
    return c ? &*c : nullptr;
}

void StageProbe::reset()
{
    m_built.clear();
    m_builtOrder.clear();
    m_who.reset();
    m_timeline.reset();
    m_checked.reset();
    m_error.clear();
}

} // namespace ks::teach
