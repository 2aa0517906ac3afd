#include "ks/teach/instrument.hpp"

#include <algorithm>

namespace ks::teach {
namespace {

struct Edit {
    syntax::SourceRange range;
    std::string replacement;
};

// Applies non-overlapping edits; each keeps the newlines of the text it replaces, so every line
// after it keeps its number.
std::string applyEdits(std::string_view source, std::vector<Edit> edits)
{
    std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.range.begin < b.range.begin; });
    std::string out;
    std::size_t at = 0;
    for (const Edit& e : edits) {
        out.append(source.substr(at, e.range.begin - at));
        out += e.replacement;
        const std::string_view replaced = source.substr(e.range.begin, e.range.end - e.range.begin);
        const auto newlines = std::count(replaced.begin(), replaced.end(), '\n');
        if (newlines == 0)
            out.append(std::max<std::ptrdiff_t>(0, static_cast<std::ptrdiff_t>(replaced.size()) -
                                                        static_cast<std::ptrdiff_t>(e.replacement.size())),
                       ' ');
        else
            out.append(static_cast<std::size_t>(newlines), '\n');
        at = e.range.end;
    }
    out.append(source.substr(at));
    return out;
}

std::string userArguments(const syntax::KernelSignature& k)
{
    if (!k.isTemplate())
        return "";
    std::string a = "<";
    for (std::size_t i = 0; i < k.templateParameterNames.size(); ++i)
        a += (i ? ", " : "") + k.templateParameterNames[i];
    return a + ">";
}

// "template <typename T>\n" or "extern \"C\" ", then "__global__ void <attributes> <name>(<user params>, "
std::string wrapperHead(const syntax::KernelSignature& k, const std::string& name)
{
    std::string h;
    if (k.isTemplate())
        h += "template <" + k.templateParameters + ">\n";
    else
        h += "extern \"C\" ";
    h += "__global__ void ";
    for (const std::string& a : k.attributes)
        h += a + " ";
    h += name + "(";
    for (std::size_t i = 0; i < k.params.size(); ++i)
        h += k.params[i].type + " ks_p" + std::to_string(i) + ", ";
    return h;
}

std::string openNamespaces(const syntax::KernelSignature& k)
{
    std::string s;
    for (const std::string& n : k.namespaces)
        s += n.empty() ? "namespace {\n" : "namespace " + n + " {\n";
    return s;
}

std::string closeNamespaces(const syntax::KernelSignature& k)
{
    std::string s;
    for (std::size_t i = 0; i < k.namespaces.size(); ++i)
        s += "}\n";
    return s;
}

// The call of the user's code; `arguments[i]`, where not empty, replaces the wrapper's ks_p<i>.
std::string callUser(const syntax::KernelSignature& k, const std::vector<std::string>& arguments)
{
    std::string c = "    ks_user_" + k.name + userArguments(k) + "(";
    for (std::size_t i = 0; i < k.params.size(); ++i) {
        c += i ? ", " : "";
        c += i < arguments.size() && !arguments[i].empty() ? arguments[i] : "ks_p" + std::to_string(i);
    }
    return c + ");\n";
}

// A parameter the rewriter wraps as a pointer: T*, and T** (a pointer to the T* it reads and
// writes; the scanner's Unknown, as every pointer of more than one level is).
bool isDataPointer(const syntax::KernelParam& p)
{
    return p.kind == syntax::ParamKind::Pointer || (p.kind == syntax::ParamKind::Unknown && p.pointerDepth >= 2);
}

bool isSurfaceObject(const syntax::KernelParam& p)
{
    return p.kind == syntax::ParamKind::Surface && p.baseType == "cudaSurfaceObject_t";
}

// The pointee of a pointer parameter as written, qualifiers kept: "const float" of
// "const float* __restrict__".
std::string pointee(const syntax::KernelParam& p)
{
    std::string t = p.type.substr(0, p.type.rfind('*'));
    while (!t.empty() && t.back() == ' ')
        t.pop_back();
    return t;
}

// "ns::inner::" of a kernel in namespaces, "" at global scope.
std::string qualifier(const syntax::KernelSignature& k)
{
    const std::string q = k.qualifiedName();
    return q.substr(0, q.size() - k.name.size());
}

