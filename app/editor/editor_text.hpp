#pragma once
// Text operations of the kernel editor that do not need ImGui: find and replace (match case,
// whole word), line and column of an offset, and commenting lines in and out. Plain functions over
// strings, unit-tested (tests/unit/test_editor_editor_text.cpp); the editor panel applies their results.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::app::text {

struct Match {
    std::size_t begin = 0, end = 0; // byte offsets, end exclusive
    bool operator==(const Match&) const = default;
};

struct FindOptions {
    bool matchCase = false; // else ASCII letters match either case
    bool wholeWord = false; // the match is not part of a longer identifier
};

// Every non-overlapping occurrence of `needle`, in order; none for an empty needle.
std::vector<Match> findAll(std::string_view text, std::string_view needle, FindOptions options);

// The first match that begins at or after `from`, wrapping to the start; -1 when there is none.
int nextMatch(const std::vector<Match>& matches, std::size_t from);
// The last match that begins before `from`, wrapping to the end; -1 when there is none.
int previousMatch(const std::vector<Match>& matches, std::size_t from);

// `text` with every match replaced by `with`; `count` (if given) receives how many.
std::string replaceAll(std::string_view text, std::string_view needle, std::string_view with, FindOptions options,
                       int* count = nullptr);

// The offset where a 1-based line starts (clamped); syntax::lineOf goes the other way.
std::size_t lineStart(std::string_view text, int line);

// Ctrl+/ on the lines that [selBegin, selEnd) touches: when every non-blank one starts with "//"
// (after its indentation) those markers (and one space after each) are removed; otherwise "// " is
// added at the smallest indentation of the non-blank lines. Blank lines are left alone. The
// selection comes back adjusted to cover the same lines.
struct Edit {
    std::string text;
    std::size_t selBegin = 0, selEnd = 0;
};
Edit toggleLineComments(std::string_view text, std::size_t selBegin, std::size_t selEnd);

// The indentation a new line gets when Enter put a '\n' just before `cursor`: the previous line's
// leading spaces and tabs, and four spaces more (a tab with `tabs`) when that line ends with '{'
// (trailing blanks and a trailing // comment aside).
std::string indentForNewLine(std::string_view text, std::size_t cursor, bool tabs = false);

// The bracket matching the one just before or at `cursor` ( (), [], {} ), skipping brackets for
// which `isCode(offset)` is false (in comments and strings); looks at most `limit` bytes away.
// Returns {the bracket at the cursor, its match}, or nothing.
struct BracketPair {
    std::size_t at = 0, match = 0;
};
std::optional<BracketPair> matchingBracket(std::string_view text, std::size_t cursor,
                                           const std::function<bool(std::size_t)>& isCode, std::size_t limit = 20000);

} // namespace ks::app::text
