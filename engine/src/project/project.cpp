#include "ks/project/project.hpp"

#include "ks/core/atomic_file.hpp"
#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <limits>
#include <set>

namespace ks::project {

namespace fs = std::filesystem;

std::string Problem::format() const
{
    std::string out = file.string();
    if (pos.line > 0)
        out += ":" + std::to_string(pos.line) + (pos.column > 0 ? ":" + std::to_string(pos.column) : "");
    return out + ": error: " + message;
}

std::string_view formatName(TextureFormat f) noexcept
{
    switch (f) {
    case TextureFormat::Rgba8: return "rgba8";
    case TextureFormat::R32F: return "r32f";
    case TextureFormat::Rgba32F: return "rgba32f";
    }
    return "?";
}

std::string formatNumbers(const std::vector<double>& values)
{
    std::string text;
    for (double v : values) {
        char n[32];
        std::snprintf(n, sizeof n, "%g", v);
        text += (text.empty() ? "" : ", ") + std::string(n);
    }
    return text;
}

std::string formatHexBytes(const std::vector<std::uint8_t>& bytes)
{
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        if (i && i % 4 == 0)
            out += ' ';
        out += kDigits[bytes[i] >> 4];
        out += kDigits[bytes[i] & 15];
    }
    return out;
}

std::vector<std::uint8_t> parseHexBytes(std::string_view text)
{
    std::vector<std::uint8_t> out;
    int high = -1;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '_')
            continue;
        const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            throwUsage("parseHexBytes", "character " + std::to_string(i + 1) + " is not a hex digit: bytes are written as "
                                        "two hex digits each (\"0000803f\" is the float 1.0)");
        if (high < 0) {
            high = d;
        } else {
            out.push_back(std::uint8_t(high * 16 + d));
            high = -1;
        }
    }
    if (high >= 0)
        throwUsage("parseHexBytes", "an odd number of hex digits: each byte is two digits");
    if (out.empty())
        throwUsage("parseHexBytes", "no bytes: write two hex digits per byte");
    return out;
}

std::string_view stageKindName(StageKind k) noexcept
{
    switch (k) {
    case StageKind::Kernel: return "kernel";
    case StageKind::Random: return "random";
    case StageKind::Math: return "math";
    case StageKind::Reduce: return "reduce";
    case StageKind::Copy: return "copy";
    }
    return "?";
}

std::string_view viewKindName(ViewKind k) noexcept
{
    switch (k) {
    case ViewKind::Image: return "image";
    case ViewKind::Points: return "points";
    case ViewKind::Plot: return "plot";
    case ViewKind::HeightField: return "heightfield";
    }
    return "?";
}

std::size_t ResourceDesc::bytes() const noexcept
{
    if (kind == ResourceKind::Buffer)
        return std::size_t(count) * element.size();
    const std::size_t texel = format == TextureFormat::Rgba8 ? 4 : format == TextureFormat::R32F ? 4 : 16;
    return std::size_t(width) * std::size_t(height) * texel;
}

const std::vector<BuiltinInfo>& builtins()
{
    static const std::vector<BuiltinInfo> kBuiltins{
        {Builtin::Time, "time", {ScalarType::Float32, 1}, "seconds since the start (frame index x time step)"},
        {Builtin::TimeStep, "dt", {ScalarType::Float32, 1}, "the fixed time step in seconds"},
        {Builtin::Frame, "frame", {ScalarType::Int32, 1}, "frames since the start, from 0"},
        {Builtin::Mouse, "mouse", {ScalarType::Float32, 2}, "mouse position in the first view, in pixels"},
        {Builtin::MouseButtons, "buttons", {ScalarType::Int32, 1}, "mouse buttons down: 1 left, 2 right, 4 middle"},
        {Builtin::Viewport, "viewport", {ScalarType::Int32, 2}, "size of the first view in pixels"},
        {Builtin::Seed, "seed", {ScalarType::UInt32, 1}, "the run's seed (the project's, or --seed)"},
    };
    return kBuiltins;
}

const BuiltinInfo* findBuiltin(std::string_view name)
{
    for (const BuiltinInfo& b : builtins())
        if (name == b.name)
            return &b;
    return nullptr;
}

fs::path Project::resolve(const fs::path& relative) const
{
    return relative.is_absolute() ? relative : (file.parent_path() / relative).lexically_normal();
}

const ResourceDesc* Project::resource(std::string_view n) const
{
    for (const ResourceDesc& r : resources)
        if (r.name == n)
            return &r;
    return nullptr;
}

const ParameterDesc* Project::parameter(std::string_view n) const
{
    for (const ParameterDesc& p : parameters)
        if (p.name == n)
            return &p;
    return nullptr;
}

namespace {

// A number from the file as it was probably written: whole numbers without a fraction or exponent
// up to 2^53, anything else as %g.
std::string numberText(double v)
{
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) <= 9007199254740992.0)
        return std::to_string(std::int64_t(v));
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

std::string inQuotes(std::string_view s)
{
    return "\"" + std::string(s) + "\"";
}

std::string joinQuoted(const std::vector<std::string>& names)
{
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i)
        out += (i ? (i + 1 == names.size() ? " or " : ", ") : "") + inQuotes(names[i]);
    return out;
}

struct Context {
    fs::path file;
    std::vector<Problem> problems;
    void error(SourcePos pos, std::string message) { problems.push_back({file, pos, std::move(message)}); }
};

// Reads one JSON object: each get marks its key as known; finish() reports the unknown ones.
class ObjectReader {
public:
    ObjectReader(const Json& json, Context& ctx, std::string what) : m_json(json), m_ctx(ctx), m_what(std::move(what))
    {
        m_ok = json.isObject();
        if (!m_ok)
            ctx.error(json.pos(), m_what + " must be an object, found " + std::string(Json::typeName(json.type())));
    }
    bool ok() const { return m_ok; }
    const Json& json() const { return m_json; }

    const Json* get(const std::string& key, bool required = false)
    {
        m_known.push_back(key);
        if (!m_ok)
            return nullptr;
        const Json* v = m_json.find(key);
        if (!v && required)
            m_ctx.error(m_json.pos(), m_what + " needs a " + inQuotes(key) + " member");
        return v;
    }
    const Json* typed(const std::string& key, Json::Type type, bool required = false)
    {
        const Json* v = get(key, required);
        if (v && v->type() != type) {
            mismatch(key, *v, Json::typeName(type));
            return nullptr;
        }
        return v;
    }
    void mismatch(const std::string& key, const Json& v, std::string_view expected)
    {
        m_ctx.error(v.pos(), inQuotes(key) + " of " + m_what + " must be " + std::string(expected) + ", found " +
                                 std::string(Json::typeName(v.type())));
    }

    static bool fitsFloat(double d) { return std::isfinite(float(d)); }
    void pastFloat(const std::string& key, const Json& v)
    {
        m_ctx.error(v.pos(), inQuotes(key) + " of " + m_what +
                                 " must be within a 32-bit float's range (magnitude at most 3.4e38)");
    }

