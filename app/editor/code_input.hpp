#pragma once
// The kernel editor's source widget: keyboard and mouse editing of a std::string in place, with
// the cursor and selection as byte offsets (app/editor/code_edit.hpp has the rules). It replaces ImGui
// 1.86's multi-line text widget, which converts the whole buffer between UTF-8 and UTF-16 on every
// edit and scans all of it every frame: here an edit costs the line it touches, and nothing is drawn
// (the editor panel draws the text, the selection and the cursor from the state this leaves).
//
// Keys: arrows (Ctrl: by word; Shift: select), Home (first non-blank, then column 0), End,
// Ctrl+Home/End, Page Up/Down, Backspace/Delete (Ctrl: a word), Enter (keeps the indentation, one
// level more after '{'), Tab / Shift+Tab (indent / outdent the selected lines), Ctrl+A, Ctrl+C/X/V
// (without a selection: the whole line), Insert (overtype on and off), Escape (drops the
// selection, then the keyboard). A '}' typed at the start of an indented line outdents it. A file
// indented with tabs (CodeInputState::tabs) gets tabs from Tab and Enter. While the completion
// list is open it takes its keys first (CodeInputLayout::listTookKeys). Mouse: click,
// Shift+click, drag, double-click (a word), triple-click (a line); a drag past the edges is the
// panel's to scroll.

#include "editor/code_edit.hpp"

#include <imgui.h>

#include <string>
#include <vector>

namespace ks::app {

struct CodeInputLayout {
    ImVec2 textPos;                 // on screen: the top-left of line 0's first character
    float lineHeight = 0;
    ImVec2 size;                    // the widget's size (it starts at the window's cursor)
    int pageLines = 20;             // what Page Up / Page Down move
    const std::vector<int>* starts; // the byte offset of every line of the text as passed in
    // The completion list took this frame's keys: Up, Down, Page Up/Down, Enter, Tab and Escape
    // are not the text's.
    bool listTookKeys = false;
};

// The offset nearest to `mouse` in `text` laid out by `l`: its line by height (clamped to the
// text), then the character boundary nearest to it on that line. Uses the current font.
std::size_t codeOffsetAt(const std::string& text, const CodeInputLayout& l, ImVec2 mouse);

struct CodeInputResult {
    bool edited = false;      // the text changed
    bool active = false;      // the widget has the keyboard
    bool caretMoved = false;  // the cursor or the selection changed (by a key or the mouse)
    bool manyLines = false;   // the edit changed lines other than the cursor's and the one before it
    std::size_t editedFrom = 0; // with `edited`: a line's start; the text before it is unchanged
};

// `focus`: take the keyboard now (after Go to line, a find, an undo). Uses the current font.
CodeInputResult codeInput(const char* id, std::string& text, CodeInputState& state, const CodeInputLayout& layout,
                          bool focus);

} // namespace ks::app
