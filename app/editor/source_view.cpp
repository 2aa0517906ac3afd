// The kernel editor's source view: the gutter (line numbers, diagnostic markers), the text in its
// syntax colours with the cursor, brackets and selection, squiggles and inline messages, find-match
// highlights and the overview ruler; and the diagnostic helpers the panel shares (editor_parts.hpp).
#include "editor/editor_parts.hpp"
#include "panels/ui_probe.hpp"

#include "editor/code_input.hpp"
#include "editor/editor_text.hpp"
#include "ks/rtc/diagnostics.hpp"
#include "ks/syntax/completion.hpp"
#include "panels/theme.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ks::app::editor_parts {

double steadySeconds()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

ImU32 severityColour(const rtc::Diagnostic& d)
{
    if (d.likelyCause)
        return theme::kLikelyCause;
    switch (d.severity) {
    case rtc::Severity::Error:
        return theme::kError;
    case rtc::Severity::Warning:
        return theme::kWarning;
    default:
        return theme::kNote;
    }
}

std::string describe(const rtc::Diagnostic& d)
{
    if (d.likelyCause)
        return d.message; // the engine's note already says what it is
    return std::string(rtc::severityName(d.severity)) + (d.code.empty() ? "" : " " + d.code) + ": " + d.message;
}

namespace {

// The widest line in columns of a monospaced font: a tab is 4 (ImGui's tab glyph), a UTF-8
// character 1.
int widestColumns(std::string_view text)
{
    int widest = 0, column = 0;
    for (const char c : text) {
        if (c == '\n') {
            widest = std::max(widest, column);
            column = 0;
        } else {
            column += c == '\t' ? 4 : (static_cast<unsigned char>(c) & 0xC0) != 0x80;
        }
    }
    return std::max(widest, column);
}

std::string_view lineText(std::string_view text, const std::vector<int>& starts, int line)
{
    const int b = starts[std::size_t(line)];
    const int e = line + 1 < int(starts.size()) ? starts[std::size_t(line) + 1] - 1 : int(text.size());
    return std::string_view(text).substr(std::size_t(b), std::size_t(std::max(0, e - b)));
}

// The 0-based line holding byte `offset`, from the line starts.
int lineAt(const std::vector<int>& starts, std::size_t offset)
{
    return int(std::upper_bound(starts.begin(), starts.end(), int(offset)) - starts.begin()) - 1;
}

// The diagnostics of this file by line, most severe first. Those of included files go to the list only.
std::map<int, std::vector<const rtc::Diagnostic*>> byLine(const rtc::CompileResult* r, const EditorTab& tab)
{
    std::map<int, std::vector<const rtc::Diagnostic*>> lines;
    if (!r)
        return lines;
    for (const auto& d : r->diagnostics)
        if (d.line > 0 && tab.owns(d))
            lines[d.line].push_back(&d);
    for (auto& [line, ds] : lines)
        std::stable_sort(ds.begin(), ds.end(), [](const rtc::Diagnostic* a, const rtc::Diagnostic* b) {
            return int(a->severity) + (a->likelyCause ? 10 : 0) < int(b->severity) + (b->likelyCause ? 10 : 0);
        });
    return lines;
}

void drawMarker(ImDrawList* dl, ImVec2 centre, float r, const rtc::Diagnostic& d)
{
    const ImU32 c = severityColour(d);
    if (d.likelyCause) {
        dl->AddCircle(centre, r, c, 16, 2.f);
    } else if (d.severity == rtc::Severity::Error) {
        dl->AddCircleFilled(centre, r, c, 16);
        const float k = r * 0.45f;
        dl->AddLine(ImVec2(centre.x - k, centre.y - k), ImVec2(centre.x + k, centre.y + k), theme::kMarkerInk, 1.6f);
        dl->AddLine(ImVec2(centre.x - k, centre.y + k), ImVec2(centre.x + k, centre.y - k), theme::kMarkerInk, 1.6f);
    } else if (d.severity == rtc::Severity::Warning) {
        dl->AddTriangleFilled(ImVec2(centre.x, centre.y - r), ImVec2(centre.x + r, centre.y + r * 0.8f),
                              ImVec2(centre.x - r, centre.y + r * 0.8f), c);
    } else {
        dl->AddCircleFilled(centre, r * 0.6f, c, 12);
    }
}

ImU32 syntaxColour(syntax::SyntaxClass c)
{
    switch (c) {
    case syntax::SyntaxClass::Keyword:
        return theme::kSyntaxKeyword;
    case syntax::SyntaxClass::Type:
        return theme::kSyntaxType;
    case syntax::SyntaxClass::Qualifier:
        return theme::kSyntaxQualifier;
    case syntax::SyntaxClass::Builtin:
        return theme::kSyntaxBuiltin;
    case syntax::SyntaxClass::Intrinsic:
        return theme::kSyntaxIntrinsic;
    case syntax::SyntaxClass::Preprocessor:
        return theme::kSyntaxPreprocessor;
    case syntax::SyntaxClass::String:
        return theme::kSyntaxString;
    case syntax::SyntaxClass::Number:
        return theme::kSyntaxNumber;
    case syntax::SyntaxClass::Comment:
        return theme::kSyntaxComment;
    case syntax::SyntaxClass::Plain:
        break;
    }
    return theme::kCodeText;
}

// The lines firstLine..lastLine in their syntax colours.
void drawSyntaxSpans(ImDrawList* dl, EditorTab& tab, const std::vector<int>& starts, ImVec2 textPos, float lineH,
                     int firstLine, int lastLine)
{
    // The lines down to the last one on screen: an edit that changes every later line's state
    // ("/*" typed at the top) costs the lines shown, not the whole file.
    tab.syntax.update(tab.buffer, std::size_t(std::max(0, lastLine + 1)));
    for (int l = std::max(0, firstLine); l <= lastLine; ++l) {
        const std::string_view text = lineText(tab.buffer, starts, l);
        float x = textPos.x;
        const float y = textPos.y + float(l) * lineH;
        for (const syntax::SyntaxSpan& span : tab.syntax.spans(std::size_t(l))) {
            if (span.end > text.size())
                break; // never: the cache was brought up to this text
            const char* b = text.data() + span.begin;
            const char* e = text.data() + span.end;
            dl->AddText(ImVec2(x, y), syntaxColour(span.cls), b, e);
            x += ImGui::CalcTextSize(b, e).x;
        }
    }
}

// The bracket at the cursor and its match (brackets in comments and strings do not count), and the
// cursor, blinking.
void drawCursorAndBrackets(ImDrawList* dl, EditorTab& tab, const std::vector<int>& starts, ImVec2 textPos, float lineH)
{
    auto isCode = [&](std::size_t off) {
        const auto line = std::size_t(lineAt(starts, off));
        const auto column = std::uint32_t(off - std::size_t(starts[line]));
        tab.syntax.ensure(line + 1); // the match may be below the screen
        for (const syntax::SyntaxSpan& sp : tab.syntax.spans(line))
            if (column >= sp.begin && column < sp.end)
                return sp.cls == syntax::SyntaxClass::Plain;
        return true;
    };
    if (const auto pair = text::matchingBracket(tab.buffer, std::size_t(tab.cursorOffset), isCode)) {
        for (const std::size_t off : {pair->at, pair->match}) {
            const int line = lineAt(starts, off);
            const std::string_view text = lineText(tab.buffer, starts, line);
            const std::size_t column = off - std::size_t(starts[std::size_t(line)]);
            const float x = textPos.x + ImGui::CalcTextSize(text.data(), text.data() + column).x;
            const float cw = ImGui::CalcTextSize(text.data() + column, text.data() + column + 1).x;
            const float y = textPos.y + float(line) * lineH;
            dl->AddRect(ImVec2(x - 1.f, y), ImVec2(x + cw + 1.f, y + lineH), theme::kBracketMatch, 2.f);
        }
    }
    const double now = steadySeconds();
    if (tab.cursorOffset != tab.lastCursorOffset) {
        tab.lastCursorOffset = tab.cursorOffset;
        tab.cursorMovedAt = now;
    }
    const bool blinkOn = !ImGui::GetIO().ConfigInputTextCursorBlink || std::fmod(now - tab.cursorMovedAt, 1.2) <= 0.8;
    const int line = tab.cursorLine - 1;
    if (line < 0 || line >= int(starts.size()))
        return;
    const std::string_view text = lineText(tab.buffer, starts, line);
    const std::size_t column = std::min(text.size(), std::size_t(std::max(0, tab.cursorColumn - 1)));
    const float x = textPos.x + ImGui::CalcTextSize(text.data(), text.data() + column).x;
    const float y = textPos.y + float(line) * lineH;
    // Where an input method puts its composition window (as ImGui's own text widget asks; the
    // platform backend passes it on where it can).
    ImGui::GetCurrentContext()->PlatformImePos = ImVec2(x - 1.f, y);
    if (!blinkOn)
        return;
    if (tab.input.overtype) { // a box over the character a typed one replaces
        const float w = column < text.size()
                            ? ImGui::CalcTextSize(text.data() + column, text.data() + text::nextChar(text, column)).x
                            : ImGui::CalcTextSize("0").x;
        dl->AddRect(ImVec2(x, y), ImVec2(x + w, y + lineH - 1.f), theme::kCursor);
    } else {
        dl->AddLine(ImVec2(x, y), ImVec2(x, y + lineH - 1.f), theme::kCursor);
    }
}

// The selection on lines firstLine..lastLine (a line it runs past ends with a character's width of
// it, for the line break); fainter while the widget does not have the keyboard.
void drawSelection(ImDrawList* dl, std::string_view buffer, const std::vector<int>& starts, const text::Caret& caret,
                   ImVec2 textPos, float lineH, int firstLine, int lastLine, float charW, bool active)
{
    const std::size_t b = caret.begin(), e = caret.end();
    ImU32 colour = ImGui::GetColorU32(ImGuiCol_TextSelectedBg);
    if (!active)
        colour = (colour & 0x00FFFFFF) | ((colour >> 25) << 24); // half the alpha
    const int from = std::max(firstLine, lineAt(starts, b));
    const int to = std::min(lastLine, lineAt(starts, e));
    for (int l = from; l <= to; ++l) {
        const std::string_view text = lineText(buffer, starts, l);
        const auto lineB = std::size_t(starts[std::size_t(l)]), lineE = lineB + text.size();
        const std::size_t c0 = std::max(b, lineB) - lineB, c1 = std::min(e, lineE) - lineB;
        const float x0 = textPos.x + ImGui::CalcTextSize(text.data(), text.data() + c0).x;
        float x1 = textPos.x + ImGui::CalcTextSize(text.data(), text.data() + std::max(c0, c1)).x;
        if (e > lineE)
            x1 += charW * 0.5f;
        const float y = textPos.y + float(l) * lineH;
        if (x1 > x0)
            dl->AddRectFilled(ImVec2(x0, y), ImVec2(x1, y + lineH), colour);
    }
}

// The visible lines in their syntax colours (`plain`: all in the text colour), the bracket at the
// cursor and its match, and the cursor.
void drawColouredText(ImDrawList* dl, EditorTab& tab, const std::vector<int>& starts, ImVec2 textPos, float lineH,
                      int firstLine, int lastLine, bool active, bool coloured)
{
    lastLine = std::min(lastLine, int(starts.size()) - 1);
    if (!coloured)
        for (int l = std::max(0, firstLine); l <= lastLine; ++l) {
            const std::string_view text = lineText(tab.buffer, starts, l);
            dl->AddText(ImVec2(textPos.x, textPos.y + float(l) * lineH), theme::kCodeText, text.data(),
                        text.data() + text.size());
        }
    else
        drawSyntaxSpans(dl, tab, starts, textPos, lineH, firstLine, lastLine);
    if (active)
        drawCursorAndBrackets(dl, tab, starts, textPos, lineH);
}

// The overview ruler over the code's vertical scrollbar: every diagnostic's line in its severity
// colour, the find matches, and the cursor's line, at their place in the whole file.
void drawOverviewRuler(const EditorState& ed, EditorTab& tab, const std::vector<int>& starts,
                       const std::map<int, std::vector<const rtc::Diagnostic*>>& diagnostics)
{
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    const float w = ImGui::GetStyle().ScrollbarSize;
    const float x0 = pos.x + size.x - w, x1 = pos.x + size.x - 1.f;
    const float y0 = pos.y + 1.f, y1 = pos.y + size.y - w; // above the horizontal scrollbar
    tab.rulerRect = {x0, y0, x1, y1};
    const int lineCount = int(starts.size());
    if (y1 <= y0)
        return;
    dl->PushClipRect(pos, ImVec2(pos.x + size.x, pos.y + size.y), false);
    auto mark = [&](int line, ImU32 colour, float inset, float height) {
        const float y = y0 + (float(line - 1) + 0.5f) / float(lineCount) * (y1 - y0);
        dl->AddRectFilled(ImVec2(x0 + inset, y - height / 2), ImVec2(x1 - inset, y + height / 2), colour);
    };
    const FindState& f = ed.findBar;
    if (f.open && f.matchesOf == &tab)
        for (const text::Match& m : f.matches)
            mark(lineAt(starts, m.begin) + 1, theme::kFindCurrent, w * 0.5f, 2.f);
    for (const auto& [line, ds] : diagnostics)
        if (line <= lineCount)
            mark(line, severityColour(*ds.front()) | 0xFF000000, 1.f, 3.f);
    if (tab.editing)
        mark(tab.cursorLine, theme::kCursor, 1.f, 2.f);
    dl->PopClipRect();
}

// Every match on the visible lines, the current one brighter, under the text.
void drawFindMatches(ImDrawList* dl, FindState& f, const EditorTab& tab, const std::vector<int>& starts, ImVec2 textPos,
                     float lineH, int firstLine, int lastLine)
{
    if (!f.open || f.needle.empty())
        return;
    refreshMatches(f, tab);
    if (f.matches.empty() || firstLine >= int(starts.size()))
        return;
    const std::size_t from = std::size_t(starts[std::size_t(std::max(0, firstLine))]);
    const std::size_t to = lastLine + 1 < int(starts.size()) ? std::size_t(starts[std::size_t(lastLine) + 1])
                                                             : tab.buffer.size();
    auto it = std::lower_bound(f.matches.begin(), f.matches.end(), from,
                               [](const text::Match& m, std::size_t at) { return m.begin < at; });
    for (; it != f.matches.end() && it->begin < to; ++it) {
        const int line = lineAt(starts, it->begin);
        const std::string_view text = lineText(tab.buffer, starts, line);
        const std::size_t c0 = it->begin - std::size_t(starts[std::size_t(line)]);
        const std::size_t c1 = std::min(text.size(), it->end - std::size_t(starts[std::size_t(line)]));
        const float x0 = textPos.x + ImGui::CalcTextSize(text.data(), text.data() + c0).x;
        const float x1 = textPos.x + ImGui::CalcTextSize(text.data(), text.data() + std::max(c0, c1)).x;
        const float y = textPos.y + float(line) * lineH;
        const bool current = int(it - f.matches.begin()) == f.current;
        dl->AddRectFilled(ImVec2(x0, y), ImVec2(std::max(x1, x0 + 2.f), y + lineH),
                          current ? theme::kFindCurrent : theme::kFindMatch, 2.f);
    }
}

// A wavy underline from x0 to x1 at y.
void squiggle(ImDrawList* dl, float x0, float x1, float y, ImU32 colour)
{
    const float step = 3.f;
    ImVec2 points[256];
    int n = 0;
    for (float x = x0; x <= x1 && n < 256; x += step, ++n)
        points[n] = ImVec2(x, y + ((n & 1) ? 1.5f : -0.5f));
    if (n > 1)
        dl->AddPolyline(points, n, colour, 0, 1.2f);
}

} // namespace

