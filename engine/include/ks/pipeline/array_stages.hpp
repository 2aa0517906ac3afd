#pragma once
// The stages that run on the device-array layer: random fills (ks::rng), array math (an elementwise
// expression, ks::array::ElementwiseKernel) and reductions into a read-out (ks::array reductions).
//
// Each sees a mapped buffer as a ks::array::DeviceArray view over the frame's mapped pointer: a flat
// array of count x components scalars (a float4 buffer of n elements is 4n floats). Work is queued
// on the pipeline's stream through an array::Runtime that borrows that stream.
//
// Plans (planMath, planReduce, planRandom) are pure host logic: they bind names to the project's
// resources, parameters and builtins, check types and produce the generated source, so
// --validate compiles exactly what runs, without a GPU.

#include "ks/array/algorithm_source.hpp"
#include "ks/cuda/memory.hpp"
#include "ks/pipeline/stage.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ks::array {
class Runtime;
class ElementwiseKernel;
class ReductionKernel;
} // namespace ks::array
namespace ks::rng {
class Generator;
}

namespace ks::pipeline {

// ----- array math: "target = expression"

struct MathOperand {
    enum class Kind { Resource, Parameter, Builtin };
    Kind kind = Kind::Resource;
    std::string name;
    project::ValueType type; // the resource's element, the parameter's or builtin's type
};

struct MathPlan {
    std::string error;                 // non-empty: the stage cannot run, and why
    std::string target;
    std::vector<MathOperand> operands; // in argument order; the target first
    std::string arguments;             // "float *vel, const float *acc, float dt"
    std::string operation;             // "vel[i] = vel[i] + dt*acc[i]"
    std::int64_t scalars = 0;          // elements of the flat views (count x components)
};

// Names in the expression bind, in this order, to buffers (indexed per scalar element), scalar
// parameters and scalar builtins (dt, time, frame, buttons, seed); a name followed by "(" is a
// function, a name after "." or "::" is left alone; `i` and `n` are the scalar index and count. All buffers must have as many scalars (count x
// components) as the target; their scalar types may differ (C++ promotion applies).
MathPlan planMath(const project::Project& project, const project::StageDesc& stage);
// The CUDA source of the plan's kernel (ElementwiseKernel's), for compiling without a device.
std::string mathSource(const MathPlan& plan);

// ----- reductions into a read-out

struct ReducePlan {
    std::string error;
    std::string source;         // the buffer reduced
    std::string into;           // optional buffer receiving the result (first element)
    project::ValueType element; // of the source
    // the read-out's scalar type
    project::ScalarType accumulate = project::ScalarType::Float32;
    array::ReductionSpec spec; // reduces every component separately in one pass
};

// sum, min, max of every component of `source` (a float4 buffer gives four values), or "custom":
// `reduce` of a and b, `neutral`, and `map` of x[i] (x: the source's component being reduced, i the
// element index; default "x[i]"). The accumulation type is the "into" buffer's scalar type when given,
// else numpy's: sum of signed integers in int64, unsigned in uint64, floats in their own type.
ReducePlan planReduce(const project::Project& project, const project::StageDesc& stage);

// ----- random fill

struct RandomPlan {
    std::string error;
    std::string target;
    project::ValueType element;
};
// generator xorwow/philox/mrg32k3a/sobol32; uniform (in [low, high)), normal, lognormal into float or
// double buffers; poisson into uint32 (or int32) buffers.
RandomPlan planRandom(const project::Project& project, const project::StageDesc& stage);

// The value of a builtin this frame, as the kernel stage and array math pass it.
std::array<double, 4> builtinValue(project::Builtin id, const FrameContext& ctx);

// ----- the stages

class RandomStage : public Stage {
public:
    RandomStage(project::StageDesc desc, const project::Project& project);
    ~RandomStage() override;
    bool ready() const override { return m_plan.error.empty(); }
    void run(FrameContext& ctx) override;
    std::optional<double> bytesMoved(const ResourceSet& resources) const override;
    std::string status() const override { return m_plan.error.empty() ? "ready" : m_plan.error; }
    // The seed of the fill: the run's seed plus the stage's, plus the frame when reseeding each frame.
    static std::uint64_t seedFor(const project::StageDesc& desc, std::uint64_t runSeed, std::int64_t frame);

private:
    RandomPlan m_plan;
    std::unique_ptr<rng::Generator> m_generator;
    std::uint64_t m_lastSeed = 0;
    std::int64_t m_lastFrame = -1;
};

class MathStage : public Stage {
public:
    MathStage(project::StageDesc desc, const project::Project& project);
    ~MathStage() override;
    bool ready() const override { return m_plan.error.empty(); }
    void run(FrameContext& ctx) override;
    std::optional<double> bytesMoved(const ResourceSet& resources) const override;
    std::string status() const override { return m_plan.error.empty() ? "ready" : m_plan.error; }

private:
    MathPlan m_plan;
    std::unique_ptr<array::ElementwiseKernel> m_kernel;
};

// A reduction's last result, one value per component of the source.
struct Readout {
    std::string stage;
    std::string op;
    std::vector<double> values;
    bool valid = false;
};

class ReduceStage : public Stage {
public:
    ReduceStage(project::StageDesc desc, const project::Project& project);
    ~ReduceStage() override;
    bool ready() const override { return m_plan.error.empty(); }
    void run(FrameContext& ctx) override;
    std::optional<double> bytesMoved(const ResourceSet& resources) const override;
    std::string status() const override { return m_plan.error.empty() ? "ready" : m_plan.error; }
    // Reads the result copied back by the run in frame slot `slot` (call once that frame finished;
    // every slot has its own host copy, so later frames in flight do not overwrite it).
    void collect(std::size_t slot = 0);
    const Readout& readout() const noexcept { return m_readout; }

private:
    ReducePlan m_plan;
    std::unique_ptr<array::ReductionKernel> m_kernel;
    cuda::DeviceMemory m_result;     // the reduced value (components x accumulate type) where there is no "into"
    // Per frame slot: the read-out in page-locked memory (written by the kernel through its mapped
    // device address, read by collect()) and whether a frame has written it since.
    struct ReadoutSlot {
        cuda::PinnedHostMemory host;
        CUdeviceptr device = 0;
        bool pending = false;
    };
    std::vector<ReadoutSlot> m_slots;
    Readout m_readout;
};

} // namespace ks::pipeline
