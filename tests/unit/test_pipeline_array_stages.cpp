// Host side of the random, math and reduce stages: their plans (name binding, types), the kernels
// they generate compiled by NVRTC for sm_90, --validate's checks of them, the shipped projects that
// use them, and the register flags derived from kernel signatures (write-discard for `T*` outputs).
#include "test_support.hpp"

#include "ks/array/algorithm_source.hpp"
#include "ks/core/paths.hpp"
#include "ks/pipeline/array_stages.hpp"
#include "ks/pipeline/check.hpp"
#include "ks/rtc/compiler.hpp"
#include "ks/syntax/kernel_signature.hpp"

#include <gtest/gtest.h>

#include <regex>

using namespace ks::pipeline;
using ks::project::ScalarType;
namespace fs = std::filesystem;

namespace {

ks::project::Project parse(const std::string& text)
{
    auto r = ks::project::parseProject(text, ks::test::sourceDir() / "tests" / "projects" / "interop" / "p.json");
    for (const auto& p : r.problems)
        ADD_FAILURE() << p.format();
    return r.project.value_or(ks::project::Project{});
}

const std::string kResources = R"("parameters": {"k": {"type": "float", "value": 2}, "v": {"type": "float2", "value": [1, 2]},
                                                "steps": {"type": "int", "value": 3, "min": 0, "max": 9}},
  "resources": {"vel": {"kind": "buffer", "type": "float4", "count": 100},
                "acc": {"kind": "buffer", "type": "float4", "count": 100},
                "mass": {"kind": "buffer", "type": "double", "count": 400},
                "short": {"kind": "buffer", "type": "float", "count": 99},
                "ids": {"kind": "buffer", "type": "int", "count": 400},
                "counts": {"kind": "buffer", "type": "unsigned int", "count": 400},
                "out": {"kind": "buffer", "type": "double", "count": 4},
                "tex": {"kind": "texture", "format": "rgba32f", "size": [8, 8]}})";

ks::project::Project withStage(const std::string& stage)
{
    return parse(R"({"kernelscope": 1, )" + kResources + R"(, "stages": [)" + stage + "]}");
}

ks::rtc::CompileResult expectCompilesForSm90(const std::string& source, const std::string& name)
{
    ks::rtc::CompileOptions o;
    o.arch = "sm_90";
    o.ptxasVerbose = false;
    o.cppStandard = "c++17";
    ks::rtc::CompileResult r = ks::rtc::compile(source, name, o);
    EXPECT_TRUE(r.ok) << r.log << "\n" << source;
    return r;
}

// ----- array math

TEST(ArrayMath, BindsBuffersParametersAndBuiltins)
{
    const auto p = withStage(R"({"kind": "math", "expression": "vel = vel + dt*acc*k"})");
    const MathPlan plan = planMath(p, p.stages[0]);
    ASSERT_EQ(plan.error, "");
    EXPECT_EQ(plan.target, "vel");
    // In order of appearance, the target first.
    EXPECT_EQ(plan.arguments, "float *vel, float dt, const float *acc, float k");
    EXPECT_EQ(plan.operation, "vel[i] = vel[i] + dt*acc[i]*k");
    EXPECT_EQ(plan.scalars, 400);
    ASSERT_EQ(plan.operands.size(), 4u);
    EXPECT_EQ(plan.operands[1].kind, MathOperand::Kind::Builtin);
    EXPECT_EQ(plan.operands[2].kind, MathOperand::Kind::Resource);
    EXPECT_EQ(plan.operands[3].kind, MathOperand::Kind::Parameter);
    expectCompilesForSm90(mathSource(plan), "math.cu");
}

TEST(ArrayMath, MixedTypesFunctionsNumbersAndTheIndex)
{
    // double and int buffers of the same scalar count, a function, a literal with exponent, i.
    const auto p = withStage(R"({"kind": "math", "expression": "mass = sqrt(mass) * 1.5e-3f + ids - (i % 4) + steps"})");
    const MathPlan plan = planMath(p, p.stages[0]);
    ASSERT_EQ(plan.error, "");
    EXPECT_EQ(plan.operation, "mass[i] = sqrt(mass[i]) * 1.5e-3f + ids[i] - (i % 4) + steps");
    EXPECT_EQ(plan.arguments, "double *mass, const int *ids, int steps");
    expectCompilesForSm90(mathSource(plan), "math_mixed.cu");
}

TEST(ArrayMath, RefusesWhatDoesNotBind)
{
    auto error = [](const std::string& expression) {
        const auto p = withStage(R"({"kind": "math", "expression": ")" + expression + R"("})");
        return planMath(p, p.stages[0]).error;
    };
    EXPECT_NE(error("vel = vel + nope").find("\"nope\""), std::string::npos);
    EXPECT_NE(error("vel = vel + short").find("scalars"), std::string::npos); // 400 vs 99
    EXPECT_NE(error("vel = vel * v").find("vector"), std::string::npos);
    EXPECT_NE(error("vel = vel + tex").find("texture"), std::string::npos);
    EXPECT_NE(error("vel = ").find("nothing"), std::string::npos);
}

