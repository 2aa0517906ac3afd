#include "editor/code_input.hpp"

#include "editor/editor_text.hpp"

#include <imgui_internal.h> // ItemAdd, SetActiveID: a widget of our own in ImGui 1.86

#include <algorithm>
#include <cmath>
#include <string_view>

namespace ks::app {

std::size_t codeOffsetAt(const std::string& text, const CodeInputLayout& l, ImVec2 mouse)
{
    const std::vector<int>& starts = *l.starts;
    const int line = std::clamp(int(std::floor((mouse.y - l.textPos.y) / l.lineHeight)), 0, int(starts.size()) - 1);
    std::size_t at = std::min(std::size_t(starts[std::size_t(line)]), text.size());
    const std::size_t end = text::lineEnd(text, at);
    float x = l.textPos.x;
    while (at < end) {
        const std::size_t next = text::nextChar(text, at);
        const float w = ImGui::CalcTextSize(text.data() + at, text.data() + next).x;
        if (mouse.x < x + w * 0.5f)
            return at;
        x += w;
        at = next;
    }
    return end;
}

namespace {

// The selection's text, or the cursor's whole line (with its '\n') when nothing is selected.
text::Caret copyRange(const std::string& text, const text::Caret& c)
{
    return c.empty() ? text::lineAt(text, c.cursor) : c;
}

} // namespace

CodeInputResult codeInput(const char* idName, std::string& text, CodeInputState& st, const CodeInputLayout& l,
                          bool focus)
{
    ImGuiContext& g = *GImGui;
    ImGuiIO& io = g.IO;
    ImGuiWindow* window = ImGui::GetCurrentWindow();
    const ImGuiID id = window->GetID(idName);
    const ImVec2 pos = window->DC.CursorPos;
    const ImRect bb(pos, ImVec2(pos.x + l.size.x, pos.y + l.size.y));
    ImGui::ItemSize(bb);
    ImGui::ItemAdd(bb, id, nullptr, ImGuiItemFlags_Inputable); // never clipped away: it is the child's content
    const bool hovered = ImGui::ItemHoverable(bb, id);
    if (hovered)
        ImGui::SetMouseCursor(ImGuiMouseCursor_TextInput);

    CodeInputResult r;
    text::Caret& c = st.caret;
    c.cursor = text::charBoundary(text, c.cursor);
    c.anchor = text::charBoundary(text, c.anchor);
    const text::Caret before = c;

    const bool tabbedIn = (g.LastItemData.StatusFlags & ImGuiItemStatusFlags_FocusedByTabbing) != 0 ||
                          g.NavActivateInputId == id;
    const bool clicked = hovered && io.MouseClicked[0];
    // The keys of the frame that gives the widget the keyboard were meant for what gave it (Enter in
    // Go to line, Escape in the find bar): they are not applied to the text.
    const bool keysForUs = g.ActiveId == id;
    if ((focus || tabbedIn || clicked) && g.ActiveId != id) {
        ImGui::SetActiveID(id, window);
        ImGui::SetFocusID(id, window);
        ImGui::FocusWindow(window);
    } else if (g.ActiveId == id && io.MouseClicked[0] && !hovered) {
        ImGui::ClearActiveID(); // a click elsewhere (another widget would take it anyway)
        st.dragging = false;
    }
    r.active = g.ActiveId == id;
    if (!r.active) {
        st.dragging = false;
        return r;
    }
    ImGui::KeepAliveID(id);
    // Arrows, Home/End, Page Up/Down, Tab and Escape are the editor's while it has the keyboard,
    // not ImGui's navigation's.
    g.ActiveIdUsingNavDirMask |= (1u << ImGuiDir_Left) | (1u << ImGuiDir_Right) | (1u << ImGuiDir_Up) | (1u << ImGuiDir_Down);
    g.ActiveIdUsingNavInputMask |= 1u << ImGuiNavInput_Cancel;
    g.ActiveIdUsingKeyInputMask |= (ImU64(1) << ImGuiKey_Home) | (ImU64(1) << ImGuiKey_End) |
                                   (ImU64(1) << ImGuiKey_PageUp) | (ImU64(1) << ImGuiKey_PageDown) |
                                   (ImU64(1) << ImGuiKey_Tab) | (ImU64(1) << ImGuiKey_Escape);
    g.WantTextInputNextFrame = 1;

    // The mouse: a press places the cursor (Shift: extends), two and three in a row take a word and
    // a line; a drag extends by the unit the press took.
    if (clicked) {
        const double now = ImGui::GetTime();
        const float dx = io.MousePos.x - st.lastClickX, dy = io.MousePos.y - st.lastClickY;
        const bool again = now - st.lastClickTime < io.MouseDoubleClickTime &&
                           dx * dx + dy * dy < io.MouseDoubleClickMaxDist * io.MouseDoubleClickMaxDist;
        st.clicks = again ? st.clicks % 3 + 1 : 1;
        st.lastClickTime = now;
        st.lastClickX = io.MousePos.x;
        st.lastClickY = io.MousePos.y;
        const std::size_t at = codeOffsetAt(text, l, io.MousePos);
        if (st.clicks == 1 && io.KeyShift) {
            c.cursor = at;
            st.dragUnit = 0;
        } else if (st.clicks == 1) {
            c = {at, at};
            st.dragUnit = 0;
        } else {
            c = st.clicks == 2 ? text::wordAt(text, at) : text::lineAt(text, at);
            st.dragUnit = st.clicks - 1;
            st.dragOrigin = c;
        }
        st.dragging = true;
        st.wantColumn = -1;
    } else if (st.dragging && io.MouseDown[0]) {
        const std::size_t at = codeOffsetAt(text, l, io.MousePos);
        if (st.dragUnit == 0) {
            c.cursor = at;
        } else {
            const text::Caret unit = st.dragUnit == 1 ? text::wordAt(text, at) : text::lineAt(text, at);
            c = unit.begin() < st.dragOrigin.begin() ? text::Caret{unit.begin(), st.dragOrigin.end()}
                                                     : text::Caret{unit.end(), st.dragOrigin.begin()};
        }
    }
    if (!io.MouseDown[0])
        st.dragging = false;

    // The keyboard.
    auto pressed = [&](ImGuiKey key) {
        const bool listKey = key == ImGuiKey_UpArrow || key == ImGuiKey_DownArrow || key == ImGuiKey_PageUp ||
                             key == ImGuiKey_PageDown || key == ImGuiKey_Enter || key == ImGuiKey_KeyPadEnter ||
                             key == ImGuiKey_Tab || key == ImGuiKey_Escape;
        return !(l.listTookKeys && listKey) && ImGui::IsKeyPressed(ImGui::GetKeyIndex(key), true);
    };
    const bool ctrl = io.ConfigMacOSXBehaviors ? io.KeySuper : io.KeyCtrl;
    const bool shift = io.KeyShift;
    bool edited = false;
    bool vertical = false;
    const text::Caret atKeys = c; // every edit below is at or after its line, or the new cursor's
    auto moveTo = [&](std::size_t at) {
        c.cursor = at;
        if (!shift)
            c.anchor = at;
    };
    auto spansLines = [&] { return text.find('\n', c.begin()) < c.end(); };
    auto insert = [&](std::string_view s) {
        if (spansLines() || std::count(s.begin(), s.end(), '\n') > 1)
            r.manyLines = true;
        text::replaceSelection(text, c, s);
        edited = true;
    };

    if (!keysForUs) {
        io.InputQueueCharacters.resize(0);
        r.caretMoved = !(c == before);
        return r;
    }
    // Typed characters first, as ImGui's own widget takes them (Ctrl+letter shortcuts are not text).
    // A line break or tab in the queue (never from a keyboard: Enter and Tab are keys) goes in as is.
    if (!(ctrl && !io.KeyAlt)) {
        for (const ImWchar ch : io.InputQueueCharacters) {
            if ((ch < 0x20 && ch != '\n' && ch != '\t') || ch == 0x7F)
                continue;
            if (ch == '}' && c.empty()) { // closing a block at the start of an indented line: one level less
                const std::size_t begin = text::lineBegin(text, c.cursor);
                if (c.cursor > begin && text.find_first_not_of(" \t", begin) >= c.cursor)
                    text::tab(text, c, true, st.tabs);
            }
            // Overtype: the character after the cursor goes, unless it ends the line.
            if (st.overtype && c.empty() && c.cursor < text.size() && text[c.cursor] != '\n')
                c.cursor = text::nextChar(text, c.cursor);
            char utf8[5];
            insert(ImTextCharToUtf8(utf8, ch));
        }
    }
    io.InputQueueCharacters.resize(0);

    if (pressed(ImGuiKey_LeftArrow)) {
        moveTo(!shift && !c.empty() && !ctrl ? c.begin() : ctrl ? text::wordLeft(text, c.cursor) : text::previousChar(text, c.cursor));
    } else if (pressed(ImGuiKey_RightArrow)) {
        moveTo(!shift && !c.empty() && !ctrl ? c.end() : ctrl ? text::wordRight(text, c.cursor) : text::nextChar(text, c.cursor));
    } else if (pressed(ImGuiKey_UpArrow) || pressed(ImGuiKey_DownArrow) || pressed(ImGuiKey_PageUp) ||
               pressed(ImGuiKey_PageDown)) {
        const bool page = pressed(ImGuiKey_PageUp) || pressed(ImGuiKey_PageDown);
        const bool up = pressed(ImGuiKey_UpArrow) || pressed(ImGuiKey_PageUp);
        if (st.wantColumn < 0)
            st.wantColumn = text::columnOf(text, c.cursor);
        const int lines = page ? std::max(1, l.pageLines) : 1;
        moveTo(text::moveLines(text, c.cursor, up ? -lines : lines, st.wantColumn));
        vertical = true;
    } else if (pressed(ImGuiKey_Home)) {
        moveTo(ctrl ? 0 : text::smartHome(text, c.cursor));
    } else if (pressed(ImGuiKey_End)) {
        moveTo(ctrl ? text.size() : text::lineEnd(text, c.cursor));
    } else if (ctrl && pressed(ImGuiKey_A)) {
        c = {text.size(), 0};
    } else if (const bool cut = (ctrl && pressed(ImGuiKey_X)) || (shift && pressed(ImGuiKey_Delete));
               cut || (ctrl && (pressed(ImGuiKey_C) || pressed(ImGuiKey_Insert)))) {
        const text::Caret range = copyRange(text, c);
        ImGui::SetClipboardText(text.substr(range.begin(), range.end() - range.begin()).c_str());
        if (cut) {
            c = range;
            insert({});
        }
    } else if (!ctrl && !shift && pressed(ImGuiKey_Insert)) {
        st.overtype = !st.overtype;
    } else if ((ctrl && pressed(ImGuiKey_V)) || (shift && pressed(ImGuiKey_Insert))) {
        if (const char* clip = ImGui::GetClipboardText()) {
            std::string s(clip);
            s.erase(std::remove(s.begin(), s.end(), '\r'), s.end());
            if (!s.empty())
                insert(s);
        }
    } else if (pressed(ImGuiKey_Backspace)) {
        r.manyLines |= spansLines();
        edited |= text::eraseBackward(text, c, ctrl);
    } else if (pressed(ImGuiKey_Delete)) {
        r.manyLines |= spansLines();
        edited |= text::eraseForward(text, c, ctrl);
    } else if ((pressed(ImGuiKey_Enter) || pressed(ImGuiKey_KeyPadEnter)) && !ctrl) { // Ctrl+Enter builds
        insert("\n");
        const std::string indent = text::indentForNewLine(text, c.cursor, st.tabs);
        if (!indent.empty())
            insert(indent);
    } else if (pressed(ImGuiKey_Tab) && !ctrl) {
        r.manyLines |= spansLines();
        edited |= text::tab(text, c, shift, st.tabs);
    } else if (pressed(ImGuiKey_Escape)) {
        if (!c.empty())
            c.anchor = c.cursor;
        else
            ImGui::ClearActiveID();
    }
    if (!vertical && (edited || !(c == before)))
        st.wantColumn = -1;
    r.edited = edited;
    if (edited)
        r.editedFrom = text::lineBegin(text, std::min(atKeys.begin(), c.begin()));
    r.caretMoved = !(c == before);
    if (edited)
        ImGui::MarkItemEdited(id);
    return r;
}

} // namespace ks::app
