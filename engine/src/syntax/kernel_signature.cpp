#include "ks/syntax/kernel_signature.hpp"

#include "code_tokens.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>

namespace ks::syntax {
namespace {

using code::Code;
using code::kNone;
using code::Nesting;
using code::splitTopLevel;

// The first top-level '=' of [b, e) (a default argument), or e.
std::size_t defaultAt(const Code& c, std::size_t b, std::size_t e)
{
    Nesting n;
    for (std::size_t i = b; i < e; ++i)
        if (n.feed(c, i) && c.punct(i, "="))
            return i;
    return e;
}

bool isQualifier(std::string_view w)
{
    return w == "const" || w == "volatile" || w == "__restrict__" || w == "__restrict" || w == "restrict" ||
           w == "struct" || w == "class" || w == "union" || w == "enum" || w == "typename" || w == "__grid_constant__";
}

// Words that are part of a type, never a parameter's name.
bool isTypeWord(std::string_view w)
{
    static constexpr std::string_view kWords[] = {"void",     "bool",    "char",   "char8_t",  "char16_t",
                                                  "char32_t", "wchar_t", "short",  "int",      "long",
                                                  "float",    "double",  "signed", "unsigned", "auto"};
    return isQualifier(w) || std::find(std::begin(kWords), std::end(kWords), w) != std::end(kWords);
}

const std::string_view kSurfaceTypes[] = {"cudaSurfaceObject_t", "CUsurfObject"};
const std::string_view kTextureTypes[] = {"cudaTextureObject_t", "CUtexObject"};

bool oneOf(std::string_view w, const std::string_view (&list)[2])
{
    return w == list[0] || w == list[1];
}

KernelParam parseParam(const Code& c, std::size_t b, std::size_t e)
{
    KernelParam p;
    p.range = c.range(b, e);
    p.line = c[b].line;
    const std::size_t declEnd = defaultAt(c, b, e);
    p.declaration = c.written(b, declEnd);

    std::vector<std::size_t> tokens;
    for (std::size_t i = b; i < declEnd; ++i)
        tokens.push_back(i);
    // A function or array pointer: `void (*f)(int)`, `T (*rows)[N]`: its name is inside.
    bool declarator = false;
    for (std::size_t k = 0; k + 1 < tokens.size() && !declarator; ++k)
        if (c.punct(tokens[k], "(") && c.punct(tokens[k + 1], "*")) {
            declarator = true;
            if (k + 3 < tokens.size() && c.identifier(tokens[k + 2]) && c.punct(tokens[k + 3], ")")) {
                p.name = std::string(c.text(tokens[k + 2]));
                tokens.erase(tokens.begin() + static_cast<std::ptrdiff_t>(k + 2));
            }
        }
    // `T name[N]` decays to `T*`; `T name[N][M]` to a pointer to arrays (not a type we classify).
    int arrays = 0;
    while (!declarator && !tokens.empty() && c.punct(tokens.back(), "]")) {
        std::size_t k = tokens.size() - 1;
        int depth = 0;
        for (;; --k) {
            depth += c.punct(tokens[k], "]") ? 1 : c.punct(tokens[k], "[") ? -1 : 0;
            if (depth == 0 || k == 0)
                break;
        }
        if (depth != 0 || k == 0)
            break;
        tokens.resize(k);
        ++arrays;
    }
    if (!declarator && tokens.size() >= 2 && c.identifier(tokens.back()) && !isTypeWord(c.text(tokens.back())) &&
        !c.punct(tokens[tokens.size() - 2], "::") &&
        std::any_of(tokens.begin(), tokens.end() - 1, [&](std::size_t i) { return !isQualifier(c.text(i)); })) {
        p.name = std::string(c.text(tokens.back()));
        tokens.pop_back();
    }
    p.type = c.normalised(tokens) + std::string(std::size_t(std::min(arrays, 1)), '*');

    Nesting n;
    bool reference = false, pack = false, nested = false;
    std::vector<std::size_t> base;
    for (const std::size_t i : tokens) {
        const bool top = n.feed(c, i);
        const std::string_view x = c.text(i);
        if (top && x == "*") {
            ++p.pointerDepth;
        } else if (top && (x == "&" || x == "&&")) {
            reference = true;
        } else if (top && x == ".") {
            pack = true;
        } else if (top && (x == "(" || x == ")")) {
            nested = true;
        } else if (x == "const" && top) {
            p.pointeeConst = p.pointeeConst || p.pointerDepth == 0;
        } else if (p.pointerDepth == 0 && !(top && isQualifier(x)) && !(base.empty() && x == "::")) {
            base.push_back(i);
        }
    }
    p.pointerDepth += std::min(arrays, 1);
    p.baseType = c.normalised(base);
    if (p.pointerDepth == 0)
        p.pointeeConst = false;
    if (reference || pack || nested || arrays > 1 || p.baseType.empty() || p.pointerDepth > 1)
        p.kind = ParamKind::Unknown;
    else if (p.pointerDepth == 1)
        p.kind = ParamKind::Pointer;
    else if (oneOf(p.baseType, kSurfaceTypes))
        p.kind = ParamKind::Surface;
    else if (oneOf(p.baseType, kTextureTypes))
        p.kind = ParamKind::Texture;
    else
        p.kind = ParamKind::Value;
    return p;
}

bool takesArguments(std::string_view w)
{
    return w == "__launch_bounds__" || w == "__cluster_dims__" || w == "__maxnreg__" || w == "__attribute__" ||
           w == "__declspec" || w == "alignas";
}

bool isBareAttribute(std::string_view w)
{
    return w == "__noinline__" || w == "__forceinline__" || w == "__inline__";
}

struct Scope {
    enum Kind { Namespace, Linkage, Other } kind = Other;
    std::vector<std::string> names; // Namespace: "a", or "a", "b" for `namespace a::b`; "" when unnamed
    bool externC = false;           // Linkage: extern "C" (not "C++")
};

// The scope a '{' at `open` opens, from its declaration's tokens [from, open).
Scope scopeOf(const Code& c, std::size_t from, std::size_t open)
{
    Scope s;
    if (open == from + 2 && c.word(from, "extern") && c[from + 1].kind == TokenKind::String) {
        s.kind = Scope::Linkage;
        s.externC = c.text(from + 1) == "\"C\"";
        return s;
    }
    std::size_t i = from;
    if (c.word(i, "inline"))
        ++i;
    if (!c.word(i, "namespace"))
        return s;
    std::vector<std::string> names;
    for (++i; i < open; ++i) {
        if (c.identifier(i) && c.text(i) != "inline")
            names.emplace_back(c.text(i));
        else if (!c.punct(i, "::") && !c.word(i, "inline"))
            return s;
    }
    s.kind = Scope::Namespace;
    s.names = names.empty() ? std::vector<std::string>{""} : std::move(names);
    return s;
}

// Template parameters of a header `template <...>` that starts the declaration at `from`.
void readTemplateHeader(const Code& c, std::size_t from, std::size_t global, KernelSignature& k)
{
    if (!c.word(from, "template") || !c.punct(from + 1, "<"))
        return;
    Nesting n;
    std::size_t close = kNone;
    for (std::size_t i = from + 1; i < global; ++i)
        if (n.feed(c, i) && c.punct(i, ">")) {
            close = i;
            break;
        }
    if (close == kNone || close == from + 2)
        return;
    k.templateParameters = c.written(from + 2, close);
    for (const auto& [b, e] : splitTopLevel(c, from + 2, close)) {
        const std::size_t last = defaultAt(c, b, e);
        if (last == b)
            continue;
        for (std::size_t i = b; i < last; ++i)
            k.templateParameterPack = k.templateParameterPack || c.punct(i, ".");
        k.templateParameterNames.emplace_back(c.text(last - 1));
    }
}

// Reads the kernel whose __global__ is token `g`, declared from token `from`; the index of the
// body's '{' or kNone when this is no definition we list.
std::size_t readKernel(const Code& c, std::size_t from, std::size_t g, KernelSignature& k)
{
    k.globalKeyword = c.range(g, g + 1);
    std::size_t open = kNone;
    for (std::size_t j = g + 1; j < c.size() && open == kNone; ++j) {
        const std::string_view x = c.text(j);
        if (c.identifier(j) && takesArguments(x) && c.punct(j + 1, "(")) {
            const std::size_t close = c.matching(j + 1);
            if (close == kNone)
                return kNone;
            k.attributes.push_back(c.written(j, close + 1));
            k.attributeRanges.push_back(c.range(j, close + 1));
            if (x == "__launch_bounds__")
                k.launchBounds = c.written(j + 2, close);
            j = close;
        } else if (c.identifier(j) && isBareAttribute(x)) {
            k.attributeRanges.push_back(c.range(j, j + 1));
        } else if (c.punct(j, "[") && c.punct(j + 1, "[")) {
            // A standard attribute stays with the definition: not one the wrapper of a rewrite
            // could repeat where CUDA's attributes go.
            const std::size_t close = c.matching(j);
            if (close == kNone)
                return kNone;
            j = close;
        } else if (c.identifier(j) && c.punct(j + 1, "(")) {
            open = j + 1;
        } else if (c[j].kind == TokenKind::Punct && x != "::" && x != "*" && x != "&") {
            return kNone; // an explicit specialization (name<...>), a lambda, not a function
        }
    }
    if (open == kNone)
        return kNone;
    const std::size_t close = c.matching(open);
    if (close == kNone)
        return kNone;
    std::size_t body = close + 1;
    while (body < c.size() && !c.punct(body, "{") && !c.punct(body, ";"))
        ++body;
    if (body >= c.size() || c.punct(body, ";"))
        return kNone; // a declaration
    const std::size_t name = open - 1;
    k.name = std::string(c.text(name));
    k.nameToken = c.range(name, open);
    k.line = c[name].line;
    k.bodyBegin = c[body].begin;
    // A written qualification (`void outer::k(...)`) names a namespace as lookup from the
    // enclosing ones finds it: the innermost enclosing namespace of that name, else a new one.
    std::vector<std::string> written;
    std::size_t q = name;
    for (; q >= 2 && c.punct(q - 1, "::") && c.identifier(q - 2); q -= 2)
        written.insert(written.begin(), std::string(c.text(q - 2)));
    if (!written.empty()) {
        const bool global = q >= 1 && c.punct(q - 1, "::");
        const auto found = std::find(k.namespaces.rbegin(), k.namespaces.rend(), written.front());
        if (global)
            k.namespaces.clear();
        else if (found != k.namespaces.rend())
            k.namespaces.erase(std::prev(found.base()), k.namespaces.end());
        k.namespaces.insert(k.namespaces.end(), written.begin(), written.end());
    }
    for (const auto& [b, e] : splitTopLevel(c, open + 1, close))
        k.params.push_back(parseParam(c, b, e));
    if (k.params.size() == 1 && k.params[0].declaration == "void")
        k.params.clear();
    readTemplateHeader(c, from, g, k);
    for (std::size_t i = from; i + 1 < g; ++i)
        if (c.word(i, "extern") && c.text(i + 1) == "\"C\"")
            k.externC = true;
    return body;
}

} // namespace

std::string KernelSignature::qualifiedName() const
{
    std::string q;
    for (const std::string& n : namespaces)
        if (!n.empty())
            q += n + "::";
    return q + name;
}

std::string KernelSignature::display() const
{
    std::string s = qualifiedName() + "(";
    for (std::size_t i = 0; i < params.size(); ++i) {
        s += (i ? ", " : "") + params[i].type;
        if (!params[i].name.empty())
            s += " " + params[i].name;
    }
    return s + ")";
}

std::vector<KernelSignature> findKernels(std::string_view source)
{
    const Code c(source);
    std::vector<KernelSignature> kernels;
    std::vector<Scope> scopes;
    std::size_t from = 0; // first token of the current declaration
    for (std::size_t i = 0; i < c.size(); ++i) {
        if (c.punct(i, "{")) {
            scopes.push_back(scopeOf(c, from, i));
            from = i + 1;
        } else if (c.punct(i, "}")) {
            if (!scopes.empty())
                scopes.pop_back();
            from = i + 1;
        } else if (c.punct(i, ";")) {
            from = i + 1;
        } else if (c.word(i, "__global__")) {
            if (std::any_of(scopes.begin(), scopes.end(), [](const Scope& s) { return s.kind == Scope::Other; }))
                continue; // in a class or a function: not a kernel definition at namespace scope
            KernelSignature k;
            for (const Scope& s : scopes) {
                if (s.kind == Scope::Linkage)
                    k.externC = s.externC;
                k.namespaces.insert(k.namespaces.end(), s.names.begin(), s.names.end());
            }
            const std::size_t body = readKernel(c, from, i, k);
            if (body == kNone)
                continue;
            for (KernelParam& p : k.params) {
                const bool templated = std::find(k.templateParameterNames.begin(), k.templateParameterNames.end(),
                                                 p.baseType) != k.templateParameterNames.end();
                const bool candidate = (p.kind == ParamKind::Value || (p.kind == ParamKind::Pointer && p.pointerDepth == 1)) &&
                                       !templated && !p.baseType.empty() && !knownTypeLayout(p.baseType);
                const bool name = !p.baseType.empty() && !std::isdigit(static_cast<unsigned char>(p.baseType[0])) &&
                                  std::all_of(p.baseType.begin(), p.baseType.end(), [](char ch) {
                                      return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == ':';
                                  });
                if (candidate && name)
                    p.record = code::findRecordLayout(c, p.baseType, &p.recordProblem);
                else if (candidate && p.baseType.find('<') != std::string::npos)
                    p.recordProblem = "the layout of a class template's instance is not read";
            }
            kernels.push_back(std::move(k));
            // The body's braces never open a scope of their own: kernels do not nest.
            const std::size_t end = c.matching(body);
            i = end == kNone ? c.size() : end;
            from = i + 1;
        }
    }
    return kernels;
}

std::optional<KernelSignature> findKernel(std::string_view source, std::string_view name)
{
    for (KernelSignature& k : findKernels(source))
        if (k.name == name || k.qualifiedName() == name)
            return std::move(k);
    return std::nullopt;
}

NameExpression splitNameExpression(std::string_view expression)
{
    auto trim = [](std::string_view t) {
        while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front())))
            t.remove_prefix(1);
        while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back())))
            t.remove_suffix(1);
        return std::string(t);
    };
    const std::size_t lt = expression.find('<');
    std::string_view e = expression;
    while (!e.empty() && std::isspace(static_cast<unsigned char>(e.back())))
        e.remove_suffix(1);
    if (lt == std::string_view::npos || e.empty() || e.back() != '>')
        return {trim(expression), {}};
    NameExpression out{trim(e.substr(0, lt)), {}};
    int depth = 0;
    std::size_t start = lt + 1;
    for (std::size_t i = lt + 1; i + 1 < e.size(); ++i) {
        const char c = e[i];
        depth += c == '<' || c == '(' ? 1 : c == '>' || c == ')' ? -1 : 0;
        if (c == ',' && depth == 0) {
            out.templateArguments.push_back(trim(e.substr(start, i - start)));
            start = i + 1;
        }
    }
    out.templateArguments.push_back(trim(e.substr(start, e.size() - 1 - start)));
    return out;
}

