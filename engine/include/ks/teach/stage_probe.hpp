#pragma once
// Instrumented runs of one kernel stage of a running pipeline, for the teaching panels: the "who
// wrote it" variant (overlays, the pixel inspector), the block timeline variant and the checked
// variant ("find the fault") (ks/teach/instrument.hpp). The variant runs IN PLACE of the stage's own launch for one frame, with
// the same arguments and launch configuration, so the frame the user sees is the frame that was
// recorded (and a kernel that reads what it writes, like `a[i] *= 2`, is not run twice). A stage
// that runs only once ("when": "once") is rerun by restarting the pipeline.
//
// Contract: GL and CUDA contexts current (as for the Pipeline); the probe must outlive any request
// still pending on the pipeline (declare it before the session that owns the pipeline).

#include "ks/cuda/module.hpp"
#include "ks/pipeline/pipeline.hpp"
#include "ks/rtc/cache.hpp"
#include "ks/teach/checked_extents.hpp"
#include "ks/teach/instrument.hpp"
#include "ks/teach/timeline.hpp"
#include "ks/teach/variant_runner.hpp"

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ks::teach {

struct ProbeRequest {
    std::size_t stage = 0;
    VariantKind kind = VariantKind::WhoWrote;
    // WhoWrote: the kernel parameter whose writes are recorded, by name; empty: the first parameter
    // that can be an output (a non-const pointer or a surface) and is bound to a resource.
    std::string outputParam;
    unsigned smCount = 0; // BlockTimeline: the device's SM count (rows of the timeline)
    // WhoWrote and BlockTimeline: run the checked teaching variant (InstrumentRequest::checked):
    // the same records, with every access checked as the Checked variant checks it.
    bool checked = false;
};

struct ProbeCapture {
    VariantKind kind = VariantKind::WhoWrote;
    std::size_t stage = 0;
    std::string stageName, kernel;
    std::string outputParam, resource; // WhoWrote: the recorded parameter and the resource bound to it
    int width = 0, height = 0;         // WhoWrote: the records laid out as the resource (height 1: 1-D)
    cuda::LaunchConfig launch;
    std::int64_t frame = -1;           // the pipeline frame that ran the variant
    std::uint64_t serial = 0;          // counts the probe's captures: a new one has a new serial
    WhoRun who;                        // WhoWrote
    TimelineRun timeline;              // BlockTimeline
    TimelineModel model;               // BlockTimeline: analysed
    int residentBlocksPerSm = 0;       // BlockTimeline: the driver's occupancy of the variant
    bool checks = false;               // the variant ran checked (Checked, or a checked teaching variant)
    CheckedRecord checked{};           // checks: the launch's first refused access and count
    CheckedBindings bindings;          // checks: what each user parameter was checked against
    syntax::KernelSignature definition;       // checks: the kernel as the scanner read it (parameter names)
};

// A kernel stage's parameters that can be recorded (non-const pointers and surfaces bound to a
// resource): the parameter's name and the resource's.
struct OutputChoice {
    std::string param, resource;
};

class StageProbe {
public:
    explicit StageProbe(rtc::CompileCache* cache = nullptr) : m_cache(cache) {}
    StageProbe(const StageProbe&) = delete;
    StageProbe& operator=(const StageProbe&) = delete;

    // Builds the variant (NVRTC, through the cache; a variant of unchanged source is reused) and
    // arranges for it to replace the stage's launch in the next frame that runs the stage. Returns
    // false, with error() saying why, when the stage is not a loaded kernel stage, the kernel cannot
    // be instrumented, the variant does not compile, or the output is not bound to a resource.
    // VariantKind::Checked checks every pointer parameter bound to a buffer and every surface bound
    // to a texture (checkedBindings); a fault it does not cover still faults the frame.
    bool request(pipeline::Pipeline& pipeline, const ProbeRequest& request);
    bool pending(const pipeline::Pipeline& pipeline) const;
    // The newest finished capture of each kind; null before the first.
    const ProbeCapture* latest(VariantKind kind) const;
    // Why the last request or run failed; empty when it did not.
    const std::string& error() const noexcept { return m_error; }
    // Forgets the built variants and captures (the project changed).
    void reset();

    static std::vector<OutputChoice> outputChoices(const pipeline::Pipeline& pipeline, std::size_t stage);

private:
    struct Built {
        cuda::Module module;
        cuda::Function function;
        std::size_t outputIndex = 0;
        std::vector<syntax::ParamKind> checkedKinds; // Checked
        syntax::KernelSignature definition;
    };
    std::shared_ptr<const Built> build(const pipeline::Pipeline& pipeline, const pipeline::KernelStage& stage,
                       const ProbeRequest& request, std::string& outputParam);
    void run(const Built& built, const pipeline::KernelStage& stage, pipeline::FrameContext& ctx, ProbeCapture capture);

    rtc::CompileCache* m_cache = nullptr;
    // Loaded variants by variant kind, output and source key; the kKeptVariants newest (each holds
    // a module on the device: a variant of every edit would pile up over a session).
    static constexpr std::size_t kKeptVariants = 8;
    std::map<std::string, std::shared_ptr<const Built>> m_built;
    std::deque<std::string> m_builtOrder; // oldest first
    std::optional<ProbeCapture> m_who, m_timeline, m_checked;
    std::string m_error;
    std::uint64_t m_serial = 0;
};

} // namespace ks::teach
