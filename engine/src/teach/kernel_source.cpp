#include "ks/teach/kernel_source.hpp"

#include <algorithm>
#include <cctype>

namespace ks::teach {
namespace {

bool isIdentStart(char c)
{
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}

bool isIdentChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

enum class TokenKind { Identifier, Number, String, Punct };

struct Token {
    TokenKind kind;
    std::size_t begin, end;
    std::string_view text;
};

// Tokens of blanked source (no comments, no preprocessor lines).
std::vector<Token> tokenize(std::string_view s)
{
    std::vector<Token> tokens;
    std::size_t i = 0;
    while (i < s.size()) {
        const char c = s[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
            continue;
        }
        const std::size_t b = i;
        TokenKind kind = TokenKind::Punct;
        if (isIdentStart(c)) {
            while (i < s.size() && isIdentChar(s[i]))
                ++i;
            kind = TokenKind::Identifier;
        } else if (std::isdigit(static_cast<unsigned char>(c))) {
            while (i < s.size() && (isIdentChar(s[i]) || s[i] == '.' || s[i] == '\''))
                ++i;
            kind = TokenKind::Number;
        } else if (c == '"' || c == '\'') {
            ++i;
            while (i < s.size() && s[i] != c && s[i] != '\n')
                ++i;
            if (i < s.size())
                ++i;
            kind = TokenKind::String;
        } else if (c == ':' && i + 1 < s.size() && s[i + 1] == ':') {
            i += 2;
        } else {
            ++i;
        }
        tokens.push_back({kind, b, i, s.substr(b, i - b)});
    }
    return tokens;
}

// Index of the token that closes the bracket opened at tokens[open] ('(' '[' '{' '<'), or npos.
// For '<' only angle brackets count (template headers hold no comparison at top level in practice).
std::size_t matchForward(const std::vector<Token>& t, std::size_t open)
{
    const char o = t[open].text[0];
    const char c = o == '(' ? ')' : o == '[' ? ']' : o == '{' ? '}' : '>';
    int depth = 0;
    for (std::size_t i = open; i < t.size(); ++i) {
        if (t[i].kind != TokenKind::Punct)
            continue;
        if (t[i].text[0] == o)
            ++depth;
        else if (t[i].text[0] == c && --depth == 0)
            return i;
    }
    return std::string_view::npos;
}

std::string collapse(std::string_view s)
{
    std::string out;
    bool space = false;
    for (char c : s) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            space = !out.empty();
            continue;
        }
        if (space)
            out += ' ';
        space = false;
        out += c;
    }
    return out;
}

bool isTypeKeyword(std::string_view w)
{
    static const char* const kWords[] = {"int",    "unsigned", "signed", "char",  "short",        "long",
                                         "float",  "double",   "bool",   "void",  "const",        "volatile",
                                         "__restrict__", "restrict", "struct", "class", "typename", "auto"};
    return std::any_of(std::begin(kWords), std::end(kWords), [&](const char* k) { return w == k; });
}

bool isKernelAttribute(std::string_view w)
{
    return w == "__launch_bounds__" || w == "__maxnreg__" || w == "__cluster_dims__" || w == "__attribute__" ||
           w == "__noinline__" || w == "__forceinline__" || w == "__grid_constant__";
}

// Splits tokens [b, e) at top-level commas.
std::vector<std::pair<std::size_t, std::size_t>> splitTopLevel(const std::vector<Token>& t, std::size_t b, std::size_t e)
{
    std::vector<std::pair<std::size_t, std::size_t>> parts;
    int depth = 0;
    std::size_t start = b;
    for (std::size_t i = b; i < e; ++i) {
        if (t[i].kind != TokenKind::Punct)
            continue;
        const char c = t[i].text[0];
        if (c == '(' || c == '[' || c == '{' || c == '<')
            ++depth;
        else if (c == ')' || c == ']' || c == '}' || c == '>')
            --depth;
        else if (c == ',' && depth == 0) {
            parts.emplace_back(start, i);
            start = i + 1;
        }
    }
    if (start < e)
        parts.emplace_back(start, e);
    return parts;
}

