#include "ks/pipeline/infer.hpp"

#include "ks/core/error.hpp"
#include "ks/core/utf8.hpp"
#include "ks/pipeline/kernel_stage.hpp"
#include "ks/syntax/kernel_signature.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <set>

namespace ks::pipeline {

namespace fs = std::filesystem;
using project::ArgBinding;
using project::ParameterDesc;
using project::Problem;
using project::Project;
using project::ResourceDesc;
using project::ResourceKind;
using project::ScalarType;
using project::StageDesc;
using project::ValueType;
using project::ViewDesc;
using project::ViewKind;

namespace {

// Lower case without underscores: "num_elements" and "numElements" are one name.
std::string folded(std::string_view name)
{
    std::string out;
    for (char c : name)
        if (c != '_')
            out += char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool oneOf(std::string_view name, std::initializer_list<std::string_view> names)
{
    const std::string f = folded(name);
    return std::find(names.begin(), names.end(), f) != names.end();
}

bool countName(std::string_view n)
{
    return oneOf(n, {"n", "count", "size", "len", "length", "numelements", "nelements", "numel", "nelem", "nelems",
                     "num", "elements", "total", "numitems", "nitems", "numpoints", "npoints", "numparticles",
                     "nparticles", "numbodies", "nbodies", "arraysize", "vectorsize", "datasize", "items"});
}
bool widthName(std::string_view n)
{
    return oneOf(n, {"width", "w", "nx", "cols", "ncols", "numcols", "columns", "imagewidth", "imgwidth", "imagew",
                     "imgw", "dimx", "sizex", "xsize", "sx"});
}
bool pitchName(std::string_view n)
{
    return oneOf(n, {"pitch", "stride", "ld", "lda", "rowpitch", "rowstride"});
}
bool heightName(std::string_view n)
{
    return oneOf(n, {"height", "h", "ny", "rows", "nrows", "numrows", "imageheight", "imgheight", "imageh", "imgh",
                     "dimy", "sizey", "ysize", "sy"});
}
const char* builtinFor(std::string_view n)
{
    if (oneOf(n, {"time", "t", "elapsed", "seconds"}))
        return "time";
    if (oneOf(n, {"dt", "timestep", "deltatime", "delta"}))
        return "dt";
    if (oneOf(n, {"frame", "frameindex", "framenumber"}))
        return "frame";
    if (oneOf(n, {"seed"}))
        return "seed";
    return nullptr;
}

std::string trimmed(std::string_view s)
{
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
        ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
        --e;
    return std::string(s.substr(b, e - b));
}

// The kernel's body, from its '{' to the matching '}' (or the end of the source).
std::string_view bodyOf(std::string_view source, const syntax::KernelSignature& k)
{
    int depth = 0;
    for (std::size_t i = k.bodyBegin; i < source.size(); ++i) {
        depth += source[i] == '{' ? 1 : source[i] == '}' ? -1 : 0;
        if (depth == 0)
            return source.substr(k.bodyBegin, i + 1 - k.bodyBegin);
    }
    return source.substr(std::min(k.bodyBegin, source.size()));
}

bool isIdentChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// How the body of a kernel uses a pointer parameter, read from the text: through `name[...]`
// (optionally `.x` and the like after it) as an assignment's target, as a read, inside an atomic,
// or bare (`name + i`, passed to a function: it may be written through another name).
struct PointerUse {
    bool written = false, read = false, bare = false;
};

PointerUse pointerUse(std::string_view body, std::string_view name)
{
    PointerUse use;
    auto skipSpace = [&](std::size_t i) {
        while (i < body.size() && std::isspace(static_cast<unsigned char>(body[i])))
            ++i;
        return i;
    };
    auto assignmentAt = [&](std::size_t i) {
        i = skipSpace(i);
        if (i >= body.size())
            return false;
        const std::string_view rest = body.substr(i, 3);
        if (rest.starts_with("++") || rest.starts_with("--"))
            return true;
        if (body[i] == '=')
            return !(i + 1 < body.size() && body[i + 1] == '=');
        for (std::string_view op : {"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="})
            if (body.substr(i).starts_with(op))
                return true;
        return false;
    };
    for (std::size_t at = body.find(name); at != std::string_view::npos; at = body.find(name, at + 1)) {
        const std::size_t end = at + name.size();
        if ((at > 0 && (isIdentChar(body[at - 1]) || body[at - 1] == '.')) ||
            (end < body.size() && isIdentChar(body[end])))
            continue;
        // Before it: an atomic's first argument (`atomicAdd(&name[i]`, `atomicAdd(name`), `*name`.
        std::size_t b = at;
        while (b > 0 && std::isspace(static_cast<unsigned char>(body[b - 1])))
            --b;
        const bool addressOf = b > 0 && body[b - 1] == '&';
        std::size_t c = addressOf ? b - 1 : b;
        while (c > 0 && std::isspace(static_cast<unsigned char>(body[c - 1])))
            --c;
        if (c > 0 && body[c - 1] == '(') {
            std::size_t f = c - 1;
            while (f > 0 && std::isspace(static_cast<unsigned char>(body[f - 1])))
                --f;
            std::size_t fb = f;
            while (fb > 0 && isIdentChar(body[fb - 1]))
                --fb;
            if (body.substr(fb, f - fb).starts_with("atomic")) {
                use.written = true;
                continue;
            }
        }
        std::size_t i = skipSpace(end);
        if (i >= body.size() || body[i] != '[') {
            if (b > 0 && body[b - 1] == '*' && assignmentAt(end))
                use.written = true;
            else
                use.bare = true;
            continue;
        }
        int depth = 0;
        for (; i < body.size(); ++i) {
            depth += body[i] == '[' ? 1 : body[i] == ']' ? -1 : 0;
            if (depth == 0)
                break;
        }
        i = skipSpace(i + 1);
        if (i < body.size() && body[i] == '.') { // a member: .x, .y
            i = skipSpace(i + 1);
            while (i < body.size() && isIdentChar(body[i]))
                ++i;
        }
        if (assignmentAt(i)) {
            use.written = true;
            const std::size_t op = skipSpace(i);
            if (body[op] != '=') // compound assignments and ++/-- read too
                use.read = true;
        } else {
            use.read = true;
        }
    }
    return use;
}

bool readsY(std::string_view body)
{
    for (std::string_view w : {"threadIdx.y", "blockIdx.y", "blockDim.y"})
        if (body.find(w) != std::string_view::npos)
            return true;
    return false;
}

std::string dimText(const std::array<unsigned, 3>& d)
{
    std::string out = std::to_string(d[0]);
    if (d[1] != 1 || d[2] != 1)
        out += " x " + std::to_string(d[1]);
    if (d[2] != 1)
        out += " x " + std::to_string(d[2]);
    return out;
}

std::string shapeText(const std::vector<std::int64_t>& shape)
{
    std::string out;
    for (std::int64_t d : shape)
        out += (out.empty() ? "" : " x ") + std::to_string(d);
    return out.empty() ? "a scalar" : out;
}

std::int64_t product(const std::vector<std::int64_t>& shape)
{
    std::int64_t n = 1;
    for (std::int64_t d : shape)
        n *= d;
    return n;
}

bool isFile(const io::DataSpec& s)
{
    return s.kind == io::DataKind::Npy || s.kind == io::DataKind::Image || s.kind == io::DataKind::Raw;
}

// The spec as the user wrote it, but for a file's folder: "photo.png", "random:1".
std::string specText(const io::DataSpec& s)
{
    io::DataSpec shown = s;
    shown.path = s.path.filename();
    return io::formatDataSpec(shown);
}

// A parameter as the inference sees it: its scanned text, and its type after template arguments.
struct Param {
    const syntax::KernelParam* scanned = nullptr;
    std::string name;     // the parameter's name, or "argN" when unnamed
    std::string baseType; // template arguments substituted
    std::optional<ValueType> type;
    bool used = false; // bound by --arg
};

class Inferrer {
public:
    Inferrer(const fs::path& file, std::string_view source, const InferOptions& o)
        : m_file(fs::absolute(file)), m_source(source), m_options(o)
    {
    }

    Inference run()
    {
        if (!selectKernel())
            return finish();
        collectParams();
        checkOptionNames();
        if (!m_out.problems.empty())
            return finish();
        planExtents();
        // Buffers and textures first, so that scalars before them (saxpy's `int n` leads) can name them.
        m_args.resize(m_params.size());
        m_out.bindings.resize(m_params.size());
        for (std::size_t i = 0; i < m_params.size(); ++i)
            if (m_params[i].scanned->kind != syntax::ParamKind::Value)
                bindParam(i);
        for (std::size_t i = 0; i < m_params.size(); ++i)
            if (m_params[i].scanned->kind == syntax::ParamKind::Value)
                bindParam(i);
        if (!m_out.problems.empty())
            return finish();
        makeStage();
        makeViews();
        return finish();
    }

private:
    void problem(int line, std::string message)
    {
        m_out.problems.push_back({m_file, {line, line > 0 ? 1 : 0}, std::move(message)});
    }
    void argProblem(std::string message)
    {
        for (const Problem& p : m_out.problems)
            if (p.message == message)
                return; // a file read for its shape and again for its buffer says it once
        m_out.problems.push_back({"kernelscope", {}, std::move(message)}); // "kernelscope: error: --arg ..."
    }

    bool selectKernel()
    {
        const std::vector<syntax::KernelSignature> kernels = syntax::findKernels(m_source);
        std::string expression = m_options.kernel;
        if (expression.empty()) { // the file's first kernel that runs without template arguments
            for (const auto& k : kernels)
                if (!k.isTemplate()) {
                    expression = k.qualifiedName();
                    break;
                }
            if (expression.empty() && !kernels.empty())
                expression = kernels.front().qualifiedName(); // says how to name an instantiation
        }
        std::string why;
        m_kernel = syntax::findKernelByExpression(kernels, expression, &why);
        if (!m_kernel) {
            int line = 0;
            const syntax::NameExpression e = syntax::splitNameExpression(expression);
            for (const auto& k : kernels)
                if (k.name == e.name || k.qualifiedName() == e.name)
                    line = k.line;
            if (kernels.empty())
                why = "no __global__ function is defined in " + m_file.filename().string();
            problem(line, why + (line > 0 && why.find("template") != std::string::npos
                                     ? " (run it as " + m_file.filename().string() + ":" + e.name + "<float>)"
                                     : ""));
            return false;
        }
        if (!isUtf8(expression)) {
            problem(m_kernel->line, "the kernel's name is not UTF-8 text; a project file keeps names as UTF-8");
            return false;
        }
        // What NVRTC is asked for: the name as C++ writes it, with its template arguments.
        m_nameExpression = m_kernel->qualifiedName();
        const syntax::NameExpression e = syntax::splitNameExpression(expression);
        if (!e.templateArguments.empty()) {
            m_nameExpression += "<";
            for (std::size_t i = 0; i < e.templateArguments.size(); ++i)
                m_nameExpression += (i ? ", " : "") + e.templateArguments[i];
            m_nameExpression += ">";
        }
        return true;
    }

    void collectParams()
    {
        for (std::size_t i = 0; i < m_kernel->params.size(); ++i) {
            const syntax::KernelParam& sp = m_kernel->params[i];
            Param p;
            p.scanned = &sp;
            p.name = sp.name.empty() ? "arg" + std::to_string(i) : sp.name;
            if (!isUtf8(p.name)) // the lexer takes bytes past 0x7F as identifier characters
                problem(sp.line, "parameter " + std::to_string(i + 1) + " of " + m_kernel->qualifiedName() +
                                     " has a name that is not UTF-8 text; a project file keeps names as UTF-8");
            p.baseType = sp.baseType; // an instantiation's: its template arguments in place
            p.type = project::parseValueType(p.baseType);
            m_params.push_back(std::move(p));
        }
    }

    Param* param(std::string_view name)
    {
        for (Param& p : m_params)
            if (p.name == name)
                return &p;
        return nullptr;
    }

    std::string paramNames() const
    {
        std::string out;
        for (const Param& p : m_params)
            out += (out.empty() ? "" : ", ") + p.name;
        return out.empty() ? "none" : out;
    }

    void checkOptionNames()
    {
        for (const auto& [name, spec] : m_options.args) {
            Param* p = param(name);
            if (!p) {
                argProblem("--arg " + name + "=" + spec + ": kernel " + m_kernel->qualifiedName() +
                           " has no parameter \"" + name + "\"; its parameters are " + paramNames());
                continue;
            }
            if (p->scanned->kind == syntax::ParamKind::Value && !p->type &&
                (spec.rfind("bytes:", 0) == 0 || spec.rfind("{", 0) == 0)) {
                recordSpec(*p, spec);
                continue;
            }
            if (const auto colon = spec.find(':'); colon != std::string::npos && p->scanned->kind ==
                                                                                    syntax::ParamKind::Value) {
                const std::string what = spec.substr(0, colon);
                if (what == "count" || what == "width" || what == "height" || what == "builtin") {
                    m_bindingSpecs.emplace(name, std::make_pair(what, spec.substr(colon + 1)));
                    continue;
                }
            }
            try {
                io::DataSpec parsed = io::parseDataSpec(spec);
                if (!parsed.path.empty())
                    parsed.path = fs::absolute(parsed.path);
                m_specs.emplace(name, std::move(parsed));
            } catch (const Error& e) {
                argProblem("--arg " + name + "=" + spec + ": " + e.text());
            }
        }
        for (const auto& [name, shape] : m_options.shapes) {
            Param* p = param(name);
            if (!p)
                argProblem("--shape " + name + ": kernel " + m_kernel->qualifiedName() + " has no parameter \"" +
                           name + "\"; its parameters are " + paramNames());
            else if (shape.empty() || shape.size() > 2 ||
                     std::any_of(shape.begin(), shape.end(), [](std::int64_t d) { return d < 1; }))
                argProblem("--shape " + name + "=" + shapeText(shape) + ": a buffer's shape is D0 or D0xD1 (height x "
                           "width), each at least 1");
        }
    }

    // --arg NAME=bytes:HEX or NAME={"member": value, ...} for a struct by value.
    void recordSpec(const Param& p, const std::string& spec)
    {
        ArgBinding b;
        try {
            if (spec.rfind("bytes:", 0) == 0) {
                b.kind = ArgBinding::Kind::Bytes;
                b.bytes = project::parseHexBytes(std::string_view(spec).substr(6));
            } else {
                b.kind = ArgBinding::Kind::Record;
                b.fields = project::parseRecordValues(spec);
                if (!p.scanned->record)
                    throwUsage("inferProject", p.scanned->recordProblem + "; give its raw bytes (--arg " + p.name +
                                                   "=bytes:HEX)");
                packRecord(*p.scanned->record, b.fields);
            }
        } catch (const Error& e) {
            argProblem("--arg " + p.name + "=" + spec + ": " + e.text());
            return;
        }
        m_recordSpecs.emplace(p.name, std::move(b));
    }

    std::optional<std::vector<std::int64_t>> shapeOption(const std::string& name) const
    {
        for (const auto& [n, shape] : m_options.shapes)
            if (n == name)
                return shape;
        return std::nullopt;
    }

    // The shape a buffer of `p`'s element type gets from its data: the data's shape less the
    // trailing component axis of a vector type.
    std::optional<std::vector<std::int64_t>> dataShape(const Param& p)
    {
        auto it = m_specs.find(p.name);
        if (it == m_specs.end() || !isFile(it->second))
            return std::nullopt;
        try {
            const io::DataHeader h = io::probeData(it->second);
            std::vector<std::int64_t> shape = h.shape;
            const int components = p.type ? p.type->components : 1;
            if (h.image && p.scanned->kind != syntax::ParamKind::Pointer)
                return std::vector<std::int64_t>{shape.at(0), shape.at(1)};
            if (h.image && shape.size() == 3)
                shape.pop_back(); // the channels become the element's components (or gray)
            else if (components > 1 && !shape.empty() && shape.back() == components)
                shape.pop_back();
            if (shape.empty())
                shape.push_back(1);
            return shape;
        } catch (const Error& e) {
            argProblem("--arg " + p.name + "=" + specText(it->second) + ": " + e.text());
            return std::nullopt;
        }
    }

    // The extents that buffers and textures without a shape of their own take: the first one given
    // by data or --shape, else --image-size or the default (2-D when the kernel is 2-D).
    void planExtents()
    {
        m_body = bodyOf(m_source, *m_kernel);
        m_twoD = readsY(m_body);
        bool sized2D = false;
        for (const Param& p : m_params) {
            const bool grid2D = p.scanned->kind == syntax::ParamKind::Surface ||
                                p.scanned->kind == syntax::ParamKind::Texture;
            if (p.scanned->kind == syntax::ParamKind::Value && (widthName(p.name) || heightName(p.name)))
                sized2D = true;
            if (grid2D)
                sized2D = true;
        }
        m_twoD = m_twoD || sized2D;
        for (const Param& p : m_params) {
            if (p.scanned->kind == syntax::ParamKind::Value || p.scanned->kind == syntax::ParamKind::Unknown)
                continue;
            std::optional<std::vector<std::int64_t>> shape = shapeOption(p.name);
            std::string why = "--shape " + p.name;
            if (!shape) {
                shape = dataShape(p);
                why = "the shape of " + p.name + "'s data";
            }
            if (shape) {
                m_problemShape = *shape;
                m_problemShapeWhy = why;
                return;
            }
        }
        if (m_options.size) {
            m_problemShape = {(*m_options.size)[1], (*m_options.size)[0]};
            m_problemShapeWhy = "--image-size";
        } else if (m_twoD) {
            m_problemShape = {m_options.defaultSize[1], m_options.defaultSize[0]};
            m_problemShapeWhy = "the default 2-D size";
        } else {
            m_problemShape = {m_options.defaultCount};
            m_problemShapeWhy = "the default size";
        }
    }

    void bind(const Param& p, ArgBinding b, std::string bound, std::string reason)
    {
        const std::size_t i = std::size_t(&p - m_params.data());
        m_out.bindings[i] = {p.name, p.scanned->type, std::move(bound), std::move(reason), {}, b.fields};
        if (p.scanned->kind == syntax::ParamKind::Value)
            m_out.bindings[i].record = p.scanned->record;
        m_args[i] = std::move(b);
    }

    void bindParam(std::size_t index)
    {
        const Param& p = m_params[index];
        switch (p.scanned->kind) {
        case syntax::ParamKind::Pointer: return bindPointer(p);
        case syntax::ParamKind::Surface:
        case syntax::ParamKind::Texture: return bindTexture(p);
        case syntax::ParamKind::Value: return bindScalar(p);
        case syntax::ParamKind::Unknown: break;
        }
        problem(p.scanned->line, "parameter '" + p.scanned->declaration + "' of " + m_kernel->qualifiedName() +
                                     " has a type Kernelscope cannot bind (" + p.scanned->type +
                                     "); pass a pointer to a CUDA scalar or vector type, or a value of one");
    }

    void bindPointer(const Param& p)
    {
        if (!p.type && p.scanned->record && p.scanned->pointerDepth == 1)
            return bindRecords(p);
        if (!p.type || p.scanned->pointerDepth != 1) {
            problem(p.scanned->line,
                    "parameter '" + p.scanned->declaration + "' of " + m_kernel->qualifiedName() + " points to " +
                        p.baseType + ", which Kernelscope cannot lay out" +
                        (p.scanned->recordProblem.empty() ? "" : " (" + p.scanned->recordProblem + ")") +
                        ": pointers to CUDA's scalar and vector types (float, int, uchar4, float3, ...) and to "
                        "structs defined in the kernel's file become buffers. Pass its fields as separate "
                        "arrays, or define the struct in the file");
            return;
        }
        ResourceDesc r;
        r.name = p.name;
        r.kind = ResourceKind::Buffer;
        r.element = *p.type;
        std::vector<std::int64_t> shape = m_problemShape;
        std::string shapeWhy = m_problemShapeWhy;
        if (auto own = shapeOption(p.name)) {
            shape = *own;
            shapeWhy = "--shape " + p.name;
        } else if (auto fromData = dataShape(p)) {
            shape = *fromData;
            shapeWhy = "its data";
        } else if (!p.scanned->pointeeConst && oneOf(p.name, {"hist", "histogram", "bins", "histo", "counts"})) {
            shape = {256};
            shapeWhy = "256 bins: a histogram, by its name";
        }
        if (shape.size() > 2) {
            argProblem("buffer " + p.name + ": its data is " + shapeText(shape) + "; a buffer is 1-D or 2-D (give "
                       "--shape " + p.name + "=D0xD1 to view it as 2-D)");
            return;
        }
        r.count = product(shape);
        if (shape.size() == 2)
            r.shape = std::array<std::int64_t, 2>{shape[0], shape[1]};
        // Inputs: `const T*`, and `T*` that the body only reads. In place: read and written.
        const PointerUse use = pointerUse(m_body, p.scanned->name);
        const bool readOnly = !p.scanned->pointeeConst && !use.written && !use.bare && use.read;
        const bool input = p.scanned->pointeeConst || readOnly;
        const bool inPlace = !input && use.read;
        std::string contents;
        if (auto it = m_specs.find(p.name); it != m_specs.end()) {
            r.data = it->second;
            contents = "from " + specText(it->second);
        } else if (input || inPlace) {
            r.data = io::parseDataSpec("random:" + std::to_string(m_inputs + 1));
            contents = "uniform random numbers in [0, 1) with seed " + std::to_string(m_inputs + 1) +
                       " (no data given: --arg " + p.name + "=FILE)";
            ++m_inputs;
        } else {
            contents = "zeros";
        }
        if (!input)
            m_outputs.push_back(p.name);
        if (m_firstBuffer.empty())
            m_firstBuffer = p.name;
        if (m_first2D.empty() && r.shape)
            m_first2D = p.name;
        const std::string what = p.scanned->pointeeConst ? "an input (const " + project::cudaTypeName(*p.type) + "*)"
                                 : readOnly ? std::string("an input (read, never written in the body)")
                                 : inPlace  ? std::string("in place (read and written in the body)")
                                            : std::string("an output (written in the body)");
        bind(p, resourceArg(p.name), "buffer " + p.name,
             what + ", " + shapeText(r.shape ? shape : std::vector<std::int64_t>{r.count}) + " (" + shapeWhy + "), " +
                 contents);
        m_project.resources.push_back(std::move(r));
    }

    // A pointer to a struct of the file: a buffer of its raw bytes, one row of sizeof(struct) per
    // record (shape [records, bytes]), zeros unless data is given (a .raw or .npy of bytes).
    void bindRecords(const Param& p)
    {
        const syntax::RecordLayout& rec = *p.scanned->record;
        const auto size = std::int64_t(rec.layout.size);
        ResourceDesc r;
        r.name = p.name;
        r.kind = ResourceKind::Buffer;
        r.element = ValueType{ScalarType::UInt8, 1};
        std::int64_t records = product(m_problemShape);
        std::string why = m_problemShapeWhy;
        if (auto own = shapeOption(p.name)) {
            records = product(*own);
            why = "--shape " + p.name;
        }
        std::string contents = "zeros";
        if (auto it = m_specs.find(p.name); it != m_specs.end()) {
            if (auto data = dataShape(p)) {
                const std::int64_t bytes = product(*data);
                if (bytes % size != 0) {
                    argProblem("--arg " + p.name + "=" + specText(it->second) + ": " + std::to_string(bytes) +
                               " bytes are not a whole number of struct " + rec.name + " records (" +
                               std::to_string(size) + " bytes each)");
                    return;
                }
                records = bytes / size;
                why = "its data";
            }
            r.data = it->second;
            contents = "from " + specText(it->second);
        }
        r.count = records * size;
        r.shape = std::array<std::int64_t, 2>{records, size};
        r.record = rec.name;
        if (!p.scanned->pointeeConst)
            m_outputs.push_back(p.name);
        if (m_firstBuffer.empty())
            m_firstBuffer = p.name;
        std::string members;
        for (const syntax::RecordField& f : rec.fields)
            members += (members.empty() ? "" : ", ") + f.name + " at " + std::to_string(f.offset);
        bind(p, resourceArg(p.name), "buffer " + p.name,
             std::to_string(records) + " records of struct " + rec.name + " (" + why + "), as raw bytes: " +
                 std::to_string(size) + " bytes each (" + members + "), " + contents);
        m_project.resources.push_back(std::move(r));
    }

    // Whether `name` is a buffer of struct records (a pointer to a struct: bindRecords).
    bool holdsRecords(const std::string& name) const
    {
        const ResourceDesc* r = name.empty() ? nullptr : m_project.resource(name);
        return r && !r->record.empty();
    }

    static ArgBinding resourceArg(const std::string& name)
    {
        ArgBinding b;
        b.kind = ArgBinding::Kind::Resource;
        b.name = name;
        return b;
    }

    void bindTexture(const Param& p)
    {
        const bool surface = p.scanned->kind == syntax::ParamKind::Surface;
        ResourceDesc r;
        r.name = p.name;
        r.kind = ResourceKind::Texture;
        r.format = project::TextureFormat::Rgba8;
        std::string sizeWhy;
        if (auto it = m_specs.find(p.name); it != m_specs.end() && isFile(it->second)) {
            try {
                const io::DataHeader h = io::probeData(it->second);
                if (!h.image)
                    throwUsage("inferProject", "a texture starts from an image (PNG, JPEG, BMP, HDR, ...), not " +
                                                   specText(it->second));
                r.width = int(h.shape.at(1));
                r.height = int(h.shape.at(0));
                if (h.dtype.kind == io::DtypeKind::Float || h.dtype.size > 1)
                    r.format = project::TextureFormat::Rgba32F;
                r.data = it->second;
                sizeWhy = "the size of " + specText(it->second);
            } catch (const Error& e) {
                argProblem("--arg " + p.name + "=" + specText(it->second) + ": " + e.text());
                return;
            }
        } else if (auto own = shapeOption(p.name); own && own->size() == 2) {
            r.width = int((*own)[1]), r.height = int((*own)[0]);
            sizeWhy = "--shape " + p.name;
        } else if (m_options.size) {
            r.width = (*m_options.size)[0], r.height = (*m_options.size)[1];
            sizeWhy = "--image-size";
        } else if (m_problemShape.size() == 2 && m_problemShapeWhy != "the default 2-D size") {
            r.width = int(m_problemShape[1]), r.height = int(m_problemShape[0]);
            sizeWhy = m_problemShapeWhy;
        } else {
            r.followViewport = true;
            r.width = r.height = 256;
            sizeWhy = "the viewport's size";
        }
        if (surface) {
            m_outputs.push_back(p.name);
            r.discard = !r.data.has_value();
        }
        if (m_first2D.empty())
            m_first2D = p.name;
        if (m_firstBuffer.empty())
            m_firstBuffer = p.name;
        ArgBinding b;
        b.kind = surface ? ArgBinding::Kind::Surface : ArgBinding::Kind::Texture;
        b.name = p.name;
        const std::string size = r.followViewport ? std::string("the viewport's size")
                                                  : std::to_string(r.width) + " x " + std::to_string(r.height) +
                                                        " (" + sizeWhy + ")";
        bind(p, b, "texture " + p.name,
             std::string(surface ? "a surface the kernel writes: an output" : "a texture the kernel samples: an input") +
                 ", RGBA " + std::string(project::formatName(r.format)) + ", " + size +
                 (r.data ? ", from " + specText(*r.data) : ""));
        m_project.resources.push_back(std::move(r));
    }

    void bindScalar(const Param& p)
    {
        if (auto it = m_recordSpecs.find(p.name); it != m_recordSpecs.end()) {
            const ArgBinding& b = it->second;
            std::string given;
            for (const project::RecordValue& v : b.fields) {
                const std::string values = project::formatNumbers(v.values);
                given += (given.empty() ? "" : ", ") + v.field + " = " + (v.values.size() == 1 ? values : "(" + values + ")");
            }
            if (b.kind == ArgBinding::Kind::Bytes)
                bind(p, b, "raw bytes", std::to_string(b.bytes.size()) + " bytes given with --arg " + p.name);
            else
                bind(p, b, "struct " + p.baseType,
                     "a struct by value, " + given + " (given with --arg " + p.name + "; other members 0)");
            return;
        }
        if (!p.type && p.scanned->record) {
            const syntax::RecordLayout& rec = *p.scanned->record;
            ArgBinding b;
            b.kind = ArgBinding::Kind::Record;
            std::string members;
            for (const syntax::RecordField& f : rec.fields)
                members += (members.empty() ? "" : ", ") + f.type + " " + f.name +
                           (f.count > 1 ? "[" + std::to_string(f.count) + "]" : "");
            bind(p, b, "struct " + rec.name,
                 "a struct by value (" + std::to_string(rec.layout.size) + " bytes: " + members +
                     "), every member 0 until set (--arg " + p.name + "='{\"member\": value}' or the Arguments panel)");
            return;
        }
        if (!p.type) {
            problem(p.scanned->line, "parameter '" + p.scanned->declaration + "' of " + m_kernel->qualifiedName() +
                                         " is a " + p.baseType + " by value, which Kernelscope cannot " +
                                         (syntax::knownTypeLayout(p.baseType) ? "fill from numbers" : "lay out") +
                                         (p.scanned->recordProblem.empty() ? "" : " (" + p.scanned->recordProblem + ")") +
                                         ": give its raw bytes, --arg " + p.name + "=bytes:HEX (two hex digits "
                                         "per byte, as the device lays it out), or define the struct in the file");
            return;
        }
        ArgBinding b;
        const bool scalar = p.type->components == 1;
        if (auto it = m_specs.find(p.name); it != m_specs.end() && it->second.kind == io::DataKind::Number) {
            const double given = it->second.number;
            b.kind = ArgBinding::Kind::Literal;
            b.literalType = *p.type;
            b.literal = {given, given, given, given};
            bind(p, b, "the value " + specText(it->second), "given with --arg " + p.name + "=" + specText(it->second));
            return;
        }
        if (auto it = m_bindingSpecs.find(p.name); it != m_bindingSpecs.end()) {
            const auto& [what, target] = it->second;
            const std::string given = "given with --arg " + p.name + "=" + what + ":" + target;
            if (what == "builtin") {
                const project::BuiltinInfo* info = project::findBuiltin(target);
                if (!info) {
                    std::string names;
                    for (const auto& bi : project::builtins())
                        names += (names.empty() ? "" : ", ") + std::string(bi.name);
                    argProblem("--arg " + p.name + "=builtin:" + target + ": no builtin \"" + target +
                               "\"; there are " + names);
                    return;
                }
                b.kind = ArgBinding::Kind::Builtin;
                b.name = target;
                bind(p, b, "builtin " + target, std::string(info->meaning) + " (" + given + ")");
                return;
            }
            if (!m_project.resource(target)) {
                std::string names;
                for (const auto& r : m_project.resources)
                    names += (names.empty() ? "" : ", ") + r.name;
                argProblem("--arg " + p.name + "=" + what + ":" + target + ": no buffer or texture \"" + target +
                           "\"; there are " + (names.empty() ? std::string("none") : names));
                return;
            }
            b.kind = what == "count" ? ArgBinding::Kind::Count : what == "width" ? ArgBinding::Kind::Width
                                                                                : ArgBinding::Kind::Height;
            b.name = target;
            bind(p, b, what + " of " + target,
                 std::string(what == "count" ? "the element count of " : what == "width" ? "the width of "
                                                                                          : "the height of ") +
                     target + " (" + given + ")");
            return;
        }
        if (m_specs.count(p.name)) {
            argProblem("--arg " + p.name + "=" + specText(m_specs.at(p.name)) + ": " + p.name + " is a " +
                       project::cudaTypeName(*p.type) + " passed by value; give a number");
            return;
        }
        const ResourceDesc* first = m_firstBuffer.empty() ? nullptr : m_project.resource(m_firstBuffer);
        if (scalar && !project::isFloat(p.type->scalar) && countName(p.name) && m_twoD && first && first->shape) {
            b.kind = ArgBinding::Kind::Width;
            b.name = m_firstBuffer;
            bind(p, b, "width of " + m_firstBuffer,
                 "the width of " + m_firstBuffer + " (by its name, in a 2-D kernel: a side, not a count)");
            return;
        }
        if (scalar && !project::isFloat(p.type->scalar) && countName(p.name) && holdsRecords(m_firstBuffer)) {
            b.kind = ArgBinding::Kind::Count;
            b.name = m_firstBuffer;
            bind(p, b, "count of " + m_firstBuffer, "the record count of " + m_firstBuffer + " (by its name)");
            return;
        }
        if (scalar && !project::isFloat(p.type->scalar) && countName(p.name) && !m_firstBuffer.empty()) {
            b.kind = ArgBinding::Kind::Count;
            b.name = m_firstBuffer;
            bind(p, b, "count of " + m_firstBuffer,
                 "the element count of " + m_firstBuffer + " (by its name)");
            return;
        }
        const std::string& twoD = m_first2D.empty() ? m_firstBuffer : m_first2D;
        if (scalar && !project::isFloat(p.type->scalar) && !twoD.empty() &&
            (widthName(p.name) || pitchName(p.name) || heightName(p.name))) {
            const bool height = heightName(p.name);
            b.kind = height ? ArgBinding::Kind::Height : ArgBinding::Kind::Width;
            b.name = twoD;
            bind(p, b, std::string(height ? "height" : "width") + " of " + twoD,
                 std::string(height ? "the height of " : "the width of ") + twoD + " (by its name" +
                     (pitchName(p.name) ? ": a row's length in elements, not bytes" : "") + ")");
            return;
        }
        if (scalar) {
            if (const char* builtin = builtinFor(p.name)) {
                b.kind = ArgBinding::Kind::Builtin;
                b.name = builtin;
                bind(p, b, std::string("builtin ") + builtin,
                     std::string(project::findBuiltin(builtin)->meaning) + " (by its name)");
                return;
            }
        }
        ParameterDesc d;
        d.name = p.name;
        d.type = *p.type;
        const bool isFloat = project::isFloat(p.type->scalar);
        const bool isBool = p.baseType == "bool";
        double value = 1, lo = 0, hi = isFloat ? 2 : 64;
        if (isBool)
            value = 1, lo = 0, hi = 1;
        else if (oneOf(p.name, {"iter", "iters", "iterations", "maxiter", "maxiters", "maxiterations", "niter"}))
            value = 256, lo = 1, hi = 4096;
        else if (oneOf(p.name, {"radius", "r", "k", "ksize", "kernelsize", "halfwidth"}))
            value = 2, lo = 0, hi = 16;
        d.value = {value, value, value, value};
        d.min = lo, d.max = hi;
        b.kind = ArgBinding::Kind::Parameter;
        b.name = p.name;
        m_project.parameters.push_back(d);
        char range[96];
        std::snprintf(range, sizeof range, "%g in [%g, %g]", value, lo, hi);
        bind(p, b, "parameter " + p.name,
             "a " + project::cudaTypeName(*p.type) + " with a slider, " + range + " (no name it is known by)");
    }

    void makeStage()
    {
        StageDesc s;
        s.kind = project::StageKind::Kernel;
        s.name = m_kernel->name;
        s.file = m_file;
        s.kernel = m_nameExpression;
        s.args = m_args;
        const std::string cover = !m_outputs.empty() ? m_outputs.front() : m_firstBuffer;
        const ResourceDesc* c = cover.empty() ? nullptr : m_project.resource(cover);
        const bool twoD = m_twoD && c && (c->isTexture() || c->shape);
        s.block = twoD ? std::array<unsigned, 3>{16, 16, 1} : std::array<unsigned, 3>{256, 1, 1};
        if (m_options.block)
            s.block = *m_options.block;
        if (m_options.grid) {
            s.grid = *m_options.grid;
            m_out.notes.push_back("launch: grid " + dimText(s.grid) + " (--grid), block " + dimText(s.block));
        } else if (c && !c->record.empty()) {
            s.cover = cover; // its extent is its records
            m_out.notes.push_back("launch: blocks of " + dimText(s.block) + (m_options.block ? " (--block)" : "") +
                                  " covering every record of " + cover + ": one thread per record");
        } else if (c) {
            s.cover = cover;
            s.coverFlat = !twoD;
            m_out.notes.push_back("launch: blocks of " + dimText(s.block) + (m_options.block ? " (--block)" : "") +
                                  " covering " + (twoD ? "the 2-D extent" : "every element") + " of " + cover +
                                  (twoD ? " (the kernel reads .y of threadIdx, blockIdx or blockDim)" : ""));
        }
        if (m_body.find("gridDim") != std::string_view::npos && !m_options.grid)
            m_out.notes.push_back("the kernel reads gridDim: if it sizes its work by the grid, give --grid and "
                                  "--block");
        // `extern __shared__ T name[];`: one T per thread of a block, the common use.
        if (const std::size_t at = m_body.find("extern __shared__"); at != std::string_view::npos) {
            std::size_t i = at + 17;
            std::string type;
            while (i < m_body.size() && m_body[i] != '[' && m_body[i] != ';') {
                type += m_body[i];
                ++i;
            }
            const std::string decl = trimmed(type);
            const std::size_t space = decl.find_last_of(" \t*");
            const auto t = project::parseValueType(trimmed(decl.substr(0, space == std::string::npos ? 0 : space)));
            if (t) {
                s.sharedBytes = unsigned(t->size()) * s.block[0] * s.block[1] * s.block[2];
                m_out.notes.push_back("shared: " + std::to_string(s.sharedBytes) +
                                      " bytes of dynamic shared memory (extern __shared__ " + decl +
                                      "[]: one " + project::cudaTypeName(*t) + " per thread)");
            } else {
                m_out.notes.push_back("shared: the kernel declares extern __shared__ " + decl +
                                      "[]; its size is not known: set the stage's \"shared\" bytes");
            }
        }
        m_project.stages.push_back(std::move(s));
    }

    void makeViews()
    {
        for (const std::string& name : m_outputs) {
            if (holdsRecords(name))
                continue; // raw bytes: --dump writes them
            const ResourceDesc& r = *m_project.resource(name);
            ViewDesc v;
            v.name = name;
            v.source = name;
            const int c = r.element.components;
            const bool f32 = r.element.scalar == ScalarType::Float32;
            if (r.isTexture()) {
                v.kind = ViewKind::Image;
            } else if (r.shape && (c == 1 || c == 4)) {
                v.kind = ViewKind::Image;
                v.autoRange = c == 1 && f32;
                if (c == 1 && !f32) // uchar, int, uint: the values of a byte, through the colour map
                    v.range = {0, 255};
            } else if (!r.shape && c == 1) {
                v.kind = ViewKind::Plot;
                v.autoRange = true;
            } else if (f32 && c >= 2) {
                v.kind = ViewKind::Points;
            } else {
                continue; // nothing draws it; --dump still writes it
            }
            if (auto why = project::viewInputProblem(v.kind, project::ViewInput::Source, r.element, r.isTexture(),
                                                     r.shape ? (*r.shape)[1] : r.count, r.shape ? (*r.shape)[0] : 0))
                continue;
            m_project.views.push_back(std::move(v));
        }
    }

    Inference finish()
    {
        if (m_out.problems.empty()) {
            m_project.file = m_file.parent_path() / (m_file.stem().string() + ".json");
            m_project.name = m_kernel->qualifiedName() + " (from " + m_file.filename().string() + ")";
            m_out.project = std::move(m_project);
        }
        return std::move(m_out);
    }

    fs::path m_file;
    std::string_view m_source;
    const InferOptions& m_options;
    std::optional<syntax::KernelSignature> m_kernel;
    std::string m_nameExpression;
    std::vector<Param> m_params;
    std::map<std::string, io::DataSpec> m_specs;
    std::map<std::string, std::pair<std::string, std::string>> m_bindingSpecs; // n=count:a
    std::map<std::string, ArgBinding> m_recordSpecs;                            // p={...}, p=bytes:HEX
    std::string_view m_body;
    bool m_twoD = false;
    std::vector<std::int64_t> m_problemShape;
    std::string m_problemShapeWhy;
    std::string m_firstBuffer, m_first2D;
    std::vector<std::string> m_outputs;
    int m_inputs = 0;
    std::vector<ArgBinding> m_args;
    Project m_project;
    Inference m_out;
};

} // namespace

std::pair<fs::path, std::string> splitKernelSpec(std::string_view spec)
{
    std::error_code ec;
    if (fs::exists(fs::path(spec), ec))
        return {fs::path(spec), ""};
    for (std::size_t i = 0; i < spec.size(); ++i) {
        if (spec[i] != ':')
            continue;
        if (i + 1 < spec.size() && spec[i + 1] == ':') {
            ++i;
            continue;
        }
        return {fs::path(spec.substr(0, i)), trimmed(spec.substr(i + 1))};
    }
    return {fs::path(spec), ""};
}

std::string ParamBinding::describe() const
{
    return param + ": " + reason;
}

Inference inferProject(const fs::path& file, std::string_view source, const InferOptions& options)
{
    return Inferrer(file, source, options).run();
}

} // namespace ks::pipeline
