#include "ks/rtc/highlight.hpp"

#include <algorithm>
#include <array>
#include <optional>

namespace ks::rtc {

namespace {

// Every word with a fixed class, in one open-addressing table (one short probe per identifier: the
// lexer's hottest path, faster than std::unordered_map's hash and prime modulo).
class WordTable {
public:
    void emplace(std::string_view w, SyntaxClass c)
    {
        std::size_t i = hash(w) & kMask;
        while (!m_slots[i].word.empty())
            i = (i + 1) & kMask;
        m_slots[i] = {w, c};
    }
    std::optional<SyntaxClass> find(std::string_view w) const
    {
        if (w.size() > kLongest)
            return std::nullopt;
        for (std::size_t i = hash(w) & kMask;; i = (i + 1) & kMask) {
            const Slot& s = m_slots[i];
            if (s.word.empty())
                return std::nullopt;
            if (s.word == w)
                return s.cls;
        }
    }

private:
    static constexpr std::size_t kSize = 512, kMask = kSize - 1, kLongest = 32;
    static std::size_t hash(std::string_view w)
    {
        std::uint32_t h = 2166136261u; // FNV-1a
        for (const char c : w)
            h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
        return h ^ (h >> 15);
    }
    struct Slot {
        std::string_view word;
        SyntaxClass cls = SyntaxClass::Plain;
    };
    std::array<Slot, kSize> m_slots{};
};

const WordTable& words()
{
    static const WordTable table = [] {
        WordTable t;
        for (std::string_view w :
             {"alignas", "alignof", "asm", "auto", "break", "case", "catch", "class", "concept", "const", "consteval",
              "constexpr", "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype",
              "default", "delete", "do", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false",
              "final", "for", "friend", "goto", "if", "inline", "mutable", "namespace", "new", "noexcept", "nullptr",
              "operator", "override", "private", "protected", "public", "register", "reinterpret_cast", "requires",
              "return", "sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template", "this",
              "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union", "using", "virtual",
              "volatile", "while"})
            t.emplace(w, SyntaxClass::Keyword);
        for (std::string_view w :
             {"void", "bool", "char", "char8_t", "char16_t", "char32_t", "wchar_t", "short", "int", "long", "float",
              "double", "signed", "unsigned", "size_t", "ptrdiff_t", "int8_t", "int16_t", "int32_t", "int64_t",
              "uint8_t", "uint16_t", "uint32_t", "uint64_t", "uintptr_t", "intptr_t", "half", "__half", "half2",
              "__half2", "__nv_bfloat16", "__nv_bfloat162", "nv_bfloat16", "nv_bfloat162", "dim3",
              "cudaSurfaceObject_t", "cudaTextureObject_t", "curandState", "curandStatePhilox4_32_10_t",
              "curandStateXORWOW_t", "uchar", "ushort", "uint", "ulong"})
            t.emplace(w, SyntaxClass::Type);
        for (std::string_view w : {"__global__", "__device__", "__host__", "__shared__", "__constant__", "__managed__",
                                   "__restrict__", "__restrict", "__forceinline__", "__noinline__", "__inline__",
                                   "__launch_bounds__", "__grid_constant__", "__align__", "__cluster_dims__",
                                   "__maxnreg__", "__builtin_align__"})
            t.emplace(w, SyntaxClass::Qualifier);
        for (std::string_view w : {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"})
            t.emplace(w, SyntaxClass::Builtin);
        // CUDA device functions without a telling prefix.
        for (std::string_view w : {"clock", "clock64", "globaltimer", "rsqrtf", "rsqrt", "saturate", "fmaf", "fma",
                                   "fminf", "fmaxf", "sincosf", "rintf", "norm3df", "rnorm3df", "printf", "assert"})
            t.emplace(w, SyntaxClass::Intrinsic);
        return t;
    }();
    return table;
}

constexpr std::array<std::string_view, 12> kVectorBases{"char", "uchar", "short", "ushort", "int", "uint",
                                                        "long", "ulong", "longlong", "ulonglong", "float", "double"};

// float4, uchar2, ...: a base type and 1 to 4.
bool isVectorType(std::string_view w)
{
    if (w.size() < 2 || w.back() < '1' || w.back() > '4')
        return false;
    const std::string_view base = w.substr(0, w.size() - 1);
    return std::find(kVectorBases.begin(), kVectorBases.end(), base) != kVectorBases.end();
}

bool startsWith(std::string_view s, std::string_view p)
{
    return s.substr(0, p.size()) == p;
}

bool isUpper(char c)
{
    return c >= 'A' && c <= 'Z';
}

SyntaxClass classify(std::string_view w)
{
    if (const std::optional<SyntaxClass> c = words().find(w))
        return *c;
    if (isVectorType(w))
        return SyntaxClass::Type;
    // Intrinsics: __syncthreads, __shfl_sync, __ldg, __float2int_rn ... (any other "__x"), the
    // atomics (atomicAdd ...), surface and texture functions (surf2Dwrite, tex2D), make_float4.
    const bool surf = startsWith(w, "surf"), tex = startsWith(w, "tex");
    const std::size_t dims = surf ? 4 : 3;
    if ((w.size() > 2 && startsWith(w, "__")) || (startsWith(w, "atomic") && w.size() > 6 && isUpper(w[6])) ||
        ((surf || tex) && w.size() > dims && w[dims] >= '1' && w[dims] <= '3') ||
        (startsWith(w, "make_") && (isVectorType(w.substr(5)) || w.substr(5) == "cudaExtent")))
        return SyntaxClass::Intrinsic;
    return SyntaxClass::Plain;
}

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

// Whether the byte at `i` continues a run of plain text (it starts no token of another class).
bool startsPlain(std::string_view s, std::size_t i)
{
    const char c = s[i];
    if (identStart(static_cast<unsigned char>(c)) || isDigit(c) || c == '"' || c == '\'' || c == '/' || c == '<' ||
        c == '#')
        return false;
    return !(c == '.' && i + 1 < s.size() && isDigit(s[i + 1]));
}

class LineLexer {
public:
    LineLexer(std::string_view line, std::vector<SyntaxSpan>& out) : m_s(line), m_out(out) {}

    LexState run(const LexState& entry)
    {
        LexState exit;
        std::size_t i = 0;
        switch (entry.open) {
        case LexState::Open::Nothing:
            break;
        case LexState::Open::BlockComment:
            i = blockCommentFrom(0, exit);
            break;
        case LexState::Open::LineComment:
            emit(0, m_s.size(), SyntaxClass::Comment);
            if (!m_s.empty() && m_s.back() == '\\')
                exit.open = LexState::Open::LineComment;
            return exit;
        case LexState::Open::String:
        case LexState::Open::Char:
            i = quotedFrom(0, entry.open == LexState::Open::String ? '"' : '\'', 0, exit);
            break;
        case LexState::Open::RawString:
            i = rawBodyFrom(0, 0, entry.rawDelimiter, exit);
            break;
        }
        if (exit.open != LexState::Open::Nothing)
            return exit;

        const std::size_t firstNonSpace = m_s.find_first_not_of(" \t\r\f\v");
        const bool directiveLine = entry.open == LexState::Open::Nothing && firstNonSpace != std::string_view::npos &&
                                   m_s[firstNonSpace] == '#';
        bool includeLine = false;
        while (i < m_s.size()) {
            const char c = m_s[i];
            const char next = i + 1 < m_s.size() ? m_s[i + 1] : '\0';
            if (directiveLine && i == firstNonSpace) {
                std::size_t j = m_s.find_first_not_of(" \t", i + 1);
                j = j == std::string_view::npos ? m_s.size() : j;
                std::size_t k = j;
                while (k < m_s.size() && identChar(static_cast<unsigned char>(m_s[k])))
                    ++k;
                const std::string_view word = m_s.substr(j, k - j);
                includeLine = word == "include" || word == "include_next" || word == "import";
                emit(i, k, SyntaxClass::Preprocessor);
                i = k;
            } else if (includeLine && c == '<') {
                const std::size_t close = m_s.find('>', i + 1);
                const std::size_t end = close == std::string_view::npos ? m_s.size() : close + 1;
                emit(i, end, SyntaxClass::String);
                i = end;
                includeLine = false;
            } else if (c == '/' && next == '/') {
                emit(i, m_s.size(), SyntaxClass::Comment);
                if (m_s.back() == '\\')
                    exit.open = LexState::Open::LineComment;
                return exit;
            } else if (c == '/' && next == '*') {
                i = blockCommentFrom(i, exit, 2);
                if (exit.open != LexState::Open::Nothing)
                    return exit;
            } else if (c == '"' || c == '\'') {
                i = quotedFrom(i + 1, c, i, exit);
                if (exit.open != LexState::Open::Nothing)
                    return exit;
            } else if (isDigit(c) || (c == '.' && isDigit(next))) {
                i = number(i);
            } else if (identStart(static_cast<unsigned char>(c))) {
                std::size_t k = i;
                while (k < m_s.size() && identChar(static_cast<unsigned char>(m_s[k])))
                    ++k;
                const std::string_view word = m_s.substr(i, k - i);
                const char after = k < m_s.size() ? m_s[k] : '\0';
                if (after == '"' && isRawPrefix(word)) {
                    i = rawStringFrom(i, k, exit);
                    if (exit.open != LexState::Open::Nothing)
                        return exit;
                } else if ((after == '"' || after == '\'') && isPrefix(word)) {
                    i = quotedFrom(k + 1, after, i, exit);
                    if (exit.open != LexState::Open::Nothing)
                        return exit;
                } else {
                    emit(i, k, classify(word));
                    i = k;
                }
            } else { // white space, operators, punctuation: up to what could start a token
                std::size_t k = i + 1;
                while (k < m_s.size() && startsPlain(m_s, k))
                    ++k;
                emit(i, k, SyntaxClass::Plain);
                i = k;
            }
        }
        return exit;
    }

private:
    static bool isPrefix(std::string_view w) { return w == "u8" || w == "u" || w == "U" || w == "L"; }
    static bool isRawPrefix(std::string_view w)
    {
        return w == "R" || w == "u8R" || w == "uR" || w == "UR" || w == "LR";
    }

    void emit(std::size_t b, std::size_t e, SyntaxClass cls)
    {
        if (e <= b)
            return;
        if (!m_out.empty() && m_out.size() > m_first && m_out.back().cls == cls && m_out.back().end == b) {
            m_out.back().end = std::uint32_t(e);
            return;
        }
        m_out.push_back({std::uint32_t(b), std::uint32_t(e), cls});
    }

    // A block comment whose body starts at `from + skip`; returns where lexing goes on.
    std::size_t blockCommentFrom(std::size_t from, LexState& exit, std::size_t skip = 0)
    {
        const std::size_t close = m_s.find("*/", from + skip);
        if (close == std::string_view::npos) {
            emit(from, m_s.size(), SyntaxClass::Comment);
            exit.open = LexState::Open::BlockComment;
            return m_s.size();
        }
        emit(from, close + 2, SyntaxClass::Comment);
        return close + 2;
    }

    // A quoted literal whose body starts at `body` (the span starts at `spanBegin`).
    std::size_t quotedFrom(std::size_t body, char quote, std::size_t spanBegin, LexState& exit)
    {
        std::size_t k = body;
        while (k < m_s.size()) {
            if (m_s[k] == '\\') {
                if (k + 1 == m_s.size()) { // continues on the next line
                    emit(spanBegin, m_s.size(), SyntaxClass::String);
                    exit.open = quote == '"' ? LexState::Open::String : LexState::Open::Char;
                    return m_s.size();
                }
                k += 2;
                continue;
            }
            if (m_s[k] == quote) {
                emit(spanBegin, k + 1, SyntaxClass::String);
                return k + 1;
            }
            ++k;
        }
        emit(spanBegin, m_s.size(), SyntaxClass::String); // unterminated: the compiler says so
        return m_s.size();
    }

    // R"delim( ... )delim": `quote` is the index of the '"' after the prefix that starts at `begin`.
    std::size_t rawStringFrom(std::size_t begin, std::size_t quote, LexState& exit)
    {
        const std::size_t open = m_s.find('(', quote + 1);
        const std::string_view delim =
            open == std::string_view::npos ? std::string_view() : m_s.substr(quote + 1, open - quote - 1);
        const bool valid = open != std::string_view::npos && delim.size() <= 16 &&
                           delim.find_first_of(" \t\\)\"") == std::string_view::npos;
        if (!valid)
            return quotedFrom(quote + 1, '"', begin, exit);
        return rawBodyFrom(open + 1, begin, std::string(delim), exit);
    }

    std::size_t rawBodyFrom(std::size_t body, std::size_t spanBegin, const std::string& delim, LexState& exit)
    {
        const std::string close = ")" + delim + "\"";
        const std::size_t at = m_s.find(close, body);
        if (at == std::string_view::npos) {
            emit(spanBegin, m_s.size(), SyntaxClass::String);
            exit.open = LexState::Open::RawString;
            exit.rawDelimiter = delim;
            return m_s.size();
        }
        emit(spanBegin, at + close.size(), SyntaxClass::String);
        return at + close.size();
    }

    // A pp-number: digits, letters, '.', digit separators, and a sign after an exponent letter
    // (e/E in decimal numbers, p/P in hexadecimal ones).
    std::size_t number(std::size_t i)
    {
        const bool hex = m_s[i] == '0' && i + 1 < m_s.size() && (m_s[i + 1] == 'x' || m_s[i + 1] == 'X');
        std::size_t k = i + 1;
        while (k < m_s.size()) {
            const char c = m_s[k];
            if ((c == '+' || c == '-') &&
                (hex ? (m_s[k - 1] == 'p' || m_s[k - 1] == 'P') : (m_s[k - 1] == 'e' || m_s[k - 1] == 'E'))) {
                ++k;
            } else if (identChar(static_cast<unsigned char>(c)) || c == '.' ||
                       (c == '\'' && k + 1 < m_s.size() && identChar(static_cast<unsigned char>(m_s[k + 1])))) {
                ++k;
            } else {
                break;
            }
        }
        emit(i, k, SyntaxClass::Number);
        return k;
    }

    std::string_view m_s;
    std::vector<SyntaxSpan>& m_out;
    std::size_t m_first = m_out.size(); // spans before this belong to other lines: never merged into
};

} // namespace

LexState lexLine(std::string_view line, const LexState& entry, std::vector<SyntaxSpan>& out)
{
    return LineLexer(line, out).run(entry);
}

std::size_t SyntaxCache::update(std::string_view text, std::size_t needLines)
{
    if (m_valid && text == m_text)
        return ensure(needLines);
    // The new lines.
    std::vector<std::string_view> lines;
    for (std::size_t b = 0;;) {
        const std::size_t e = text.find('\n', b);
        lines.push_back(text.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
        if (e == std::string_view::npos)
            break;
        b = e + 1;
    }
    // Unchanged lines at both ends keep what they had (the tail is checked against its entry state
    // when it is next needed); the lines in between are new and not lexed.
    const std::size_t n = lines.size(), m = m_lines.size();
    std::size_t prefix = 0;
    while (prefix < n && prefix < m && lines[prefix] == m_lines[prefix].text)
        ++prefix;
    std::size_t suffix = 0;
    while (suffix < n - prefix && suffix < m - prefix && lines[n - 1 - suffix] == m_lines[m - 1 - suffix].text)
        ++suffix;

    std::vector<Line> next;
    next.reserve(n);
    for (std::size_t i = 0; i < prefix; ++i)
        next.push_back(std::move(m_lines[i]));
    for (std::size_t i = prefix; i < n - suffix; ++i) {
        Line l;
        l.text = std::string(lines[i]);
        next.push_back(std::move(l));
    }
    for (std::size_t i = m - suffix; i < m; ++i)
        next.push_back(std::move(m_lines[i]));
    m_lines = std::move(next);
    m_text = std::string(text);
    m_valid = true;
    m_upToDate = std::min(m_upToDate, prefix);
    return ensure(needLines);
}

std::size_t SyntaxCache::ensure(std::size_t needLines)
{
    const std::size_t until = std::min(needLines, m_lines.size());
    if (until <= m_upToDate)
        return 0; // bracket matching asks for each line it looks at
    std::size_t lexed = 0;
    LexState state = m_upToDate > 0 ? m_lines[m_upToDate - 1].exit : LexState{};
    for (std::size_t i = m_upToDate; i < until; ++i) {
        Line& l = m_lines[i];
        if (!l.lexed || !(l.entry == state)) { // a line that starts as it did keeps its spans
            l.spans.clear();
            l.entry = state;
            l.exit = lexLine(l.text, state, l.spans);
            l.lexed = true;
            ++lexed;
        }
        state = l.exit;
    }
    m_upToDate = std::max(m_upToDate, until);
    return lexed;
}

const std::vector<SyntaxSpan>& SyntaxCache::spans(std::size_t line) const
{
    static const std::vector<SyntaxSpan> none;
    return line < m_lines.size() ? m_lines[line].spans : none;
}

const char* syntaxClassName(SyntaxClass c)
{
    switch (c) {
    case SyntaxClass::Plain:
        return "plain";
    case SyntaxClass::Keyword:
        return "keyword";
    case SyntaxClass::Type:
        return "type";
    case SyntaxClass::Qualifier:
        return "qualifier";
    case SyntaxClass::Builtin:
        return "builtin";
    case SyntaxClass::Intrinsic:
        return "intrinsic";
    case SyntaxClass::Preprocessor:
        return "preprocessor";
    case SyntaxClass::String:
        return "string";
    case SyntaxClass::Number:
        return "number";
    case SyntaxClass::Comment:
        return "comment";
    }
    return "?";
}

} // namespace ks::rtc