KernelSignature instantiate(KernelSignature kernel, const std::vector<std::string>& arguments)
{
    for (KernelParam& p : kernel.params)
        for (std::size_t t = 0; t < kernel.templateParameterNames.size() && t < arguments.size(); ++t)
            if (p.baseType == kernel.templateParameterNames[t]) {
                const std::string& name = kernel.templateParameterNames[t];
                p.baseType = arguments[t];
                // The written type too, word by word: "const T*" -> "const double*".
                for (std::size_t at = p.type.find(name); at != std::string::npos; at = p.type.find(name, at)) {
                    const bool before = at > 0 && (std::isalnum(static_cast<unsigned char>(p.type[at - 1])) ||
                                                   p.type[at - 1] == '_');
                    const std::size_t end = at + name.size();
                    const bool after = end < p.type.size() &&
                                       (std::isalnum(static_cast<unsigned char>(p.type[end])) || p.type[end] == '_');
                    if (before || after) {
                        at = end;
                        continue;
                    }
                    p.type.replace(at, name.size(), arguments[t]);
                    at += arguments[t].size();
                }
                if (p.kind == ParamKind::Value && (p.baseType == "cudaSurfaceObject_t" || p.baseType == "CUsurfObject"))
                    p.kind = ParamKind::Surface;
                else if (p.kind == ParamKind::Value &&
                         (p.baseType == "cudaTextureObject_t" || p.baseType == "CUtexObject"))
                    p.kind = ParamKind::Texture;
            }
    return kernel;
}

