#pragma once
// The kernel editor panel's parts, internal to app/editor/: what one part calls in another.
//   source_view.cpp   the source view: gutter, syntax colours, cursor, selection, markers, squiggles,
//                     find-match highlights, the overview ruler (and the diagnostic helpers below)
//   find_bar.cpp      the find and replace bar, go to line, and the find matches kept up to date
//   editor_panel.cpp  the panel: tabs, toolbar, build status, options, banners, kernel picker,
//                     the diagnostics list (drawEditorPanel, panels.hpp)

#include "app_state.hpp"
#include "editor/editor_state.hpp"

#include "ks/rtc/diagnostics.hpp"

#include <imgui.h>

#include <string>

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

} // namespace ks::app::editor_parts
