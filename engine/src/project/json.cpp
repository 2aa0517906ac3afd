#include "ks/project/json.hpp"

#include "ks/core/utf8.hpp"

#include <charconv>
#include <cmath>

namespace ks::project {

JsonError::JsonError(SourcePos pos, std::string message)
    : std::runtime_error(std::to_string(pos.line) + ":" + std::to_string(pos.column) + ": " + message), m_pos(pos),
      m_message(std::move(message))
{
}

const Json* Json::find(std::string_view key) const noexcept
{
    for (const Member& m : m_members)
        if (m.key == key)
            return &m.value;
    return nullptr;
}

std::string_view Json::typeName(Type t) noexcept
{
    switch (t) {
    case Type::Null: return "null";
    case Type::Bool: return "a boolean";
    case Type::Number: return "a number";
    case Type::String: return "a string";
    case Type::Array: return "an array";
    case Type::Object: return "an object";
    }
    return "?";
}

class JsonParser {
public:
    explicit JsonParser(std::string_view text) : m_text(text) {}

    Json document()
    {
        // A UTF-8 byte order mark (which some editors write) is not part of the document.
        if (m_text.substr(0, 3) == "\xEF\xBB\xBF")
            m_at = 3, m_lineStart = 3;
        skipSpace();
        if (atEnd())
            fail("the file is empty; expected a JSON value");
        Json v = value(0);
        skipSpace();
        if (!atEnd())
            fail(std::string("unexpected '") + peek() + "' after the end of the JSON value");
        return v;
    }

private:
    static constexpr int kMaxDepth = 256;

    bool atEnd() const { return m_at >= m_text.size(); }
    char peek() const { return atEnd() ? '\0' : m_text[m_at]; }
    SourcePos here() const { return {m_line, int(m_at - m_lineStart) + 1}; }
    [[noreturn]] void fail(std::string message) const { throw JsonError(here(), std::move(message)); }
    [[noreturn]] void failAt(SourcePos pos, std::string message) const { throw JsonError(pos, std::move(message)); }

    void advance()
    {
        if (atEnd())
            return;
        if (m_text[m_at] == '\n') {
            ++m_line;
            m_lineStart = m_at + 1;
        }
        ++m_at;
    }

    void skipSpace()
    {
        while (!atEnd()) {
            const char c = peek();
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
                advance();
            else if (c == '/' && m_at + 1 < m_text.size() && (m_text[m_at + 1] == '/' || m_text[m_at + 1] == '*'))
                fail("comments are not allowed in JSON");
            else
                break;
        }
    }

    static std::string describe(char c)
    {
        if (c == '\0')
            return "the end of the file";
        return std::string("'") + c + "'";
    }

    void expect(char c, const char* what)
    {
        skipSpace();
        if (peek() != c)
            fail(std::string("expected ") + what + ", found " + describe(peek()));
        advance();
    }

    Json value(int depth)
    {
        if (depth > kMaxDepth)
            fail("JSON nested deeper than 256 levels");
        skipSpace();
        Json v;
        v.m_pos = here();
        const char c = peek();
        if (c == '{')
            object(v, depth);
        else if (c == '[')
            array(v, depth);
        else if (c == '"') {
            v.m_type = Json::Type::String;
            v.m_string = string();
        } else if (c == '-' || (c >= '0' && c <= '9'))
            number(v);
        else if (literal("true"))
            v.m_type = Json::Type::Bool, v.m_bool = true;
        else if (literal("false"))
            v.m_type = Json::Type::Bool, v.m_bool = false;
        else if (literal("null"))
            v.m_type = Json::Type::Null;
        else if (c == '\0')
            fail("unexpected end of the file; expected a value");
        else
            fail("expected a value (object, array, string, number, true, false or null), found " + describe(c));
        return v;
    }

    bool literal(std::string_view word)
    {
        if (m_text.substr(m_at, word.size()) != word)
            return false;
        for (std::size_t i = 0; i < word.size(); ++i)
            advance();
        const char c = peek();
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
            fail("unexpected '" + std::string(1, c) + "' after '" + std::string(word) + "'");
        return true;
    }

    void object(Json& v, int depth)
    {
        v.m_type = Json::Type::Object;
        advance(); // {
        skipSpace();
        if (peek() == '}') {
            advance();
            return;
        }
        for (;;) {
            skipSpace();
            if (peek() != '"')
                fail(peek() == '}' ? "trailing comma before '}'" : "expected a member name in double quotes, found " +
                                                                          describe(peek()));
            Json::Member m;
            m.keyPos = here();
            m.key = string();
            for (const Json::Member& other : v.m_members)
                if (other.key == m.key)
                    failAt(m.keyPos, "duplicate member \"" + m.key + "\" (first at line " +
                                         std::to_string(other.keyPos.line) + ")");
            expect(':', "':' after the member name");
            m.value = value(depth + 1);
            v.m_members.push_back(std::move(m));
            skipSpace();
            if (peek() == ',') {
                advance();
                continue;
            }
            if (peek() == '}') {
                advance();
                return;
            }
            fail("expected ',' or '}' after a member, found " + describe(peek()));
        }
    }

