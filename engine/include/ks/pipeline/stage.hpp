#pragma once
// One step of a frame. A Pipeline owns an ordered list of stages and runs the enabled ones on one
// stream, between mapping and unmapping the frame's resources. Each kind of stage (kernel launch,
// copy, random fill, array math and reduction) implements this interface.

#include "ks/pipeline/resources.hpp"
#include "ks/project/project.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ks::array {
class Runtime;
}

namespace ks::pipeline {

// Mouse and viewport state the builtins expose (in the first view's pixels, origin top-left).
struct InputState {
    float mouseX = 0, mouseY = 0;
    int buttons = 0; // 1 left, 2 right, 4 middle
    int viewportWidth = 0, viewportHeight = 0;
};

// The live value of each project parameter (edited in the UI), by parameter index.
using ParameterValues = std::vector<std::array<double, 4>>;

// What a stage sees while it runs.
struct FrameContext {
    CUstream stream = nullptr;
    ResourceSet* resources = nullptr;
    const project::Project* project = nullptr;
    const ParameterValues* parameters = nullptr;
    InputState input;
    std::int64_t frame = 0;  // frames since the (re)start, from 0
    double time = 0;         // frame * timeStep
    double timeStep = 0;
    std::uint64_t seed = 0;  // the run's seed
    array::Runtime* arrays = nullptr; // device arrays on `stream` (random fills, array math, reductions)
    std::size_t slot = 0;   // which of the pipeline's frames-in-flight slots this frame uses (host copies per slot)
};

class Stage {
public:
    explicit Stage(project::StageDesc desc) : m_desc(std::move(desc)) {}
    virtual ~Stage() = default;
    Stage(const Stage&) = delete;
    Stage& operator=(const Stage&) = delete;

    const project::StageDesc& desc() const noexcept { return m_desc; }
    project::StageDesc& desc() noexcept { return m_desc; }
    bool enabled() const noexcept { return m_desc.enabled; }
    void setEnabled(bool on) noexcept { m_desc.enabled = on; }

    // Whether the stage can run now (e.g. its kernel is loaded); when not, status() says why.
    virtual bool ready() const = 0;
    // Queues the stage's work on ctx.stream. Throws ks::Error for a failed launch.
    virtual void run(FrameContext& ctx) = 0;
    // Bytes the stage reads plus writes per run, where known (for achieved bandwidth).
    virtual std::optional<double> bytesMoved(const ResourceSet& resources) const = 0;
    virtual std::string status() const = 0;
    // Whether the code that runs calls device printf (the app waits for such a stage to read what it
    // printed and name the stage).
    virtual bool printsFromDevice() const { return false; }

private:
    project::StageDesc m_desc;
};

} // namespace ks::pipeline
