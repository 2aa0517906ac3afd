#include "ks/pipeline/kernel_stage.hpp"

#include "ks/pipeline/array_stages.hpp"
#include "ks/pipeline/check.hpp"

#include "ks/core/error.hpp"
#include "ks/cuda/launch.hpp"
#include "ks/core/paths.hpp"

#include <algorithm>
#include <cstring>

namespace ks::pipeline {

using project::ArgBinding;
using project::ScalarType;
using project::ValueType;

ArgSlot packValue(const ValueType& type, const std::array<double, 4>& values)
{
    ArgSlot slot;
    const std::size_t ss = scalarSize(type.scalar);
    for (int c = 0; c < type.components && c < 4; ++c) {
        const double v = values[std::size_t(c)];
        std::uint8_t* at = slot.bytes.data() + std::size_t(c) * ss;
        auto put = [&](auto x) { std::memcpy(at, &x, sizeof x); };
        switch (type.scalar) {
        case ScalarType::Int8: put(std::int8_t(v)); break;
        case ScalarType::UInt8: put(std::uint8_t(v)); break;
        case ScalarType::Int16: put(std::int16_t(v)); break;
        case ScalarType::UInt16: put(std::uint16_t(v)); break;
        case ScalarType::Int32: put(std::int32_t(v)); break;
        case ScalarType::UInt32: put(std::uint32_t(v)); break;
        case ScalarType::Int64: put(std::int64_t(v)); break;
        case ScalarType::UInt64: put(std::uint64_t(v)); break;
        case ScalarType::Float32: put(float(v)); break;
        case ScalarType::Float64: put(double(v)); break;
        }
    }
    slot.size = type.size();
    return slot;
}

ArgSlot packRecord(const syntax::RecordLayout& layout, const std::vector<project::RecordValue>& fields)
{
    ArgSlot slot;
    slot.size = layout.layout.size;
    slot.bytes.assign(std::max<std::size_t>(slot.size, 16), 0);
    for (const project::RecordValue& v : fields) {
        const auto f = std::find_if(layout.fields.begin(), layout.fields.end(),
                                    [&](const syntax::RecordField& x) { return x.name == v.field; });
        if (f == layout.fields.end()) {
            std::string names;
            for (const syntax::RecordField& x : layout.fields)
                names += (names.empty() ? "" : ", ") + x.name;
            throwUsage("packRecord", "struct " + layout.name + " has no member \"" + v.field + "\"; its members are " +
                                         (names.empty() ? std::string("none") : names));
        }
        const std::optional<ValueType> t = project::parseValueType(f->type);
        if (!t)
            throwUsage("packRecord", "member " + f->name + " of struct " + layout.name + " is a " + f->type +
                                         ", which cannot be set from numbers; pass the struct as raw bytes");
        const std::size_t scalars = std::size_t(t->components) * f->count;
        if (v.values.size() > scalars)
            throwUsage("packRecord", "member " + f->name + " of struct " + layout.name + " holds " +
                                         std::to_string(scalars) + " number" + (scalars == 1 ? "" : "s") + " (" +
                                         f->type + (f->count > 1 ? "[" + std::to_string(f->count) + "]" : "") +
                                         "), but " + std::to_string(v.values.size()) + " are given");
        for (std::size_t e = 0; e < f->count; ++e) {
            std::array<double, 4> element{};
            for (int c = 0; c < t->components; ++c)
                if (const std::size_t k = e * std::size_t(t->components) + std::size_t(c); k < v.values.size())
                    element[std::size_t(c)] = v.values[k];
            const ArgSlot one = packValue(*t, element);
            std::memcpy(slot.bytes.data() + f->offset + e * f->element.size, one.bytes.data(), one.size);
        }
    }
    return slot;
}

ArgSlot packPointer(std::uint64_t value)
{
    ArgSlot slot;
    std::memcpy(slot.bytes.data(), &value, sizeof value);
    slot.size = sizeof value;
    return slot;
}

cuda::Dim3 coverGrid(std::int64_t x, std::int64_t y, const std::array<unsigned, 3>& block)
{
    // Saturated at the largest unsigned, so that a grid too large for CUDA is refused by the launch
    // check rather than wrapped to a small one.
    auto up = [](std::int64_t n, unsigned b) {
        return unsigned(std::min<std::int64_t>((std::max<std::int64_t>(n, 1) + b - 1) / b, 0xFFFFFFFFll));
    };
    return {up(x, std::max(1u, block[0])), up(y, std::max(1u, block[1])), 1};
}

std::array<std::int64_t, 2> resourceExtent(const project::ResourceDesc& r)
{
    if (r.isTexture())
        return {r.width, r.height};
    if (r.shape && !r.record.empty())
        return {(*r.shape)[0], 1}; // its records
    if (r.shape)
        return {(*r.shape)[1], (*r.shape)[0]};
    return {r.count, 1};
}

KernelStage::KernelStage(project::StageDesc desc, std::optional<syntax::KernelSignature> signature, bool cuda)
    : Stage(std::move(desc)), m_signature(std::move(signature)), m_cuda(cuda)
{
}

rtc::CompileRequest KernelStage::buildRequest(const project::Project& project, const rtc::CompileOptions& options) const
{
    rtc::CompileRequest r;
    const std::filesystem::path file = project.resolve(desc().file);
    r.slot = file.string() + "#" + desc().kernel;
    r.source = m_sourceText.empty() ? paths::readTextFile(file) : m_sourceText;
    r.fileName = file.string();
    r.options = options;
    r.nameExpressions = {desc().kernel};
    return r;
}

bool KernelStage::adopt(std::shared_ptr<const rtc::CompileResult> result)
{
    m_lastBuild = result;
    if (!result || !result->ok) {
        m_status = m_function.empty() ? "build failed; nothing to run" : "build failed; running the last good module";
        return false;
    }
    if (!m_cuda) {
        m_status = "compiled (no CUDA device: not running)";
        return false;
    }
    const std::string lowered =
        !result->loweredNames.empty() && !result->loweredNames[0].empty() ? result->loweredNames[0] : desc().kernel;
    try {
        cuda::Module module(result->cubin.data());
        cuda::Function function = module.function(lowered);
        std::optional<std::vector<cuda::ParameterSlot>> layout = cuda::parameterLayout(function);
        // Swap: the old module dies here, after the new one loaded.
        m_function = std::move(function);
        m_parameterLayout = std::move(layout);
        m_module = std::move(module);
        m_runningBuild = std::move(result);
        m_status = "running";
        ++m_builds;
        return true;
    } catch (const Error& e) {
        m_status = std::string("load failed (") + e.what() + ")" +
                   (m_function.empty() ? "" : "; running the last good module");
        return false;
    }
}

cuda::LaunchConfig launchConfigOf(const project::StageDesc& d, const project::ResourceDesc* cover)
{
    const cuda::Dim3 block{d.block[0], d.block[1], d.block[2]};
    if (cover) {
        const auto e = resourceExtent(*cover);
        if (d.coverFlat)
            return {coverGrid(e[0] * e[1], 1, d.block), block, d.sharedBytes};
        return {coverGrid(e[0], e[1], d.block), block, d.sharedBytes};
    }
    return {{d.grid[0], d.grid[1], d.grid[2]}, block, d.sharedBytes};
}

cuda::LaunchConfig KernelStage::launchConfig(const ResourceSet& resources) const
{
    const project::StageDesc& d = desc();
    const Resource* r = d.cover.empty() ? nullptr : resources.find(d.cover);
    return launchConfigOf(d, r ? &r->desc : nullptr);
}

ArgSlot KernelStage::argument(std::size_t i, const FrameContext& ctx) const
{
    const ArgBinding& b = desc().args[i];
    const syntax::KernelParam* param = m_signature && i < m_signature->params.size() ? &m_signature->params[i] : nullptr;
    auto value = [&](ValueType own, const std::array<double, 4>& v) {
        const std::optional<ValueType> type =
            param && param->kind == syntax::ParamKind::Value ? paramValueType(*param) : std::nullopt;
        return packValue(type ? *type : own, v);
    };
    const ValueType i32{ScalarType::Int32, 1};
    switch (b.kind) {
    case ArgBinding::Kind::Resource:
    case ArgBinding::Kind::Surface:
    case ArgBinding::Kind::Texture: {
        const Resource* r = ctx.resources->find(b.name);
        if (!r)
            throwUsage("KernelStage", "no resource \"" + b.name + "\"");
        if (!r->isTexture())
            return packPointer(r->pointer);
        const bool surface = b.kind == ArgBinding::Kind::Surface ||
                             (b.kind == ArgBinding::Kind::Resource && param && param->kind == syntax::ParamKind::Surface);
        if (surface && r->surfaceObject.empty())
            throwUsage("KernelStage", "texture \"" + b.name + "\" has no surface object (not registered for surface access)");
        if (!surface && r->textureObject.empty())
            throwUsage("KernelStage", "texture \"" + b.name + "\" has no texture object (it is only used as a surface)");
        return packPointer(surface ? r->surfaceObject.get() : r->textureObject.get());
    }
    case ArgBinding::Kind::Parameter: {
        for (std::size_t p = 0; p < ctx.project->parameters.size(); ++p)
            if (ctx.project->parameters[p].name == b.name)
                return value(ctx.project->parameters[p].type, (*ctx.parameters)[p]);
        throwUsage("KernelStage", "no parameter \"" + b.name + "\"");
    }
    case ArgBinding::Kind::Builtin: {
        const project::BuiltinInfo* info = project::findBuiltin(b.name);
        if (!info)
            throwUsage("KernelStage", "no builtin \"" + b.name + "\"");
        return value(info->type, builtinValue(info->id, ctx));
    }
    case ArgBinding::Kind::Count:
    case ArgBinding::Kind::Width:
    case ArgBinding::Kind::Height: {
        const Resource* r = ctx.resources->find(b.name);
        if (!r)
            throwUsage("KernelStage", "no resource \"" + b.name + "\"");
        const auto e = resourceExtent(r->desc);
        const double n = b.kind == ArgBinding::Kind::Count ? double(r->isTexture() || !r->desc.record.empty() ? e[0] * e[1]
                                                                                                      : r->desc.count)
                         : b.kind == ArgBinding::Kind::Width ? double(e[0])
                                                             : double(e[1]);
        return value(i32, {n, 0, 0, 0});
    }
    case ArgBinding::Kind::Literal: return value(b.literalType, b.literal);
    case ArgBinding::Kind::Record: {
        if (!param || !param->record)
            throwUsage("KernelStage", "a struct argument needs the struct's definition in the kernel's file" +
                                          (param && !param->recordProblem.empty() ? ": " + param->recordProblem
                                                                                  : std::string()));
        return packRecord(*param->record, b.fields);
    }
    case ArgBinding::Kind::Bytes: {
        ArgSlot slot;
        slot.size = b.bytes.size();
        slot.bytes = b.bytes;
        slot.bytes.resize(std::max<std::size_t>(slot.size, 16), 0);
        return slot;
    }
    }
    return {};
}

std::vector<ArgSlot> KernelStage::arguments(const FrameContext& ctx) const
{
    std::vector<ArgSlot> slots(desc().args.size());
    for (std::size_t i = 0; i < slots.size(); ++i)
        slots[i] = argument(i, ctx);
    return slots;
}

void KernelStage::run(FrameContext& ctx)
{
    if (m_function.empty())
        throwUsage("KernelStage::run", "stage \"" + desc().name + "\" has no loaded kernel: " + m_status);
    std::vector<ArgSlot> slots = arguments(ctx);
    // What the compiler made of each parameter: raw bytes of the wrong size, or a struct laid out
    // otherwise than the source was read, is refused here rather than launched. Every frame compares
    // sizes only; the message is made when one differs.
    bool fits = !m_parameterLayout || m_parameterLayout->size() == slots.size();
    for (std::size_t i = 0; fits && m_parameterLayout && i < slots.size(); ++i)
        fits = slots[i].size == (*m_parameterLayout)[i].size;
    if (!fits) {
        std::vector<cuda::PackedArgument> packed(slots.size());
        for (std::size_t i = 0; i < slots.size(); ++i) {
            packed[i].size = slots[i].size;
            const syntax::KernelParam* p = m_signature && i < m_signature->params.size() ? &m_signature->params[i] : nullptr;
            packed[i].type = p ? p->type + (p->name.empty() ? "" : " " + p->name) : "argument";
        }
        if (auto why = cuda::checkArguments(desc().kernel, *m_parameterLayout, packed))
            throwUsage("KernelStage::run", "stage \"" + desc().name + "\": " + *why);
    }
    std::vector<void*> params(slots.size());
    for (std::size_t i = 0; i < slots.size(); ++i)
        params[i] = slots[i].bytes.data();
    m_function.launch(launchConfig(*ctx.resources), ctx.stream, params.data());
}

std::optional<double> KernelStage::bytesMoved(const ResourceSet& resources) const
{
    // Estimated from the bindings: a read-only buffer is read once, another buffer read and
    // written once, a surface written once, a sampled texture read once.
    double bytes = 0;
    bool any = false;
    for (std::size_t i = 0; i < desc().args.size(); ++i) {
        const ArgBinding& b = desc().args[i];
        if (b.kind != ArgBinding::Kind::Resource && b.kind != ArgBinding::Kind::Surface &&
            b.kind != ArgBinding::Kind::Texture)
            continue;
        const Resource* r = resources.find(b.name);
        if (!r)
            continue;
        const syntax::KernelParam* p = m_signature && i < m_signature->params.size() ? &m_signature->params[i] : nullptr;
        const double size = double(r->desc.bytes());
        any = true;
        if (r->isTexture() || (p && p->pointeeConst))
            bytes += size;
        else
            bytes += 2 * size;
    }
    return any ? std::optional<double>(bytes) : std::nullopt;
}

void CopyStage::run(FrameContext& ctx)
{
    const Resource* from = ctx.resources->find(desc().from);
    const Resource* to = ctx.resources->find(desc().to);
    if (!from || !to)
        throwUsage("CopyStage", "copy needs resources \"" + desc().from + "\" and \"" + desc().to + "\"");
    if (!from->isTexture()) {
        KS_CU(cuMemcpyDtoDAsync, to->pointer, from->pointer, from->desc.bytes(), ctx.stream);
        return;
    }
    CUDA_MEMCPY2D c{};
    c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    c.srcArray = from->array;
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    c.dstArray = to->array;
    c.WidthInBytes = std::size_t(from->desc.width) * glFormat(from->desc.format).texelBytes;
    c.Height = std::size_t(from->desc.height);
    KS_CU(cuMemcpy2DAsync, &c, ctx.stream);
}

std::optional<double> CopyStage::bytesMoved(const ResourceSet& resources) const
{
    const Resource* from = resources.find(desc().from);
    return from ? std::optional<double>(2.0 * double(from->desc.bytes())) : std::nullopt;
}

} // namespace ks::pipeline
