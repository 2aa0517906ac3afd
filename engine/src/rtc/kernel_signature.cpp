#include "ks/rtc/kernel_signature.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace ks::rtc {

namespace {

struct Token {
    enum Kind { Identifier, String, Number, Punct } kind;
    std::string text;
    int line;
};

bool identStart(char c)
{
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool identChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Tokens of the source without comments and preprocessor lines.
std::vector<Token> tokenize(std::string_view s)
{
    std::vector<Token> out;
    int line = 1;
    bool lineStart = true;
    for (std::size_t i = 0; i < s.size();) {
        const char c = s[i];
        const char next = i + 1 < s.size() ? s[i + 1] : '\0';
        if (c == '\n') {
            ++line;
            lineStart = true;
            ++i;
            continue;
        }
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
            continue;
        }
        if (c == '/' && next == '/') {
            while (i < s.size() && s[i] != '\n')
                ++i;
            continue;
        }
        if (c == '/' && next == '*') {
            i += 2;
            while (i + 1 < s.size() && !(s[i] == '*' && s[i + 1] == '/')) {
                line += s[i] == '\n';
                ++i;
            }
            i += 2;
            continue;
        }
        if (c == '#' && lineStart) { // a directive, with its continuation lines
            while (i < s.size() && s[i] != '\n') {
                if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '\n') {
                    ++line;
                    ++i;
                }
                ++i;
            }
            continue;
        }
        lineStart = false;
        if (c == '"' || c == '\'') {
            const std::size_t start = i++;
            while (i < s.size() && s[i] != c && s[i] != '\n')
                i += s[i] == '\\' ? 2 : 1;
            ++i;
            out.push_back({c == '"' ? Token::String : Token::Number, std::string(s.substr(start, i - start)), line});
            continue;
        }
        if (identStart(c)) {
            const std::size_t start = i;
            while (i < s.size() && identChar(s[i]))
                ++i;
            out.push_back({Token::Identifier, std::string(s.substr(start, i - start)), line});
            continue;
        }
        if (std::isdigit(static_cast<unsigned char>(c))) {
            const std::size_t start = i;
            while (i < s.size() && (identChar(s[i]) || s[i] == '.'))
                ++i;
            out.push_back({Token::Number, std::string(s.substr(start, i - start)), line});
            continue;
        }
        if (c == ':' && next == ':') {
            out.push_back({Token::Punct, "::", line});
            i += 2;
            continue;
        }
        out.push_back({Token::Punct, std::string(1, c), line});
        ++i;
    }
    return out;
}

const std::set<std::string, std::less<>> kTypeWords = {
    "void",     "bool",   "char",     "short",     "int",    "long",   "float",    "double", "signed", "unsigned",
    "const",    "volatile", "__restrict__", "restrict", "__restrict", "struct", "class", "enum", "typename",
    "__half",   "half",   "size_t",   "auto"};

bool isOpen(const std::string& t)
{
    return t == "(" || t == "[" || t == "{";
}
bool isClose(const std::string& t)
{
    return t == ")" || t == "]" || t == "}";
}

// Index of the token closing the bracket at `open` (same kind), or tokens.size().
std::size_t matching(const std::vector<Token>& t, std::size_t open)
{
    int depth = 0;
    for (std::size_t i = open; i < t.size(); ++i) {
        if (t[i].kind != Token::Punct)
            continue;
        if (isOpen(t[i].text))
            ++depth;
        else if (isClose(t[i].text) && --depth == 0)
            return i;
    }
    return t.size();
}

std::string joinType(const std::vector<Token>& t, std::size_t begin, std::size_t end)
{
    std::string s;
    for (std::size_t i = begin; i < end; ++i) {
        const std::string& x = t[i].text;
        const bool glue = x == "*" || x == "&" || x == "::" || x == ">" || x == "," || x == "<" || x == "[" || x == "]";
        const bool prevGlue = !s.empty() && (s.back() == ':' || s.back() == '<' || s.back() == '[' || s.back() == ' ');
        if (!s.empty() && !glue && !prevGlue)
            s += ' ';
        if (x == ",")
            s += ", ";
        else
            s += x;
    }
    return s;
}

