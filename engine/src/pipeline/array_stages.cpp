#include "ks/pipeline/array_stages.hpp"

#include "ks/array/device_array.hpp"
#include "ks/array/elementwise_kernel.hpp"
#include "ks/array/reduction.hpp"
#include "ks/array/runtime.hpp"
#include "ks/core/error.hpp"
#include "ks/core/log.hpp"
#include "ks/cuda/driver.hpp"
#include "ks/rng/generator.hpp"

#include <cctype>
#include <cstring>
#include <limits>

namespace ks::pipeline {

using project::Project;
using project::ScalarType;
using project::StageDesc;

namespace {

// The most values a random stage that resumes at frame F draws again to reach F's position where
// seeking is not exact (a bound that keeps the redraw a short pause); past it, F starts the sequence.
constexpr std::uint64_t kReplayValues = std::uint64_t(1) << 32;

array::DType toDType(ScalarType s)
{
    switch (s) {
    case ScalarType::Int8: return array::DType::Int8;
    case ScalarType::UInt8: return array::DType::UInt8;
    case ScalarType::Int16: return array::DType::Int16;
    case ScalarType::UInt16: return array::DType::UInt16;
    case ScalarType::Int32: return array::DType::Int32;
    case ScalarType::UInt32: return array::DType::UInt32;
    case ScalarType::Int64: return array::DType::Int64;
    case ScalarType::UInt64: return array::DType::UInt64;
    case ScalarType::Float32: return array::DType::Float32;
    case ScalarType::Float64: return array::DType::Float64;
    }
    return array::DType::Float32;
}

std::string cType(ScalarType s) { return std::string(array::cudaTypeName(toDType(s))); }

bool identStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string trim(std::string s)
{
    s.erase(0, s.find_first_not_of(" \t\n"));
    s.erase(s.find_last_not_of(" \t\n") + 1);
    return s;
}

std::string inQuotes(const std::string& s) { return "\"" + s + "\""; }

// A flat view of a mapped buffer: count x components scalars.
array::DeviceArray flatView(array::Runtime& rt, const Resource& r)
{
    return array::DeviceArray::view(rt, r.pointer, toDType(r.desc.element.scalar),
                                    array::Dims{r.desc.count * r.desc.element.components});
}

const Resource& mappedBuffer(const FrameContext& ctx, const std::string& name, const char* who)
{
    const Resource* r = ctx.resources ? ctx.resources->find(name) : nullptr;
    if (!r || r->isTexture() || !r->pointer)
        throwUsage(who, "buffer " + inQuotes(name) + " is not mapped");
    return *r;
}

array::Scalar scalarOf(ScalarType s, double v)
{
    if (isFloat(s))
        return array::Scalar(v);
    return array::Scalar(std::int64_t(v));
}

} // namespace

std::array<double, 4> builtinValue(project::Builtin id, const FrameContext& ctx)
{
    std::array<double, 4> v{};
    switch (id) {
    case project::Builtin::Time: v[0] = ctx.time; break;
    case project::Builtin::TimeStep: v[0] = ctx.timeStep; break;
    case project::Builtin::Frame: v[0] = double(ctx.frame); break;
    case project::Builtin::Mouse: v = {ctx.input.mouseX, ctx.input.mouseY, 0, 0}; break;
    case project::Builtin::MouseButtons: v[0] = ctx.input.buttons; break;
    case project::Builtin::Viewport: v = {double(ctx.input.viewportWidth), double(ctx.input.viewportHeight), 0, 0}; break;
    case project::Builtin::Seed: v[0] = double(std::uint32_t(ctx.seed)); break;
    }
    return v;
}

// ----- array math

MathPlan planMath(const Project& p, const StageDesc& s)
{
    MathPlan plan;
    const std::string& e = s.expression;
    std::size_t eq = std::string::npos;
    for (std::size_t k = 0; k < e.size(); ++k)
        if (e[k] == '=' && (k + 1 >= e.size() || e[k + 1] != '=') && (k == 0 || std::strchr("=!<>", e[k - 1]) == nullptr)) {
            eq = k;
            break;
        }
    if (eq == std::string::npos) {
        plan.error = "\"expression\" must be \"target = expression\", found " + inQuotes(e);
        return plan;
    }
    plan.target = trim(e.substr(0, eq));
    const project::ResourceDesc* target = p.resource(plan.target);
    if (!target || target->isTexture()) {
        plan.error = "the target of the expression, " + inQuotes(plan.target) + ", is not a buffer of the project";
        return plan;
    }
    plan.scalars = target->count * target->element.components;
    plan.operands.push_back({MathOperand::Kind::Resource, plan.target, target->element});
    const std::string rhs = e.substr(eq + 1);
    if (trim(rhs).empty()) {
        plan.error = "the expression has nothing after \"=\"";
        return plan;
    }
    auto known = [&](const std::string& name) {
        for (const MathOperand& o : plan.operands)
            if (o.name == name)
                return true;
        return false;
    };
    std::string op = plan.target + "[i] =";
    for (std::size_t k = 0; k < rhs.size();) {
        const char c = rhs[k];
        if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && k + 1 < rhs.size() &&
                                                            std::isdigit(static_cast<unsigned char>(rhs[k + 1])))) {
            // A number, with its exponent and suffix: 1.5e-3f.
            std::size_t j = k;
            while (j < rhs.size() && (identChar(rhs[j]) || rhs[j] == '.' ||
                                      ((rhs[j] == '-' || rhs[j] == '+') && (rhs[j - 1] == 'e' || rhs[j - 1] == 'E'))))
                ++j;
            op += rhs.substr(k, j - k);
            k = j;
            continue;
        }
        if (!identStart(c)) {
            op += c;
            ++k;
            continue;
        }
        std::size_t j = k;
        while (j < rhs.size() && identChar(rhs[j]))
            ++j;
        const std::string name = rhs.substr(k, j - k);
        std::size_t after = j;
        while (after < rhs.size() && rhs[after] == ' ')
            ++after;
        const bool member = (k > 0 && rhs[k - 1] == '.') || (k > 1 && rhs[k - 1] == ':' && rhs[k - 2] == ':');
        const bool call = after < rhs.size() && rhs[after] == '(';
        const bool scope = after + 1 < rhs.size() && rhs[after] == ':' && rhs[after + 1] == ':';
        op += name;
        k = j;
        if (member || call || scope || name == "i" || name == "n") // i, n: the scalar index and count
            continue;
        if (const project::ResourceDesc* r = p.resource(name)) {
            if (r->isTexture()) {
                plan.error = inQuotes(name) + " is a texture; array math works on buffers";
                return plan;
            }
            if (r->count * r->element.components != plan.scalars) {
                plan.error = "buffer " + inQuotes(name) + " has " + std::to_string(r->count * r->element.components) +
                             " scalars, the target " + inQuotes(plan.target) + " " + std::to_string(plan.scalars) +
                             " (count x components must match)";
                return plan;
            }
            if (!known(name))
                plan.operands.push_back({MathOperand::Kind::Resource, name, r->element});
            op += "[i]";
        } else if (const project::ParameterDesc* q = p.parameter(name)) {
            if (q->type.components != 1) {
                plan.error = "parameter " + inQuotes(name) + " is a vector; array math takes scalar parameters";
                return plan;
            }
            if (!known(name))
                plan.operands.push_back({MathOperand::Kind::Parameter, name, q->type});
        } else if (const project::BuiltinInfo* b = project::findBuiltin(name)) {
            if (b->type.components != 1) {
                plan.error = "builtin " + inQuotes(name) + " is a vector; array math takes scalar builtins";
                return plan;
            }
            if (!known(name))
                plan.operands.push_back({MathOperand::Kind::Builtin, name, b->type});
        } else if (name != "true" && name != "false") {
            plan.error = inQuotes(name) + " in the expression is not a buffer, parameter or builtin of the project";
            return plan;
        }
    }
    plan.operation = op;
    for (std::size_t k = 0; k < plan.operands.size(); ++k) {
        const MathOperand& o = plan.operands[k];
        plan.arguments += k ? ", " : "";
        if (o.kind == MathOperand::Kind::Resource)
            plan.arguments += (k ? "const " : "") + cType(o.type.scalar) + " *" + o.name;
        else
            plan.arguments += cType(o.type.scalar) + " " + o.name;
    }
    return plan;
}

