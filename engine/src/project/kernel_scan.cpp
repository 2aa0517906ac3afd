#include "ks/project/kernel_scan.hpp"

#include <algorithm>
#include <cctype>

namespace ks::project {

namespace {

// The source with comments and the contents of string and character literals replaced by spaces
// (newlines kept, so offsets and line numbers stay valid).
std::string blankCommentsAndStrings(std::string_view s)
{
    std::string out(s);
    for (std::size_t i = 0; i < s.size();) {
        if (s.compare(i, 2, "//") == 0) {
            for (; i < s.size() && s[i] != '\n'; ++i)
                out[i] = ' ';
        } else if (s.compare(i, 2, "/*") == 0) {
            const std::size_t end = s.find("*/", i + 2);
            const std::size_t stop = end == std::string_view::npos ? s.size() : end + 2;
            for (; i < stop; ++i)
                if (s[i] != '\n')
                    out[i] = ' ';
        } else if (s[i] == '"' || s[i] == '\'') {
            const char quote = s[i++];
            for (; i < s.size() && s[i] != quote && s[i] != '\n'; ++i) {
                if (s[i] == '\\' && i + 1 < s.size())
                    out[i++] = ' ';
                out[i] = ' ';
            }
            ++i;
        } else {
            ++i;
        }
    }
    return out;
}

bool isIdent(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

std::string collapse(std::string_view s)
{
    std::string out;
    for (char c : s) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            if (!out.empty() && out.back() != ' ')
                out += ' ';
        } else {
            out += c;
        }
    }
    while (!out.empty() && out.back() == ' ')
        out.pop_back();
    return out;
}

// Index of the bracket closing the one at `open`, or npos.
std::size_t closing(const std::string& s, std::size_t open)
{
    int depth = 0;
    for (std::size_t i = open; i < s.size(); ++i) {
        if (s[i] == '(')
            ++depth;
        else if (s[i] == ')' && --depth == 0)
            return i;
    }
    return std::string::npos;
}

std::vector<std::string> splitParameters(std::string_view list)
{
    std::vector<std::string> out;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= list.size(); ++i) {
        const char c = i < list.size() ? list[i] : ',';
        if (c == '<' || c == '(' || c == '[' || c == '{')
            ++depth;
        else if (c == '>' || c == ')' || c == ']' || c == '}')
            --depth;
        else if (c == ',' && depth <= 0) {
            std::string p = collapse(list.substr(start, i - start));
            if (!p.empty() && p != "void")
                out.push_back(std::move(p));
            start = i + 1;
        }
    }
    return out;
}

bool startsWithType(std::string p, std::string_view type)
{
    if (p.rfind("const ", 0) == 0)
        p = p.substr(6);
    return p.rfind(type, 0) == 0 && (p.size() == type.size() || !isIdent(p[type.size()]));
}

} // namespace

std::vector<KernelDeclaration> findKernels(std::string_view source)
{
    const std::string s = blankCommentsAndStrings(source);
    std::vector<KernelDeclaration> kernels;
    constexpr std::string_view kGlobal = "__global__";
    for (std::size_t at = s.find(kGlobal); at != std::string::npos; at = s.find(kGlobal, at + kGlobal.size())) {
        if ((at > 0 && isIdent(s[at - 1])) || (at + kGlobal.size() < s.size() && isIdent(s[at + kGlobal.size()])))
            continue;
        // Walk to the '(' that opens the parameter list, stepping over attribute-like calls.
        std::size_t i = at + kGlobal.size();
        std::string lastIdent;
        std::size_t lastIdentAt = 0;
        while (i < s.size() && s[i] != ';' && s[i] != '{') {
            if (isIdent(s[i])) {
                const std::size_t b = i;
                while (i < s.size() && isIdent(s[i]))
                    ++i;
                lastIdent = s.substr(b, i - b);
                lastIdentAt = b;
                continue;
            }
            if (s[i] == '(') {
                const std::size_t close = closing(s, i);
                if (close == std::string::npos)
                    break;
                if (lastIdent == "__launch_bounds__" || lastIdent == "__attribute__" || lastIdent == "alignas" ||
                    lastIdent == "__align__" || lastIdent == "__cluster_dims__") {
                    i = close + 1;
                    continue;
                }
                KernelDeclaration k;
                k.name = lastIdent;
                k.line = 1 + int(std::count(s.begin(), s.begin() + std::ptrdiff_t(lastIdentAt), '\n'));
                k.parameters = splitParameters(std::string_view(s).substr(i + 1, close - i - 1));
                // extern "C" on this declaration: look back to the previous statement's end.
                const std::size_t stmt = s.find_last_of(";}", at);
                const std::size_t from = stmt == std::string::npos ? 0 : stmt + 1;
                k.externC = source.substr(from, at - from).find("extern \"C\"") != std::string_view::npos;
                if (!k.name.empty())
                    kernels.push_back(std::move(k));
                break;
            }
            ++i;
        }
    }
    return kernels;
}

bool fitsDemoStage(const KernelDeclaration& k)
{
    return k.parameters.size() == 4 && startsWithType(k.parameters[0], "cudaSurfaceObject_t") &&
           startsWithType(k.parameters[1], "int") && startsWithType(k.parameters[2], "int") &&
           startsWithType(k.parameters[3], "float");
}

} // namespace ks::project