    std::string string(const std::string& key, bool required = false, std::string fallback = {})
    {
        const Json* v = typed(key, Json::Type::String, required);
        return v ? v->string() : fallback;
    }
    bool boolean(const std::string& key, bool fallback)
    {
        const Json* v = typed(key, Json::Type::Bool);
        return v ? v->boolean() : fallback;
    }
    double number(const std::string& key, double fallback, bool required = false)
    {
        const Json* v = typed(key, Json::Type::Number, required);
        return v ? v->number() : fallback;
    }
    std::optional<std::int64_t> integer(const std::string& key, std::int64_t lo, std::int64_t hi, bool required = false)
    {
        const Json* v = get(key, required);
        if (!v)
            return std::nullopt;
        if (!v->isInteger()) {
            mismatch(key, *v, "an integer");
            return std::nullopt;
        }
        if (v->integer() < lo || v->integer() > hi) {
            m_ctx.error(v->pos(), inQuotes(key) + " of " + m_what + " must be between " + std::to_string(lo) +
                                      " and " + std::to_string(hi) + ", found " + std::to_string(v->integer()));
            return std::nullopt;
        }
        return v->integer();
    }
    // An array of 1..maxN numbers (or one number, taken as a one-element array).
    std::vector<double> numbers(const std::string& key, std::size_t minN, std::size_t maxN, bool integers = false)
    {
        const Json* v = get(key);
        if (!v)
            return {};
        std::vector<double> out;
        auto bad = [&] {
            const std::string n = minN == maxN ? std::to_string(minN) : std::to_string(minN) + " to " + std::to_string(maxN);
            mismatch(key, *v, std::string(integers ? "an integer" : "a number") + " or an array of " + n +
                                  (integers ? " integers" : " numbers"));
            return std::vector<double>{};
        };
        if (v->isNumber()) {
            if (integers && !v->isInteger())
                return bad();
            out.push_back(v->number());
        } else if (v->isArray()) {
            for (const Json& item : v->items()) {
                if (!item.isNumber() || (integers && !item.isInteger()))
                    return bad();
                out.push_back(item.number());
            }
        } else {
            return bad();
        }
        if (out.size() < minN || out.size() > maxN)
            return bad();
        return out;
    }
    // Numbers kept as 32-bit floats (view ranges, colours, the camera): a value past float's range
    // would become infinite, which JSON cannot write back, so it is refused here with its position.
    float real32(const std::string& key, float fallback)
    {
        const Json* v = typed(key, Json::Type::Number);
        if (!v)
            return fallback;
        if (!fitsFloat(v->number())) {
            pastFloat(key, *v);
            return fallback;
        }
        return float(v->number());
    }
    std::vector<float> reals32(const std::string& key, std::size_t minN, std::size_t maxN)
    {
        const std::vector<double> ds = numbers(key, minN, maxN);
        for (double d : ds) {
            if (!fitsFloat(d)) {
                pastFloat(key, *get(key));
                return {};
            }
        }
        return {ds.begin(), ds.end()};
    }
    // An enumerated string.
    std::string choice(const std::string& key, const std::vector<std::string>& allowed, std::string fallback,
                       bool required = false)
    {
        const Json* v = typed(key, Json::Type::String, required);
        if (!v)
            return fallback;
        if (std::find(allowed.begin(), allowed.end(), v->string()) == allowed.end()) {
            m_ctx.error(v->pos(), inQuotes(key) + " of " + m_what + " must be one of " + joinQuoted(allowed) +
                                      ", found " + inQuotes(v->string()));
            return fallback;
        }
        return v->string();
    }

    void finish()
    {
        if (!m_ok)
            return;
        std::vector<std::string> known; // in the order asked for, each once (a key may be asked twice)
        for (const std::string& k : m_known)
            if (std::find(known.begin(), known.end(), k) == known.end())
                known.push_back(k);
        for (const Json::Member& m : m_json.members())
            if (std::find(known.begin(), known.end(), m.key) == known.end())
                m_ctx.error(m.keyPos, "unknown field " + inQuotes(m.key) + " in " + m_what + "; expected " +
                                          joinQuoted(known));
    }

private:
    const Json& m_json;
    Context& m_ctx;
    std::string m_what;
    std::vector<std::string> m_known;
    bool m_ok = false;
};

std::optional<ValueType> readType(ObjectReader& r, const std::string& key, Context& ctx, bool required)
{
    const Json* v = r.typed(key, Json::Type::String, required);
    if (!v)
        return std::nullopt;
    auto t = parseValueType(v->string());
    if (!t)
        ctx.error(v->pos(), "unknown type " + inQuotes(v->string()) +
                                "; expected a CUDA scalar or vector type such as \"float\", \"int\", \"uint\", "
                                "\"float2\", \"float4\", \"uchar4\", or \"color\"");
    return t;
}

void readValues(const Json& v, const ValueType& type, std::array<double, 4>& out, Context& ctx, const std::string& what)
{
    std::vector<double> values;
    if (v.isNumber())
        values.push_back(v.number());
    else if (v.isBool())
        values.push_back(v.boolean() ? 1 : 0);
    else if (v.isArray())
        for (const Json& item : v.items())
            if (item.isNumber())
                values.push_back(item.number());
    const std::size_t n = std::size_t(type.components);
    const bool arrayOk = v.isArray() && values.size() == v.items().size();
    if (!(v.isNumber() || v.isBool() || arrayOk) || values.size() != n) {
        ctx.error(v.pos(), what + " must be " + (n == 1 ? std::string("a number") : "an array of " + std::to_string(n) +
                                                                                         " numbers") +
                               " for type " + inQuotes(cudaTypeName(type)));
        return;
    }
    for (std::size_t i = 0; i < n; ++i) {
        if (!isFloat(type.scalar) && values[i] != std::floor(values[i])) {
            ctx.error(v.pos(), what + " must be integers for type " + inQuotes(cudaTypeName(type)));
            return;
        }
        out[i] = values[i];
    }
}

void readParameters(const Json& json, Project& p, Context& ctx)
{
    if (!json.isObject()) {
        ctx.error(json.pos(), "\"parameters\" must be an object of name: {type, value, min, max}");
        return;
    }
    for (const Json::Member& m : json.members()) {
        ObjectReader r(m.value, ctx, "parameter " + inQuotes(m.key));
        if (!r.ok())
            continue;
        ParameterDesc d;
        d.name = m.key;
        d.pos = m.keyPos;
        const auto type = readType(r, "type", ctx, true);
        if (type)
            d.type = *type;
        if (const Json* v = r.get("value", true); v && type)
            readValues(*v, d.type, d.value, ctx, "\"value\" of parameter " + inQuotes(m.key));
        d.min = r.number("min", d.type.color ? 0 : 0);
        d.max = r.number("max", d.type.color ? 1 : std::max(1.0, std::abs(d.value[0]) * 2));
        r.finish();
        p.parameters.push_back(std::move(d));
    }
}