std::string mathSource(const MathPlan& plan)
{
    return array::ElementwiseKernel(plan.arguments, plan.operation, "ks_array_math").source();
}

MathStage::MathStage(StageDesc desc, const Project& project) : Stage(std::move(desc)), m_plan(planMath(project, this->desc()))
{
}

MathStage::~MathStage() = default;

void MathStage::run(FrameContext& ctx)
{
    if (!ctx.arrays)
        throwUsage("MathStage", "no array runtime");
    if (!m_kernel)
        m_kernel = std::make_unique<array::ElementwiseKernel>(m_plan.arguments, m_plan.operation, "ks_array_math");
    std::vector<array::MapArg> args;
    for (const MathOperand& o : m_plan.operands) {
        switch (o.kind) {
        case MathOperand::Kind::Resource: args.emplace_back(flatView(*ctx.arrays, mappedBuffer(ctx, o.name, "MathStage"))); break;
        case MathOperand::Kind::Parameter: {
            double v = 0;
            for (std::size_t q = 0; q < ctx.project->parameters.size(); ++q)
                if (ctx.project->parameters[q].name == o.name)
                    v = (*ctx.parameters)[q][0];
            args.emplace_back(scalarOf(o.type.scalar, v));
            break;
        }
        case MathOperand::Kind::Builtin:
            args.emplace_back(scalarOf(o.type.scalar, builtinValue(project::findBuiltin(o.name)->id, ctx)[0]));
            break;
        }
    }
    (*m_kernel)(*ctx.arrays, std::span<const array::MapArg>(args));
}