// The source view: gutter (line numbers, markers), the text widget, inline messages.
void drawSource(EditorState& ed, int index, EditorTab& tab, float height, Commands& commands)
{
    // Zoom (Ctrl+wheel, Ctrl+= / Ctrl+- / Ctrl+0): the source font at the nearest size loaded at
    // or above the zoomed one, scaled down to it while this view draws (scaling a smaller size up
    // would blur it, the built-in bitmap font most).
    ImFont* base = ed.monoFont ? ed.monoFont : ImGui::GetFont();
    const float wanted = base->FontSize * base->Scale * ed.zoom;
    ImFont* font = nullptr;  // the smallest size at or above `wanted`
    ImFont* largest = base; // else the largest
    for (ImFont* f : ed.monoSizes) {
        if (f && f->FontSize >= wanted - 0.01f && (!font || f->FontSize < font->FontSize))
            font = f;
        if (f && f->FontSize > largest->FontSize)
            largest = f;
    }
    if (!font)
        font = base->FontSize >= wanted - 0.01f ? base : largest;
    const float fontScale = font->Scale;
    font->Scale = wanted / font->FontSize;
    ImGui::PushFont(font);
    const float lineH = ImGui::GetTextLineHeight();
    const float charW = ImGui::CalcTextSize("0").x;
    const ImVec2 framePadding(6.f, 4.f);
    if (tab.startsGeneration != tab.widgetGeneration || tab.lineStarts.empty()) {
        tab.lineStarts = text::lineStarts(tab.buffer);
        tab.startsGeneration = tab.widgetGeneration;
        tab.input.tabs = text::indentsWithTabs(tab.buffer);
    }
    const std::vector<int>& starts = tab.lineStarts; // of the text as it is (after this frame's edits too)
    const int lineCount = int(starts.size());
    const int digits = lineCount >= 1000 ? 4 : 3;
    const float markerW = lineH;
    const float gutterW = charW * float(digits) + markerW + 14.f;

    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
    ImGui::PushStyleColor(ImGuiCol_ChildBg, theme::kCodeBg);
    ImGui::BeginChild("##code", ImVec2(0, height), true, ImGuiWindowFlags_HorizontalScrollbar);
    ImGui::PopStyleColor();
    ImGui::PopStyleVar();

    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float visibleH = ImGui::GetWindowHeight();
    const float scrollY = ImGui::GetScrollY();
    const float textX = origin.x + gutterW + framePadding.x;
    const float textY = origin.y + framePadding.y;
    if (uiProbe().enabled) {
        const float x0 = ImGui::GetWindowPos().x;                   // the gutter stays there when the text scrolls
        const float x1 = x0 + ImGui::GetWindowContentRegionMax().x; // left of the scroll bar
        uiProbe().record("editor:text", {x0 + gutterW + framePadding.x, origin.y, x1, origin.y + visibleH});
        uiProbe().record("editor:cell", {textX, textY, textX + charW, textY + lineH});
    }

    if (tab.widestGeneration != tab.widgetGeneration) { // replaced from outside: a scan of the whole text
        tab.widest = widestColumns(tab.buffer);
        tab.widestGeneration = tab.widgetGeneration;
    }
    const float longest = float(tab.widest) * charW;
    const float avail = ImGui::GetContentRegionAvail().x;
    const float inputW = std::max(avail - gutterW, longest + charW * 40.f);
    const float inputH = std::max(visibleH - 2.f, float(lineCount + 4) * lineH + framePadding.y * 2.f);

    auto diagnostics = byLine(tab.build.result.get(), tab);
    if (tab.faultMark) { // the bad access "Find the fault" found, first on its line
        auto& at = diagnostics[tab.faultMark->line];
        at.insert(at.begin(), &*tab.faultMark);
    }
    const int firstVisible = std::max(0, int((scrollY - framePadding.y) / lineH) - 1);
    const int lastVisible = std::min(lineCount - 1, int((scrollY + visibleH) / lineH) + 1);

    // Under the text: the gutter, tinted diagnostic lines, the current line.
    const float windowX0 = ImGui::GetWindowPos().x;
    dl->AddRectFilled(ImVec2(windowX0, origin.y), ImVec2(windowX0 + gutterW, origin.y + inputH), theme::kGutterBg);
    if (tab.editing) {
        const float y = textY + float(tab.cursorLine - 1) * lineH;
        dl->AddRectFilled(ImVec2(origin.x + gutterW, y), ImVec2(origin.x + gutterW + inputW, y + lineH),
                          theme::kCurrentLine);
    }
    for (const auto& [line, ds] : diagnostics) {
        if (line > lineCount)
            continue;
        const float y = textY + float(line - 1) * lineH;
        const ImU32 tint = ds.front()->likelyCause ? theme::kLikelyCauseLine
                           : ds.front()->severity == rtc::Severity::Error   ? theme::kErrorLine
                           : ds.front()->severity == rtc::Severity::Warning ? theme::kWarningLine
                                                                            : theme::kNoteLine;
        dl->AddRectFilled(ImVec2(origin.x + gutterW, y), ImVec2(origin.x + gutterW + inputW, y + lineH), tint);
    }
    drawFindMatches(dl, ed.findBar, tab, starts, ImVec2(textX, textY), lineH, firstVisible, lastVisible);
    for (int l = firstVisible; l <= lastVisible; ++l) {
        char number[16];
        std::snprintf(number, sizeof number, "%*d", digits, l + 1);
        const float y = textY + float(l) * lineH;
        dl->AddText(ImVec2(windowX0 + markerW + 4.f, y),
                    l + 1 == tab.cursorLine ? theme::kLineNumberCurrent : theme::kLineNumber, number);
    }
    if (uiProbe().enabled)
        uiProbe().forget("marker:");
    for (const auto& [line, ds] : diagnostics) {
        if (line > lineCount)
            continue;
        const float y = textY + float(line - 1) * lineH;
        const ImVec2 centre(windowX0 + markerW * 0.5f + 2.f, y + lineH * 0.5f);
        const float r = lineH * 0.36f;
        drawMarker(dl, centre, r, *ds.front());
        if (uiProbe().enabled)
            uiProbe().record("marker:" + std::to_string(line), {centre.x - r, centre.y - r, centre.x + r, centre.y + r});
        // The token at the column, underlined; the first message at the end of the line.
        const auto text = lineText(tab.buffer, starts, line - 1);
        const rtc::Diagnostic& d = *ds.front();
        if (d.column > 0 && !d.likelyCause) {
            const std::size_t c0 = std::min(text.size(), std::size_t(d.column - 1));
            std::size_t c1 = c0;
            while (c1 < text.size() && (std::isalnum(static_cast<unsigned char>(text[c1])) || text[c1] == '_'))
                ++c1;
            c1 = std::max(c1, std::min(text.size(), c0 + 1));
            const float x0 = textX + ImGui::CalcTextSize(text.data(), text.data() + c0).x;
            const float x1 = std::max(x0 + charW, textX + ImGui::CalcTextSize(text.data(), text.data() + c1).x);
            squiggle(dl, x0, x1, y + lineH - 1.f, severityColour(d));
        }
        const float endX = textX + ImGui::CalcTextSize(text.data(), text.data() + text.size()).x + charW * 3.f;
        std::string inline_ = std::string(theme::symbol("\xE2\x86\x90", "<-")) + " " + describe(d);
        if (ds.size() > 1)
            inline_ += "  (+" + std::to_string(ds.size() - 1) + ")";
        dl->AddText(ImVec2(endX, y), (severityColour(d) & 0x00FFFFFF) | 0xC0000000, inline_.c_str());
    }

    // The source widget (code_input.hpp), sized to the content so that the child scrolls with the
    // gutter; it draws nothing: the selection, the text and the cursor are drawn here after it.
    bool focus = false;
    if (tab.jumpToLine > 0) {
        const int line = std::clamp(tab.jumpToLine, 1, lineCount);
        ImGui::SetScrollY(std::max(0.f, framePadding.y + float(line - 1) * lineH - visibleH * 0.35f));
        if (tab.jumpFocus) {
            tab.pendingCursor = starts[std::size_t(line - 1)];
            focus = true;
        }
        tab.jumpToLine = 0;
        tab.jumpFocus = true; // each jump says whether it takes the keyboard; the next one by default does
    }
    if (tab.refocusOffset >= 0) { // after a find, an undo, a comment toggle: the keyboard back
        tab.pendingCursor = tab.refocusOffset;
        tab.refocusOffset = -1;
        focus = true;
    }
    if (tab.pendingCursor >= 0) { // [pendingCursor, pendingSelectEnd) selected, the cursor at its end
        const auto at = std::min(std::size_t(tab.pendingCursor), tab.buffer.size());
        const std::size_t end = std::size_t(tab.pendingSelectEnd);
        tab.input.caret = {tab.pendingSelectEnd >= 0 ? std::clamp(end, at, tab.buffer.size()) : at, at};
        tab.input.wantColumn = -1;
        tab.pendingCursor = tab.pendingSelectEnd = -1;
    }
    // The completion list's keys first (accepting an item edits the text); then the widget.
    const ImGuiIO& io = ImGui::GetIO();
    const bool wordChar = tab.editing && !io.InputQueueCharacters.empty() && !(io.KeyCtrl && !io.KeyAlt) &&
                          io.InputQueueCharacters.back() < 0x80 &&
                          syntax::isIdentifierChar(char(io.InputQueueCharacters.back()));
    const bool ctrlSpace = tab.editing && io.KeyCtrl && !io.KeyAlt && !io.KeyShift &&
                           ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space), false);
    const ListInput list = completionKeys(ed, tab);
    if (list.edited)
        text::updateLineStarts(tab.lineStarts, tab.buffer, list.editedFrom);
    ImGui::SetCursorScreenPos(ImVec2(origin.x + gutterW, origin.y));
    CodeInputLayout layout{ImVec2(textX, textY), lineH, ImVec2(inputW, inputH),
                           std::max(1, int(visibleH / lineH) - 2), &starts};
    layout.listTookKeys = list.tookKeys;
    const CodeInputResult input = codeInput("##source", tab.buffer, tab.input, layout, focus);
    const bool edited = input.edited || list.edited;
    if (edited)
        commands.textEdited.push_back(index);
    const bool active = input.active;
    // Where the cursor and selection are now, for the rest of the editor.
    if (input.edited) // `starts` follows the edit (it is the tab's table)
        text::updateLineStarts(tab.lineStarts, tab.buffer, input.editedFrom);
    const text::Caret& caret = tab.input.caret;
    tab.cursorOffset = int(caret.cursor);
    tab.selectionBegin = int(caret.begin());
    tab.selectionEnd = int(caret.end());
    const int cursorLine = lineAt(starts, caret.cursor);
    tab.cursorLine = cursorLine + 1;
    tab.cursorColumn = int(caret.cursor) - starts[std::size_t(cursorLine)] + 1;
    if (edited && input.manyLines) { // the widest line, again: in full only after edits over lines
        tab.widest = widestColumns(tab.buffer);
    } else if (edited) { // typing, Enter, Backspace: the cursor's line and the one before it
        for (int l = std::max(0, cursorLine - 1); l <= cursorLine; ++l)
            tab.widest = std::max(tab.widest, widestColumns(lineText(tab.buffer, starts, l)));
    }
    const int lastDrawn = std::min(int(starts.size()) - 1, lastVisible + (edited ? 1 : 0));
    const ImVec2 w0 = ImGui::GetWindowPos(), wsize = ImGui::GetWindowSize();
    dl->PushClipRect(ImVec2(windowX0 + gutterW, w0.y), ImVec2(w0.x + wsize.x, w0.y + wsize.y), true);
    if (!caret.empty())
        drawSelection(dl, tab.buffer, starts, caret, ImVec2(textX, textY), lineH, firstVisible, lastDrawn, charW,
                      active);
    drawColouredText(dl, tab, starts, ImVec2(textX, textY), lineH, firstVisible, lastDrawn, active,
                     ed.syntaxColours);
    dl->PopClipRect();
    tab.editing = active;
    completionList(ed, tab, starts, wordChar && input.edited, ctrlSpace, ImVec2(textX, textY), lineH,
                   ImVec2(windowX0 + gutterW, w0.y), ImVec2(w0.x + wsize.x, w0.y + wsize.y));

    // A drag past the text's edges scrolls.
    if (tab.input.dragging) {
        const ImVec2 m = ImGui::GetIO().MousePos;
        if (m.y < w0.y)
            ImGui::SetScrollY(std::max(0.f, ImGui::GetScrollY() - lineH));
        else if (m.y > w0.y + wsize.y)
            ImGui::SetScrollY(ImGui::GetScrollY() + lineH);
        if (m.x < windowX0 + gutterW)
            ImGui::SetScrollX(std::max(0.f, ImGui::GetScrollX() - charW * 2.f));
        else if (m.x > w0.x + wsize.x)
            ImGui::SetScrollX(ImGui::GetScrollX() + charW * 2.f);
    }
    // Keep the cursor in view sideways as it moves (up and down below).
    if (active && (input.caretMoved || edited) && !tab.input.dragging) {
        const std::string_view line = lineText(tab.buffer, starts, cursorLine);
        const std::size_t column = caret.cursor - std::size_t(starts[std::size_t(cursorLine)]);
        const float x = ImGui::CalcTextSize(line.data(), line.data() + std::min(line.size(), column)).x;
        const float viewW = wsize.x - gutterW - framePadding.x - ImGui::GetStyle().ScrollbarSize;
        const float scrollX = ImGui::GetScrollX();
        if (x < scrollX + charW)
            ImGui::SetScrollX(std::max(0.f, x - charW * 8.f));
        else if (x > scrollX + viewW - charW * 2.f)
            ImGui::SetScrollX(x - viewW + charW * 8.f);
    }

    // Keep the cursor's line in view as it moves (the widget itself never scrolls).
    if (active && tab.cursorLine != tab.lastCursorLine) {
        const float top = framePadding.y + float(tab.cursorLine - 1) * lineH;
        if (top < ImGui::GetScrollY())
            ImGui::SetScrollY(top);
        else if (top + lineH * 2.f > ImGui::GetScrollY() + visibleH)
            ImGui::SetScrollY(top + lineH * 2.f - visibleH);
    }
    tab.lastCursorLine = tab.cursorLine;
    tab.textGeometry = {textX, textY, lineH, charW};

    // Hovering a name in the code shows what it is.
    codeHover(ed, tab, layout,
              ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows | ImGuiHoveredFlags_AllowWhenBlockedByActiveItem) &&
                  ImGui::GetIO().MousePos.x >= windowX0 + gutterW);
    // Hovering a gutter marker shows every message of its line.
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    tab.gutterTooltip.clear();
    if (ImGui::IsWindowHovered(ImGuiHoveredFlags_AllowWhenBlockedByActiveItem) && mouse.x < windowX0 + gutterW) {
        const int line = int((mouse.y - textY) / lineH) + 1;
        if (auto it = diagnostics.find(line); it != diagnostics.end()) {
            ImGui::BeginTooltip();
            for (const rtc::Diagnostic* d : it->second) {
                ImGui::PushStyleColor(ImGuiCol_Text, severityColour(*d));
                ImGui::TextUnformatted(describe(*d).c_str());
                ImGui::PopStyleColor();
                tab.gutterTooltip += describe(*d) + "\n";
                if (d->likelyCause)
                    ImGui::TextDisabled("  the error is reported on a later line; the cause is usually here");
            }
            ImGui::EndTooltip();
        }
    }
    drawOverviewRuler(ed, tab, starts, diagnostics);
    // Ctrl+wheel zooms; ImGui has already scrolled for that wheel, so the scroll goes back (scaled).
    // Over the text the hovered window is the text widget's own child window, hence ChildWindows
    // (without it only the gutter zoomed).
    if (ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows) && ImGui::GetIO().KeyCtrl &&
        ImGui::GetIO().MouseWheel != 0) {
        const float before = ed.zoom;
        ed.zoom = std::clamp(ed.zoom * std::pow(1.1f, ImGui::GetIO().MouseWheel), EditorState::kMinZoom,
                             EditorState::kMaxZoom);
        ImGui::SetScrollY(tab.lastScrollY * ed.zoom / before);
    }
    tab.lastScrollY = ImGui::GetScrollY();
    ImGui::EndChild();
    ImGui::PopFont();
    font->Scale = fontScale;
}

} // namespace ks::app::editor_parts
