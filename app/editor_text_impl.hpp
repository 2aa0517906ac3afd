#pragma once
// Template bodies of editor_text.hpp.

namespace ks::app::text {

namespace detail {
inline int bracketKind(char c, bool& opening)
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
} // namespace detail

template <class IsCode>
std::optional<BracketPair> matchingBracket(std::string_view text, std::size_t cursor, IsCode isCode, std::size_t limit)
{
    // The bracket right before the cursor wins (as after typing it), else the one at the cursor.
    for (const std::size_t at : {cursor > 0 ? cursor - 1 : std::size_t(-1), cursor}) {
        if (at >= text.size() || !isCode(at))
            continue;
        bool opening = false;
        const int kind = detail::bracketKind(text[at], opening);
        if (kind < 0)
            continue;
        int depth = 0;
        const std::size_t end = opening ? std::min(text.size(), at + limit) : (at > limit ? at - limit : 0);
        for (std::size_t i = at;;) {
            bool o = false;
            if (detail::bracketKind(text[i], o) == kind && isCode(i)) {
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