    void array(Json& v, int depth)
    {
        v.m_type = Json::Type::Array;
        advance(); // [
        skipSpace();
        if (peek() == ']') {
            advance();
            return;
        }
        for (;;) {
            skipSpace();
            if (peek() == ']')
                fail("trailing comma before ']'");
            v.m_items.push_back(value(depth + 1));
            skipSpace();
            if (peek() == ',') {
                advance();
                continue;
            }
            if (peek() == ']') {
                advance();
                return;
            }
            fail("expected ',' or ']' after an array element, found " + describe(peek()));
        }
    }

    // One UTF-8 sequence at the cursor, checked (ks::utf8SequenceLength) and copied to `out`.
    void utf8Sequence(std::string& out)
    {
        const SourcePos pos = here();
        const std::size_t length = utf8SequenceLength(m_text.substr(m_at));
        if (length == 0)
            failAt(pos, "invalid UTF-8 in a string (the file must be UTF-8 text)");
        out.append(m_text.substr(m_at, length));
        for (std::size_t i = 0; i < length; ++i)
            advance();
    }

    unsigned hex4()
    {
        unsigned u = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = peek();
            u <<= 4;
            if (c >= '0' && c <= '9')
                u |= unsigned(c - '0');
            else if (c >= 'a' && c <= 'f')
                u |= unsigned(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                u |= unsigned(c - 'A' + 10);
            else
                fail("expected four hex digits after \\u");
            advance();
        }
        return u;
    }

    static void appendUtf8(std::string& out, unsigned cp)
    {
        if (cp < 0x80)
            out += char(cp);
        else if (cp < 0x800)
            out += char(0xC0 | (cp >> 6)), out += char(0x80 | (cp & 0x3F));
        else if (cp < 0x10000)
            out += char(0xE0 | (cp >> 12)), out += char(0x80 | ((cp >> 6) & 0x3F)), out += char(0x80 | (cp & 0x3F));
        else
            out += char(0xF0 | (cp >> 18)), out += char(0x80 | ((cp >> 12) & 0x3F)),
                out += char(0x80 | ((cp >> 6) & 0x3F)), out += char(0x80 | (cp & 0x3F));
    }

    std::string string()
    {
        const SourcePos start = here();
        advance(); // "
        std::string out;
        for (;;) {
            if (atEnd())
                failAt(start, "unterminated string");
            const char c = peek();
            if (c == '"') {
                advance();
                return out;
            }
            if (c == '\n')
                failAt(start, "unterminated string (a string cannot span lines)");
            if (static_cast<unsigned char>(c) < 0x20)
                fail("control character in a string; escape it");
            if (static_cast<unsigned char>(c) >= 0x80) {
                utf8Sequence(out);
                continue;
            }
            if (c != '\\') {
                out += c;
                advance();
                continue;
            }
            advance();
            if (atEnd())
                failAt(start, "unterminated string");
            const char e = peek();
            advance();
            switch (e) {
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            case '/': out += '/'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                const SourcePos escape = here();
                unsigned cp = hex4();
                if (cp >= 0xDC00 && cp < 0xE000)
                    failAt(escape, "\\u escape of a lone low surrogate; JSON text is Unicode");
                if (cp >= 0xD800 && cp < 0xDC00) {
                    if (!(peek() == '\\' && m_at + 1 < m_text.size() && m_text[m_at + 1] == 'u'))
                        failAt(escape, "\\u escape of a high surrogate without its low surrogate");
                    advance(), advance();
                    const unsigned lo = hex4();
                    if (lo < 0xDC00 || lo >= 0xE000)
                        failAt(escape, "\\u escape of a high surrogate without its low surrogate");
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                }
                appendUtf8(out, cp);
                break;
            }
            default: fail(std::string("invalid escape '\\") + e + "' in a string");
            }
        }
    }

    void number(Json& v)
    {
        const std::size_t begin = m_at;
        bool integer = true;
        if (peek() == '-')
            advance();
        if (peek() == '0') {
            advance();
            if (peek() >= '0' && peek() <= '9')
                fail("numbers cannot have leading zeros");
        } else if (peek() >= '1' && peek() <= '9') {
            while (peek() >= '0' && peek() <= '9')
                advance();
        } else {
            fail("expected a digit after '-'");
        }
        if (peek() == '.') {
            integer = false;
            advance();
            if (!(peek() >= '0' && peek() <= '9'))
                fail("expected a digit after the decimal point");
            while (peek() >= '0' && peek() <= '9')
                advance();
        }
        if (peek() == 'e' || peek() == 'E') {
            integer = false;
            advance();
            if (peek() == '+' || peek() == '-')
                advance();
            if (!(peek() >= '0' && peek() <= '9'))
                fail("expected a digit in the exponent");
            while (peek() >= '0' && peek() <= '9')
                advance();
        }
        const std::string_view text = m_text.substr(begin, m_at - begin);
        v.m_type = Json::Type::Number;
        v.m_number = std::strtod(std::string(text).c_str(), nullptr);
        if (integer) {
            const auto r = std::from_chars(text.data(), text.data() + text.size(), v.m_int);
            v.m_integer = r.ec == std::errc();
        }
        if (!std::isfinite(v.m_number))
            failAt(v.m_pos, "number out of range");
    }

    std::string_view m_text;
    std::size_t m_at = 0;
    std::size_t m_lineStart = 0;
    int m_line = 1;
};

Json Json::parse(std::string_view text)
{
    return JsonParser(text).document();
}

} // namespace ks::project
