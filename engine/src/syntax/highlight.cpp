#include "ks/syntax/highlight.hpp"

#include "ks/syntax/cuda_builtins.hpp"

#include <algorithm>
#include <array>
#include <optional>

namespace ks::syntax {

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
    static constexpr std::size_t kSize = 1024, kMask = kSize - 1, kLongest = 32;
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
        // The thread-hierarchy built-ins and CUDA's functions, from the one table of them (the
        // functions with a telling prefix, "__x" and "atomicX", are also found by classify()).
        for (const CudaBuiltin& b : cudaBuiltins())
            t.emplace(b.name, b.kind == CudaBuiltinKind::Variable ? SyntaxClass::Builtin : SyntaxClass::Intrinsic);
        for (std::string_view w : {"globaltimer", "rsqrt", "saturate", "assert"})
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
    const bool surf = w.starts_with("surf"), tex = w.starts_with("tex");
    const std::size_t dims = surf ? 4 : 3;
    if ((w.size() > 2 && w.starts_with("__")) || (w.starts_with("atomic") && w.size() > 6 && isUpper(w[6])) ||
        ((surf || tex) && w.size() > dims && w[dims] >= '1' && w[dims] <= '3') ||
        (w.starts_with("make_") && (isVectorType(w.substr(5)) || w.substr(5) == "cudaExtent")))
        return SyntaxClass::Intrinsic;
    return SyntaxClass::Plain;
}

// The class of a token of a line.
SyntaxClass classOf(const syntax::Token& t, std::string_view line)
{
    switch (t.kind) {
    case syntax::TokenKind::Identifier: return classify(t.text(line));
    case syntax::TokenKind::Number: return SyntaxClass::Number;
    case syntax::TokenKind::String:
    case syntax::TokenKind::Char:
    case syntax::TokenKind::HeaderName: return SyntaxClass::String;
    case syntax::TokenKind::Comment: return SyntaxClass::Comment;
    case syntax::TokenKind::Directive: return SyntaxClass::Preprocessor;
    case syntax::TokenKind::Punct: return SyntaxClass::Plain;
    }
    return SyntaxClass::Plain;
}

} // namespace

syntax::LexState lexLine(std::string_view line, const syntax::LexState& entry, std::vector<SyntaxSpan>& out)
{
    const std::size_t first = out.size(); // spans before it belong to other lines: never merged into
    auto emit = [&](std::size_t b, std::size_t e, SyntaxClass cls) {
        if (e <= b)
            return;
        if (out.size() > first && out.back().cls == cls && out.back().end == b)
            out.back().end = std::uint32_t(e);
        else
            out.push_back({std::uint32_t(b), std::uint32_t(e), cls});
    };
    syntax::Lexer lexer(line, entry);
    std::size_t at = 0; // white space between tokens is plain
    for (syntax::Token t; lexer.next(t); at = t.end) {
        emit(at, t.begin, SyntaxClass::Plain);
        emit(t.begin, t.end, classOf(t, line));
    }
    emit(at, line.size(), SyntaxClass::Plain);
    return lexer.exitState();
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
    syntax::LexState state = m_upToDate > 0 ? m_lines[m_upToDate - 1].exit : syntax::LexState{};
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

} // namespace ks::syntax