// A resource's "init" as a data source: a string parseDataSpec reads ("zeros", "random:3",
// "photo.png"), or {"file": F} with "dtype" and "shape" for raw files, or {"random": "uniform" |
// "normal", "seed": N}. Files are relative to the project and kept absolute.
std::optional<io::DataSpec> readDataSource(const Json& json, Context& ctx, const std::string& what)
{
    const fs::path base = ctx.file.parent_path();
    try {
        if (json.isString()) {
            io::DataSpec spec = io::parseDataSpec(json.string());
            if (spec.kind == io::DataKind::Number) {
                ctx.error(json.pos(), what + ": a number is written as a number, not a string");
                return std::nullopt;
            }
            if (!spec.path.empty())
                spec.path = base / spec.path;
            return spec;
        }
        ObjectReader r(json, ctx, what);
        if (!r.ok())
            return std::nullopt;
        io::DataSpec spec;
        if (const Json* random = r.get("random")) {
            const std::string kind = r.choice("random", {"uniform", "normal"}, "uniform");
            spec.kind = kind == "normal" ? io::DataKind::Normal : io::DataKind::Random;
            spec.seed = std::uint64_t(r.integer("seed", 0, std::int64_t(1) << 53).value_or(0));
            (void)random;
        } else if (const Json* file = r.typed("file", Json::Type::String, true)) {
            const std::string dtype = r.string("dtype");
            const std::vector<double> shape = r.numbers("shape", 1, 8, true);
            std::string text = file->string();
            if (!dtype.empty() || !shape.empty()) {
                text += ":" + dtype + ":";
                for (std::size_t i = 0; i < shape.size(); ++i)
                    text += (i ? "x" : "") + numberText(shape[i]);
            }
            spec = io::parseDataSpec(text);
            if (spec.kind == io::DataKind::Raw && (dtype.empty() || shape.empty()))
                ctx.error(file->pos(), what + ": a raw file needs \"dtype\" and \"shape\"");
            spec.path = base / spec.path;
            if (const Json* convert = r.typed("convert", Json::Type::Bool))
                spec.convert = convert->boolean();
        }
        r.finish();
        return spec;
    } catch (const Error& e) {
        ctx.error(json.pos(), what + ": " + e.text());
        return std::nullopt;
    }
}

void readResources(const Json& json, Project& p, Context& ctx)
{
    if (!json.isObject()) {
        ctx.error(json.pos(), "\"resources\" must be an object of name: {kind, ...}");
        return;
    }
    for (const Json::Member& m : json.members()) {
        ObjectReader r(m.value, ctx, "resource " + inQuotes(m.key));
        if (!r.ok())
            continue;
        ResourceDesc d;
        d.name = m.key;
        d.pos = m.keyPos;
        const std::string kind = r.choice("kind", {"buffer", "texture"}, "", true);
        if (kind.empty())
            continue; // reported; the rest of the resource depends on its kind
        d.kind = kind == "texture" ? ResourceKind::Texture : ResourceKind::Buffer;
        d.discard = r.boolean("discard", false);
        d.sharedInterop = r.choice("interop", {"map", "shared"}, "map") == "shared";
        if (d.sharedInterop && d.kind == ResourceKind::Buffer) {
            ctx.error(r.json().find("interop")->pos(), "\"interop\": \"shared\" is for textures; buffer " +
                                                           inQuotes(m.key) + " is mapped (\"map\")");
            d.sharedInterop = false;
        }
        if (d.kind == ResourceKind::Buffer) {
            if (auto t = readType(r, "type", ctx, true))
                d.element = *t;
            const auto count = r.integer("count", 1, std::int64_t(1) << 40);
            // numpy's way: [count] is 1-D, [height, width] 2-D.
            const std::vector<double> shape = r.numbers("shape", 1, 2, true);
            std::optional<std::int64_t> flat;
            if (!shape.empty()) {
                constexpr double kMostElements = double(std::int64_t(1) << 40); // as "count"
                const double total = shape.size() == 2 ? shape[0] * shape[1] : shape[0];
                if (std::any_of(shape.begin(), shape.end(), [](double x) { return x < 1; }))
                    ctx.error(r.json().find("shape")->pos(), "\"shape\" of resource " + inQuotes(m.key) +
                                                                 " must be positive integers, [count] or [height, width]");
                else if (total > kMostElements || shape[0] > kMostElements)
                    ctx.error(r.json().find("shape")->pos(),
                              "\"shape\" of resource " + inQuotes(m.key) + " holds " + numberText(shape[0]) +
                                  (shape.size() == 2 ? " x " + numberText(shape[1]) : std::string()) +
                                  " elements; a buffer holds at most 1099511627776");
                else if (shape.size() == 2)
                    d.shape = std::array<std::int64_t, 2>{std::int64_t(shape[0]), std::int64_t(shape[1])};
                else
                    flat = std::int64_t(shape[0]);
            }
            if (flat) {
                d.count = *flat;
                if (count && *count != d.count)
                    ctx.error(r.json().find("count")->pos(), "\"count\" of resource " + inQuotes(m.key) + " is " +
                                                                 std::to_string(*count) + " but its shape holds " +
                                                                 std::to_string(d.count));
            } else if (d.shape) {
                d.count = (*d.shape)[0] * (*d.shape)[1];
                if (count && *count != d.count)
                    ctx.error(r.json().find("count")->pos(), "\"count\" of resource " + inQuotes(m.key) + " is " +
                                                                 std::to_string(*count) + " but its shape holds " +
                                                                 std::to_string(d.count));
            } else if (count) {
                d.count = *count;
            } else if (!r.json().find("count") && !r.json().find("shape")) {
                ctx.error(r.json().pos(), "buffer " + inQuotes(m.key) + " needs \"count\" or \"shape\"");
            }
            d.record = r.string("record");
            if (!d.record.empty() && (!(d.element == ValueType{ScalarType::UInt8, 1}) || !d.shape))
                ctx.error(r.json().find("record")->pos(), "buffer " + inQuotes(m.key) + " holds records of struct " +
                                                              d.record + " as raw bytes: its \"type\" is \"uchar\" "
                                                              "and its \"shape\" [records, bytes per record]");
        } else {
            const std::string format = r.choice("format", {"rgba8", "r32f", "rgba32f"}, "rgba8");
            d.format = format == "r32f" ? TextureFormat::R32F : format == "rgba32f" ? TextureFormat::Rgba32F
                                                                                    : TextureFormat::Rgba8;
            const Json* size = r.get("size", true);
            if (size && size->isString() && size->string() == "viewport") {
                d.followViewport = true;
                d.width = 256, d.height = 256; // until a view gives its size
            } else if (size) {
                bool good = size->isArray() && size->items().size() == 2;
                for (std::size_t i = 0; good && i < 2; ++i)
                    good = size->items()[i].isInteger() && size->items()[i].integer() >= 1 &&
                           size->items()[i].integer() <= 32768;
                if (!good)
                    ctx.error(size->pos(), "\"size\" of texture " + inQuotes(m.key) +
                                               " must be [width, height] (1 to 32768 each) or \"viewport\"");
                else
                    d.width = int(size->items()[0].integer()), d.height = int(size->items()[1].integer());
            }
        }
        if (const Json* init = r.get("init")) {
            const bool source = init->isString() || init->isObject();
            if (source) {
                d.data = readDataSource(*init, ctx, "\"init\" of resource " + inQuotes(m.key));
                if (d.data && d.kind == ResourceKind::Texture && d.data->kind != io::DataKind::Image &&
                    d.data->kind != io::DataKind::Zeros) {
                    ctx.error(init->pos(), "\"init\" of texture " + inQuotes(m.key) + " is an image file or " +
                                               "\"zeros\", not " + inQuotes(io::formatDataSpec(*d.data)));
                    d.data.reset();
                }
            } else if (d.kind == ResourceKind::Texture) {
                ctx.error(init->pos(), "\"init\" of texture " + inQuotes(m.key) + " is an image file " +
                                           "({\"file\": \"photo.png\"}); numbers are for buffers");
            } else if (init->isNumber()) {
                d.init.push_back(init->number());
            } else if (init->isArray()) {
                for (const Json& item : init->items())
                    if (item.isNumber())
                        d.init.push_back(item.number());
                const std::size_t scalars = std::size_t(d.count) * std::size_t(d.element.components);
                if (d.init.size() != init->items().size() || d.init.size() != scalars)
                    ctx.error(init->pos(), "\"init\" of buffer " + inQuotes(m.key) + " must be one number or " +
                                               std::to_string(scalars) + " numbers (count x components)");
            } else if (!source) {
                r.mismatch("init", *init, "a number, an array of numbers, a data source (\"zeros\", \"ones\", "
                                          "\"range\", \"random\", \"normal\") or {\"file\": ...}");
            }
        }
        r.finish();
        p.resources.push_back(std::move(d));
    }
}

