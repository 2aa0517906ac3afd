#pragma once
// Syntax classes of CUDA C++ source for the editor's colours, over the engine's one lexer
// (ks/syntax/lexer.hpp: it does not expand macros or know declared types), and a cache that keeps
// each line's result and re-lexes only what an edit changed.
//
// Classes: C++ keywords, built-in and CUDA vector types, CUDA qualifiers (__global__, __shared__,
// __restrict__ ...), the thread-hierarchy built-ins (threadIdx, blockIdx, blockDim, gridDim,
// warpSize), CUDA functions and intrinsics (__syncthreads, atomicAdd, __shfl_sync, __ldg ...),
// preprocessor directives, string and character literals (raw strings too), numbers and comments.
// What spans lines (block comments, raw strings, a backslash at the end of a // comment or a
// string) is carried from line to line in a syntax::LexState.
//
// Not thread-safe; plain value types, no GPU, no GL.

#include "ks/syntax/lexer.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ks::syntax {

enum class SyntaxClass : std::uint8_t {
    Plain,        // identifiers, operators, punctuation, white space
    Keyword,      // if, for, return, template, const ...
    Type,         // int, float, unsigned, size_t, float4, cudaSurfaceObject_t ...
    Qualifier,    // __global__, __device__, __shared__, __restrict__, __launch_bounds__ ...
    Builtin,      // threadIdx, blockIdx, blockDim, gridDim, warpSize
    Intrinsic,    // __syncthreads, atomicAdd, __shfl_down_sync, __ldg, surf2Dwrite ...
    Preprocessor, // the '#' and its directive; an #include's header name is a String
    String,       // "...", '...', R"d(...)d", with prefixes (u8, L, u, U)
    Number,       // 42, 0x1F, 1.5e-3f, 1'000'000, .5
    Comment,      // // and /* */
};

// A run of bytes [begin, end) of one line in one class. A line's spans are in order, adjacent,
// never empty, and cover the line exactly (its bytes without the '\n').
struct SyntaxSpan {
    std::uint32_t begin = 0, end = 0;
    SyntaxClass cls = SyntaxClass::Plain;
    bool operator==(const SyntaxSpan&) const = default;
};

// Classifies one line (no '\n' in it) that starts in `entry`; appends its spans to `out` and
// returns the state the next line starts in.
syntax::LexState lexLine(std::string_view line, const syntax::LexState& entry, std::vector<SyntaxSpan>& out);

// The spans of every line of a text, kept between edits. update() compares the new text with the
// one it has, line by line from both ends, and lexes only the lines in between plus those after
// them whose entry state changed (typing "/*" re-lexes to the end of the file; typing a letter
// re-lexes one line). With `needLines`, only the lines before it are brought up to date (the
// editor asks for the lines down to the last one on screen): typing "/*" at the top of a 2,000-line
// file then lexes the lines on screen, and the rest when they are asked for (ensure()).
class SyntaxCache {
public:
    static constexpr std::size_t kAllLines = std::size_t(-1);
    // Brings the spans of lines [0, needLines) up to date with `text`; returns the number of
    // lines lexed.
    std::size_t update(std::string_view text, std::size_t needLines = kAllLines);
    // Brings the spans of lines [0, needLines) of the text of the last update up to date.
    std::size_t ensure(std::size_t needLines);

    std::size_t lineCount() const { return m_lines.size(); }
    // The spans of a 0-based line; empty for an empty line or one past the end. Up to date for
    // the lines below what the last update() or ensure() asked for.
    const std::vector<SyntaxSpan>& spans(std::size_t line) const;
    // Lines [0, upToDate()) are lexed for the current text.
    std::size_t upToDate() const { return m_upToDate; }

private:
    struct Line {
        std::string text;
        syntax::LexState entry;
        syntax::LexState exit;
        std::vector<SyntaxSpan> spans;
        bool lexed = false; // spans and exit are those of `text` from `entry`
    };
    std::string m_text;
    bool m_valid = false; // m_lines describe m_text
    std::vector<Line> m_lines;
    std::size_t m_upToDate = 0; // each line below it is lexed from its predecessor's exit
};

const char* syntaxClassName(SyntaxClass c);

} // namespace ks::syntax