KernelParameter parseParameter(const std::vector<Token>& t, std::size_t begin, std::size_t end)
{
    // Cut a default argument: the first '=' outside brackets.
    int depth = 0;
    for (std::size_t i = begin; i < end; ++i) {
        const std::string& x = t[i].text;
        if (t[i].kind == Token::Punct && (isOpen(x) || x == "<"))
            ++depth;
        else if (t[i].kind == Token::Punct && (isClose(x) || x == ">"))
            --depth;
        else if (x == "=" && depth <= 0) {
            end = i;
            break;
        }
    }
    KernelParameter p;
    // Arrays: `T name[N]` decays to `T*`.
    bool array = false;
    if (end > begin && t[end - 1].text == "]") {
        std::size_t i = end - 1;
        while (i > begin && t[i].text != "[")
            --i;
        if (t[i].text == "[") {
            end = i;
            array = true;
        }
    }
    // The name is a trailing identifier that is not a type word, after at least one type token.
    if (end - begin >= 2 && t[end - 1].kind == Token::Identifier && !kTypeWords.count(t[end - 1].text) &&
        t[end - 2].text != "::") {
        p.name = t[end - 1].text;
        --end;
    }
    p.type = joinType(t, begin, end);
    if (array)
        p.type += "*";
    return p;
}

std::vector<KernelParameter> parseParameters(const std::vector<Token>& t, std::size_t open, std::size_t close)
{
    std::vector<KernelParameter> params;
    std::size_t start = open + 1;
    int depth = 0;
    for (std::size_t i = open + 1; i <= close; ++i) {
        const std::string& x = t[i].text;
        if (i < close && t[i].kind == Token::Punct) {
            if (isOpen(x) || x == "<")
                ++depth;
            else if (isClose(x) || x == ">")
                --depth;
        }
        if (i == close || (x == "," && depth == 0 && t[i].kind == Token::Punct)) {
            if (i > start)
                params.push_back(parseParameter(t, start, i));
            start = i + 1;
        }
    }
    if (params.size() == 1 && params[0].type == "void" && params[0].name.empty())
        params.clear();
    return params;
}

struct Scope {
    enum Kind { Namespace, ExternC, Other } kind;
    std::string name; // namespaces: "a" or "a::b"; "" for anonymous
};

std::string qualify(const std::vector<Scope>& scopes, const std::string& name)
{
    std::string q;
    for (const Scope& s : scopes)
        if (s.kind == Scope::Namespace && !s.name.empty())
            q += s.name + "::";
    return q + name;
}

} // namespace

std::string KernelSignature::display() const
{
    std::string s = name + "(";
    for (std::size_t i = 0; i < params.size(); ++i) {
        s += (i ? ", " : "") + params[i].type;
        if (!params[i].name.empty())
            s += " " + params[i].name;
    }
    return s + ")";
}

