#include "editor/editor_text.hpp"

#include <algorithm>

namespace ks::app::text {

namespace {

char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
}

bool wordChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           static_cast<unsigned char>(c) >= 0x80;
}

bool equalAt(std::string_view text, std::size_t at, std::string_view needle, bool matchCase)
{
    if (matchCase)
        return text.compare(at, needle.size(), needle) == 0;
    for (std::size_t i = 0; i < needle.size(); ++i)
        if (lower(text[at + i]) != lower(needle[i]))
            return false;
    return true;
}

// Which pair a bracket belongs to (0: (), 1: [], 2: {}) and whether it opens; -1 for any other character.
int bracketKind(char c, bool& opening)
{
    switch (c) {
    case '(': opening = true; return 0;
    case ')': opening = false; return 0;
    case '[': opening = true; return 1;
    case ']': opening = false; return 1;
    case '{': opening = true; return 2;
    case '}': opening = false; return 2;
    default: return -1;
    }
}

bool isBlank(std::string_view line)
{
    return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

} // namespace

std::vector<Match> findAll(std::string_view text, std::string_view needle, FindOptions options)
{
    std::vector<Match> out;
    if (needle.empty() || needle.size() > text.size())
        return out;
    for (std::size_t at = 0; at + needle.size() <= text.size();) {
        if (equalAt(text, at, needle, options.matchCase) &&
            (!options.wholeWord ||
             ((at == 0 || !wordChar(text[at - 1])) &&
              (at + needle.size() == text.size() || !wordChar(text[at + needle.size()]))))) {
            out.push_back({at, at + needle.size()});
            at += needle.size();
        } else {
            ++at;
        }
    }
    return out;
}

int nextMatch(const std::vector<Match>& matches, std::size_t from)
{
    if (matches.empty())
        return -1;
    const auto it = std::lower_bound(matches.begin(), matches.end(), from,
                                     [](const Match& m, std::size_t f) { return m.begin < f; });
    return it == matches.end() ? 0 : int(it - matches.begin());
}

int previousMatch(const std::vector<Match>& matches, std::size_t from)
{
    if (matches.empty())
        return -1;
    const auto it = std::lower_bound(matches.begin(), matches.end(), from,
                                     [](const Match& m, std::size_t f) { return m.begin < f; });
    return it == matches.begin() ? int(matches.size()) - 1 : int(it - matches.begin()) - 1;
}

std::string replaceAll(std::string_view text, std::string_view needle, std::string_view with, FindOptions options,
                       int* count)
{
    const std::vector<Match> matches = findAll(text, needle, options);
    std::string out;
    out.reserve(text.size());
    std::size_t at = 0;
    for (const Match& m : matches) {
        out.append(text.substr(at, m.begin - at));
        out.append(with);
        at = m.end;
    }
    out.append(text.substr(at));
    if (count)
        *count = int(matches.size());
    return out;
}

std::size_t lineStart(std::string_view text, int line)
{
    std::size_t at = 0;
    for (int l = 1; l < line; ++l) {
        const std::size_t nl = text.find('\n', at);
        if (nl == std::string_view::npos)
            return at;
        at = nl + 1;
    }
    return at;
}

std::string indentForNewLine(std::string_view text, std::size_t cursor, bool tabs)
{
    if (cursor == 0 || cursor > text.size() || text[cursor - 1] != '\n')
        return {};
    const std::size_t end = cursor - 1; // the '\n'
    const std::size_t nl = end == 0 ? std::string_view::npos : text.rfind('\n', end - 1);
    const std::size_t begin = nl == std::string_view::npos ? 0 : nl + 1;
    std::string_view line = text.substr(begin, end - begin);
    const std::size_t body = line.find_first_not_of(" \t");
    std::string indent(line.substr(0, body == std::string_view::npos ? line.size() : body));
    if (const std::size_t comment = line.find("//"); comment != std::string_view::npos)
        line = line.substr(0, comment);
    const std::size_t last = line.find_last_not_of(" \t\r");
    if (last != std::string_view::npos && line[last] == '{')
        indent += tabs ? "\t" : "    ";
    return indent;
}

Edit toggleLineComments(std::string_view text, std::size_t selBegin, std::size_t selEnd)
{
    selBegin = std::min(selBegin, text.size());
    selEnd = std::clamp(selEnd, selBegin, text.size());
    // A selection that ends at the start of a line does not take that line in.
    const std::size_t lastByte = selEnd > selBegin && text[selEnd - 1] == '\n' ? selEnd - 1 : selEnd;
    const std::size_t first = text.rfind('\n', selBegin == 0 ? std::string_view::npos : selBegin - 1);
    const std::size_t begin = selBegin == 0 || first == std::string_view::npos ? 0 : first + 1;
    const std::size_t nl = text.find('\n', lastByte);
    const std::size_t end = nl == std::string_view::npos ? text.size() : nl;

    std::vector<std::string_view> lines;
    for (std::size_t at = begin;;) {
        const std::size_t e = std::min(end, text.find('\n', at));
        lines.push_back(text.substr(at, e - at));
        if (e >= end)
            break;
        at = e + 1;
    }
    bool allCommented = true, anyText = false;
    std::size_t indent = std::string_view::npos;
    for (std::string_view l : lines) {
        if (isBlank(l))
            continue;
        anyText = true;
        const std::size_t i = l.find_first_not_of(" \t");
        indent = std::min(indent, i);
        allCommented &= l.compare(i, 2, "//") == 0;
    }
    if (!anyText)
        return {std::string(text), selBegin, selEnd};

    std::string block;
    for (std::size_t k = 0; k < lines.size(); ++k) {
        std::string_view l = lines[k];
        if (k > 0)
            block += '\n';
        if (isBlank(l)) {
            block.append(l);
        } else if (allCommented) {
            const std::size_t i = l.find_first_not_of(" \t");
            const std::size_t after = i + 2 + (l.size() > i + 2 && l[i + 2] == ' ' ? 1 : 0);
            block.append(l.substr(0, i));
            block.append(l.substr(after));
        } else {
            block.append(l.substr(0, indent));
            block.append("// ");
            block.append(l.substr(indent));
        }
    }
    Edit e;
    e.text = std::string(text.substr(0, begin)) + block + std::string(text.substr(end));
    e.selBegin = begin;
    e.selEnd = begin + block.size();
    return e;
}

std::optional<BracketPair> matchingBracket(std::string_view text, std::size_t cursor,
                                           const std::function<bool(std::size_t)>& isCode, std::size_t limit)
{
    // The bracket right before the cursor wins (as after typing it), else the one at the cursor.
    for (const std::size_t at : {cursor > 0 ? cursor - 1 : std::size_t(-1), cursor}) {
        if (at >= text.size() || !isCode(at))
            continue;
        bool opening = false;
        const int kind = bracketKind(text[at], opening);
        if (kind < 0)
            continue;
        int depth = 0;
        const std::size_t end = opening ? std::min(text.size(), at + limit) : (at > limit ? at - limit : 0);
        for (std::size_t i = at;;) {
            bool o = false;
            if (bracketKind(text[i], o) == kind && isCode(i)) {
                depth += o == opening ? 1 : -1;
                if (depth == 0)
                    return BracketPair{at, i};
            }
            if (opening) {
                if (++i >= end)
                    break;
            } else {
                if (i == end)
                    break;
                --i;
            }
        }
        return std::nullopt; // unmatched
    }
    return std::nullopt;
}

} // namespace ks::app::text
