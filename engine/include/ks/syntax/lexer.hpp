#pragma once
// The one CUDA C++ lexer of the engine: the kernel signature scanner (kernel_signature.hpp), the
// #include scanner (ks/rtc/include_scanner.hpp) and the editor's colours (ks/syntax/highlight.hpp)
// read source text through it. A lexer, not a preprocessor: it does not expand macros or evaluate
// #if; it knows which tokens belong to a preprocessor line.
//
// Tokens carry byte offsets into the text and the 1-based line of their first byte. White space
// and line splices (a backslash before a newline) separate tokens and are not tokens. Comments are
// tokens (callers that read code skip them). A '#' is a directive when only white space and
// comments precede it on its line; the directive runs to the end of the line, across line splices,
// and each of its tokens has `inDirective` set.
//
// Text that ends inside something that spans lines (a block comment, a raw string, a string or
// // comment whose last byte is a backslash) leaves it open in exitState(): the editor lexes one
// line at a time and starts the next line in that state. Not thread-safe; a plain value type.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ks::syntax {

enum class TokenKind : std::uint8_t {
    Identifier, // names and keywords: __global__, float4, _x1
    Number,     // a whole pp-number: 42, 0x1Fp+2, 1.5e-3f, 1'000'000, .5
    String,     // "...", R"d(...)d", with a prefix (u8, u, U, L) when it has one
    Char,       // '...', with a prefix when it has one
    Punct,      // one character of punctuation or an operator, or "::"
    Comment,    // // ... (continued by a final backslash) and /* ... */
    Directive,  // the '#' of a directive and its name, as written: "#include", "#  define", "#"
    HeaderName, // <cuda_fp16.h> after #include, #include_next or #import
};

struct Token {
    TokenKind kind = TokenKind::Punct;
    bool inDirective = false;       // part of a preprocessor line (its Directive token included)
    std::size_t begin = 0, end = 0; // byte offsets in the text, end exclusive; never empty
    int line = 1;                   // 1-based line of `begin`

    std::string_view text(std::string_view source) const { return source.substr(begin, end - begin); }
};

// What a text leaves open at its end, for the text (line) that follows.
struct LexState {
    enum class Open : std::uint8_t { Nothing, BlockComment, LineComment, String, Char, RawString };
    Open open = Open::Nothing;
    std::string rawDelimiter; // RawString: the d of R"d( ... )d"
    bool operator==(const LexState&) const = default;
};

class Lexer {
public:
    // Lexes `text`, which starts in `entry` (a text that starts inside a comment or a literal
    // yields that token's rest first). A '#' can start a directive at the start of `text` only
    // when `entry` leaves nothing open.
    explicit Lexer(std::string_view text, LexState entry = {});

    // The next token into `token`; false at the end of the text.
    bool next(Token& token);
    // What the end of the text leaves open; meaningful once next() has returned false.
    const LexState& exitState() const { return m_exit; }

private:
    std::size_t skipSpace(std::size_t i);
    std::size_t quoted(std::size_t body, char quote);
    std::size_t rawString(std::size_t quote);
    std::size_t rawBody(std::size_t body, const std::string& delimiter);
    std::size_t lineComment(std::size_t from);
    std::size_t blockComment(std::size_t body);
    std::size_t number(std::size_t i) const;
    int lineAt(std::size_t offset);

    std::string_view m_s;
    std::size_t m_at = 0;
    LexState m_entry;
    LexState m_exit;
    bool m_lineStart = true; // only white space and comments since the line began
    bool m_inDirective = false;
    bool m_headerNext = false; // the next token of this #include may be a <header name>
    int m_line = 1;            // line of m_lineFrom
    std::size_t m_lineFrom = 0;
};

// Every token of `text` (comments and directives included), in order.
std::vector<Token> tokenize(std::string_view text);

} // namespace ks::syntax