// The check context of parameter `index` (the user's, or the variant's own after them).
std::string checkContext(std::size_t index)
{
    const std::string i = std::to_string(index);
    return "ks::teach::CheckContext{ks_record, ks_extents[" + i + "].size, ks_extents[" + i + "].height, " + i + "u}";
}

// Checked: every pointer parameter becomes a CheckedPtr, every cudaSurfaceObject_t a CheckedSurface,
// in the user's code (edits) and in the wrapper's call (arguments); all but parameter `skip` (the
// recorded output of a checked "who wrote it" variant, checked through its context).
void checkParameters(const syntax::KernelSignature& k, std::vector<Edit>& edits, std::vector<std::string>& arguments,
                     std::vector<syntax::ParamKind>& checkedKinds, std::size_t skip)
{
    for (std::size_t i = 0; i < k.params.size(); ++i) {
        if (i == skip)
            continue;
        const syntax::KernelParam& p = k.params[i];
        const std::string index = std::to_string(i);
        const std::string name = p.name.empty() ? "ks_unnamed_" + index : p.name;
        const std::string context = checkContext(i);
        if (isDataPointer(p)) {
            const std::string type = "ks::teach::CheckedPtr<" + pointee(p) + ">";
            edits.push_back({p.range, type + " " + name});
            arguments[i] = type + "(ks_p" + index + ", " + context + ")";
            checkedKinds[i] = syntax::ParamKind::Pointer;
        } else if (isSurfaceObject(p)) {
            edits.push_back({p.range, "ks::teach::CheckedSurface " + name});
            arguments[i] = "ks::teach::CheckedSurface{ks_p" + index + ", " + context + "}";
            checkedKinds[i] = syntax::ParamKind::Surface;
        }
    }
}

// The checked teaching variants' own pointers: "const ks::teach::CheckedPtr<T> <name>Checked(<name>,
// <context of parameter index>);", checked against the extent the host gives at that index.
std::string checkedOwnPointer(const std::string& type, const std::string& name, std::size_t index)
{
    return "    const ks::teach::CheckedPtr<" + type + "> " + name + "Checked(" + name + ", " + checkContext(index) +
           ");\n";
}

std::string_view wrapperPrefix(VariantKind kind)
{
    switch (kind) {
    case VariantKind::WhoWrote: return "ks_who_";
    case VariantKind::BlockTimeline: return "ks_timeline_";
    case VariantKind::Checked: return "ks_checked_";
    }
    return "ks_";
}

} // namespace

std::vector<std::string> ownCheckedParameters(VariantKind kind)
{
    switch (kind) {
    case VariantKind::WhoWrote: return {"ks_records", "ks_counters"};
    case VariantKind::BlockTimeline: return {"ks_blocks", "ks_counters"};
    case VariantKind::Checked: return {};
    }
    return {};
}

std::string InstrumentedKernel::nameExpression(std::string_view templateArguments) const
{
    if (!kernel.isTemplate())
        return entry;
    return entry + "<" + std::string(templateArguments) + ">";
}

std::vector<std::size_t> outputCandidates(const syntax::KernelSignature& kernel)
{
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < kernel.params.size(); ++i) {
        const syntax::KernelParam& p = kernel.params[i];
        if ((isDataPointer(p) && !p.pointeeConst) || p.kind == syntax::ParamKind::Surface ||
            (p.kind == syntax::ParamKind::Value &&
             (p.baseType == "unsigned long long" || p.baseType == "unsigned long long int")))
            out.push_back(i);
    }
    return out;
}