std::optional<double> MathStage::bytesMoved(const ResourceSet& resources) const
{
    if (!m_plan.error.empty())
        return std::nullopt;
    double bytes = 0;
    for (const MathOperand& o : m_plan.operands)
        if (o.kind == MathOperand::Kind::Resource)
            if (const Resource* r = resources.find(o.name))
                bytes += double(r->desc.bytes()) * (o.name == m_plan.target ? 2 : 1);
    return bytes;
}

// ----- reductions

ReducePlan planReduce(const Project& p, const StageDesc& s)
{
    ReducePlan plan;
    plan.source = s.source;
    plan.into = s.into;
    const project::ResourceDesc* src = p.resource(s.source);
    if (!src || src->isTexture()) {
        plan.error = "\"source\" " + inQuotes(s.source) + " is not a buffer of the project";
        return plan;
    }
    plan.element = src->element;
    const ScalarType in = src->element.scalar;
    if (s.op == "sum")
        plan.accumulate = isFloat(in) ? in : isSigned(in) ? ScalarType::Int64 : ScalarType::UInt64;
    else
        plan.accumulate = in;
    const int c = src->element.components;
    if (!s.into.empty()) {
        const project::ResourceDesc* into = p.resource(s.into);
        if (!into || into->isTexture()) {
            plan.error = "\"into\" " + inQuotes(s.into) + " is not a buffer of the project";
            return plan;
        }
        if (into->count * into->element.components < c) {
            plan.error = "\"into\" " + inQuotes(s.into) + " has room for " +
                         std::to_string(into->count * into->element.components) + " values; the reduction of " +
                         inQuotes(s.source) + " gives " + std::to_string(c);
            return plan;
        }
        plan.accumulate = into->element.scalar;
    }
    const std::string t = cType(in), a = cType(plan.accumulate), cs = std::to_string(c);
    std::string combine, neutral;
    auto limit = [&](bool lowest) -> std::string {
        if (plan.accumulate == ScalarType::Float32) // NVRTC has no INFINITY macro
            return lowest ? "-__int_as_float(0x7f800000)" : "__int_as_float(0x7f800000)";
        if (plan.accumulate == ScalarType::Float64)
            return lowest ? "-__longlong_as_double(0x7ff0000000000000LL)" : "__longlong_as_double(0x7ff0000000000000LL)";
        if (!isSigned(plan.accumulate))
            return lowest ? "0" : "(~0ULL)";
        const int bits = int(scalarSize(plan.accumulate)) * 8;
        const std::string max = std::to_string((std::uint64_t(1) << (bits - 1)) - 1) + "LL";
        return lowest ? "(-" + max + " - 1)" : max;
    };
    if (s.op == "sum") {
        combine = "a + b", neutral = "0";
    } else if (s.op == "min") {
        combine = "ks_algo::minNaN(a, b)", neutral = limit(false); // NaN propagates
    } else if (s.op == "max") {
        combine = "ks_algo::maxNaN(a, b)", neutral = limit(true);
    } else if (s.op == "custom") {
        if (s.reduceExpr.empty() || s.neutral.empty()) {
            plan.error = "a \"custom\" reduction needs \"reduce\" (of a and b) and \"neutral\"";
            return plan;
        }
        combine = s.reduceExpr, neutral = s.neutral;
    } else {
        plan.error = "unknown reduction " + inQuotes(s.op) + " (sum, min, max or custom)";
        return plan;
    }
    const std::string map = s.mapExpr.empty() ? "x[i]" : s.mapExpr;
    // The default map over elements of 8 or 16 bytes (float2, float4, int4, double2...) reads each
    // element with one vector load where the buffer is aligned for it (a uniform branch), instead
    // of one load per component.
    std::string vectorLoad;
    const std::size_t elementBytes = scalarSize(in) * std::size_t(c);
    if (s.mapExpr.empty() && c > 1 && (elementBytes == 8 || elementBytes == 16)) {
        const std::string align = std::to_string(elementBytes);
        vectorLoad = "    struct __align__(" + align + ") ks_red_raw { " + t + " v[" + cs + "]; };\n"
                     "    if ((reinterpret_cast<unsigned long long>(ks_base) & " + std::to_string(elementBytes - 1) +
                     "u) == 0) {\n"
                     "        const ks_red_raw raw = reinterpret_cast<const ks_red_raw*>(ks_base)[i];\n"
                     "        ks_red_value r; for (int k = 0; k < " + cs + "; ++k) r.v[k] = (" + a + ")(raw.v[k]);\n"
                     "        return r;\n"
                     "    }\n";
    }
    plan.spec.outType = "ks_red_value";
    plan.spec.name = "ks_reduce_stage";
    plan.spec.arguments = "const " + t + " *ks_base";
    plan.spec.neutral = "ks_red_identity()";
    plan.spec.reduceExpr = "ks_red_combine(a, b)";
    plan.spec.mapExpr = "ks_red_load(ks_base, i)";
    plan.spec.preamble =
        "struct ks_red_x { const " + t + "* p; __device__ " + t + " operator[](long long j) const { return p[j * " + cs +
        "]; } };\n"
        "struct ks_red_value { " + a + " v[" + cs + "]; };\n"
        "__device__ " + a + " ks_red_op(" + a + " a, " + a + " b) { return (" + combine + "); }\n"
        "__device__ ks_red_value ks_red_combine(ks_red_value a, ks_red_value b)\n"
        "{ ks_red_value r; for (int k = 0; k < " + cs + "; ++k) r.v[k] = ks_red_op(a.v[k], b.v[k]); return r; }\n"
        "__device__ ks_red_value ks_red_identity()\n"
        "{ ks_red_value r; for (int k = 0; k < " + cs + "; ++k) r.v[k] = (" + a + ")(" + neutral + "); return r; }\n"
        "__device__ ks_red_value ks_red_load(const " + t + "* ks_base, long long i)\n"
        "{\n" + vectorLoad +
        "    ks_red_value r; for (int k = 0; k < " + cs + "; ++k) { const ks_red_x x{ks_base + k}; r.v[k] = (" + a +
        ")(" + map + "); } return r;\n}\n";
    return plan;
}