std::array<unsigned, 3> dim3(const std::vector<double>& v, std::array<unsigned, 3> fallback)
{
    if (v.empty())
        return fallback;
    std::array<unsigned, 3> out{1, 1, 1};
    for (std::size_t i = 0; i < v.size() && i < 3; ++i)
        out[i] = unsigned(std::max(0.0, v[i]));
    return out;
}

// The members of a struct argument's object: numbers, booleans or arrays of them.
std::vector<RecordValue> recordValues(const Json& object, const std::function<void(SourcePos, std::string)>& error)
{
    std::vector<RecordValue> out;
    for (const Json::Member& m : object.members()) {
        RecordValue v{m.key, {}};
        for (const Json& x : m.value.isArray() ? m.value.items() : std::vector<Json>{m.value})
            if (x.isNumber())
                v.values.push_back(x.number());
            else if (x.isBool())
                v.values.push_back(x.boolean() ? 1 : 0);
            else
                error(x.pos(), "member " + inQuotes(m.key) + " of a struct argument must be a number or an array of "
                               "numbers, found " + std::string(Json::typeName(x.type())));
        out.push_back(std::move(v));
    }
    return out;
}

void readArgs(const Json& json, StageDesc& s, Context& ctx)
{
    if (!json.isArray()) {
        ctx.error(json.pos(), "\"args\" must be an array, one entry per kernel parameter");
        return;
    }
    for (const Json& a : json.items()) {
        ArgBinding b;
        b.pos = a.pos();
        if (a.isString()) {
            // A bare name: a resource or a parameter (resolved once the project is read).
            b.kind = ArgBinding::Kind::Resource;
            b.name = a.string();
        } else if (a.isNumber()) {
            b.kind = ArgBinding::Kind::Literal;
            b.literalType = a.isInteger() ? ValueType{ScalarType::Int32, 1} : ValueType{ScalarType::Float32, 1};
            b.literal[0] = a.number();
        } else if (a.isObject()) {
            ObjectReader r(a, ctx, "an argument");
            static const std::vector<std::pair<std::string, ArgBinding::Kind>> kKeys{
                {"resource", ArgBinding::Kind::Resource}, {"surface", ArgBinding::Kind::Surface},
                {"texture", ArgBinding::Kind::Texture},   {"param", ArgBinding::Kind::Parameter},
                {"builtin", ArgBinding::Kind::Builtin},   {"count", ArgBinding::Kind::Count},
                {"width", ArgBinding::Kind::Width},       {"height", ArgBinding::Kind::Height},
            };
            int found = 0;
            for (const auto& [key, kind] : kKeys) {
                if (const Json* v = r.typed(key, Json::Type::String)) {
                    b.kind = kind;
                    b.name = v->string();
                    b.pos = v->pos();
                    ++found;
                }
            }
            if (const Json* fields = r.get("struct")) {
                ++found;
                b.kind = ArgBinding::Kind::Record;
                if (!fields->isObject())
                    r.mismatch("struct", *fields, "an object of member values ({\"scale\": 2, \"pos\": [0, 1, 0]})");
                else
                    b.fields = recordValues(*fields, [&](SourcePos at, std::string why) { ctx.error(at, std::move(why)); });
            }
            if (const Json* bytes = r.typed("bytes", Json::Type::String)) {
                ++found;
                b.kind = ArgBinding::Kind::Bytes;
                try {
                    b.bytes = parseHexBytes(bytes->string());
                } catch (const Error& e) {
                    ctx.error(bytes->pos(), "\"bytes\" of an argument: " + e.text());
                }
            }
            const Json* value = r.get("value");
            const auto type = readType(r, "type", ctx, false);
            if (value) {
                ++found;
                b.kind = ArgBinding::Kind::Literal;
                b.literalType = type ? *type : ValueType{value->isInteger() ? ScalarType::Int32 : ScalarType::Float32, 1};
                readValues(*value, b.literalType, b.literal, ctx, "\"value\" of an argument");
            } else if (type) {
                ctx.error(a.pos(), "\"type\" belongs with \"value\" in an argument");
            }
            r.finish();
            if (found != 1)
                ctx.error(a.pos(), "an argument object needs exactly one of \"resource\", \"surface\", \"texture\", "
                                   "\"param\", \"builtin\", \"count\", \"width\", \"height\", \"value\", "
                                   "\"struct\" or \"bytes\"");
            if (b.kind == ArgBinding::Kind::Builtin && found == 1 && !findBuiltin(b.name)) {
                std::vector<std::string> names;
                for (const BuiltinInfo& i : builtins())
                    names.push_back(i.name);
                ctx.error(b.pos, "unknown builtin " + inQuotes(b.name) + "; expected " + joinQuoted(names));
            }
        } else {
            ctx.error(a.pos(), "an argument must be a name, a number or an object, found " +
                                   std::string(Json::typeName(a.type())));
            continue;
        }
        s.args.push_back(std::move(b));
    }
}