std::vector<KernelSignature> findKernels(std::string_view source)
{
    const std::vector<Token> t = tokenize(source);
    std::vector<KernelSignature> out;
    std::vector<Scope> scopes;
    std::size_t declStart = 0; // first token of the current declaration
    for (std::size_t i = 0; i < t.size(); ++i) {
        const Token& tok = t[i];
        if (tok.kind == Token::Punct && (tok.text == ";" || tok.text == "}")) {
            if (tok.text == "}" && !scopes.empty())
                scopes.pop_back();
            declStart = i + 1;
            continue;
        }
        if (tok.kind == Token::Punct && tok.text == "{") {
            // namespace a::b {  |  namespace {  |  extern "C" {  |  anything else
            Scope scope{Scope::Other, ""};
            std::size_t j = i;
            std::string name;
            while (j > declStart && (t[j - 1].kind == Token::Identifier || t[j - 1].text == "::")) {
                --j;
                if (t[j].text == "namespace") {
                    scope.kind = Scope::Namespace;
                    scope.name = name;
                    break;
                }
                name = t[j].text + name;
            }
            if (i >= 2 && t[i - 1].kind == Token::String && t[i - 1].text == "\"C\"" && t[i - 2].text == "extern")
                scope.kind = Scope::ExternC;
            scopes.push_back(scope);
            declStart = i + 1;
            continue;
        }
        if (tok.kind != Token::Identifier || tok.text != "__global__")
            continue;

        KernelSignature k;
        bool inOther = false;
        for (const Scope& s : scopes) {
            k.externC |= s.kind == Scope::ExternC;
            inOther |= s.kind == Scope::Other;
        }
        if (inOther)
            continue; // not at namespace scope (a lambda, a class member): not a kernel definition we know
        for (std::size_t j = declStart; j < i; ++j) {
            if (t[j].text == "template")
                k.isTemplate = true;
            if (t[j].text == "extern" && j + 1 < i && t[j + 1].text == "\"C\"")
                k.externC = true;
        }
        // Find the parameter list: the first '(' after an identifier that is not an attribute.
        std::size_t j = i + 1;
        std::size_t open = t.size();
        for (; j < t.size(); ++j) {
            const Token& x = t[j];
            if (x.kind == Token::Punct && (x.text == ";" || x.text == "{"))
                break;
            if (x.kind == Token::Punct && x.text == "[" && j + 1 < t.size() && t[j + 1].text == "[") {
                j = matching(t, j); // [[attribute]]
                continue;
            }
            if (x.kind == Token::Identifier && j + 1 < t.size() && t[j + 1].text == "(") {
                if (x.text == "__launch_bounds__" || x.text == "__attribute__" || x.text == "__declspec" ||
                    x.text == "alignas" || x.text == "__maxnreg__" || x.text == "__cluster_dims__") {
                    const std::size_t close = matching(t, j + 1);
                    if (x.text == "__launch_bounds__")
                        k.launchBounds = joinType(t, j + 2, close);
                    j = close;
                    continue;
                }
                open = j + 1;
                // The name, with any qualification written before it.
                std::size_t n = j;
                k.name = x.text;
                k.line = x.line;
                while (n >= 2 && t[n - 1].text == "::" && t[n - 2].kind == Token::Identifier) {
                    k.name = t[n - 2].text + "::" + k.name;
                    n -= 2;
                }
                break;
            }
        }
        if (open >= t.size())
            continue;
        const std::size_t close = matching(t, open);
        if (close >= t.size())
            continue;
        // A definition has a body; skip trailing qualifiers (noexcept, attributes) up to it.
        std::size_t after = close + 1;
        while (after < t.size() && t[after].text != "{" && t[after].text != ";")
            ++after;
        if (after >= t.size() || t[after].text != "{")
            continue;
        k.name = qualify(scopes, k.name);
        k.params = parseParameters(t, open, close);
        out.push_back(std::move(k));
        i = close; // the body's '{' is handled by the scope logic
        declStart = close + 1;
    }
    return out;
}