KernelParam parseParam(std::string_view blanked, const std::vector<Token>& t, std::size_t b, std::size_t e)
{
    KernelParam p;
    // A default argument is not part of the declaration we copy.
    std::size_t declEnd = e;
    for (std::size_t i = b; i < e; ++i)
        if (t[i].kind == TokenKind::Punct && t[i].text == "=") {
            declEnd = i;
            break;
        }
    p.range = {t[b].begin, t[e - 1].end};
    const std::size_t last = declEnd - 1;
    p.declaration = collapse(blanked.substr(t[b].begin, t[last].end - t[b].begin));
    const bool named = declEnd - b >= 2 && t[last].kind == TokenKind::Identifier && !isTypeKeyword(t[last].text);
    std::size_t typeEnd = declEnd;
    if (named) {
        p.name = std::string(t[last].text);
        typeEnd = last;
    }
    p.type = collapse(blanked.substr(t[b].begin, t[typeEnd - 1].end - t[b].begin));
    // The last '*' of the type makes it a pointer; what precedes it is the element type.
    std::size_t star = std::string_view::npos;
    for (std::size_t i = b; i < typeEnd; ++i)
        if (t[i].kind == TokenKind::Punct && t[i].text == "*")
            star = i;
    if (star != std::string_view::npos && star > b) {
        p.kind = ParamKind::Pointer;
        p.elementType = collapse(blanked.substr(t[b].begin, t[star - 1].end - t[b].begin));
        for (std::size_t i = b; i < star; ++i)
            if (t[i].text == "const")
                p.pointeeConst = true;
    } else {
        std::string bare;
        for (std::size_t i = b; i < typeEnd; ++i)
            if (t[i].text != "const" && t[i].text != "__grid_constant__") {
                if (!bare.empty())
                    bare += ' ';
                bare += t[i].text;
            }
        if (bare == "cudaSurfaceObject_t" || bare == "unsigned long long" || bare == "unsigned long long int")
            p.kind = ParamKind::Surface;
    }
    return p;
}

struct Scope {
    bool externC = false;
    bool isNamespace = false;
    std::string name;
};

} // namespace

std::string KernelDefinition::qualifier() const
{
    std::string q;
    for (const std::string& n : namespaces)
        if (!n.empty())
            q += n + "::";
    return q;
}

std::string blankNonCode(std::string_view s)
{
    std::string out(s);
    auto blank = [&](std::size_t from, std::size_t to) {
        for (std::size_t k = from; k < to && k < out.size(); ++k)
            if (out[k] != '\n')
                out[k] = ' ';
    };
    std::size_t i = 0;
    bool lineStart = true;
    while (i < s.size()) {
        const char c = s[i];
        if (c == '\n') {
            lineStart = true;
            ++i;
            continue;
        }
        if (lineStart && c == '#') {
            std::size_t j = i;
            while (j < s.size() && !(s[j] == '\n' && s[j - 1] != '\\'))
                ++j;
            blank(i, j);
            i = j;
            continue;
        }
        if (!std::isspace(static_cast<unsigned char>(c)))
            lineStart = false;
        if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
            std::size_t j = s.find('\n', i);
            j = j == std::string_view::npos ? s.size() : j;
            blank(i, j);
            i = j;
        } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
            std::size_t j = s.find("*/", i + 2);
            j = j == std::string_view::npos ? s.size() : j + 2;
            blank(i, j);
            i = j;
        } else if (c == '"' || (c == '\'' && !(i > 0 && isIdentChar(s[i - 1])))) {
            std::size_t j = i + 1;
            while (j < s.size() && s[j] != c && s[j] != '\n')
                j += s[j] == '\\' ? 2 : 1;
            blank(i + 1, std::min(j, s.size()));
            i = std::min(j + 1, s.size());
        } else {
            ++i;
        }
    }
    return out;
}