void readStages(const Json& json, Project& p, Context& ctx)
{
    if (!json.isArray()) {
        ctx.error(json.pos(), "\"stages\" must be an array of stage objects, in the order they run");
        return;
    }
    for (const Json& item : json.items()) {
        ObjectReader r(item, ctx, "a stage");
        if (!r.ok())
            continue;
        StageDesc s;
        s.pos = item.pos();
        const std::string kind = r.choice("kind", {"kernel", "random", "math", "reduce", "copy"}, "", true);
        s.kind = kind == "random" ? StageKind::Random : kind == "math" ? StageKind::Math
                 : kind == "reduce"                   ? StageKind::Reduce
                 : kind == "copy"                     ? StageKind::Copy
                                                      : StageKind::Kernel;
        s.name = r.string("name", false, kind);
        s.enabled = r.boolean("enabled", true);
        s.once = r.choice("when", {"every-frame", "once"}, "every-frame") == "once";
        switch (s.kind) {
        case StageKind::Kernel: {
            if (const Json* f = r.typed("file", Json::Type::String, true)) {
                s.file = f->string();
                s.filePos = f->pos();
            }
            s.kernel = r.string("kernel", true);
            s.cover = r.string("cover");
            s.coverFlat = r.boolean("coverFlat", false);
            if (s.coverFlat && s.cover.empty())
                ctx.error(r.json().find("coverFlat")->pos(), "\"coverFlat\" goes with \"cover\"");
            // Each dimension a whole number CUDA could launch at all (1..1024 for a block, 1..2^31-1
            // for a grid); the launch as a whole is checked against CUDA's limits by --validate
            // (pipeline::checkProject) and against the device's at run time.
            auto dims = [&](const char* key, std::array<unsigned, 3> fallback, double most) {
                const std::vector<double> v = r.numbers(key, 1, 3, true);
                for (double x : v)
                    if (!(x >= 1 && x <= most)) {
                        ctx.error(r.json().find(key)->pos(),
                                  "\"" + std::string(key) + "\" of stage " + inQuotes(s.name) +
                                      ": every dimension must be a whole number from 1 to " +
                                      std::to_string(std::int64_t(most)) + ", found " + numberText(x));
                        return fallback;
                    }
                return dim3(v, fallback);
            };
            s.block = dims("block", {256, 1, 1}, 1024);
            s.grid = dims("grid", {1, 1, 1}, 2147483647.0);
            s.sharedBytes = unsigned(r.integer("shared", 0, 1 << 30).value_or(0));
            if (r.json().find("grid") && !s.cover.empty())
                ctx.error(r.json().find("grid")->pos(), "a kernel stage takes \"grid\" or \"cover\", not both");
            if (const Json* a = r.get("args"))
                readArgs(*a, s, ctx);
            break;
        }
        case StageKind::Random: {
            s.target = r.string("target", true);
            s.generator = r.choice("generator", {"xorwow", "philox", "mrg32k3a", "sobol32"}, "philox");
            s.distribution = r.choice("distribution", {"uniform", "normal", "lognormal", "poisson"}, "uniform");
            const std::vector<double> ps = r.numbers("params", 1, 2);
            if (!ps.empty())
                s.params = {ps[0], ps.size() > 1 ? ps[1] : 0};
            s.seed = std::uint64_t(r.integer("seed", 0, std::numeric_limits<std::int64_t>::max()).value_or(0));
            s.reseedEachFrame = r.boolean("reseedEachFrame", false);
            break;
        }
        case StageKind::Math: s.expression = r.string("expression", true); break;
        case StageKind::Reduce:
            s.source = r.string("source", true);
            s.op = r.choice("op", {"sum", "min", "max", "custom"}, "sum");
            s.reduceExpr = r.string("reduce");
            s.mapExpr = r.string("map");
            s.neutral = r.string("neutral");
            s.into = r.string("into");
            if (s.op == "custom" && (s.reduceExpr.empty() || s.neutral.empty()))
                ctx.error(item.pos(), "a \"custom\" reduction needs \"reduce\" (an expression of a and b) and "
                                      "\"neutral\"");
            break;
        case StageKind::Copy:
            s.from = r.string("from", true);
            s.to = r.string("to", true);
            break;
        }
        r.finish();
        p.stages.push_back(std::move(s));
    }
}

void readViews(const Json& json, Project& p, Context& ctx)
{
    if (!json.isArray()) {
        ctx.error(json.pos(), "\"views\" must be an array of view objects");
        return;
    }
    for (const Json& item : json.items()) {
        ObjectReader r(item, ctx, "a view");
        if (!r.ok())
            continue;
        ViewDesc v;
        v.pos = item.pos();
        const std::string kind = r.choice("kind", {"image", "points", "plot", "heightfield"}, "image", true);
        v.kind = kind == "points" ? ViewKind::Points : kind == "plot" ? ViewKind::Plot
                 : kind == "heightfield"                              ? ViewKind::HeightField
                                                                      : ViewKind::Image;
        v.name = r.string("name", false, kind);
        v.source = r.string("source", true);
        v.colors = r.string("colors");
        v.scalar = r.string("scalar");
        v.colormap = r.choice("colormap", {"viridis", "magma", "inferno", "plasma", "gray", "coolwarm", "turbo"},
                              "viridis");
        const bool plot = v.kind == ViewKind::Plot;
        bool fixedRange = false; // a [low, high] read without a problem, or the default
        if (const Json* range = r.get("range"); range && range->isString()) {
            if (range->string() != "auto")
                ctx.error(range->pos(), "\"range\" of a view is [low, high] or \"auto\", found " + inQuotes(range->string()));
            else if (!plot && v.kind != ViewKind::Image)
                ctx.error(range->pos(), "\"range\": \"auto\" is for plot and image views; a " + kind +
                                            " view takes [low, high]");
            else
                v.autoRange = true;
        } else {
            const std::vector<float> values = r.reals32("range", 2, 2);
            if (!values.empty())
                v.range = {values[0], values[1]};
            fixedRange = !range || !values.empty();
        }
        if (const Json* style = r.get("style"); style && !plot)
            ctx.error(style->pos(), "\"style\" is for plot views (\"line\" or \"scatter\")");
        v.style = r.choice("style", {"line", "scatter"}, "line") == "scatter" ? PlotStyle::Scatter : PlotStyle::Line;
        if (const Json* scale = r.get("yScale"); scale && !plot)
            ctx.error(scale->pos(), "\"yScale\" is for plot views (\"linear\" or \"log\")");
        v.yScale = r.choice("yScale", {"linear", "log"}, "linear") == "log" ? PlotScale::Log : PlotScale::Linear;
        // A log axis has no place for zero or below; the range is in values, not decades.
        if (plot && v.yScale == PlotScale::Log && fixedRange && !(v.range[0] > 0 && v.range[1] > 0)) {
            const Json* range = r.json().find("range");
            ctx.error(
                range ? range->pos() : r.json().find("yScale")->pos(),
                "\"yScale\": \"log\" needs a positive \"range\" (low > 0) or \"range\": \"auto\"; the range is [" +
                    numberText(v.range[0]) + ", " + numberText(v.range[1]) + "]" + (range ? "" : " (the default)"));
        }
        auto title = [&](const std::string& key) {
            if (const Json* t = r.get(key); t && !plot)
                ctx.error(t->pos(), inQuotes(key) + " is for plot views (an axis title)");
            return r.string(key);
        };
        v.xLabel = title("xLabel");
        v.yLabel = title("yLabel");
        if (const Json* series = r.get("series")) {
            if (!plot) {
                ctx.error(series->pos(), "\"series\" is for plot views");
            } else if (!series->isArray()) {
                ctx.error(series->pos(), "\"series\" of a plot view must be an array of buffer names");
            } else {
                for (const Json& name : series->items()) {
                    if (!name.isString() || name.string().empty())
                        ctx.error(name.pos(), "\"series\" of a plot view holds buffer names (strings)");
                    else
                        v.series.push_back(name.string());
                }
            }
        }
        v.scale = r.real32("scale", 1);
        v.pointSize = r.real32("pointSize", 2);
        const std::vector<float> c = r.reals32("color", 3, 4);
        if (!c.empty())
            v.color = {c[0], c[1], c[2], c.size() > 3 ? c[3] : 1.f};
        r.finish();
        p.views.push_back(std::move(v));
    }
}

