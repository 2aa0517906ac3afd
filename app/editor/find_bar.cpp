// The kernel editor's find and replace bar (Ctrl+F, Ctrl+H) and go to line (Ctrl+G), and the
// find matches they keep up to date with the active tab's text (the source view highlights them).
#include "editor/editor_parts.hpp"

#include "editor/editor_text.hpp"
#include "panels/panels.hpp"
#include "panels/theme.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <string>
#include <vector>

namespace ks::app::editor_parts {

// Brings the find bar's matches up to date with the tab's text (searched again only on a change).
void refreshMatches(FindState& f, const EditorTab& tab)
{
    if (f.matchesOf == &tab && f.matchesRevision == tab.doc.revision() && f.matchesSize == tab.buffer.size() &&
        f.matchesNeedle == f.needle && f.matchesCase == f.matchCase && f.matchesWord == f.wholeWord)
        return;
    f.matches = text::findAll(tab.buffer, f.needle, {f.matchCase, f.wholeWord});
    f.matchesOf = &tab;
    f.matchesRevision = tab.doc.revision();
    f.matchesSize = tab.buffer.size();
    f.matchesNeedle = f.needle;
    f.matchesCase = f.matchCase;
    f.matchesWord = f.wholeWord;
    if (f.current >= int(f.matches.size()))
        f.current = f.matches.empty() ? -1 : 0;
}

namespace {

// Shows match `i` of the find bar: scrolls to its line; `select` also puts the editor's selection on it.
void showMatch(FindState& f, EditorTab& tab, int i, bool select)
{
    if (i < 0 || i >= int(f.matches.size()))
        return;
    f.current = i;
    const text::Match& m = f.matches[std::size_t(i)];
    tab.jumpToLine = syntax::lineOf(tab.buffer, m.begin);
    tab.jumpFocus = false;
    if (select) {
        tab.refocusOffset = int(m.begin);
        tab.pendingSelectEnd = int(m.end);
    }
}

} // namespace

// The find (and replace) bar above the source: Enter finds the next match, Shift+Enter the previous,
// Escape closes the bar and selects the match in the editor.
void drawFindBar(EditorState& ed, int index, EditorTab& tab, Commands& commands)
{
    FindState& f = ed.findBar;
    if (!f.open)
        return;
    // The field takes what the checkboxes, arrows and count leave, within limits.
    const float field = std::clamp(ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 19.f,
                                   ImGui::GetFontSize() * 6.f, ImGui::GetFontSize() * 18.f);
    const auto needleBefore = f.needle;
    const bool caseBefore = f.matchCase, wordBefore = f.wholeWord;
    if (f.focusField) {
        ImGui::SetKeyboardFocusHere();
        f.focusField = false;
    }
    ImGui::SetNextItemWidth(field);
    const bool enter = ImGui::InputTextWithHint("##find", "Find", &f.needle, ImGuiInputTextFlags_EnterReturnsTrue);
    const bool fieldActive = ImGui::IsItemActive();
    uiProbe().record("find:find", lastItemRect());
    if (enter)
        ImGui::SetKeyboardFocusHere(-1); // Enter ends the field's edit: keep typing in it
    const bool shift = ImGui::GetIO().KeyShift;
    ImGui::SameLine();
    ImGui::Checkbox("Aa", &f.matchCase);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Match case");
    ImGui::SameLine();
    ImGui::Checkbox("Word", &f.wholeWord);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Whole word: not part of a longer name");
    refreshMatches(f, tab);
    ImGui::SameLine();
    const bool prev = ImGui::ArrowButton("##prev", ImGuiDir_Up);
    ImGui::SameLine();
    const bool next = ImGui::ArrowButton("##next", ImGuiDir_Down);
    ImGui::SameLine();
    if (f.needle.empty())
        ImGui::TextDisabled("type to find");
    else if (f.matches.empty())
        ImGui::TextColored(theme::colour(theme::kError), "no match");
    else
        ImGui::TextDisabled("%d of %d", f.current + 1, int(f.matches.size()));
    ImGui::SameLine();
    const bool close = ImGui::SmallButton("x");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Close (Escape)");

    const std::size_t from = tab.selectionEnd > tab.selectionBegin ? std::size_t(tab.selectionBegin) + 1
                                                                    : std::size_t(tab.cursorOffset);
    const std::vector<text::Match>& ms = f.matches;
    if (f.needle != needleBefore || f.matchCase != caseBefore || f.wholeWord != wordBefore)
        showMatch(f, tab, text::nextMatch(ms, std::size_t(tab.selectionBegin)), false); // as you type
    if ((enter && !shift) || next)
        showMatch(f, tab, f.current >= 0 ? (f.current + 1) % int(ms.size()) : text::nextMatch(ms, from), false);
    if ((enter && shift) || prev)
        showMatch(f, tab, f.current >= 0 ? (f.current + int(ms.size()) - 1) % int(ms.size())
                                         : text::previousMatch(ms, std::size_t(tab.cursorOffset)),
                  false);

    if (f.replace) {
        ImGui::SetNextItemWidth(field);
        ImGui::InputTextWithHint("##replace", "Replace", &f.replacement);
        uiProbe().record("find:replace", lastItemRect());
        ImGui::SameLine();
        ImGui::BeginDisabled(f.current < 0 || f.matches.empty());
        const bool replaceOne = ImGui::Button("Replace");
        uiProbe().record("find:Replace", lastItemRect());
        if (replaceOne && f.current >= 0 && f.current < int(f.matches.size())) {
            const text::Match m = f.matches[std::size_t(f.current)];
            tab.buffer.replace(m.begin, m.end - m.begin, f.replacement);
            ++tab.widgetGeneration; // replaced from outside the widget
            commands.textEdited.push_back(index);
            f.message.clear();
        }
        ImGui::SameLine();
        const bool replaceAll = ImGui::Button("Replace all");
        uiProbe().record("find:Replace all", lastItemRect());
        if (replaceAll) {
            int n = 0;
            tab.buffer = text::replaceAll(tab.buffer, f.needle, f.replacement, {f.matchCase, f.wholeWord}, &n);
            ++tab.widgetGeneration;
            commands.textEdited.push_back(index);
            f.message = std::to_string(n) + " replaced";
            f.current = -1;
        }
        ImGui::EndDisabled();
        if (!f.message.empty()) {
            ImGui::SameLine();
            ImGui::TextDisabled("%s", f.message.c_str());
        }
    }
    // Escape deactivates the field inside InputText, so "was active" is the last frame's.
    const bool escape = (fieldActive || f.fieldWasActive) && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
    f.fieldWasActive = fieldActive;
    if (close || escape) {
        f.open = false;
        if (f.current >= 0)
            showMatch(f, tab, f.current, true);
        else
            tab.refocusOffset = tab.cursorOffset;
    }
}

// Go to line (Ctrl+G).
void drawGotoLine(EditorState& ed, EditorTab& tab)
{
    if (ed.findBar.gotoOpen) {
        ImGui::OpenPopup("goto-line");
        ed.findBar.gotoOpen = false;
    }
    if (!ImGui::BeginPopup("goto-line"))
        return;
    const int lines = syntax::lineOf(tab.buffer, tab.buffer.size());
    ImGui::Text("Go to line (1 to %d)", lines);
    if (ImGui::IsWindowAppearing())
        ImGui::SetKeyboardFocusHere();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.f);
    bool go = ImGui::InputInt("##line", &ed.findBar.gotoLine, 0, 0, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    go |= ImGui::Button("Go");
    if (go) {
        tab.jumpToLine = std::clamp(ed.findBar.gotoLine, 1, lines);
        tab.jumpFocus = true;
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

} // namespace ks::app::editor_parts
