#include "ks/pipeline/kernel_signature.hpp"

#include <cctype>

namespace ks::pipeline {
namespace {

// Comments and string/char literals become spaces; newlines are kept so lines still count.
std::string blankComments(std::string_view s)
{
    std::string out(s);
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (out[i] == '/' && i + 1 < out.size() && out[i + 1] == '/') {
            while (i < out.size() && out[i] != '\n')
                out[i++] = ' ';
        } else if (out[i] == '/' && i + 1 < out.size() && out[i + 1] == '*') {
            out[i] = out[i + 1] = ' ';
            i += 2;
            while (i + 1 < out.size() && !(out[i] == '*' && out[i + 1] == '/')) {
                if (out[i] != '\n')
                    out[i] = ' ';
                ++i;
            }
            if (i + 1 < out.size())
                out[i] = out[i + 1] = ' ', ++i;
        } else if (out[i] == '"' || out[i] == '\'') {
            const char q = out[i];
            for (++i; i < out.size() && out[i] != q && out[i] != '\n'; ++i)
                if (out[i] == '\\')
                    ++i;
        }
    }
    return out;
}

bool isIdent(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

std::string trim(std::string_view s)
{
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
        ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
        --e;
    return std::string(s.substr(b, e - b));
}

// Tokens: identifiers and single punctuation characters.
std::vector<std::string> tokens(std::string_view s)
{
    std::vector<std::string> out;
    for (std::size_t i = 0; i < s.size();) {
        if (std::isspace(static_cast<unsigned char>(s[i]))) {
            ++i;
        } else if (isIdent(s[i])) {
            std::size_t j = i;
            while (j < s.size() && isIdent(s[j]))
                ++j;
            out.emplace_back(s.substr(i, j - i));
            i = j;
        } else if (s[i] == ':' && i + 1 < s.size() && s[i + 1] == ':') {
            out.emplace_back("::");
            i += 2;
        } else {
            out.emplace_back(1, s[i++]);
        }
    }
    return out;
}

KernelParam parseParam(std::string_view text, int line)
{
    KernelParam p;
    p.line = line;
    std::string t = trim(text);
    if (const auto eq = t.find('='); eq != std::string::npos)
        t = trim(std::string_view(t).substr(0, eq));
    std::vector<std::string> toks = tokens(t);
    if (toks.empty())
        return p;
    if (isIdent(toks.back()[0]) && toks.size() > 1 && !std::isdigit(static_cast<unsigned char>(toks.back()[0]))) {
        p.name = toks.back();
        toks.pop_back();
    }
    int stars = 0;
    bool constBeforeStar = false;
    std::vector<std::string> base;
    for (const std::string& tok : toks) {
        if (tok == "*") {
            ++stars;
        } else if (tok == "const") {
            if (stars == 0)
                constBeforeStar = true;
        } else if (tok == "__restrict__" || tok == "__restrict" || tok == "restrict" || tok == "volatile" ||
                   tok == "&") {
        } else if (stars == 0) {
            base.push_back(tok);
        }
    }
    std::string baseName;
    for (const std::string& b : base)
        baseName += (baseName.empty() || b == "::" || baseName.ends_with("::") ? "" : " ") + b;
    for (std::size_t i = 0; i < toks.size(); ++i)
        p.typeText += (i && toks[i] != "*" ? " " : "") + toks[i];
    if (stars == 1) {
        p.kind = KernelParam::Kind::Pointer;
        p.constPointee = constBeforeStar;
        p.type = project::parseValueType(baseName);
    } else if (stars == 0 && (baseName == "cudaSurfaceObject_t" || baseName == "CUsurfObject")) {
        p.kind = KernelParam::Kind::Surface;
    } else if (stars == 0 && (baseName == "cudaTextureObject_t" || baseName == "CUtexObject")) {
        p.kind = KernelParam::Kind::Texture;
    } else if (stars == 0) {
        p.type = project::parseValueType(baseName);
        p.kind = p.type ? KernelParam::Kind::Value : KernelParam::Kind::Unknown;
    }
    return p;
}

} // namespace

std::vector<KernelSignature> findKernels(std::string_view source)
{
    const std::string s = blankComments(source);
    std::vector<KernelSignature> out;
    auto lineAt = [&](std::size_t pos) {
        int line = 1;
        for (std::size_t i = 0; i < pos && i < s.size(); ++i)
            line += s[i] == '\n';
        return line;
    };
    std::size_t at = 0;
    while ((at = s.find("__global__", at)) != std::string::npos) {
        const std::size_t kw = at;
        at += 10;
        if ((kw > 0 && isIdent(s[kw - 1])) || (at < s.size() && isIdent(s[at])))
            continue;
        KernelSignature k;
        // What precedes on the same declaration: extern "C", template<...>.
        const std::size_t declStart = s.find_last_of(";}", kw);
        const std::string_view before(s.data() + (declStart == std::string::npos ? 0 : declStart + 1),
                                      kw - (declStart == std::string::npos ? 0 : declStart + 1));
        k.externC = std::string_view(source).substr(kw - before.size(), before.size()).find("extern") !=
                    std::string_view::npos;
        k.templated = before.find("template") != std::string_view::npos;
        // The name: the identifier right before the first '(' that is not __launch_bounds__'s.
        std::size_t i = at;
        std::size_t nameEnd = std::string::npos;
        while (i < s.size()) {
            if (s[i] == '(') {
                std::size_t j = i;
                while (j > at && std::isspace(static_cast<unsigned char>(s[j - 1])))
                    --j;
                std::size_t b = j;
                while (b > at && isIdent(s[b - 1]))
                    --b;
                const std::string ident = s.substr(b, j - b);
                if (ident == "__launch_bounds__" || ident == "__cluster_dims__" || ident == "__maxnreg__") {
                    int depth = 0;
                    for (; i < s.size(); ++i) {
                        depth += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
                        if (depth == 0)
                            break;
                    }
                    ++i;
                    continue;
                }
                k.name = ident;
                k.line = lineAt(b);
                nameEnd = i;
                break;
            }
            if (s[i] == ';' || s[i] == '{')
                break;
            ++i;
        }
        if (nameEnd == std::string::npos || k.name.empty())
            continue;
        // Parameters up to the matching ')', split at top-level commas.
        int depth = 0;
        std::size_t start = nameEnd + 1;
        for (i = nameEnd; i < s.size(); ++i) {
            const char c = s[i];
            if (c == '(' || c == '<' || c == '[')
                ++depth;
            else if (c == ')' || c == '>' || c == ']')
                --depth;
            if ((c == ',' && depth == 1) || depth == 0) {
                const std::string_view text(s.data() + start, i - start);
                if (!trim(text).empty() && trim(text) != "void") {
                    std::size_t first = start;
                    while (first < i && std::isspace(static_cast<unsigned char>(s[first])))
                        ++first;
                    k.params.push_back(parseParam(text, lineAt(first)));
                }
                start = i + 1;
                if (depth == 0)
                    break;
            }
        }
        at = i;
        out.push_back(std::move(k));
    }
    return out;
}

std::string describeParam(const KernelParam& p)
{
    std::string what;
    switch (p.kind) {
    case KernelParam::Kind::Pointer: what = p.constPointee ? "a read-only pointer" : "a pointer"; break;
    case KernelParam::Kind::Value: what = "a value"; break;
    case KernelParam::Kind::Surface: what = "a surface object"; break;
    case KernelParam::Kind::Texture: what = "a texture object"; break;
    case KernelParam::Kind::Unknown: what = "a parameter of a type Kernelscope cannot bind"; break;
    }
    return "'" + p.typeText + (p.name.empty() ? "" : " " + p.name) + "' (" + what + ")";
}

} // namespace ks::pipeline