void readCamera(const Json& json, Project& p, Context& ctx)
{
    ObjectReader r(json, ctx, "\"camera\"");
    if (!r.ok())
        return;
    const std::vector<float> t = r.reals32("target", 3, 3);
    if (!t.empty())
        p.camera.target = {t[0], t[1], t[2]};
    p.camera.distance = r.real32("distance", p.camera.distance);
    p.camera.yaw = r.real32("yaw", p.camera.yaw);
    p.camera.pitch = r.real32("pitch", p.camera.pitch);
    p.camera.fov = r.real32("fov", p.camera.fov);
    r.finish();
}

// Names: unique across resources and parameters, every reference resolved, kinds right.
void resolveNames(Project& p, Context& ctx)
{
    std::set<std::string> names;
    for (const ResourceDesc& r : p.resources)
        names.insert(r.name);
    for (const ParameterDesc& q : p.parameters)
        if (!names.insert(q.name).second)
            ctx.error(q.pos, "parameter " + inQuotes(q.name) + " has the name of a resource; names must be unique");
    auto needResource = [&](const std::string& name, SourcePos pos, const std::string& role,
                            std::optional<ResourceKind> kind) -> const ResourceDesc* {
        if (name.empty())
            return nullptr;
        const ResourceDesc* r = p.resource(name);
        if (!r) {
            std::vector<std::string> known;
            for (const ResourceDesc& x : p.resources)
                if (!kind || x.kind == *kind)
                    known.push_back(x.name);
            ctx.error(pos, role + " " + inQuotes(name) + " is not a " +
                               (kind ? (*kind == ResourceKind::Texture ? "texture" : "buffer") : "resource") +
                               " of the project" + (known.empty() ? std::string() : "; expected " + joinQuoted(known)));
        } else if (kind && r->kind != *kind) {
            ctx.error(pos, role + " " + inQuotes(name) + " is a " + (r->isTexture() ? "texture" : "buffer") +
                               "; expected a " + (*kind == ResourceKind::Texture ? "texture" : "buffer"));
            return nullptr;
        }
        return r;
    };
    for (StageDesc& s : p.stages) {
        switch (s.kind) {
        case StageKind::Kernel:
            needResource(s.cover, s.pos, "\"cover\"", std::nullopt);
            for (ArgBinding& a : s.args) {
                switch (a.kind) {
                case ArgBinding::Kind::Resource:
                    if (p.parameter(a.name))
                        a.kind = ArgBinding::Kind::Parameter;
                    else if (!p.resource(a.name))
                        ctx.error(a.pos, "argument " + inQuotes(a.name) + " names neither a resource nor a parameter");
                    break;
                case ArgBinding::Kind::Surface:
                case ArgBinding::Kind::Texture:
                    needResource(a.name, a.pos, "argument", ResourceKind::Texture);
                    break;
                case ArgBinding::Kind::Parameter:
                    if (!p.parameter(a.name))
                        ctx.error(a.pos, "argument " + inQuotes(a.name) + " is not a parameter of the project");
                    break;
                case ArgBinding::Kind::Count:
                case ArgBinding::Kind::Width:
                case ArgBinding::Kind::Height: needResource(a.name, a.pos, "argument", std::nullopt); break;
                default: break;
                }
            }
            break;
        case StageKind::Random: needResource(s.target, s.pos, "\"target\"", ResourceKind::Buffer); break;
        case StageKind::Reduce:
            needResource(s.source, s.pos, "\"source\"", ResourceKind::Buffer);
            if (!s.into.empty())
                needResource(s.into, s.pos, "\"into\"", ResourceKind::Buffer);
            break;
        case StageKind::Copy: {
            const ResourceDesc* from = needResource(s.from, s.pos, "\"from\"", std::nullopt);
            const ResourceDesc* to = needResource(s.to, s.pos, "\"to\"", std::nullopt);
            if (from && to && (from->kind != to->kind || from->bytes() != to->bytes() ||
                               (from->isTexture() && from->format != to->format)))
                ctx.error(s.pos, "copy from " + inQuotes(from->name) + " to " + inQuotes(to->name) +
                                     ": both must be of the same kind, format and size in bytes (" +
                                     std::to_string(from->bytes()) + " and " + std::to_string(to->bytes()) + ")");
            break;
        }
        case StageKind::Math: {
            const auto eq = s.expression.find('=');
            if (eq == std::string::npos || eq == 0)
                ctx.error(s.pos, "\"expression\" must be \"target = expression\", found " + inQuotes(s.expression));
            else {
                std::string target = s.expression.substr(0, eq);
                target.erase(0, target.find_first_not_of(' '));
                target.erase(target.find_last_not_of(' ') + 1);
                s.target = target;
                needResource(target, s.pos, "the target of \"expression\"", ResourceKind::Buffer);
            }
            break;
        }
        }
    }
    for (const ViewDesc& v : p.views) {
        auto check = [&](const ResourceDesc* r, ViewInput input, const char* role) {
            if (!r)
                return;
            const std::int64_t cols = r->shape ? (*r->shape)[1] : r->count, rows = r->shape ? (*r->shape)[0] : 0;
            if (auto why = viewInputProblem(v.kind, input, r->element, r->isTexture(), cols, rows))
                ctx.error(v.pos, "view " + inQuotes(v.name) + ": " + role + " " + inQuotes(r->name) + ": " + *why);
        };
        check(needResource(v.source, v.pos, "\"source\" of view " + inQuotes(v.name), std::nullopt), ViewInput::Source,
              "source");
        check(needResource(v.colors, v.pos, "\"colors\" of view " + inQuotes(v.name), ResourceKind::Buffer),
              ViewInput::Colors, "colors");
        check(needResource(v.scalar, v.pos, "\"scalar\" of view " + inQuotes(v.name), ResourceKind::Buffer),
              ViewInput::Scalar, "scalar");
        for (const std::string& series : v.series)
            check(needResource(series, v.pos, "a \"series\" of view " + inQuotes(v.name), ResourceKind::Buffer),
                  ViewInput::Source, "series");
    }
}

void checkFiles(const Project& p, Context& ctx)
{
    for (const ResourceDesc& r : p.resources) {
        if (!r.data || r.data->path.empty())
            continue;
        std::error_code ec;
        if (!fs::is_regular_file(r.data->path, ec))
            ctx.error(r.pos, "the data of resource " + inQuotes(r.name) + ", " + r.data->path.string() +
                                 (fs::exists(r.data->path, ec) ? ", is not a file" : ", was not found"));
    }
    for (const StageDesc& s : p.stages) {
        if (s.kind != StageKind::Kernel || s.file.empty())
            continue;
        std::error_code ec;
        const fs::path f = p.resolve(s.file);
        const fs::file_status st = fs::status(f, ec);
        if (fs::is_regular_file(st))
            continue;
        if (fs::is_directory(st))
            ctx.error(s.filePos, "kernel file " + inQuotes(s.file.string()) + " is a folder (" + f.string() + ")");
        else if (fs::exists(st))
            ctx.error(s.filePos, "kernel file " + inQuotes(s.file.string()) + " is not a regular file (" + f.string() +
                                     "); only files are read");
        else
            ctx.error(s.filePos, "kernel file " + inQuotes(s.file.string()) + " not found (looked for " + f.string() +
                                     ")");
    }
}

} // namespace

