#include "ks/pipeline/check.hpp"

#include "ks/array/algorithm_source.hpp"
#include "ks/pipeline/array_stages.hpp"
#include "ks/pipeline/kernel_stage.hpp"
#include "ks/cuda/module.hpp"

#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"

namespace ks::pipeline {

using project::ArgBinding;
using project::BuiltinInfo;
using project::ParameterDesc;
using project::Problem;
using project::Project;
using project::ResourceDesc;
using project::StageDesc;
using project::StageKind;
using project::ValueType;

namespace {

std::string typeText(const ValueType& t)
{
    return "\"" + project::cudaTypeName(t) + "\"";
}

// A value of type `have` may be passed where `want` is expected: same component count and both
// integers or both floating point (widths convert).
bool valueCompatible(const ValueType& have, const ValueType& want)
{
    return have.components == want.components && project::isFloat(have.scalar) == project::isFloat(want.scalar);
}

} // namespace

std::optional<project::ValueType> paramValueType(const syntax::KernelParam& param)
{
    if (param.kind != syntax::ParamKind::Pointer && param.kind != syntax::ParamKind::Value)
        return std::nullopt;
    return project::parseValueType(param.baseType);
}

std::string describeParam(const syntax::KernelParam& p)
{
    std::string what;
    switch (p.kind) {
    case syntax::ParamKind::Pointer: what = p.pointeeConst ? "a read-only pointer" : "a pointer"; break;
    case syntax::ParamKind::Value: what = paramValueType(p) ? "a value" : ""; break;
    case syntax::ParamKind::Surface: what = "a surface object"; break;
    case syntax::ParamKind::Texture: what = "a texture object"; break;
    case syntax::ParamKind::Unknown: break;
    }
    if (what.empty())
        what = "a parameter of a type Kernelscope cannot bind";
    return "'" + p.type + (p.name.empty() ? "" : " " + p.name) + "' (" + what + ")";
}

std::optional<std::string> bindingMismatch(const Project& p, const ArgBinding& b, const syntax::KernelParam& param)
{
    using Kind = ArgBinding::Kind;
    const std::string paramText = describeParam(param);
    const std::optional<ValueType> paramType = paramValueType(param);
    if (b.kind == Kind::Record || b.kind == Kind::Bytes) {
        if (param.kind != syntax::ParamKind::Value)
            return std::string(b.kind == Kind::Record ? "a struct" : "raw bytes") + " is passed by value, but the kernel takes " +
                   paramText;
        if (b.kind == Kind::Record) {
            if (!param.record)
                return "a struct is given for " + paramText + ", but " +
                       (param.recordProblem.empty() ? "it is no struct" : param.recordProblem) +
                       "; pass it as raw bytes instead ({\"bytes\": \"...\"})";
            try {
                packRecord(*param.record, b.fields);
            } catch (const Error& e) {
                return e.text();
            }
            return std::nullopt;
        }
        std::optional<std::size_t> size;
        if (param.record)
            size = param.record->layout.size;
        else if (const auto known = syntax::knownTypeLayout(param.type))
            size = known->size;
        if (size && b.bytes.size() != *size)
            return std::to_string(b.bytes.size()) + " bytes are given, but " + paramText + " is " +
                   std::to_string(*size) + " bytes";
        return std::nullopt; // a size the source does not tell: the launch checks it against the compiled kernel
    }
    if (param.kind == syntax::ParamKind::Value && param.record)
        return "parameter " + paramText + " is a struct: bind it to member values ({\"struct\": {...}}) or raw "
               "bytes ({\"bytes\": \"...\"})";
    if (param.kind == syntax::ParamKind::Unknown || (param.kind == syntax::ParamKind::Value && !paramType))
        return "parameter " + paramText + " has a type Kernelscope cannot bind" +
               (param.kind == syntax::ParamKind::Value ? std::string("; pass its raw bytes ({\"bytes\": \"...\"})")
                                                       : std::string());
    switch (b.kind) {
    case Kind::Resource: {
        const ResourceDesc* r = p.resource(b.name);
        if (!r)
            return "\"" + b.name + "\" is not a resource";
        if (r->isTexture()) {
            if (param.kind == syntax::ParamKind::Surface || param.kind == syntax::ParamKind::Texture)
                return std::nullopt; // bound by the parameter's kind
            return "texture \"" + b.name + "\" needs a cudaSurfaceObject_t or cudaTextureObject_t parameter, not " +
                   paramText;
        }
        if (param.kind != syntax::ParamKind::Pointer)
            return "buffer \"" + b.name + "\" is passed as a pointer, but the kernel takes " + paramText;
        if (param.record) {
            // Records as raw bytes: one row of the struct's size per record.
            const std::size_t size = param.record->layout.size;
            if (!(r->element == ValueType{project::ScalarType::UInt8, 1}) || !r->shape ||
                std::size_t((*r->shape)[1]) != size || (!r->record.empty() && r->record != param.record->name))
                return "the kernel takes " + paramText + ", records of struct " + param.record->name + " (" +
                       std::to_string(size) + " bytes each): bind a uchar buffer of shape [records, " +
                       std::to_string(size) + "] with \"record\": \"" + param.record->name +
                       "\", its raw bytes; buffer \"" + b.name + "\" is not one";
            return std::nullopt;
        }
        if (paramType && !(*paramType == r->element))
            return "buffer \"" + b.name + "\" holds " + typeText(r->element) + " but the kernel takes " + paramText;
        return std::nullopt;
    }
    case Kind::Surface:
    case Kind::Texture: {
        const syntax::ParamKind want = b.kind == Kind::Surface ? syntax::ParamKind::Surface : syntax::ParamKind::Texture;
        if (param.kind != want)
            return std::string(b.kind == Kind::Surface ? "a surface object" : "a texture object") + " of \"" + b.name +
                   "\" is passed, but the kernel takes " + paramText;
        return std::nullopt;
    }
    case Kind::Parameter:
    case Kind::Builtin:
    case Kind::Literal:
    case Kind::Record:
    case Kind::Bytes:
    case Kind::Count:
    case Kind::Width:
    case Kind::Height: {
        ValueType have{project::ScalarType::Int32, 1};
        std::string what;
        if (b.kind == Kind::Parameter) {
            const ParameterDesc* q = p.parameter(b.name);
            if (!q)
                return "\"" + b.name + "\" is not a parameter";
            have = q->type;
            what = "parameter \"" + b.name + "\"";
        } else if (b.kind == Kind::Builtin) {
            const BuiltinInfo* info = project::findBuiltin(b.name);
            if (!info)
                return "\"" + b.name + "\" is not a builtin";
            have = info->type;
            what = "builtin \"" + b.name + "\"";
        } else if (b.kind == Kind::Literal) {
            have = b.literalType;
            what = "the value";
        } else {
            what = std::string(b.kind == Kind::Count ? "the element count" : b.kind == Kind::Width ? "the width" : "the height") +
                   " of \"" + b.name + "\"";
        }
        if (param.kind != syntax::ParamKind::Value)
            return what + " is a value of type " + typeText(have) + ", but the kernel takes " + paramText;
        if (!valueCompatible(have, *paramType))
            return what + " has type " + typeText(have) + ", but the kernel takes " + paramText;
        return std::nullopt;
    }
    }
    return std::nullopt;
}

std::vector<Problem> checkStageBindings(const Project& p, const StageDesc& s, const syntax::KernelSignature& k)
{
    std::vector<Problem> out;
    const std::filesystem::path file = p.file;
    if (s.args.size() != k.params.size()) {
        out.push_back({file, s.pos,
                       "stage \"" + s.name + "\" passes " + std::to_string(s.args.size()) + " arguments but kernel " +
                           k.name + " (line " + std::to_string(k.line) + " of " + s.file.string() + ") takes " +
                           std::to_string(k.params.size())});
    }
    for (std::size_t i = 0; i < s.args.size() && i < k.params.size(); ++i)
        if (auto why = bindingMismatch(p, s.args[i], k.params[i]))
            out.push_back({file, s.args[i].pos, "argument " + std::to_string(i + 1) + " of " + k.name + ": " + *why});
    return out;
}

std::vector<Problem> checkArrayStage(const Project& p, const StageDesc& s, rtc::CompileCache& cache,
                                     const CheckOptions& options)
{
    std::string error, source;
    try {
        if (s.kind == StageKind::Random) {
            error = planRandom(p, s).error;
        } else if (s.kind == StageKind::Math) {
            const MathPlan plan = planMath(p, s);
            error = plan.error;
            if (error.empty())
                source = mathSource(plan);
        } else if (s.kind == StageKind::Reduce) {
            const ReducePlan plan = planReduce(p, s);
            error = plan.error;
            if (error.empty())
                source = array::generateReduction(plan.spec).source;
        }
    } catch (const Error& e) {
        error = e.text();
    }
    const std::string where = "stage \"" + s.name + "\": ";
    if (!error.empty())
        return {{p.file, s.pos, where + error}};
    if (source.empty() || !options.compileKernels)
        return {};
    // What the array runtime compiles, for the target of the check (sm_90 unless told).
    rtc::CompileOptions o = options.compile;
    o.ptxasVerbose = false;
    o.cppStandard = "c++17";
    const auto result = cache.compile(source, std::string(stageKindName(s.kind)) + "_stage.cu", o);
    std::vector<Problem> out;
    for (const rtc::Diagnostic& d : result->diagnostics)
        if (d.severity == rtc::Severity::Error)
            out.push_back({p.file, s.pos, where + "the generated kernel does not compile: " + d.message});
    if (!result->ok && out.empty())
        out.push_back({p.file, s.pos, where + "the generated kernel does not compile: " + result->log});
    return out;
}

std::optional<std::string> launchProblem(const Project& p, const StageDesc& s)
{
    // What every CUDA GPU of compute capability 7.5 and newer allows; the device's own limits (and
    // the kernel's, from its registers and shared memory) are checked again at launch by the same
    // function.
    cuda::DeviceLimits limits;
    limits.maxThreadsPerBlock = 1024;
    limits.maxBlockDim = {1024, 1024, 64};
    limits.maxGridDim = {2147483647, 65535, 65535};
    limits.warpSize = 32;
    const cuda::LaunchConfig config = launchConfigOf(s, s.cover.empty() ? nullptr : p.resource(s.cover));
    if (auto refusal = cuda::checkLaunch(config, limits, {}))
        return "the launch cannot run on any CUDA GPU: " + refusal->message;
    return std::nullopt;
}

std::vector<Problem> checkProject(const Project& p, rtc::CompileCache& cache, const CheckOptions& options)
{
    std::vector<Problem> out;
    for (const StageDesc& s : p.stages) {
        if (s.kind != StageKind::Kernel) {
            auto problems = checkArrayStage(p, s, cache, options);
            out.insert(out.end(), problems.begin(), problems.end());
            continue;
        }
        const std::filesystem::path file = p.resolve(s.file);
        std::string source;
        try {
            source = paths::readTextFile(file);
        } catch (const Error& e) {
            out.push_back({p.file, s.filePos, "cannot read kernel file: " + e.text()});
            continue;
        }
        std::string why;
        const std::optional<syntax::KernelSignature> sig = syntax::findKernelByExpression(source, s.kernel, &why);
        if (!sig) {
            out.push_back({p.file, s.pos, "kernel \"" + s.kernel + "\" of " + s.file.string() + ": " + why});
        } else {
            auto bindings = checkStageBindings(p, s, *sig);
            out.insert(out.end(), bindings.begin(), bindings.end());
        }
        if (auto why = launchProblem(p, s))
            out.push_back({p.file, s.pos, "stage \"" + s.name + "\": " + *why});
        if (!options.compileKernels)
            continue;
        const auto result = cache.compile(source, file.string(), options.compile, {s.kernel});
        for (const rtc::Diagnostic& d : result->diagnostics) {
            if (d.severity != rtc::Severity::Error)
                continue;
            out.push_back({d.file.empty() ? file : std::filesystem::path(d.file), {d.line, d.column}, d.message});
        }
        if (!result->ok && result->diagnostics.empty())
            out.push_back({file, {}, "the kernel did not compile: " + result->log});
    }
    return out;
}

} // namespace ks::pipeline