ReduceStage::ReduceStage(StageDesc desc, const Project& project)
    : Stage(std::move(desc)), m_plan(planReduce(project, this->desc()))
{
    m_readout.stage = this->desc().name;
    m_readout.op = this->desc().op;
}

ReduceStage::~ReduceStage() = default;

void ReduceStage::run(FrameContext& ctx)
{
    if (!ctx.arrays)
        throwUsage("ReduceStage", "no array runtime");
    if (!m_kernel)
        m_kernel = std::make_unique<array::ReductionKernel>(*ctx.arrays, m_plan.spec);
    const std::size_t bytes = m_kernel->valueSize();
    if (m_plan.into.empty() && m_result.empty())
        m_result = cuda::DeviceMemory(bytes);
    if (m_slots.size() <= ctx.slot)
        m_slots.resize(ctx.slot + 1);
    ReadoutSlot& slot = m_slots[ctx.slot];
    if (slot.host.empty()) {
        slot.host = cuda::PinnedHostMemory(bytes);
        slot.device = slot.host.devicePointer();
    }
    const Resource& src = mappedBuffer(ctx, m_plan.source, "ReduceStage");
    const std::vector<array::MapArg> args{flatView(*ctx.arrays, src)};
    // The kernel's last block also writes the read-out straight into this slot's page-locked
    // buffer (mapped into the device's address space): a copy after the kernel, even of a few
    // bytes, cost the particle demo measurably more stream time.
    const CUdeviceptr out = m_plan.into.empty() ? m_result.get() : mappedBuffer(ctx, m_plan.into, "ReduceStage").pointer;
    m_kernel->launch(out, src.desc.count, args, slot.device);
    slot.pending = true;
}