std::vector<RecordValue> parseRecordValues(std::string_view text)
{
    Json json;
    try {
        json = Json::parse(text);
    } catch (const JsonError& e) {
        throwUsage("parseRecordValues", std::string("not a JSON object of member values: ") + e.what());
    }
    if (!json.isObject())
        throwUsage("parseRecordValues", "member values are a JSON object: {\"scale\": 2, \"pos\": [0, 1, 0]}");
    return recordValues(json, [](SourcePos at, std::string why) {
        throwUsage("parseRecordValues", "column " + std::to_string(at.column) + ": " + why);
    });
}

LoadResult parseProject(std::string_view text, const fs::path& file)
{
    Context ctx;
    ctx.file = file;
    Json root;
    try {
        root = Json::parse(text);
    } catch (const JsonError& e) {
        ctx.error(e.pos(), "bad JSON: " + e.message());
        return {std::nullopt, std::move(ctx.problems)};
    }
    Project p;
    p.file = fs::absolute(file).lexically_normal();
    ObjectReader r(root, ctx, "the project");
    if (r.ok()) {
        r.integer("kernelscope", 1, 1, true); // the format version; problems are reported by integer()
        p.name = r.string("name", false, file.stem().string());
        p.description = r.string("description", false, "");
        p.seed = std::uint64_t(r.integer("seed", 0, std::numeric_limits<std::int64_t>::max()).value_or(1));
        p.timeStep = r.number("timeStep", p.timeStep);
        if (p.timeStep <= 0 && root.find("timeStep"))
            ctx.error(root.find("timeStep")->pos(), "\"timeStep\" must be positive (seconds per frame)");
        if (const Json* v = r.get("parameters"))
            readParameters(*v, p, ctx);
        if (const Json* v = r.get("resources"))
            readResources(*v, p, ctx);
        if (const Json* v = r.get("stages"))
            readStages(*v, p, ctx);
        if (const Json* v = r.get("views"))
            readViews(*v, p, ctx);
        if (const Json* v = r.get("camera"))
            readCamera(*v, p, ctx);
        p.tabs = r.choice("layout", {"side-by-side", "tabs"}, "side-by-side") == "tabs";
        r.finish();
        resolveNames(p, ctx);
        checkFiles(p, ctx);
    }
    if (!ctx.problems.empty())
        return {std::nullopt, std::move(ctx.problems)};
    return {std::move(p), {}};
}

LoadResult loadProject(const fs::path& file)
{
    std::string text;
    try {
        text = paths::readTextFile(file);
    } catch (const Error& e) {
        return {std::nullopt, {Problem{file, {}, std::string("cannot read the project: ") + e.text()}}};
    }
    return parseProject(text, file);
}

namespace {

using OJson = nlohmann::ordered_json;

// What readDataSource reads back: files relative to `dir`.
OJson dataSourceJson(const io::DataSpec& spec, const fs::path& dir)
{
    if (spec.convert) {
        io::DataSpec plain = spec;
        plain.convert = false;
        OJson o = dataSourceJson(plain, dir);
        o["convert"] = true;
        return o;
    }
    switch (spec.kind) {
    case io::DataKind::Npy:
    case io::DataKind::Image: return OJson{{"file", fs::proximate(spec.path, dir).generic_string()}};
    case io::DataKind::Raw: {
        std::string dtype = std::string(spec.dtype.name());
        if (spec.order == io::ByteOrder::Big)
            dtype = ">" + spec.dtype.descr().substr(1);
        return OJson{{"file", fs::proximate(spec.path, dir).generic_string()}, {"dtype", dtype}, {"shape", spec.shape}};
    }
    case io::DataKind::Random:
    case io::DataKind::Normal:
        return OJson{{"random", spec.kind == io::DataKind::Normal ? "normal" : "uniform"}, {"seed", spec.seed}};
    case io::DataKind::Number: return spec.number;
    default: return io::formatDataSpec(spec);
    }
}

OJson values(const std::array<double, 4>& v, const ValueType& t)
{
    auto one = [&](double x) { return isFloat(t.scalar) ? OJson(x) : OJson(std::int64_t(x)); };
    if (t.components == 1)
        return one(v[0]);
    OJson a = OJson::array();
    for (int i = 0; i < t.components; ++i)
        a.push_back(one(v[std::size_t(i)]));
    return a;
}

std::string typeName(const ValueType& t)
{
    if (t.color)
        return t.components == 3 ? "color3" : "color";
    return cudaTypeName(t) == "unsigned int" ? "uint" : cudaTypeName(t);
}

OJson dims(const std::array<unsigned, 3>& d)
{
    if (d[2] == 1 && d[1] == 1)
        return OJson::array({d[0]});
    if (d[2] == 1)
        return OJson::array({d[0], d[1]});
    return OJson::array({d[0], d[1], d[2]});
}

} // namespace