int lineOf(std::string_view source, std::size_t offset)
{
    offset = std::min(offset, source.size());
    return 1 + static_cast<int>(std::count(source.begin(), source.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

std::vector<KernelDefinition> findKernels(std::string_view source)
{
    const std::string blanked = blankNonCode(source);
    const std::vector<Token> t = tokenize(blanked);
    std::vector<KernelDefinition> kernels;
    std::vector<Scope> scopes;
    auto text = [&](std::size_t i) { return i < t.size() ? t[i].text : std::string_view(); };
    auto isExternCAt = [&](std::size_t i) {
        return text(i) == "extern" && i + 1 < t.size() && t[i + 1].kind == TokenKind::String &&
               source.substr(t[i + 1].begin, 3) == "\"C\"";
    };

    for (std::size_t i = 0; i < t.size(); ++i) {
        const std::string_view w = t[i].text;
        if (w == "{") {
            Scope s;
            if (i >= 2 && isExternCAt(i - 2))
                s.externC = true;
            else if (i >= 1 && text(i - 1) == "namespace")
                s.isNamespace = true;
            else if (i >= 2 && text(i - 2) == "namespace" && t[i - 1].kind == TokenKind::Identifier) {
                s.isNamespace = true;
                s.name = std::string(t[i - 1].text);
            }
            scopes.push_back(s);
            continue;
        }
        if (w == "}") {
            if (!scopes.empty())
                scopes.pop_back();
            continue;
        }
        if (w != "__global__")
            continue;

        KernelDefinition k;
        k.globalKeyword = {t[i].begin, t[i].end};
        // Forward: attributes, the return type, the name before the parameter list's '('.
        std::size_t j = i + 1;
        std::size_t open = std::string_view::npos;
        for (; j < t.size(); ++j) {
            if (t[j].kind == TokenKind::Identifier && isKernelAttribute(t[j].text)) {
                if (j + 1 < t.size() && t[j + 1].text == "(") {
                    const std::size_t close = matchForward(t, j + 1);
                    if (close == std::string_view::npos)
                        break;
                    k.attributes.push_back(collapse(blanked.substr(t[j].begin, t[close].end - t[j].begin)));
                    k.attributeRanges.push_back({t[j].begin, t[close].end});
                    j = close;
                } else {
                    k.attributeRanges.push_back({t[j].begin, t[j].end});
                }
                continue;
            }
            if (t[j].text == "(") {
                if (j > i + 1 && t[j - 1].kind == TokenKind::Identifier)
                    open = j;
                break; // an explicit specialization (name<...>) or something else we do not handle
            }
            if (t[j].text == ";" || t[j].text == "{" || t[j].text == "}")
                break;
        }
        if (open == std::string_view::npos)
            continue;
        const std::size_t close = matchForward(t, open);
        if (close == std::string_view::npos)
            continue;
        std::size_t after = close + 1;
        while (after < t.size() && t[after].text != "{" && t[after].text != ";")
            ++after;
        if (after >= t.size() || t[after].text == ";") {
            i = after < t.size() ? after : i; // a declaration
            continue;
        }
        k.name = std::string(t[open - 1].text);
        k.nameToken = {t[open - 1].begin, t[open - 1].end};
        k.line = lineOf(source, t[open - 1].begin);
        k.bodyBegin = t[after].begin;
        for (const auto& [b, e] : splitTopLevel(t, open + 1, close))
            k.params.push_back(parseParam(blanked, t, b, e));
        if (k.params.size() == 1 && k.params[0].declaration == "void")
            k.params.clear();

        // Backward: specifiers, extern "C", a template header.
        std::size_t b = i;
        while (b > 0) {
            const std::string_view prev = t[b - 1].text;
            if (prev == "static" || prev == "inline" || prev == "__forceinline__" || prev == "__noinline__") {
                --b;
            } else if (t[b - 1].kind == TokenKind::String && b >= 2 && isExternCAt(b - 2)) {
                k.externC = true;
                b -= 2;
            } else {
                break;
            }
        }
        if (b > 0 && t[b - 1].text == ">") {
            int depth = 0;
            std::size_t k2 = b - 1;
            for (;; --k2) {
                if (t[k2].text == ">")
                    ++depth;
                else if (t[k2].text == "<" && --depth == 0)
                    break;
                if (k2 == 0)
                    break;
            }
            if (depth == 0 && k2 > 0 && t[k2 - 1].text == "template" && k2 + 1 < b - 1) {
                k.templateParameters = collapse(blanked.substr(t[k2 + 1].begin, t[b - 2].end - t[k2 + 1].begin));
                for (const auto& [pb, pe] : splitTopLevel(t, k2 + 1, b - 1)) {
                    std::size_t last = pe - 1;
                    for (std::size_t q = pb; q < pe; ++q)
                        if (t[q].text == "=") {
                            last = q - 1;
                            break;
                        }
                    for (std::size_t q = pb; q <= last; ++q)
                        if (t[q].text == ".")
                            k.templateParameterPack = true;
                    k.templateParameterNames.push_back(std::string(t[last].text));
                }
            }
        }
        for (const Scope& s : scopes) {
            k.externC = k.externC || s.externC;
            if (s.isNamespace)
                k.namespaces.push_back(s.name);
        }
        kernels.push_back(std::move(k));
        // Skip the body: kernels cannot nest, and its braces would disturb the scope stack.
        const std::size_t bodyOpen = after;
        const std::size_t bodyClose = matchForward(t, bodyOpen);
        i = bodyClose == std::string_view::npos ? t.size() : bodyClose;
    }
    return kernels;
}

std::optional<KernelDefinition> findKernel(std::string_view source, std::string_view name)
{
    for (KernelDefinition& k : findKernels(source))
        if (k.name == name)
            return std::move(k);
    return std::nullopt;
}

std::vector<std::size_t> outputCandidates(const KernelDefinition& kernel)
{
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < kernel.params.size(); ++i) {
        const KernelParam& p = kernel.params[i];
        if ((p.kind == ParamKind::Pointer && !p.pointeeConst) || p.kind == ParamKind::Surface)
            out.push_back(i);
    }
    return out;
}

} // namespace ks::teach
