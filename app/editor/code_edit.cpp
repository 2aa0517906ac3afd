#include "editor/code_edit.hpp"

#include <algorithm>
#include <cstring>

namespace ks::app::text {

namespace {

bool continuation(char c)
{
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// 0: blank, 1: identifier character (bytes of non-ASCII letters count as such), 2: punctuation,
// 3: a line break.
int charClass(char c)
{
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n')
        return 3;
    if (c == ' ' || c == '\t' || c == '\r')
        return 0;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || u >= 0x80)
        return 1;
    return 2;
}

std::size_t clampToText(std::string_view text, std::size_t at)
{
    return std::min(at, text.size());
}

} // namespace

std::size_t charBoundary(std::string_view text, std::size_t at)
{
    at = clampToText(text, at);
    while (at > 0 && at < text.size() && continuation(text[at]))
        --at;
    return at;
}

std::size_t nextChar(std::string_view text, std::size_t at)
{
    if (at >= text.size())
        return text.size();
    ++at;
    while (at < text.size() && continuation(text[at]))
        ++at;
    return at;
}

std::size_t previousChar(std::string_view text, std::size_t at)
{
    at = clampToText(text, at);
    if (at == 0)
        return 0;
    --at;
    while (at > 0 && continuation(text[at]))
        --at;
    return at;
}

std::size_t wordRight(std::string_view text, std::size_t at)
{
    at = clampToText(text, at);
    while (at < text.size() && charClass(text[at]) == 0)
        ++at;
    if (at >= text.size())
        return text.size();
    const int cls = charClass(text[at]);
    if (cls == 3)
        return at + 1;
    while (at < text.size() && charClass(text[at]) == cls)
        ++at;
    return at;
}

std::size_t wordLeft(std::string_view text, std::size_t at)
{
    at = clampToText(text, at);
    while (at > 0 && charClass(text[at - 1]) == 0)
        --at;
    if (at == 0)
        return 0;
    const int cls = charClass(text[at - 1]);
    if (cls == 3)
        return at - 1;
    while (at > 0 && charClass(text[at - 1]) == cls)
        --at;
    return at;
}

std::size_t lineBegin(std::string_view text, std::size_t at)
{
    at = clampToText(text, at);
    const std::size_t nl = at == 0 ? std::string_view::npos : text.rfind('\n', at - 1);
    return nl == std::string_view::npos ? 0 : nl + 1;
}

std::size_t lineEnd(std::string_view text, std::size_t at)
{
    const std::size_t nl = text.find('\n', clampToText(text, at));
    return nl == std::string_view::npos ? text.size() : nl;
}

std::size_t smartHome(std::string_view text, std::size_t at)
{
    const std::size_t begin = lineBegin(text, at), end = lineEnd(text, at);
    std::size_t first = begin;
    while (first < end && (text[first] == ' ' || text[first] == '\t'))
        ++first;
    return at == first ? begin : first;
}

Caret wordAt(std::string_view text, std::size_t at)
{
    at = clampToText(text, at);
    // At a run's end (a click just after a word) the run before counts.
    if (at > 0 && (at == text.size() || charClass(text[at]) == 3 ||
                   (charClass(text[at]) != charClass(text[at - 1]) && charClass(text[at - 1]) == 1)))
        --at;
    if (at >= text.size() || charClass(text[at]) == 3)
        return {at, at};
    const int cls = charClass(text[at]);
    std::size_t b = at, e = at;
    while (b > 0 && charClass(text[b - 1]) == cls)
        --b;
    while (e < text.size() && charClass(text[e]) == cls)
        ++e;
    return {e, b};
}

Caret lineAt(std::string_view text, std::size_t at)
{
    const std::size_t end = lineEnd(text, at);
    return {end < text.size() ? end + 1 : end, lineBegin(text, at)};
}

void replaceSelection(std::string& text, Caret& caret, std::string_view with)
{
    const std::size_t b = std::min(caret.begin(), text.size());
    const std::size_t e = std::min(caret.end(), text.size());
    text.replace(b, e - b, with);
    caret.cursor = caret.anchor = b + with.size();
}

bool eraseBackward(std::string& text, Caret& caret, bool word)
{
    if (!caret.empty()) {
        replaceSelection(text, caret, {});
        return true;
    }
    const std::size_t at = std::min(caret.cursor, text.size());
    if (at == 0)
        return false;
    std::size_t from = word ? wordLeft(text, at) : previousChar(text, at);
    if (!word && text[at - 1] == ' ') { // in the indentation: back to the previous indent stop
        const std::size_t begin = lineBegin(text, at);
        if (text.find_first_not_of(' ', begin) >= at) {
            const std::size_t column = at - begin;
            from = begin + (column - 1) / kIndentWidth * kIndentWidth;
        }
    }
    caret = {at, from};
    replaceSelection(text, caret, {});
    return true;
}

bool eraseForward(std::string& text, Caret& caret, bool word)
{
    if (!caret.empty()) {
        replaceSelection(text, caret, {});
        return true;
    }
    const std::size_t at = std::min(caret.cursor, text.size());
    if (at == text.size())
        return false;
    caret = {word ? wordRight(text, at) : nextChar(text, at), at};
    replaceSelection(text, caret, {});
    return true;
}

bool indentsWithTabs(std::string_view text)
{
    long balance = 0; // lines indented with a tab, less those indented with spaces
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        if (at < end && text[at] == '\t')
            ++balance;
        else if (at < end && text[at] == ' ' && !(at + 1 < end && text[at + 1] == '*')) // " *": a block comment's
            --balance;
        at = end + 1;
    }
    return balance > 0;
}