std::string serializeProject(const Project& p, const fs::path& saveAs)
{
    const fs::path dir = fs::absolute(saveAs).parent_path();
    OJson j;
    j["kernelscope"] = 1;
    j["name"] = p.name;
    if (!p.description.empty())
        j["description"] = p.description;
    j["seed"] = p.seed;
    j["timeStep"] = p.timeStep;
    if (p.tabs)
        j["layout"] = "tabs";
    if (!p.parameters.empty()) {
        OJson& ps = j["parameters"] = OJson::object();
        for (const ParameterDesc& q : p.parameters)
            ps[q.name] = {{"type", typeName(q.type)}, {"value", values(q.value, q.type)}, {"min", q.min}, {"max", q.max}};
    }
    OJson& rs = j["resources"] = OJson::object();
    for (const ResourceDesc& r : p.resources) {
        OJson o;
        o["kind"] = r.isTexture() ? "texture" : "buffer";
        if (r.isTexture()) {
            o["format"] = formatName(r.format);
            o["size"] = r.followViewport ? OJson("viewport") : OJson::array({r.width, r.height});
        } else {
            o["type"] = typeName(r.element);
            if (r.shape)
                o["shape"] = OJson::array({(*r.shape)[0], (*r.shape)[1]});
            else
                o["count"] = r.count;
            if (!r.record.empty())
                o["record"] = r.record;
        }
        if (r.discard)
            o["discard"] = true;
        if (r.sharedInterop)
            o["interop"] = "shared";
        if (r.data)
            o["init"] = dataSourceJson(*r.data, dir);
        else if (r.init.size() == 1)
            o["init"] = r.init[0];
        else if (!r.init.empty())
            o["init"] = r.init;
        rs[r.name] = o;
    }
    OJson& ss = j["stages"] = OJson::array();
    for (const StageDesc& s : p.stages) {
        OJson o;
        o["kind"] = stageKindName(s.kind);
        o["name"] = s.name;
        if (!s.enabled)
            o["enabled"] = false;
        if (s.once)
            o["when"] = "once";
        switch (s.kind) {
        case StageKind::Kernel: {
            o["file"] = fs::proximate(p.resolve(s.file), dir).generic_string();
            o["kernel"] = s.kernel;
            if (!s.cover.empty())
                o["cover"] = s.cover;
            if (s.coverFlat)
                o["coverFlat"] = true;
            if (s.cover.empty())
                o["grid"] = dims(s.grid);
            o["block"] = dims(s.block);
            if (s.sharedBytes)
                o["shared"] = s.sharedBytes;
            OJson args = OJson::array();
            for (const ArgBinding& a : s.args) {
                switch (a.kind) {
                case ArgBinding::Kind::Resource:
                case ArgBinding::Kind::Parameter: args.push_back(a.name); break;
                case ArgBinding::Kind::Surface: args.push_back({{"surface", a.name}}); break;
                case ArgBinding::Kind::Texture: args.push_back({{"texture", a.name}}); break;
                case ArgBinding::Kind::Builtin: args.push_back({{"builtin", a.name}}); break;
                case ArgBinding::Kind::Count: args.push_back({{"count", a.name}}); break;
                case ArgBinding::Kind::Width: args.push_back({{"width", a.name}}); break;
                case ArgBinding::Kind::Height: args.push_back({{"height", a.name}}); break;
                case ArgBinding::Kind::Literal:
                    args.push_back({{"value", values(a.literal, a.literalType)}, {"type", typeName(a.literalType)}});
                    break;
                case ArgBinding::Kind::Record: {
                    OJson fields = OJson::object();
                    for (const RecordValue& v : a.fields)
                        fields[v.field] = v.values.size() == 1 ? OJson(v.values[0]) : OJson(v.values);
                    args.push_back({{"struct", fields}});
                    break;
                }
                case ArgBinding::Kind::Bytes: args.push_back({{"bytes", formatHexBytes(a.bytes)}}); break;
                }
            }
            o["args"] = args;
            break;
        }
        case StageKind::Random:
            o["target"] = s.target;
            o["generator"] = s.generator;
            o["distribution"] = s.distribution;
            o["params"] = s.distribution == "poisson" ? OJson::array({s.params[0]})
                                                      : OJson::array({s.params[0], s.params[1]});
            o["seed"] = s.seed;
            if (s.reseedEachFrame)
                o["reseedEachFrame"] = true;
            break;
        case StageKind::Math: o["expression"] = s.expression; break;
        case StageKind::Reduce:
            o["source"] = s.source;
            o["op"] = s.op;
            if (s.op == "custom") {
                o["reduce"] = s.reduceExpr;
                o["neutral"] = s.neutral;
            }
            if (!s.mapExpr.empty())
                o["map"] = s.mapExpr;
            if (!s.into.empty())
                o["into"] = s.into;
            break;
        case StageKind::Copy:
            o["from"] = s.from;
            o["to"] = s.to;
            break;
        }
        ss.push_back(o);
    }
    OJson& vs = j["views"] = OJson::array();
    for (const ViewDesc& v : p.views) {
        OJson o;
        o["kind"] = viewKindName(v.kind);
        o["name"] = v.name;
        o["source"] = v.source;
        if (!v.colors.empty())
            o["colors"] = v.colors;
        if (!v.scalar.empty())
            o["scalar"] = v.scalar;
        if (!v.series.empty())
            o["series"] = v.series;
        if (v.kind == ViewKind::Plot)
            o["style"] = v.style == PlotStyle::Scatter ? "scatter" : "line";
        if (v.yScale == PlotScale::Log)
            o["yScale"] = "log";
        if (!v.xLabel.empty())
            o["xLabel"] = v.xLabel;
        if (!v.yLabel.empty())
            o["yLabel"] = v.yLabel;
        o["colormap"] = v.colormap;
        if (v.autoRange)
            o["range"] = "auto";
        else
            o["range"] = OJson::array({v.range[0], v.range[1]});
        o["scale"] = v.scale;
        if (v.kind == ViewKind::Points || (v.kind == ViewKind::Plot && v.style == PlotStyle::Scatter))
            o["pointSize"] = v.pointSize;
        o["color"] = OJson::array({v.color[0], v.color[1], v.color[2], v.color[3]});
        vs.push_back(o);
    }
    const CameraDesc& c = p.camera;
    j["camera"] = {{"target", OJson::array({c.target[0], c.target[1], c.target[2]})},
                   {"distance", c.distance},
                   {"yaw", c.yaw},
                   {"pitch", c.pitch},
                   {"fov", c.fov}};
    try {
        return j.dump(2) + "\n";
    } catch (const nlohmann::json::type_error& e) { // text that is not UTF-8: a name, a path
        throwUsage("serializeProject", std::string("the project holds text that is not UTF-8, which a project file "
                                                   "cannot keep: ") + e.what());
    }
}

void saveProject(const Project& project, const fs::path& file)
{
    const std::string text = serializeProject(project, file);
    paths::writeFileAtomically(file, text);
}

std::optional<std::string> viewInputProblem(ViewKind kind, ViewInput input, const ValueType& element, bool texture,
                                            std::int64_t cols, std::int64_t rows)
{
    const std::string holds = texture ? std::string("it is a texture") : "it holds " + cudaTypeName(element);
    const bool f32 = element.scalar == ScalarType::Float32;
    const bool float1 = f32 && element.components == 1, float4 = f32 && element.components == 4;
    const bool uchar4 = element.scalar == ScalarType::UInt8 && element.components == 4;
    if (input == ViewInput::Colors)
        return !texture && (float4 || uchar4) ? std::nullopt
                                              : std::optional<std::string>("point colours are float4 or uchar4; " + holds);
    if (input == ViewInput::Scalar)
        return !texture && float1 ? std::nullopt
                                  : std::optional<std::string>("a points view's scalar is float; " + holds);
    const std::string view = "a " + std::string(viewKindName(kind)) + " view";
    if (kind == ViewKind::Image) {
        if (texture)
            return std::nullopt;
        const bool mapped = element.components == 1 && (element.scalar == ScalarType::UInt8 ||
                                                          element.scalar == ScalarType::Int32 ||
                                                          element.scalar == ScalarType::UInt32);
        if (!(float1 || float4 || uchar4 || mapped))
            return view + " shows float, uchar, int or uint buffers (through a colour map), float4 or uchar4; " +
                   holds;
        if (rows == 0)
            return view + " of a buffer needs a 2-D buffer (with \"shape\"); it is 1-D";
        return std::nullopt;
    }
    if (texture)
        return view + " draws a buffer; " + holds;
    switch (kind) {
    case ViewKind::Points:
        if (!f32 || element.components < 2)
            return view + " needs float2, float3 or float4 positions; " + holds;
        return std::nullopt;
    case ViewKind::Plot:
        if (!float1)
            return view + " draws float values; " + holds;
        return std::nullopt;
    case ViewKind::HeightField:
        if (!float1)
            return view + " draws float heights; " + holds;
        if (rows == 0)
            return view + " needs a 2-D buffer (with \"shape\"); it is 1-D";
        if (cols < 2 || rows < 2)
            return view + " needs a 2-D buffer of at least 2 x 2; it is " + std::to_string(cols) + " x " +
                   std::to_string(rows);
        return std::nullopt;
    case ViewKind::Image: break;
    }
    return std::nullopt;
}

} // namespace ks::project