InstrumentedKernel instrument(const InstrumentRequest& req)
{
    InstrumentedKernel v;
    v.kind = req.kind;
    const std::optional<syntax::KernelSignature> found = syntax::findKernel(req.source, req.kernel);
    if (!found) {
        v.error = "no __global__ kernel named '" + req.kernel + "' is defined in " + req.fileName;
        return v;
    }
    v.kernel = *found;
    const syntax::KernelSignature& k = v.kernel;
    if (k.templateParameterPack) {
        v.error = "kernel '" + k.name + "' has a template parameter pack, which instrumentation does not support";
        return v;
    }

    std::vector<Edit> edits;
    edits.push_back({k.globalKeyword, "__device__"});
    edits.push_back({k.nameToken, "ks_user_" + k.name});
    for (const syntax::SourceRange& r : k.attributeRanges)
        edits.push_back({r, ""});

    // For the user's call, by parameter; "" passes ks_p<i>.
    std::vector<std::string> arguments(k.params.size());
    const std::size_t none = k.params.size();
    const bool checks = req.kind == VariantKind::Checked || req.checked;
    if (checks)
        v.checkedKinds.assign(k.params.size(), syntax::ParamKind::Value);
    v.outputIndex = none;
    if (req.kind == VariantKind::WhoWrote) {
        const std::vector<std::size_t> candidates = outputCandidates(k);
        if (req.outputParam.empty()) {
            if (candidates.empty()) {
                v.error = "kernel '" + k.name +
                          "' has no parameter that can be an output (a pointer to non-const elements or a "
                          "cudaSurfaceObject_t)";
                return v;
            }
            v.outputIndex = candidates.front();
        } else {
            for (std::size_t i = 0; i < k.params.size(); ++i)
                if (k.params[i].name == req.outputParam)
                    v.outputIndex = i;
            if (v.outputIndex == none) {
                v.error = "kernel '" + k.name + "' has no parameter named '" + req.outputParam + "'";
                return v;
            }
            if (std::find(candidates.begin(), candidates.end(), v.outputIndex) == candidates.end()) {
                v.error = "parameter '" + req.outputParam + "' of kernel '" + k.name + "' (" +
                          k.params[v.outputIndex].declaration +
                          ") cannot be an output: it must be a pointer to non-const elements or a cudaSurfaceObject_t";
                return v;
            }
        }
        const syntax::KernelParam& out = k.params[v.outputIndex];
        v.outputKind = isDataPointer(out) ? syntax::ParamKind::Pointer : syntax::ParamKind::Surface;
        const std::string paramName = out.name.empty() ? "ks_unnamed_output" : out.name;
        const std::string raw = "ks_p" + std::to_string(v.outputIndex);
        // The plain variant's types keep their short names (the user may meet them in a diagnostic).
        if (isDataPointer(out)) {
            const std::string type = "ks::teach::RecordingPtr<" + pointee(out) +
                                     (req.checked ? ", ks::teach::CheckedWhoContext>" : ">");
            edits.push_back({out.range, type + " " + paramName});
            arguments[v.outputIndex] = type + "(" + raw + ", ks_ctx)";
        } else {
            const std::string type = req.checked ? "ks::teach::RecordingSurfaceOf<ks::teach::CheckedWhoContext>"
                                                 : "ks::teach::RecordingSurface";
            edits.push_back({out.range, type + " " + paramName});
            arguments[v.outputIndex] = type + "{" + raw + ", ks_ctx}";
        }
        if (req.checked) {
            checkParameters(k, edits, arguments, v.checkedKinds, v.outputIndex);
            // Checked through the context; its extent comes in the user's parameter's place.
            v.checkedKinds[v.outputIndex] =
                isDataPointer(out) || isSurfaceObject(out) ? v.outputKind : syntax::ParamKind::Value;
        }
    } else if (checks) {
        checkParameters(k, edits, arguments, v.checkedKinds, none);
    }

    const char* header = checks ? "checked" : "instrument";
    std::string s = "#include <ks_device/" + std::string(header) + ".cuh>\n#line 1 \"" + req.fileName + "\"\n";
    s += applyEdits(req.source, std::move(edits));
    if (s.empty() || s.back() != '\n')
        s += '\n';
    s += "#line 1 \"" + std::string(kGeneratedFileName) + "\"\n";
    s += openNamespaces(k);
    const std::string name = std::string(wrapperPrefix(req.kind)) + k.name;
    s += wrapperHead(k, name);
    v.entry = k.isTemplate() ? qualifier(k) + name : name; // extern "C": no qualifier
    // The checked teaching variants take the extents and the record after their own parameters and
    // reach their own pointers through checked ones (indices after the user's parameters).
    const std::string checkParams =
        req.checked && req.kind != VariantKind::Checked
            ? ", const ks::teach::CheckedExtent* ks_extents, ks::teach::CheckedRecord* ks_record"
            : "";
    const std::string own = req.checked ? "Checked" : ""; // suffix of the variant's pointers
    if (req.kind == VariantKind::WhoWrote) {
        s += "ks::teach::WhoRecord* ks_records, unsigned long long ks_recordCount, unsigned long long ks_rowWidth, "
             "unsigned* ks_counters" + checkParams + ")\n{\n";
        if (req.checked)
            s += checkedOwnPointer("ks::teach::WhoRecord", "ks_records", none) +
                 checkedOwnPointer("unsigned", "ks_counters", none + 1);
        s += "    __shared__ unsigned ks_blockOrder;\n"
             "    if (ks::teach::isFirstThreadOfBlock())\n"
             "        ks_blockOrder = atomicAdd(&ks_counters" + own + "[ks::teach::kCounterBlockOrder], 1u);\n"
             "    __syncthreads();\n";
        if (req.checked) {
            const std::string o = std::to_string(v.outputIndex);
            const std::string base = v.outputKind == syntax::ParamKind::Pointer ? "(const char*)ks_p" + o : "nullptr";
            s += "    const ks::teach::CheckedWhoContext ks_ctx{ks_recordsChecked, ks_recordCount, ks_rowWidth, "
                 "ks_countersChecked, ks_blockOrder, " + base + ", " + checkContext(v.outputIndex) + "};\n";
        } else {
            s += "    const ks::teach::WhoContext ks_ctx{ks_records, ks_recordCount, ks_rowWidth, ks_counters, "
                 "ks_blockOrder};\n";
        }
        s += callUser(k, arguments);
        s += "}\n";
    } else if (req.kind == VariantKind::Checked) {
        s += "const ks::teach::CheckedExtent* ks_extents, ks::teach::CheckedRecord* ks_record)\n{\n";
        s += callUser(k, arguments);
        s += "}\n";
    } else {
        s += "ks::teach::BlockRecord* ks_blocks, unsigned* ks_counters" + checkParams + ")\n{\n";
        if (req.checked)
            s += checkedOwnPointer("ks::teach::BlockRecord", "ks_blocks", none) +
                 checkedOwnPointer("unsigned", "ks_counters", none + 1);
        s += "    __shared__ unsigned long long ks_startNs, ks_startClock;\n"
             "    __shared__ unsigned ks_order;\n"
             "    __syncthreads();\n"
             "    if (ks::teach::isFirstThreadOfBlock()) {\n"
             "        ks_order = atomicAdd(&ks_counters" + own + "[ks::teach::kCounterBlockOrder], 1u);\n"
             "        ks_startClock = clock64();\n"
             "        ks_startNs = ks::teach::globalTimer();\n"
             "    }\n";
        s += callUser(k, arguments);
        s += "    __syncthreads();\n"
             "    if (ks::teach::isFirstThreadOfBlock()) {\n"
             "        const unsigned long long ks_endNs = ks::teach::globalTimer();\n"
             "        const unsigned long long ks_endClock = clock64();\n"
             "        ks_blocks" + own + "[ks::teach::linearBlockIndex()] = "
             "ks::teach::BlockRecord{ks_startNs, ks_endNs, ks_startClock, ks_endClock, ks::teach::smId(), ks_order};\n"
             "    }\n"
             "}\n";
    }
    s += closeNamespaces(k);
    v.source = std::move(s);
    v.ok = true;
    return v;
}

