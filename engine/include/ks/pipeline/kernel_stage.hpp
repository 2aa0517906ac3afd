#pragma once
// The kernel-launch stage: a kernel from a source file, its launch shape (a fixed grid, or "cover"
// a resource with a chosen block), and its arguments bound to resources, parameters, builtins and
// literals. Builds go through the compile cache / service; a new module replaces the running one
// only when it built and loaded, so the last good module keeps running (live editing).

#include "ks/cuda/launch.hpp"
#include "ks/cuda/module.hpp"
#include "ks/pipeline/stage.hpp"
#include "ks/rtc/service.hpp"
#include "ks/syntax/kernel_signature.hpp"

#include <memory>

namespace ks::pipeline {

// One kernel argument's bytes: `size` of them (a struct's may pass 16; the driver copies them).
struct ArgSlot {
    std::vector<std::uint8_t> bytes = std::vector<std::uint8_t>(16);
    std::size_t size = 0;
};
// `values` converted to `type` (C++ conversions), packed as CUDA lays the type out.
ArgSlot packValue(const project::ValueType& type, const std::array<double, 4>& values);
ArgSlot packPointer(std::uint64_t value); // device pointers, surface and texture objects
// A struct by value: `layout`'s bytes, zero but for the members `fields` names (dotted names, as
// RecordField names them), each given as many scalars as it holds or fewer (the rest 0). Throws
// ks::Error naming the member when a name is not one of the layout's, a member cannot be set from
// numbers (a pointer, a half) or is given too many.
ArgSlot packRecord(const syntax::RecordLayout& layout, const std::vector<project::RecordValue>& fields);

// The grid that covers `extent` (x, y) with `block`: ceil(extent / block) per axis.
cuda::Dim3 coverGrid(std::int64_t extentX, std::int64_t extentY, const std::array<unsigned, 3>& block);
// A resource's launch extent: {width, height} of a texture or 2-D buffer, {count, 1} of a 1-D buffer.
std::array<std::int64_t, 2> resourceExtent(const project::ResourceDesc& r);
// The launch stage `d` asks for: its block and shared memory, and the grid that covers `cover`
// (the resource d.cover names) or, without one, d.grid. What every launch of the stage and
// --validate's launch check (check.hpp) use.
cuda::LaunchConfig launchConfigOf(const project::StageDesc& d, const project::ResourceDesc* cover);

class KernelStage : public Stage {
public:
    // `signature` may be null (the kernel was not found in the source: args are packed by their
    // own types). `cuda`: modules are loaded (false: compile-only, as on a machine without a GPU).
    KernelStage(project::StageDesc desc, std::optional<syntax::KernelSignature> signature, bool cuda);

    // The text to build instead of the file's (the editor's unsaved text of it); empty: the file.
    void setSourceText(std::string text) { m_sourceText = std::move(text); }
    const std::string& sourceText() const noexcept { return m_sourceText; }
    // The build request for this stage's file (read now, unless setSourceText gave its text).
    // Throws ks::Error when it cannot be read.
    rtc::CompileRequest buildRequest(const project::Project& project, const rtc::CompileOptions& options) const;
    // Takes a finished build: loads it when it succeeded (and CUDA is there), keeping the previous
    // module otherwise. Returns whether the new module is now the running one.
    bool adopt(std::shared_ptr<const rtc::CompileResult> result);
    const rtc::CompileResult* lastBuild() const { return m_lastBuild.get(); }
    const syntax::KernelSignature* signature() const { return m_signature ? &*m_signature : nullptr; }
    const cuda::Function* function() const { return m_function.empty() ? nullptr : &m_function; }
    // How many builds this stage has adopted: changes with every new running module (function()
    // points at the same member whatever module runs, so it cannot tell builds apart).
    std::uint64_t buildSerial() const noexcept { return m_builds; }

    cuda::LaunchConfig launchConfig(const ResourceSet& resources) const;
    // The launch's arguments for this frame, packed as run() passes them (resources mapped).
    std::vector<ArgSlot> arguments(const FrameContext& ctx) const;

    bool ready() const override { return !m_function.empty(); }
    void run(FrameContext& ctx) override;
    std::optional<double> bytesMoved(const ResourceSet& resources) const override;
    std::string status() const override { return m_status; }
    bool printsFromDevice() const override { return m_runningBuild && m_runningBuild->callsPrintf; }

private:
    ArgSlot argument(std::size_t i, const FrameContext& ctx) const;

    std::optional<syntax::KernelSignature> m_signature;
    bool m_cuda = false;
    std::shared_ptr<const rtc::CompileResult> m_lastBuild;
    std::shared_ptr<const rtc::CompileResult> m_runningBuild;
    cuda::Module m_module;
    cuda::Function m_function;
    std::optional<std::vector<cuda::ParameterSlot>> m_parameterLayout; // the driver's, when it tells
    std::string m_status = "not built";
    std::string m_sourceText;
    std::uint64_t m_builds = 0;
};

// Copies a buffer into a buffer, or a texture into a texture, of the same size in bytes.
class CopyStage : public Stage {
public:
    explicit CopyStage(project::StageDesc desc) : Stage(std::move(desc)) {}
    bool ready() const override { return true; }
    void run(FrameContext& ctx) override;
    std::optional<double> bytesMoved(const ResourceSet& resources) const override;
    std::string status() const override { return "copy " + desc().from + " -> " + desc().to; }
};

} // namespace ks::pipeline