void ReduceStage::collect(std::size_t slot)
{
    if (slot >= m_slots.size() || !m_slots[slot].pending)
        return;
    m_slots[slot].pending = false;
    const int c = m_plan.element.components;
    const std::size_t size = scalarSize(m_plan.accumulate);
    m_readout.values.assign(std::size_t(c), 0.0);
    const auto* bytes = static_cast<const std::uint8_t*>(m_slots[slot].host.get());
    for (int k = 0; k < c; ++k) {
        const std::uint8_t* at = bytes + std::size_t(k) * size;
        double v = 0;
        auto read = [&]<class T>(T) {
            T x;
            std::memcpy(&x, at, sizeof(T));
            v = double(x);
        };
        switch (m_plan.accumulate) {
        case ScalarType::Int8: read(std::int8_t{}); break;
        case ScalarType::UInt8: read(std::uint8_t{}); break;
        case ScalarType::Int16: read(std::int16_t{}); break;
        case ScalarType::UInt16: read(std::uint16_t{}); break;
        case ScalarType::Int32: read(std::int32_t{}); break;
        case ScalarType::UInt32: read(std::uint32_t{}); break;
        case ScalarType::Int64: read(std::int64_t{}); break;
        case ScalarType::UInt64: read(std::uint64_t{}); break;
        case ScalarType::Float32: read(float{}); break;
        case ScalarType::Float64: read(double{}); break;
        }
        m_readout.values[std::size_t(k)] = v;
    }
    m_readout.valid = true;
}