TEST(ArrayMath, ValidateCompilesTheGeneratedKernel)
{
    ks::rtc::CompileCache cache;
    const auto good = withStage(R"({"kind": "math", "name": "m", "expression": "vel = vel + dt*acc"})");
    EXPECT_TRUE(ks::pipeline::checkArrayStage(good, good.stages[0], cache).empty());
    // Binds, but is not C++: the compile's error comes back as a problem at the stage.
    const auto bad = withStage(R"({"kind": "math", "name": "m", "expression": "vel = vel +* / acc"})");
    const auto problems = ks::pipeline::checkArrayStage(bad, bad.stages[0], cache);
    ASSERT_FALSE(problems.empty());
    EXPECT_NE(problems[0].message.find("does not compile"), std::string::npos) << problems[0].message;
    const auto unbound = withStage(R"({"kind": "math", "name": "m", "expression": "vel = vel + wind"})");
    EXPECT_EQ(ks::pipeline::checkArrayStage(unbound, unbound.stages[0], cache).size(), 1u);
}

// ----- reductions

TEST(Reduce, AccumulationTypes)
{
    auto plan = [](const std::string& stage) {
        const auto p = withStage(stage);
        return planReduce(p, p.stages[0]);
    };
    EXPECT_EQ(plan(R"({"kind": "reduce", "source": "vel"})").accumulate, ScalarType::Float32);
    EXPECT_EQ(plan(R"({"kind": "reduce", "source": "ids"})").accumulate, ScalarType::Int64);
    EXPECT_EQ(plan(R"({"kind": "reduce", "source": "counts"})").accumulate, ScalarType::UInt64);
    EXPECT_EQ(plan(R"({"kind": "reduce", "source": "ids", "op": "min"})").accumulate, ScalarType::Int32);
    EXPECT_EQ(plan(R"({"kind": "reduce", "source": "vel", "into": "out"})").accumulate, ScalarType::Float64);
    EXPECT_EQ(plan(R"({"kind": "reduce", "source": "vel"})").element.components, 4);
}

TEST(Reduce, EveryBuiltinAndCustomKernelCompilesForSm90)
{
    int n = 0;
    for (const char* source : {"vel", "mass", "ids", "counts"})
        for (const char* op : {"sum", "min", "max"}) {
            const auto p = withStage(std::string(R"({"kind": "reduce", "source": ")") + source + R"(", "op": ")" + op +
                                     "\"}");
            const ReducePlan plan = planReduce(p, p.stages[0]);
            ASSERT_EQ(plan.error, "") << source << " " << op;
            const auto r = expectCompilesForSm90(ks::array::generateReduction(plan.spec).source,
                                                 std::string("reduce_") + source + "_" + op + ".cu");
            // float4 elements are read with one 16-byte load each, not four scalar loads.
            if (std::string(source) == "vel") {
                EXPECT_TRUE(std::regex_search(r.ptx, std::regex(R"(ld\.global(\.nc)?\.v4\.f32)"))) << op;
            }
            ++n;
        }
    // A user reduction: the sum of squares of every component, into doubles.
    const auto p = withStage(R"({"kind": "reduce", "source": "vel", "op": "custom", "reduce": "a + b",
                                 "neutral": "0", "map": "x[i] * x[i]", "into": "out"})");
    const ReducePlan plan = planReduce(p, p.stages[0]);
    ASSERT_EQ(plan.error, "");
    expectCompilesForSm90(ks::array::generateReduction(plan.spec).source, "reduce_custom.cu");
    EXPECT_EQ(n, 12);
    ks::rtc::CompileCache cache;
    EXPECT_TRUE(ks::pipeline::checkArrayStage(p, p.stages[0], cache).empty());
    const auto bad = withStage(R"({"kind": "reduce", "source": "vel", "op": "custom", "reduce": "a +* b",
                                   "neutral": "0"})");
    EXPECT_FALSE(ks::pipeline::checkArrayStage(bad, bad.stages[0], cache).empty());
}

TEST(Reduce, IntoMustHoldEveryComponent)
{
    const auto p = parse(R"({"kernelscope": 1, "resources": {"v": {"kind": "buffer", "type": "float4", "count": 10},
        "small": {"kind": "buffer", "type": "float", "count": 3}},
        "stages": [{"kind": "reduce", "source": "v", "into": "small"}]})");
    EXPECT_NE(planReduce(p, p.stages[0]).error.find("room for 3"), std::string::npos);
}

// ----- random fills

