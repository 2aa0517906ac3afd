#include "ks/syntax/type_layout.hpp"

#include "code_tokens.hpp"

#include <algorithm>
#include <set>

namespace ks::syntax {
namespace {

using code::Code;
using code::kNone;
using code::Nesting;

// Beyond these a record is refused: kernel parameters are at most 32 KiB, and a record of a
// buffer this large, or with this many members once flattened, is not one a panel can show.
constexpr std::size_t kMaxBytes = std::size_t(1) << 24;
constexpr std::size_t kMaxFields = 4096;

std::size_t alignUp(std::size_t n, std::size_t a)
{
    return a ? (n + a - 1) / a * a : n;
}

// `name` without namespaces or an elaborating keyword: "struct ns::Particle" is "Particle".
std::string_view lastPart(std::string_view name)
{
    for (std::string_view kw : {"struct ", "class "})
        if (name.substr(0, kw.size()) == kw)
            name.remove_prefix(kw.size());
    if (const auto colon = name.rfind("::"); colon != std::string_view::npos)
        name.remove_prefix(colon + 2);
    return name;
}

// An integer literal's value (decimal, hex, octal, binary; u/l suffixes), or nullopt.
std::optional<std::size_t> integerLiteral(std::string_view text)
{
    std::string digits;
    for (char ch : text)
        if (ch != '\'')
            digits += ch;
    while (!digits.empty() && (digits.back() == 'u' || digits.back() == 'U' || digits.back() == 'l' || digits.back() == 'L'))
        digits.pop_back();
    if (digits.empty())
        return std::nullopt;
    int base = 10;
    std::size_t at = 0;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
        base = 16, at = 2;
    else if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B'))
        base = 2, at = 2;
    else if (digits.size() > 1 && digits[0] == '0')
        base = 8, at = 1;
    std::size_t value = 0;
    for (; at < digits.size(); ++at) {
        const char ch = digits[at];
        const int d = ch >= '0' && ch <= '9'   ? ch - '0'
                      : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                      : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                               : 99;
        if (d >= base || value > (std::size_t(1) << 40))
            return std::nullopt;
        value = value * std::size_t(base) + std::size_t(d);
    }
    return value;
}

class RecordReader {
public:
    explicit RecordReader(const Code& code) : m_code(code) {}

    std::optional<RecordLayout> layout(std::string_view wanted, std::string& why)
    {
        const std::string name(lastPart(wanted));
        if (!m_visiting.insert(name).second) {
            why = "struct " + name + " contains itself";
            return std::nullopt;
        }
        std::optional<RecordLayout> r = read(name, why);
        m_visiting.erase(name);
        return r;
    }

private:
    // Skips __align__(n), alignas(n), __attribute__((...)) and [[...]] from `i`, raising `align`
    // by the first two. Returns the first token after them.
    std::size_t attributes(std::size_t i, std::size_t& align) const
    {
        const Code& c = m_code;
        for (;;) {
            if ((c.word(i, "__align__") || c.word(i, "alignas")) && c.punct(i + 1, "(")) {
                const std::size_t close = c.matching(i + 1);
                if (close == kNone)
                    return i;
                if (close == i + 3)
                    if (auto n = integerLiteral(c.text(i + 2)); n && *n && (*n & (*n - 1)) == 0 && *n <= kMaxBytes)
                        align = std::max(align, *n);
                i = close + 1;
            } else if ((c.word(i, "__attribute__") || c.word(i, "__declspec")) && c.punct(i + 1, "(")) {
                const std::size_t close = c.matching(i + 1);
                i = close == kNone ? c.size() : close + 1;
            } else if (c.punct(i, "[") && c.punct(i + 1, "[")) {
                const std::size_t close = c.matching(i);
                i = close == kNone ? c.size() : close + 1;
            } else {
                return i;
            }
        }
    }

