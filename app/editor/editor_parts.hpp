#pragma once
// The kernel editor panel's parts, internal to app/editor/: what one part calls in another.
//   source_view.cpp   the source view: gutter, syntax colours, cursor, selection, markers, squiggles,
//                     find-match highlights, the overview ruler (and the diagnostic helpers below)
//   find_bar.cpp      the find and replace bar, go to line, and the find matches kept up to date
//   completion_popup.cpp  the completion list and the hover text over the code
//   editor_panel.cpp  the panel: tabs, toolbar, build status, options, banners, kernel picker,
//                     the diagnostics list (drawEditorPanel, panels.hpp)

#include "app_state.hpp"
#include "editor/code_input.hpp"
#include "editor/editor_state.hpp"

#include "ks/rtc/diagnostics.hpp"

#include <imgui.h>

#include <string>
#include <vector>

namespace ks::app::editor_parts {

// Steady-clock seconds (the cursor's blink, the building... timer).
double steadySeconds();

// A diagnostic's colour (by severity; a likely cause its own) and its one-line text.
ImU32 severityColour(const rtc::Diagnostic& d);
std::string describe(const rtc::Diagnostic& d);

// The source view (source_view.cpp), `height` tall: gutter (line numbers, markers), the text
// widget, inline messages, the overview ruler.
void drawSource(EditorState& ed, int index, EditorTab& tab, float height, Commands& commands);

// Brings the find bar's matches up to date with the tab's text (searched again only on a change).
void refreshMatches(FindState& f, const EditorTab& tab);
// The find (and replace) bar above the source: Enter finds the next match, Shift+Enter the previous,
// Escape closes the bar and selects the match in the editor.
void drawFindBar(EditorState& ed, int index, EditorTab& tab, Commands& commands);
// Go to line (Ctrl+G).
void drawGotoLine(EditorState& ed, EditorTab& tab);

// Help while typing (completion_popup.cpp). Before the source widget: the completion list's
// keys (Up, Down, Page Up/Down, Tab, Enter once a row was chosen, Escape) and a click on a row;
// accepting replaces the identifier being typed. `tookKeys`: the widget must not see those keys.
struct ListInput {
    bool tookKeys = false;
    bool edited = false;
    std::size_t editedFrom = 0; // with `edited`: a line's start; the text before it is unchanged
};
ListInput completionKeys(EditorState& ed, EditorTab& tab);
// After the widget and the text: opens the list on an identifier character typed in code (not in
// a comment, string or number) or on Ctrl+Space, ranks it again for the prefix, closes it when
// the cursor leaves the word or nothing matches, and draws it under the cursor within
// [viewMin, viewMax) (over it when there is no room below).
void completionList(EditorState& ed, EditorTab& tab, const std::vector<int>& starts, bool typedWordChar,
                    bool ctrlSpace, ImVec2 textPos, float lineH, ImVec2 viewMin, ImVec2 viewMax);
// The hover text of the identifier under the mouse (`hovered`: the code is), after a short rest:
// a CUDA name's declaration and description, or a kernel parameter's type and its binding.
void codeHover(const EditorState& ed, EditorTab& tab, const CodeInputLayout& layout, bool hovered);

} // namespace ks::app::editor_parts