std::optional<TypeLayout> knownTypeLayout(std::string_view typeText)
{
    // Drop qualifiers; any pointer is 8 bytes on the 64-bit hosts CUDA supports.
    std::string type;
    {
        std::string word;
        std::vector<std::string> words;
        auto flush = [&] {
            if (!word.empty())
                words.push_back(word);
            word.clear();
        };
        for (char c : typeText) {
            if (identChar(c) || c == ':') {
                word += c;
            } else {
                flush();
                if (c == '*' || c == '&')
                    words.push_back(std::string(1, c));
            }
        }
        flush();
        for (const auto& w : words) {
            if (w == "const" || w == "volatile" || w == "__restrict__" || w == "__restrict" || w == "restrict" ||
                w == "struct" || w == "typename")
                continue;
            if (!type.empty() && w != "*" && w != "&" && type.back() != '*')
                type += ' ';
            type += w;
        }
    }
    if (!type.empty() && (type.back() == '*'))
        return TypeLayout{8, 8};
    if (!type.empty() && type.back() == '&')
        return std::nullopt; // references cannot be kernel parameters
    if (type.rfind("std::", 0) == 0 || type.rfind("::", 0) == 0)
        type = type.substr(type.find("::") + 2);
    static const std::map<std::string, TypeLayout, std::less<>> scalars = {
        {"bool", {1, 1}},
        {"char", {1, 1}},
        {"signed char", {1, 1}},
        {"unsigned char", {1, 1}},
        {"int8_t", {1, 1}},
        {"uint8_t", {1, 1}},
        {"short", {2, 2}},
        {"short int", {2, 2}},
        {"signed short", {2, 2}},
        {"unsigned short", {2, 2}},
        {"unsigned short int", {2, 2}},
        {"int16_t", {2, 2}},
        {"uint16_t", {2, 2}},
        {"__half", {2, 2}},
        {"half", {2, 2}},
        {"__nv_bfloat16", {2, 2}},
        {"__half2", {4, 4}},
        {"half2", {4, 4}},
        {"__nv_bfloat162", {4, 4}},
        {"int", {4, 4}},
        {"signed", {4, 4}},
        {"signed int", {4, 4}},
        {"unsigned", {4, 4}},
        {"unsigned int", {4, 4}},
        {"int32_t", {4, 4}},
        {"uint32_t", {4, 4}},
        {"float", {4, 4}},
        {"long", {8, 8}},
        {"long int", {8, 8}},
        {"signed long", {8, 8}},
        {"unsigned long", {8, 8}},
        {"unsigned long int", {8, 8}},
        {"long long", {8, 8}},
        {"long long int", {8, 8}},
        {"signed long long", {8, 8}},
        {"unsigned long long", {8, 8}},
        {"unsigned long long int", {8, 8}},
        {"int64_t", {8, 8}},
        {"uint64_t", {8, 8}},
        {"size_t", {8, 8}},
        {"ptrdiff_t", {8, 8}},
        {"intptr_t", {8, 8}},
        {"uintptr_t", {8, 8}},
        {"double", {8, 8}},
        {"CUdeviceptr", {8, 8}},
        {"cudaTextureObject_t", {8, 8}},
        {"cudaSurfaceObject_t", {8, 8}},
        {"CUtexObject", {8, 8}},
        {"CUsurfObject", {8, 8}},
        {"dim3", {12, 4}},
        {"uint3", {12, 4}},
    };
    if (auto it = scalars.find(type); it != scalars.end())
        return it->second;
    // Vector types: <base><n>, with the alignments <vector_types.h> declares.
    struct Base {
        const char* name;
        std::size_t size;
    };
    static const Base bases[] = {{"char", 1},  {"uchar", 1},    {"short", 2},     {"ushort", 2}, {"int", 4},
                                 {"uint", 4},  {"long", 8},     {"ulong", 8},     {"longlong", 8},
                                 {"ulonglong", 8}, {"float", 4}, {"double", 8}};
    for (const Base& b : bases) {
        const std::string_view name(b.name);
        if (type.size() < name.size() + 1 || type.compare(0, name.size(), name) != 0)
            continue;
        std::string_view rest = std::string_view(type).substr(name.size());
        // CUDA 13's explicitly aligned 4-vectors of 8-byte types: long4_16a, double4_32a, ...
        std::size_t explicitAlign = 0;
        if (rest == "4_16a")
            explicitAlign = 16;
        else if (rest == "4_32a")
            explicitAlign = 32;
        const char n = rest[0];
        if (n < '1' || n > '4' || (rest.size() != 1 && !explicitAlign))
            continue;
        const std::size_t count = std::size_t(n - '0');
        const std::size_t size = b.size * count;
        std::size_t align = b.size;
        if (explicitAlign)
            align = explicitAlign;
        else if (count == 2)
            align = size;
        else if (count == 4)
            align = std::min<std::size_t>(size, 16);
        return TypeLayout{size, align};
    }
    return std::nullopt;
}

} // namespace ks::rtc