bool tab(std::string& text, Caret& caret, bool outdent, bool tabs)
{
    const std::size_t b = std::min(caret.begin(), text.size()), e = std::min(caret.end(), text.size());
    const bool lines = b != e && text.find('\n', b) < e; // a selection over line breaks
    if (!lines && !outdent) {
        const int column = columnOf(text, b);
        replaceSelection(text, caret, tabs ? std::string("\t") : std::string(std::size_t(kIndentWidth - column % kIndentWidth), ' '));
        return true;
    }
    // Every line the selection touches (a selection ending at a line's start leaves that line out).
    const std::size_t first = lineBegin(text, b);
    const std::size_t last = lines && e > 0 && text[e - 1] == '\n' ? lineBegin(text, e - 1) : lineBegin(text, e);
    std::string out(text.substr(0, first));
    std::size_t newB = std::string::npos, newE = std::string::npos;
    bool changed = false;
    for (std::size_t at = first;;) {
        const std::size_t end = lineEnd(text, at);
        std::size_t removed = 0, added = 0;
        if (outdent) {
            if (at < end && text[at] == '\t')
                removed = 1;
            else
                while (removed < std::size_t(kIndentWidth) && at + removed < end && text[at + removed] == ' ')
                    ++removed;
        } else if (end > at) { // blank lines stay empty
            added = tabs ? 1 : kIndentWidth;
        }
        const std::size_t startsAt = out.size(); // where this line starts in the new text
        out.append(added, tabs ? '\t' : ' ');
        out.append(text, at + removed, end - at - removed);
        changed |= added || removed;
        // An offset on this line moves with its text (one in removed indentation: to the text's
        // start); one at the line's very start stays there, so whole selected lines stay selected.
        auto moved = [&](std::size_t off) {
            return off == at ? startsAt : startsAt + added + (off - at > removed ? off - at - removed : 0);
        };
        if (newB == std::string::npos && b >= at && b <= end)
            newB = moved(b);
        if (newE == std::string::npos && e >= at && e <= end)
            newE = moved(e);
        if (at >= last || end >= text.size()) { // the rest is unchanged (and shifted)
            if (newB == std::string::npos)
                newB = b - end + out.size();
            if (newE == std::string::npos)
                newE = e - end + out.size();
            out.append(text, end, std::string_view::npos);
            break;
        }
        out += '\n';
        at = end + 1;
    }
    if (!changed)
        return false;
    text = std::move(out);
    if (caret.cursor >= caret.anchor)
        caret = {newE, newB};
    else
        caret = {newB, newE};
    return true;
}

int columnOf(std::string_view text, std::size_t at)
{
    at = clampToText(text, at);
    int column = 0;
    for (std::size_t i = lineBegin(text, at); i < at; i = nextChar(text, i))
        column += text[i] == '\t' ? kIndentWidth : 1;
    return column;
}

std::size_t offsetAtColumn(std::string_view text, std::size_t begin, int column)
{
    const std::size_t end = lineEnd(text, begin);
    int c = 0;
    std::size_t i = clampToText(text, begin);
    while (i < end) {
        const int w = text[i] == '\t' ? kIndentWidth : 1;
        if (c + w > column) // nearer the character's left edge or its right one
            return column - c > w / 2 ? nextChar(text, i) : i;
        c += w;
        i = nextChar(text, i);
    }
    return end;
}

std::size_t moveLines(std::string_view text, std::size_t at, int lines, int column)
{
    std::size_t begin = lineBegin(text, at);
    for (; lines < 0; ++lines) {
        if (begin == 0)
            return 0;
        begin = lineBegin(text, begin - 1);
    }
    for (; lines > 0; --lines) {
        const std::size_t end = lineEnd(text, begin);
        if (end >= text.size())
            return text.size();
        begin = end + 1;
    }
    return offsetAtColumn(text, begin, column);
}

namespace {

// Appends the start of every line that begins after `from` (memchr finds the line breaks).
void appendStartsAfter(std::vector<int>& starts, std::string_view text, std::size_t from)
{
    const char* b = text.data();
    const char* e = b + text.size();
    for (const char* p = b + from; (p = static_cast<const char*>(std::memchr(p, '\n', std::size_t(e - p)))) != nullptr;)
        starts.push_back(int(++p - b));
}

} // namespace

std::vector<int> lineStarts(std::string_view text)
{
    std::vector<int> starts{0};
    starts.reserve(text.size() / 32 + 1);
    appendStartsAfter(starts, text, 0);
    return starts;
}

void updateLineStarts(std::vector<int>& starts, std::string_view text, std::size_t from)
{
    from = std::min(from, text.size());
    // Lines that start at or before `from` are as they were; a start after it may be gone or moved.
    starts.erase(std::upper_bound(starts.begin(), starts.end(), int(from)), starts.end());
    if (starts.empty())
        starts.push_back(0);
    appendStartsAfter(starts, text, std::size_t(starts.back()));
}

} // namespace ks::app::text