    std::optional<RecordLayout> read(const std::string& name, std::string& why)
    {
        const Code& c = m_code;
        for (std::size_t i = 0; i < c.size(); ++i) {
            if (!c.word(i, "struct") && !c.word(i, "class"))
                continue;
            const bool typedefed = i > 0 && c.word(i - 1, "typedef");
            std::size_t align = 1;
            std::size_t at = attributes(i + 1, align);
            std::size_t nameToken = kNone;
            if (c.identifier(at)) {
                nameToken = at;
                at = attributes(at + 1, align);
                if (c.word(at, "final"))
                    ++at;
            }
            if (!c.punct(at, "{") && !c.punct(at, ":"))
                continue; // a declaration, or the type of a variable
            const bool named = nameToken != kNone && c.text(nameToken) == name;
            std::size_t close = c.punct(at, "{") ? c.matching(at) : kNone;
            const bool typedefName = typedefed && close != kNone && c.identifier(close + 1) && c.text(close + 1) == name;
            if (!named && !typedefName)
                continue;
            const int line = c[named ? nameToken : close + 1].line;
            const std::string where = "struct " + name + " (line " + std::to_string(line) + ")";
            if (c.punct(at, ":")) {
                why = where + " has a base class, whose layout Kernelscope does not read";
                return std::nullopt;
            }
            if (close == kNone) {
                why = where + " has no closing '}'";
                return std::nullopt;
            }
            RecordLayout r;
            r.name = name;
            r.line = line;
            r.layout.align = align;
            if (!members(at + 1, close, r, where, why))
                return std::nullopt;
            return r;
        }
        why = "no definition of struct " + name + " in the kernel's file (records from included headers are not read)";
        return std::nullopt;
    }

    bool members(std::size_t from, std::size_t close, RecordLayout& r, const std::string& where, std::string& why)
    {
        const Code& c = m_code;
        std::size_t offset = 0;
        std::size_t i = from;
        while (i < close) {
            if ((c.word(i, "public") || c.word(i, "private") || c.word(i, "protected")) && c.punct(i + 1, ":")) {
                i += 2;
                continue;
            }
            Nesting n;
            bool paren = false, body = false;
            std::size_t e = i;
            for (; e < close; ++e) {
                if (n.top() && c.punct(e, "("))
                    paren = true;
                const bool top = n.feed(c, e);
                if (top && c.punct(e, ";"))
                    break;
                if (top && paren && c.punct(e, "{")) {
                    body = true;
                    break;
                }
            }
            const std::size_t b = i;
            if (body) {
                const std::size_t end = c.matching(e);
                i = end == kNone ? close : end + 1;
                if (c.punct(i, ";"))
                    ++i;
            } else {
                i = e + 1;
            }
            if (b == e)
                continue;
            const int line = c[b].line;
            auto refuse = [&](const std::string& what) {
                why = where + ", line " + std::to_string(line) + ": " + what +
                      ", which Kernelscope does not lay out";
                return false;
            };
            for (std::size_t k = b; k < e; ++k) {
                if (c.word(k, "virtual"))
                    return refuse("a virtual function");
                if (c.word(k, "union"))
                    return refuse("a union");
            }
            for (std::size_t k = b; k < e; ++k) {
                if (c.word(k, "alignas") || c.word(k, "__align__"))
                    return refuse("a member alignment");
            }
            const std::string_view first = c.text(b);
            if (paren || first == "static" || first == "using" || first == "typedef" || first == "friend" ||
                first == "static_assert" || first == "template")
                continue; // functions, constructors, static members and aliases take no room
            if (first == "struct" || first == "class" || first == "enum") {
                if (c.punct(b + 1, "{") || c.punct(b + 2, "{") || first == "enum")
                    return refuse("a nested type definition");
            }
            for (std::size_t k = b; k < e; ++k)
                if (c.punct(k, ":"))
                    return refuse("a bit-field");
            if (!declaration(b, e, r, offset, why, where))
                return false;
            if (offset > kMaxBytes || r.fields.size() > kMaxFields) {
                why = where + " is too large to lay out (more than " + std::to_string(kMaxBytes) + " bytes or " +
                      std::to_string(kMaxFields) + " members)";
                return false;
            }
        }
        std::size_t align = r.layout.align;
        for (const RecordField& f : r.fields)
            align = std::max(align, f.element.align);
        r.layout.align = align;
        r.layout.size = offset == 0 ? align : alignUp(offset, align); // an empty record takes 1 byte, or its alignment
        return true;
    }

