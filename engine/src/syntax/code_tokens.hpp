#pragma once
// The syntax layer's private view of source code as tokens (comments and preprocessor lines
// dropped) and bracket nesting over them: what the kernel signature scanner and the record layout
// reader (kernel_signature.cpp, record_layout.cpp) walk. Not installed; engine/src/syntax only.

#include "ks/syntax/kernel_signature.hpp"
#include "ks/syntax/lexer.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::syntax::code {

inline constexpr std::size_t kNone = std::string_view::npos;

// The tokens of the code: no comments, no preprocessor lines.
class Code {
public:
    explicit Code(std::string_view source) : m_source(source)
    {
        Lexer lexer(source);
        for (Token t; lexer.next(t);)
            if (t.kind != TokenKind::Comment && !t.inDirective)
                m_tokens.push_back(t);
    }

    std::size_t size() const { return m_tokens.size(); }
    const Token& operator[](std::size_t i) const { return m_tokens[i]; }
    std::string_view text(std::size_t i) const { return i < size() ? m_tokens[i].text(m_source) : std::string_view(); }
    bool punct(std::size_t i, std::string_view p) const
    {
        return i < size() && m_tokens[i].kind == TokenKind::Punct && text(i) == p;
    }
    bool identifier(std::size_t i) const { return i < size() && m_tokens[i].kind == TokenKind::Identifier; }
    bool word(std::size_t i, std::string_view w) const { return identifier(i) && text(i) == w; }
    SourceRange range(std::size_t b, std::size_t e) const { return {m_tokens[b].begin, m_tokens[e - 1].end}; }

    // Tokens [b, e) as written, comments removed and white space collapsed to one space.
    std::string written(std::size_t b, std::size_t e) const
    {
        std::string s;
        for (std::size_t i = b; i < e; ++i) {
            if (i > b && m_tokens[i].begin > m_tokens[i - 1].end)
                s += ' ';
            s += text(i);
        }
        return s;
    }

    // `tokens` spelled one way whatever the spacing: "const float*", "Pair<int, float>*", "ns::T".
    std::string normalised(const std::vector<std::size_t>& tokens) const
    {
        std::string s;
        std::string_view prev;
        for (const std::size_t i : tokens) {
            const std::string_view x = text(i);
            const bool glueBefore = x == "*" || x == "&" || x == "::" || x == "<" || x == ">" || x == "," || x == "[" ||
                                    x == "]" || x == ")" || x == ".";
            const bool glueAfter =
                prev == "::" || prev == "<" || prev == "[" || prev == "(" || prev == "." || prev == ",";
            if (!s.empty() && !glueBefore && !glueAfter)
                s += ' ';
            s += x;
            if (x == ",")
                s += ' ';
            prev = x;
        }
        return s;
    }

    // Index of the token that closes the '(', '[' or '{' at `open` (only that kind counts), or kNone.
    std::size_t matching(std::size_t open) const
    {
        const std::string_view o = text(open);
        const std::string_view c = o == "(" ? ")" : o == "[" ? "]" : "}";
        int depth = 0;
        for (std::size_t i = open; i < size(); ++i) {
            if (punct(i, o))
                ++depth;
            else if (punct(i, c) && --depth == 0)
                return i;
        }
        return kNone;
    }

private:
    std::string_view m_source;
    std::vector<Token> m_tokens;
};

// Bracket nesting over a run of tokens. '<' opens a template argument list only after a name
// (and, with `angles` false, never: a default argument compares); a closing bracket closes what
// is open back to its own kind, so a comparison's '<' inside parentheses does not linger.
class Nesting {
public:
    // Feeds token `i`; true when it is at the top level (a bracket counts as outside itself).
    bool feed(const Code& c, std::size_t i, bool angles = true)
    {
        if (c[i].kind != TokenKind::Punct)
            return m_open.empty();
        const char x = c.text(i)[0];
        const bool top = m_open.empty();
        if (x == '(' || x == '[' || x == '{' || (x == '<' && angles && i > 0 && c.identifier(i - 1))) {
            m_open.push_back(x);
            return top;
        }
        const char want = x == ')' ? '(' : x == ']' ? '[' : x == '}' ? '{' : x == '>' ? '<' : '\0';
        if (!want || (want == '<' && (m_open.empty() || m_open.back() != '<')))
            return top;
        while (!m_open.empty()) {
            const char o = m_open.back();
            m_open.pop_back();
            if (o == want)
                break;
        }
        return m_open.empty();
    }
    bool top() const { return m_open.empty(); }

private:
    std::vector<char> m_open;
};

// Splits tokens [b, e) at top-level commas into non-empty parts; after a top-level '=' (a default
// argument) a '<' is a comparison.
inline std::vector<std::pair<std::size_t, std::size_t>> splitTopLevel(const Code& c, std::size_t b, std::size_t e)
{
    std::vector<std::pair<std::size_t, std::size_t>> parts;
    Nesting n;
    bool inDefault = false;
    std::size_t start = b;
    for (std::size_t i = b; i < e; ++i) {
        const bool top = n.feed(c, i, !inDefault);
        if (top && c.punct(i, ",")) {
            if (start < i) // `(int, , float)` is no parameter between the commas
                parts.emplace_back(start, i);
            start = i + 1;
            inDefault = false;
        } else if (top && c.punct(i, "=")) {
            inDefault = true;
        }
    }
    if (start < e)
        parts.emplace_back(start, e);
    return parts;
}

// findRecordLayout (type_layout.hpp) over tokens already read: the kernel scanner looks up each
// struct parameter's record in the source it has lexed (record_layout.cpp).
std::optional<RecordLayout> findRecordLayout(const Code& code, std::string_view name, std::string* why);

} // namespace ks::syntax::code