TEST(RandomFill, TypesAndParameters)
{
    auto error = [](const std::string& stage) {
        const auto p = withStage(stage);
        return planRandom(p, p.stages[0]).error;
    };
    EXPECT_EQ(error(R"({"kind": "random", "target": "vel", "params": [-1, 1]})"), "");
    EXPECT_EQ(error(R"({"kind": "random", "target": "mass", "distribution": "lognormal", "params": [0, 2]})"), "");
    EXPECT_EQ(error(R"({"kind": "random", "target": "counts", "distribution": "poisson", "params": [4]})"), "");
    EXPECT_NE(error(R"({"kind": "random", "target": "vel", "distribution": "poisson", "params": [4]})"), "");
    EXPECT_NE(error(R"({"kind": "random", "target": "ids"})"), "");
    EXPECT_NE(error(R"({"kind": "random", "target": "vel", "distribution": "normal", "params": [0, 0]})"), "");
}

TEST(RandomFill, SeedsFollowTheRunTheStageAndTheFrame)
{
    ks::project::StageDesc d;
    d.seed = 7;
    EXPECT_EQ(RandomStage::seedFor(d, 100, 0), 107u);
    EXPECT_EQ(RandomStage::seedFor(d, 100, 5), 107u); // one sequence, continued frame to frame
    d.reseedEachFrame = true;
    EXPECT_EQ(RandomStage::seedFor(d, 100, 0), 107u);
    EXPECT_NE(RandomStage::seedFor(d, 100, 1), RandomStage::seedFor(d, 100, 2));
    EXPECT_EQ(RandomStage::seedFor(d, 100, 3), RandomStage::seedFor(d, 100, 3));
}

// ----- the shipped projects and the flags

TEST(ArrayStages, ShippedProjectsValidate)
{
    ks::rtc::CompileCache cache;
    for (const char* name : {"pi.json", "particles.json"}) {
        const auto loaded = ks::project::loadProject(ks::test::sourceDir() / "projects" / name);
        ASSERT_TRUE(loaded.ok()) << name;
        for (const auto& problem : ks::pipeline::checkProject(*loaded.project, cache))
            ADD_FAILURE() << name << ": " << problem.format();
        bool arrays = false;
        for (const auto& s : loaded.project->stages)
            arrays = arrays || s.kind != ks::project::StageKind::Kernel;
        EXPECT_TRUE(arrays) << name << " uses a random or reduce stage";
    }
}

TEST(RegisterFlags, KernelOutputsOfDiscardBuffersAreWriteDiscard)
{
    // The project of PipelineInterop.BuffersRoundTripWithEveryBufferFlag: `float* out` is only
    // written ("discard": true), `const float* in` only read, `float* inout` read and written.
    const auto p = parse(R"({"kernelscope": 1, "parameters": {"k": {"type": "float", "value": 2.5}},
      "resources": {"in": {"kind": "buffer", "type": "float", "count": 1000},
        "out": {"kind": "buffer", "type": "float", "count": 1000, "discard": true},
        "inout": {"kind": "buffer", "type": "float", "count": 1000}},
      "stages": [{"kind": "kernel", "file": "roundtrip.cu", "kernel": "buffers", "cover": "in", "block": [128],
                  "args": ["in", "out", "inout", {"count": "in"}, "k"]}]})");
    std::optional<ks::syntax::KernelSignature> sig;
    for (auto& k : ks::syntax::findKernels(ks::paths::readTextFile(p.resolve(p.stages[0].file))))
        if (k.name == "buffers")
            sig = k;
    ASSERT_TRUE(sig);
    const auto uses = deriveUses(p, {&*sig});
    using F = ks::interop::RegisterFlags;
    EXPECT_EQ(*deriveRegisterFlags(p.resources[0], uses[0]), F::ReadOnly);
    EXPECT_EQ(*deriveRegisterFlags(p.resources[1], uses[1]), F::WriteDiscard);
    EXPECT_EQ(*deriveRegisterFlags(p.resources[2], uses[2]), F::None);
    // Without a signature nothing is assumed: read and written.
    const auto blind = deriveUses(p, {nullptr});
    EXPECT_EQ(*deriveRegisterFlags(p.resources[1], blind[1]), F::None);
    // A reduce stage's "into" is written, its source read.
    const auto r = parse(R"({"kernelscope": 1, "resources": {"a": {"kind": "buffer", "type": "float", "count": 8},
        "s": {"kind": "buffer", "type": "double", "count": 1, "discard": true}},
        "stages": [{"kind": "reduce", "source": "a", "into": "s"}]})");
    const auto ru = deriveUses(r, {nullptr});
    EXPECT_EQ(*deriveRegisterFlags(r.resources[0], ru[0]), F::ReadOnly);
    EXPECT_EQ(*deriveRegisterFlags(r.resources[1], ru[1]), F::WriteDiscard);
}

} // namespace