std::optional<double> ReduceStage::bytesMoved(const ResourceSet& resources) const
{
    const Resource* r = m_plan.error.empty() ? resources.find(m_plan.source) : nullptr;
    return r ? std::optional<double>(double(r->desc.bytes())) : std::nullopt;
}

// ----- random fills

RandomPlan planRandom(const Project& p, const StageDesc& s)
{
    RandomPlan plan;
    plan.target = s.target;
    const project::ResourceDesc* r = p.resource(s.target);
    if (!r || r->isTexture()) {
        plan.error = "\"target\" " + inQuotes(s.target) + " is not a buffer of the project";
        return plan;
    }
    plan.element = r->element;
    const ScalarType t = r->element.scalar;
    if (s.distribution == "poisson") {
        if (t != ScalarType::UInt32 && t != ScalarType::Int32)
            plan.error = "a poisson fill needs a uint or int buffer; " + inQuotes(s.target) + " is " + cudaTypeName(r->element);
        else if (!(s.params[0] > 0))
            plan.error = "a poisson fill needs \"params\": [lambda] with lambda > 0";
    } else if (t != ScalarType::Float32 && t != ScalarType::Float64) {
        plan.error = "a " + s.distribution + " fill needs a float or double buffer; " + inQuotes(s.target) + " is " +
                     cudaTypeName(r->element);
    } else if (s.distribution != "uniform" && s.distribution != "normal" && s.distribution != "lognormal") {
        plan.error = "unknown distribution " + inQuotes(s.distribution);
    } else if (s.distribution != "uniform" && !(s.params[1] > 0)) {
        plan.error = "a " + s.distribution + " fill needs \"params\": [mean, stddev] with stddev > 0";
    }
    if (plan.error.empty() && s.generator != "xorwow" && s.generator != "philox" && s.generator != "mrg32k3a" &&
        s.generator != "sobol32")
        plan.error = "unknown generator " + inQuotes(s.generator);
    return plan;
}

std::uint64_t RandomStage::seedFor(const StageDesc& d, std::uint64_t runSeed, std::int64_t frame)
{
    return runSeed + d.seed + (d.reseedEachFrame ? std::uint64_t(frame) * 0x9E3779B97F4A7C15ull : 0);
}

RandomStage::RandomStage(StageDesc desc, const Project& project)
    : Stage(std::move(desc)), m_plan(planRandom(project, this->desc()))
{
}

RandomStage::~RandomStage() = default;