    // `T a, *b, c[4];` from [b, e): each declarator's field, placed from `offset`.
    bool declaration(std::size_t b, std::size_t e, RecordLayout& r, std::size_t& offset, std::string& why,
                     const std::string& where)
    {
        const Code& c = m_code;
        const auto parts = code::splitTopLevel(c, b, e);
        std::vector<std::size_t> typeTokens;
        for (std::size_t p = 0; p < parts.size(); ++p) {
            auto [pb, pe] = parts[p];
            // A default member initializer (= x, {x}) takes no room.
            Nesting n;
            for (std::size_t k = pb; k < pe; ++k)
                if (n.feed(c, k) && (c.punct(k, "=") || (c.punct(k, "{") && k > pb)))
                    pe = k;
            std::size_t nameAt = kNone;
            for (std::size_t k = pb; k < pe && !c.punct(k, "["); ++k)
                if (c.identifier(k))
                    nameAt = k;
            const int line = c[pb].line;
            if (nameAt == kNone || (p == 0 && nameAt == pb)) {
                why = where + ", line " + std::to_string(line) + ": cannot read the member \"" + c.written(pb, pe) + "\"";
                return false;
            }
            std::size_t stars = 0;
            std::size_t k = pb;
            if (p == 0) {
                for (; k < nameAt && !c.punct(k, "*"); ++k)
                    if (!c.word(k, "mutable") && !c.word(k, "struct") && !c.word(k, "class"))
                        typeTokens.push_back(k);
            }
            for (; k < nameAt; ++k) {
                if (c.punct(k, "*"))
                    ++stars;
                else if (!c.word(k, "const") && !c.word(k, "volatile") && !c.word(k, "__restrict__")) {
                    why = where + ", line " + std::to_string(line) + ": cannot read the member \"" +
                          c.written(pb, pe) + "\"";
                    return false;
                }
            }
            std::size_t count = 1;
            for (k = nameAt + 1; k < pe; k += 3) {
                const auto extent = c.punct(k, "[") && c.punct(k + 2, "]") ? integerLiteral(c.text(k + 1)) : std::nullopt;
                if (!extent || *extent == 0) {
                    why = where + ", line " + std::to_string(line) + ": the member " + std::string(c.text(nameAt)) +
                          " has an array extent that is not a number, which Kernelscope does not lay out";
                    return false;
                }
                count *= *extent;
                if (count > kMaxBytes) {
                    why = where + ", line " + std::to_string(line) + ": the member " + std::string(c.text(nameAt)) +
                          " is an array too large to lay out";
                    return false;
                }
            }
            const std::string name(c.text(nameAt));
            std::string type = c.normalised(typeTokens);
            if (stars) {
                type += std::string(stars, '*');
                place(r, offset, {name, type, 0, count, {8, 8}});
            } else if (auto known = knownTypeLayout(type)) {
                place(r, offset, {name, type, 0, count, *known});
            } else {
                std::string inner;
                const auto nested = layout(type, inner);
                if (!nested) {
                    why = where + ", line " + std::to_string(line) + ": the member " + name + " is a " + type +
                          ", which Kernelscope cannot lay out (" + inner + ")";
                    return false;
                }
                if (r.fields.size() + count * nested->fields.size() > kMaxFields) {
                    why = where + ", line " + std::to_string(line) + ": the member " + name + " has more than " +
                          std::to_string(kMaxFields) + " members once its records are counted";
                    return false;
                }
                offset = alignUp(offset, nested->layout.align);
                r.layout.align = std::max(r.layout.align, nested->layout.align);
                for (std::size_t element = 0; element < count; ++element) {
                    const std::string prefix = name + (count > 1 ? "[" + std::to_string(element) + "]" : "") + ".";
                    for (RecordField f : nested->fields) {
                        f.name = prefix + f.name;
                        f.offset += offset;
                        r.fields.push_back(std::move(f));
                    }
                    offset += nested->layout.size;
                }
            }
        }
        return true;
    }

    static void place(RecordLayout& r, std::size_t& offset, RecordField f)
    {
        offset = alignUp(offset, f.element.align);
        f.offset = offset;
        offset += f.element.size * f.count;
        r.fields.push_back(std::move(f));
    }

    const Code& m_code;
    std::set<std::string> m_visiting;
};

} // namespace

namespace code {

std::optional<RecordLayout> findRecordLayout(const Code& code, std::string_view name, std::string* why)
{
    std::string reason;
    RecordReader reader(code);
    std::optional<RecordLayout> r = reader.layout(name, reason);
    if (!r && why)
        *why = reason;
    return r;
}

} // namespace code

std::optional<RecordLayout> findRecordLayout(std::string_view source, std::string_view name, std::string* why)
{
    return code::findRecordLayout(Code(source), name, why);
}

} // namespace ks::syntax