VariantBuild buildVariant(const InstrumentRequest& request, const rtc::CompileOptions& options,
                          std::string_view templateArguments, rtc::CompileCache* cache)
{
    VariantBuild b;
    b.variant = instrument(request);
    if (!b.variant.ok) {
        b.compile.ok = false;
        b.compile.log = b.variant.error;
        rtc::Diagnostic d;
        d.file = request.fileName;
        d.line = b.variant.kernel.line;
        d.message = b.variant.error;
        b.compile.diagnostics.push_back(d);
        return b;
    }
    if (b.variant.kernel.isTemplate() && templateArguments.empty()) {
        b.compile.ok = false;
        b.compile.log = "kernel '" + b.variant.kernel.name + "' is a template: give its template arguments";
        return b;
    }
    const std::string expression = b.variant.nameExpression(templateArguments);
    std::vector<std::string> names;
    if (b.variant.kernel.isTemplate())
        names.push_back(expression);
    b.compile = cache ? *cache->compile(b.variant.source, request.fileName, options, names)
                      : rtc::compile(b.variant.source, request.fileName, options, names);
    if (b.compile.ok)
        b.loweredEntry = b.variant.kernel.isTemplate() ? b.compile.loweredNames.at(0) : b.variant.entry;
    return b;
}

} // namespace ks::teach