void RandomStage::run(FrameContext& ctx)
{
    const StageDesc& d = desc();
    const std::uint64_t seed = seedFor(d, ctx.seed, ctx.frame);
    const Resource& r = mappedBuffer(ctx, m_plan.target, "RandomStage");
    const std::size_t n = std::size_t(r.desc.count) * std::size_t(r.desc.element.components);
    const bool f32 = r.desc.element.scalar == ScalarType::Float32;
    const bool fresh = !m_generator;
    if (fresh) {
        const rng::GeneratorType type = d.generator == "xorwow"     ? rng::GeneratorType::Xorwow
                                        : d.generator == "mrg32k3a" ? rng::GeneratorType::Mrg32k3a
                                        : d.generator == "sobol32"  ? rng::GeneratorType::Sobol32
                                                                    : rng::GeneratorType::Philox4x32_10;
        m_generator = std::make_unique<rng::Generator>(type, seed);
    }
    // The generator's part of the fill (the uniform range is applied after).
    auto draw = [&] {
        if (d.distribution == "poisson") {
            m_generator->poisson(reinterpret_cast<std::uint32_t*>(r.pointer), n, d.params[0], ctx.stream);
        } else if (d.distribution == "normal" || d.distribution == "lognormal") {
            const bool lognormal = d.distribution == "lognormal";
            if (f32 && lognormal)
                m_generator->logNormal(reinterpret_cast<float*>(r.pointer), n, float(d.params[0]), float(d.params[1]), ctx.stream);
            else if (f32)
                m_generator->normal(reinterpret_cast<float*>(r.pointer), n, float(d.params[0]), float(d.params[1]), ctx.stream);
            else if (lognormal)
                m_generator->logNormal(reinterpret_cast<double*>(r.pointer), n, d.params[0], d.params[1], ctx.stream);
            else
                m_generator->normal(reinterpret_cast<double*>(r.pointer), n, d.params[0], d.params[1], ctx.stream);
        } else if (f32) {
            m_generator->uniform(reinterpret_cast<float*>(r.pointer), n, ctx.stream);
        } else {
            m_generator->uniform(reinterpret_cast<double*>(r.pointer), n, ctx.stream);
        }
    };
    if (fresh || d.reseedEachFrame || ctx.frame == 0 || ctx.frame != m_lastFrame + 1) {
        // Each frame's own seed, or the sequence from its start: frame 0, or a run that resumes at
        // frame F (a GPU process that replaced a faulted one restores the frame before F). Frame F
        // then draws what an uninterrupted run would have: the Philox kernel path seeks to F
        // fills' worth of blocks (every fill takes the same blocks); cuRAND's host path (xorwow,
        // mrg32k3a, sobol32, and poisson fills of any generator) draws one fill to learn how many
        // values a fill takes, then seeks to F times that (the fill it drew is overwritten below),
        // where that is exact (rng::seekingIsExact); else (xorwow and mrg32k3a normals) it draws
        // the F fills again, up to kReplayValues values, and past that starts the sequence at F.
        if (!fresh)
            m_generator->reseed(seed);
        if (!d.reseedEachFrame && ctx.frame > 0) {
            if (m_generator->usesKernels() && d.distribution != "poisson") {
                m_generator->seekPhiloxBlock(std::uint64_t(ctx.frame) * rng::Generator::philoxBlocks(n, !f32));
            } else if (rng::supportsOffset(m_generator->type())) {
                draw();
                const std::uint64_t perFill = m_generator->drawn();
                if (rng::seekingIsExact(m_generator->type(), d.distribution == "normal" || d.distribution == "lognormal")) {
                    m_generator->seekDrawn(std::uint64_t(ctx.frame) * perFill);
                } else if (std::uint64_t(ctx.frame) * perFill <= kReplayValues) {
                    for (std::int64_t f = 1; f < ctx.frame; ++f) // the fills before frame F, again
                        draw();
                } else {
                    m_generator->reseed(seed);
                    log::warning("random stage \"" + d.name + "\" starts its sequence again at frame " +
                                 std::to_string(ctx.frame) + ": drawing the " + std::to_string(ctx.frame) +
                                 " fills before it again would take too long");
                }
            }
        }
    }
    m_lastFrame = ctx.frame;
    m_lastSeed = seed;
    draw();
    if (d.distribution == "uniform") {
        // cuRAND's (0, 1] becomes [low, high): high - (high - low) * u.
        if (!ctx.arrays)
            throwUsage("RandomStage", "no array runtime");
        static const array::ElementwiseKernel kScaleF("float *x, float hi, float span", "x[i] = hi - span * x[i]",
                                                      "ks_uniform_range_f32");
        static const array::ElementwiseKernel kScaleD("double *x, double hi, double span", "x[i] = hi - span * x[i]",
                                                      "ks_uniform_range_f64");
        const double span = d.params[1] - d.params[0];
        (f32 ? kScaleF : kScaleD)(*ctx.arrays, {flatView(*ctx.arrays, r), array::Scalar(d.params[1]), array::Scalar(span)});
    }
}

std::optional<double> RandomStage::bytesMoved(const ResourceSet& resources) const
{
    const Resource* r = m_plan.error.empty() ? resources.find(m_plan.target) : nullptr;
    if (!r)
        return std::nullopt;
    return double(r->desc.bytes()) * (desc().distribution == "uniform" ? 3 : 1);
}

} // namespace ks::pipeline
