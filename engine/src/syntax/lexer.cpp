#include "ks/syntax/lexer.hpp"

#include <algorithm>

namespace ks::syntax {
namespace {

bool identStart(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}

bool identChar(unsigned char c)
{
    return identStart(c) || (c >= '0' && c <= '9');
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isPrefix(std::string_view w)
{
    return w == "u8" || w == "u" || w == "U" || w == "L";
}

bool isRawPrefix(std::string_view w)
{
    return w == "R" || w == "u8R" || w == "uR" || w == "UR" || w == "LR";
}

// Whether the '\n' at `newline` is spliced to the line before it (a backslash, or one then '\r',
// ends that line), looking no further back than `from`.
bool splicedBefore(std::string_view s, std::size_t newline, std::size_t from)
{
    if (newline > from && s[newline - 1] == '\\')
        return true;
    return newline > from + 1 && s[newline - 1] == '\r' && s[newline - 2] == '\\';
}

} // namespace

Lexer::Lexer(std::string_view text, LexState entry)
    : m_s(text), m_entry(std::move(entry)), m_lineStart(m_entry.open == LexState::Open::Nothing)
{
}

std::size_t Lexer::skipSpace(std::size_t i)
{
    while (i < m_s.size()) {
        const char c = m_s[i];
        if (c == '\n') {
            m_lineStart = true;
            m_inDirective = false;
            m_headerNext = false;
            ++i;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            ++i;
        } else if (c == '\\' && i + 1 < m_s.size() && m_s[i + 1] == '\n') {
            i += 2; // a splice: the line (and a directive on it) goes on
        } else if (c == '\\' && i + 2 < m_s.size() && m_s[i + 1] == '\r' && m_s[i + 2] == '\n') {
            i += 3;
        } else {
            break;
        }
    }
    return i;
}

// A quoted literal whose body starts at `body`; returns its end. A backslash escapes the next byte,
// a newline among them; a newline ends an unterminated literal; a backslash as the text's last
// byte leaves the literal open.
std::size_t Lexer::quoted(std::size_t body, char quote)
{
    for (std::size_t k = body; k < m_s.size();) {
        const char c = m_s[k];
        if (c == '\\') {
            if (k + 1 == m_s.size()) {
                m_exit.open = quote == '"' ? LexState::Open::String : LexState::Open::Char;
                return m_s.size();
            }
            k += 2;
        } else if (c == quote) {
            return k + 1;
        } else if (c == '\n') {
            return k; // unterminated: the compiler reports it
        } else {
            ++k;
        }
    }
    return m_s.size();
}

// R"delim( ... )delim" whose '"' is at `quote`; with a delimiter that is not valid (over 16
// characters, or one that cannot be in it) an ordinary string.
std::size_t Lexer::rawString(std::size_t quote)
{
    const std::string_view window = m_s.substr(quote + 1, 17);
    const std::size_t open = window.find('(');
    const std::string_view delimiter = open == std::string_view::npos ? window : window.substr(0, open);
    if (open == std::string_view::npos || delimiter.find_first_of(" \t\\)\"\n") != std::string_view::npos)
        return quoted(quote + 1, '"');
    return rawBody(quote + 2 + open, std::string(delimiter));
}

std::size_t Lexer::rawBody(std::size_t body, const std::string& delimiter)
{
    const std::string close = ")" + delimiter + "\"";
    const std::size_t at = m_s.find(close, body);
    if (at == std::string_view::npos) {
        m_exit.open = LexState::Open::RawString;
        m_exit.rawDelimiter = delimiter;
        return m_s.size();
    }
    return at + close.size();
}

std::size_t Lexer::lineComment(std::size_t from)
{
    for (std::size_t k = from;;) {
        const std::size_t newline = m_s.find('\n', k);
        if (newline == std::string_view::npos) {
            if (m_s.size() > from && m_s.back() == '\\')
                m_exit.open = LexState::Open::LineComment;
            return m_s.size();
        }
        if (!splicedBefore(m_s, newline, from))
            return newline;
        k = newline + 1;
    }
}

std::size_t Lexer::blockComment(std::size_t body)
{
    const std::size_t close = m_s.find("*/", body);
    if (close == std::string_view::npos) {
        m_exit.open = LexState::Open::BlockComment;
        return m_s.size();
    }
    return close + 2;
}

// A pp-number: digits, letters, '.', digit separators, and a sign after an exponent letter (e/E in
// decimal numbers, p/P in hexadecimal ones).
std::size_t Lexer::number(std::size_t i) const
{
    const bool hex = m_s[i] == '0' && i + 1 < m_s.size() && (m_s[i + 1] == 'x' || m_s[i + 1] == 'X');
    std::size_t k = i + 1;
    while (k < m_s.size()) {
        const char c = m_s[k];
        const char prev = m_s[k - 1];
        if ((c == '+' || c == '-') && (hex ? (prev == 'p' || prev == 'P') : (prev == 'e' || prev == 'E')))
            ++k;
        else if (identChar(static_cast<unsigned char>(c)) || c == '.' ||
                 (c == '\'' && k + 1 < m_s.size() && identChar(static_cast<unsigned char>(m_s[k + 1]))))
            ++k;
        else
            break;
    }
    return k;
}

int Lexer::lineAt(std::size_t offset)
{
    m_line += static_cast<int>(std::count(m_s.begin() + static_cast<std::ptrdiff_t>(m_lineFrom),
                                          m_s.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
    m_lineFrom = offset;
    return m_line;
}

bool Lexer::next(Token& token)
{
    std::size_t i = m_at;
    TokenKind kind = TokenKind::Comment;
    std::size_t end = 0;
    if (m_entry.open != LexState::Open::Nothing) { // the rest of what the previous text left open
        switch (m_entry.open) {
        case LexState::Open::BlockComment:
            end = blockComment(0);
            break;
        case LexState::Open::LineComment:
            end = lineComment(0);
            break;
        case LexState::Open::String:
            kind = TokenKind::String;
            end = quoted(0, '"');
            break;
        case LexState::Open::Char:
            kind = TokenKind::Char;
            end = quoted(0, '\'');
            break;
        case LexState::Open::RawString:
            kind = TokenKind::String;
            end = rawBody(0, m_entry.rawDelimiter);
            break;
        case LexState::Open::Nothing:
            break;
        }
        m_entry = {};
        if (end > 0) {
            m_at = end;
            token = {kind, false, 0, end, lineAt(0)};
            return true;
        }
    }
    i = skipSpace(i);
    if (i >= m_s.size()) {
        m_at = m_s.size();
        return false;
    }
    const char c = m_s[i];
    const char next = i + 1 < m_s.size() ? m_s[i + 1] : '\0';
    bool directive = false;
    if (c == '/' && next == '/') {
        end = lineComment(i);
    } else if (c == '/' && next == '*') {
        end = blockComment(i + 2);
    } else if (c == '#' && m_lineStart && !m_inDirective) {
        kind = TokenKind::Directive;
        std::size_t j = i + 1;
        while (j < m_s.size() && (m_s[j] == ' ' || m_s[j] == '\t'))
            ++j;
        std::string name; // spliced lines joined: #inc, a backslash, a newline, lude is #include
        for (end = j; end < m_s.size();) {
            if (identChar(static_cast<unsigned char>(m_s[end])))
                name += m_s[end++];
            else if (m_s[end] == '\\' && end + 1 < m_s.size() && m_s[end + 1] == '\n' && !name.empty())
                end += 2;
            else
                break;
        }
        directive = true;
        m_inDirective = true;
        m_headerNext = name == "include" || name == "include_next" || name == "import";
    } else if (c == '<' && m_headerNext) {
        kind = TokenKind::HeaderName;
        const std::size_t close = m_s.find_first_of(">\n", i + 1);
        end = close == std::string_view::npos ? m_s.size() : m_s[close] == '>' ? close + 1 : close;
    } else if (c == '"' || c == '\'') {
        kind = c == '"' ? TokenKind::String : TokenKind::Char;
        end = quoted(i + 1, c);
    } else if (isDigit(c) || (c == '.' && isDigit(next))) {
        kind = TokenKind::Number;
        end = number(i);
    } else if (identStart(static_cast<unsigned char>(c))) {
        kind = TokenKind::Identifier;
        end = i + 1;
        while (end < m_s.size() && identChar(static_cast<unsigned char>(m_s[end])))
            ++end;
        const std::string_view word = m_s.substr(i, end - i);
        const char after = end < m_s.size() ? m_s[end] : '\0';
        if (after == '"' && isRawPrefix(word)) {
            end = rawString(end);
            kind = TokenKind::String;
        } else if ((after == '"' || after == '\'') && isPrefix(word)) {
            kind = after == '"' ? TokenKind::String : TokenKind::Char;
            end = quoted(end + 1, after);
        }
    } else {
        kind = TokenKind::Punct;
        end = c == ':' && next == ':' ? i + 2 : i + 1;
    }
    if (kind != TokenKind::Comment) {
        m_lineStart = false;
        if (!directive)
            m_headerNext = false;
    }
    token = {kind, m_inDirective, i, end, lineAt(i)};
    m_at = end;
    return true;
}

std::vector<Token> tokenize(std::string_view text)
{
    std::vector<Token> out;
    Lexer lexer(text);
    for (Token t; lexer.next(t);)
        out.push_back(t);
    return out;
}

} // namespace ks::syntax