std::optional<KernelSignature> findKernelByExpression(std::string_view source, std::string_view expression,
                                                      std::string* why)
{
    return findKernelByExpression(findKernels(source), expression, why);
}

std::optional<KernelSignature> findKernelByExpression(std::vector<KernelSignature> kernels, std::string_view expression,
                                                      std::string* why)
{
    const NameExpression e = splitNameExpression(expression);
    auto fail = [&](std::string text) -> std::optional<KernelSignature> {
        if (why)
            *why = std::move(text);
        return std::nullopt;
    };
    // The kernels the name picks: by qualified name first, then by plain name ("scale" for
    // ns::scale). More than one (overloads, a redefinition, one name in two namespaces) is
    // ambiguous; NVRTC could not tell them apart by this expression either.
    std::vector<KernelSignature*> picked;
    for (KernelSignature& k : kernels)
        if (k.qualifiedName() == e.name)
            picked.push_back(&k);
    if (picked.empty())
        for (KernelSignature& k : kernels)
            if (k.name == e.name)
                picked.push_back(&k);
    if (picked.size() > 1) {
        std::string which;
        for (const KernelSignature* k : picked)
            which += (which.empty() ? "" : ", ") + k->qualifiedName() + " on line " + std::to_string(k->line);
        return fail("\"" + e.name + "\" names " + std::to_string(picked.size()) + " kernels (" + which +
                    "); give each its own name, or name one by its namespace");
    }
    if (picked.size() == 1) {
        KernelSignature& k = *picked.front();
        const std::string shown = k.qualifiedName();
        if (k.isTemplate() && e.templateArguments.empty())
            return fail("kernel " + shown + " is a template (template<" + k.templateParameters +
                        ">): name an instantiation, for example " + shown + "<float>");
        if (!k.isTemplate() && !e.templateArguments.empty())
            return fail("kernel " + shown + " is not a template; name it " + shown);
        if (k.templateParameterPack)
            return fail("kernel " + shown + " takes a template parameter pack, which cannot be named here");
        if (k.isTemplate() && e.templateArguments.size() != k.templateParameterNames.size())
            return fail("kernel " + shown + " has " + std::to_string(k.templateParameterNames.size()) +
                        " template parameters (" + k.templateParameters + "); " +
                        std::to_string(e.templateArguments.size()) + " given");
        return instantiate(std::move(k), e.templateArguments);
    }
    std::string names;
    for (const KernelSignature& k : kernels)
        names += (names.empty() ? "" : ", ") + k.qualifiedName() + (k.isTemplate() ? "<...>" : "");
    return fail("no kernel \"" + e.name + "\"" + (names.empty() ? std::string(" (no __global__ function is defined)")
                                                                  : "; it has " + names));
}

int lineOf(std::string_view source, std::size_t offset)
{
    offset = std::min(offset, source.size());
    return 1 + static_cast<int>(std::count(source.begin(), source.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

} // namespace ks::syntax
