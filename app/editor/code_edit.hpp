#pragma once
// The kernel editor's cursor and editing rules without ImGui: moving by characters (UTF-8 aware),
// words and lines, the selection, typing over it, Tab and Shift+Tab, and what double- and
// triple-clicks select. Plain functions over a string and byte offsets, unit-tested
// (tests/unit/test_editor_code_edit.cpp); the source widget (app/editor/code_input.cpp) maps keys and the
// mouse onto them.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ks::app::text {

// The cursor and the selection's other end (byte offsets, always at a character boundary).
struct Caret {
    std::size_t cursor = 0, anchor = 0;
    std::size_t begin() const { return cursor < anchor ? cursor : anchor; }
    std::size_t end() const { return cursor < anchor ? anchor : cursor; }
    bool empty() const { return cursor == anchor; }
    bool operator==(const Caret&) const = default;
};

inline constexpr int kIndentWidth = 4; // what Tab inserts, in spaces, and what auto-indent adds after '{'

// `at` clamped to the text and moved back to the start of the UTF-8 sequence it falls in (a cursor
// kept across a change made elsewhere).
std::size_t charBoundary(std::string_view text, std::size_t at);

// The boundary after / before the character at `at` (a whole UTF-8 sequence; clamped to the text).
std::size_t nextChar(std::string_view text, std::size_t at);
std::size_t previousChar(std::string_view text, std::size_t at);

// Ctrl+Right / Ctrl+Left: past the rest of the run at the cursor (identifier characters, or other
// punctuation), skipping blanks first; a line break is a stop of its own.
std::size_t wordRight(std::string_view text, std::size_t at);
std::size_t wordLeft(std::string_view text, std::size_t at);

std::size_t lineBegin(std::string_view text, std::size_t at); // the start of at's line
std::size_t lineEnd(std::string_view text, std::size_t at);   // before its '\n' (or the text's end)
// Home: to the line's first non-blank character, or to column 0 when already there.
std::size_t smartHome(std::string_view text, std::size_t at);

// What a double-click at `at` selects: the identifier (or run of punctuation, or of blanks) there.
Caret wordAt(std::string_view text, std::size_t at);
// A triple-click: the whole line with its '\n'.
Caret lineAt(std::string_view text, std::size_t at);

// Replaces the selection with `with` (typing, pasting, Enter); the cursor goes after it.
void replaceSelection(std::string& text, Caret& caret, std::string_view with);

// Backspace / Delete: the selection, else the character before / after the cursor (`word`: Ctrl,
// back to wordLeft / on to wordRight). Backspace in a line's indentation of spaces removes back to
// the previous multiple of kIndentWidth. Returns whether the text changed.
bool eraseBackward(std::string& text, Caret& caret, bool word);
bool eraseForward(std::string& text, Caret& caret, bool word);

// Whether a text is indented with tabs: more of its indented lines begin with a tab than with
// spaces (a block comment's " *" lines aside). Such a file gets tabs where it is typed in.
bool indentsWithTabs(std::string_view text);

// Tab: with a selection over more than one line, indents each of its lines by kIndentWidth
// spaces, or a tab with `tabs` (`outdent`, Shift+Tab: removes up to that many leading spaces, or
// one tab) and keeps the lines selected; otherwise inserts spaces to the next multiple of
// kIndentWidth columns, or a tab (Shift+Tab outdents the cursor's line). Returns whether the text
// changed.
bool tab(std::string& text, Caret& caret, bool outdent, bool tabs = false);

// The column of `at` on its line in characters (UTF-8 sequences count once, a tab as kIndentWidth),
// and the offset on the line starting at `begin` nearest to a column (for Up and Down).
int columnOf(std::string_view text, std::size_t at);
std::size_t offsetAtColumn(std::string_view text, std::size_t begin, int column);

// Up / Down `lines` lines (negative: up) keeping `column` (the column the cursor had before the
// first vertical move); stops at the first / last line's start / end.
std::size_t moveLines(std::string_view text, std::size_t at, int lines, int column);

// The byte offset where each line of `text` starts (the first is 0).
std::vector<int> lineStarts(std::string_view text);
// `starts` was lineStarts of a text that an edit made `text`, and the edit changed nothing before
// `from`, a line's beginning in `text`: it becomes lineStarts(text), the lines before `from` kept.
void updateLineStarts(std::vector<int>& starts, std::string_view text, std::size_t from);

} // namespace ks::app::text

namespace ks::app {

// What the source widget (app/editor/code_input.hpp) keeps between frames, per document.
struct CodeInputState {
    text::Caret caret;
    int wantColumn = -1;    // the column Up/Down keep while they repeat (-1: the cursor's own)
    bool dragging = false;  // the left button went down on the text and is still down
    int dragUnit = 0;       // 0: characters, 1: words (double-click), 2: lines (triple-click)
    text::Caret dragOrigin; // the word or line the drag began on
    int clicks = 0;         // 1, 2 or 3: the click count of the last press
    bool tabs = false;      // the document indents with tabs (text::indentsWithTabs): Tab and Enter do too
    bool overtype = false;  // Insert toggles: a typed character replaces the one after the cursor
    double lastClickTime = -1;
    float lastClickX = 0, lastClickY = 0;
};

} // namespace ks::app
