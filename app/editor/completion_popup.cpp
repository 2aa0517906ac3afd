// The kernel editor's help while typing: the completion list under the cursor and the hover text
// over CUDA's names and a kernel's parameters. What is offered, and in which order, is the engine's
// (ks/syntax/completion.hpp, ks/syntax/cuda_builtins.hpp); this file takes the keys and the mouse
// and draws.
//
// The list is drawn on the foreground draw list rather than as an ImGui window: a window would
// take the keyboard focus from the source widget (or fall behind the editor's window when the
// widget takes it back). Its clicks are therefore taken here, before the widget sees them.
#include "editor/editor_parts.hpp"
#include "panels/theme.hpp"
#include "panels/ui_probe.hpp"

#include "editor/code_edit.hpp"
#include "ks/syntax/cuda_builtins.hpp"
#include "ks/syntax/kernel_signature.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>

namespace ks::app::editor_parts {

namespace {

bool pressed(ImGuiKey key)
{
    return ImGui::IsKeyPressed(ImGui::GetKeyIndex(key), true);
}

void close(CompletionState& c)
{
    c.open = c.chosen = c.invoked = false;
    c.shown.clear();
    c.prefix.clear();
    c.rect = {};
}

// Keeps the selected row among the kRows shown.
void scrollToSelected(CompletionState& c)
{
    if (c.selected < c.firstRow)
        c.firstRow = c.selected;
    else if (c.selected >= c.firstRow + CompletionState::kRows)
        c.firstRow = c.selected - CompletionState::kRows + 1;
}

// Replaces the identifier being typed with the selected item; the cursor goes after it.
void accept(EditorTab& tab, ListInput& r)
{
    CompletionState& c = tab.completion;
    text::Caret& caret = tab.input.caret;
    if (c.shown.empty() || !caret.empty() || syntax::identifierStart(tab.buffer, caret.cursor) != c.wordBegin) {
        close(c);
        return;
    }
    const std::string& label = c.candidates[c.shown[std::size_t(c.selected)]].label;
    text::Caret range{caret.cursor, c.wordBegin};
    text::replaceSelection(tab.buffer, range, label);
    caret = {range.cursor, range.cursor};
    tab.input.wantColumn = -1;
    r.edited = true;
    r.editedFrom = text::lineBegin(tab.buffer, c.wordBegin);
    close(c);
}

// Whether the character before `at` is code: not in a comment, a string, a number or a directive's
// name (by the syntax colours of its line).
bool inCode(EditorTab& tab, const std::vector<int>& starts, std::size_t at)
{
    if (at == 0)
        return true;
    const auto line = std::size_t(std::upper_bound(starts.begin(), starts.end(), int(at - 1)) - starts.begin() - 1);
    tab.syntax.update(tab.buffer, line + 1); // the colours' own cache: up to date already when they are on
    const auto column = std::uint32_t(at - 1 - std::size_t(starts[line]));
    for (const syntax::SyntaxSpan& sp : tab.syntax.spans(line))
        if (column >= sp.begin && column < sp.end)
            return sp.cls != syntax::SyntaxClass::Comment && sp.cls != syntax::SyntaxClass::String &&
                   sp.cls != syntax::SyntaxClass::Number && sp.cls != syntax::SyntaxClass::Preprocessor;
    return true;
}

ImU32 kindColour(syntax::CompletionKind k)
{
    switch (k) {
    case syntax::CompletionKind::Variable: return theme::kSyntaxBuiltin;
    case syntax::CompletionKind::Function:
    case syntax::CompletionKind::Intrinsic:
    case syntax::CompletionKind::Atomic: return theme::kSyntaxIntrinsic;
    case syntax::CompletionKind::Parameter:
    case syntax::CompletionKind::Resource: return theme::kSyntaxQualifier;
    case syntax::CompletionKind::Identifier: break;
    }
    return theme::kCodeText;
}

// The list under (or, without room there, over) the identifier, and the selected item's
// declaration and description under the list.
void drawList(EditorTab& tab, const std::vector<int>& starts, ImVec2 textPos, float lineH, ImVec2 viewMin,
              ImVec2 viewMax)
{
    CompletionState& c = tab.completion;
    const auto line = std::size_t(std::upper_bound(starts.begin(), starts.end(), int(c.wordBegin)) - starts.begin() - 1);
    const char* lineText = tab.buffer.data() + starts[line];
    const float wordX = textPos.x + ImGui::CalcTextSize(lineText, tab.buffer.data() + c.wordBegin).x;
    const float charW = ImGui::CalcTextSize("0").x;
    const ImVec2 pad(4.f, 2.f);
    const int rows = std::min(int(c.shown.size()) - c.firstRow, CompletionState::kRows);
    float labelW = charW * 12.f;
    for (int i = 0; i < rows; ++i)
        labelW = std::max(labelW, ImGui::CalcTextSize(c.candidates[c.shown[std::size_t(c.firstRow + i)]].label.c_str()).x);
    const float rowH = lineH + 2.f;
    const float listW = charW * 2.f + labelW + pad.x * 3.f;
    const syntax::CompletionItem& sel = c.candidates[c.shown[std::size_t(c.selected)]];
    const float detailW = std::max(listW, charW * 56.f);
    const std::string detail = !sel.detail.empty()                             ? sel.detail
                               : sel.kind == syntax::CompletionKind::Identifier ? std::string("a word of this file")
                                                                                : std::string();
    const ImVec2 detailSize = ImGui::CalcTextSize(detail.c_str(), nullptr, false, detailW - pad.x * 2.f);
    const ImVec2 descSize =
        sel.description.empty() ? ImVec2(0, 0)
                                : ImGui::CalcTextSize(sel.description.c_str(), nullptr, false, detailW - pad.x * 2.f);
    const float listH = float(rows) * rowH + pad.y * 2.f;
    const float detailH = detailSize.y + (descSize.y > 0 ? descSize.y + pad.y : 0.f) + pad.y * 2.f;
    const float lineTop = textPos.y + float(line) * lineH;
    float y = lineTop + lineH;
    if (y + listH + detailH > viewMax.y && lineTop - listH - detailH >= viewMin.y)
        y = lineTop - listH - detailH;
    const float x = std::max(viewMin.x, wordX - charW * 2.f - pad.x * 2.f);

    ImDrawList* dl = ImGui::GetForegroundDrawList();
    const ImU32 bg = ImGui::GetColorU32(ImGuiCol_PopupBg) | 0xFF000000;
    const ImU32 border = ImGui::GetColorU32(ImGuiCol_Border);
    dl->AddRectFilled(ImVec2(x, y), ImVec2(x + listW, y + listH), bg, 3.f);
    dl->AddRect(ImVec2(x, y), ImVec2(x + listW, y + listH), border, 3.f);
    for (int i = 0; i < rows; ++i) {
        const int row = c.firstRow + i;
        const syntax::CompletionItem& item = c.candidates[c.shown[std::size_t(row)]];
        const float ry = y + pad.y + float(i) * rowH;
        if (row == c.selected)
            dl->AddRectFilled(ImVec2(x + 1.f, ry), ImVec2(x + listW - 1.f, ry + rowH), ImGui::GetColorU32(ImGuiCol_Header));
        const char letter[2] = {syntax::completionKindLetter(item.kind), 0};
        dl->AddText(ImVec2(x + pad.x, ry + 1.f), kindColour(item.kind), letter);
        dl->AddText(ImVec2(x + pad.x * 2.f + charW * 2.f, ry + 1.f), theme::kCodeText, item.label.c_str());
        if (uiProbe().enabled)
            uiProbe().record("completion:" + item.label, {x, ry, x + listW, ry + rowH});
    }
    if (int(c.shown.size()) > rows) { // where the rows shown are among all of them
        const float total = float(c.shown.size());
        const float t0 = float(c.firstRow) / total, t1 = float(c.firstRow + rows) / total;
        dl->AddRectFilled(ImVec2(x + listW - 4.f, y + t0 * listH), ImVec2(x + listW - 1.f, y + t1 * listH), border);
    }
    const float dy = y + listH;
    dl->AddRectFilled(ImVec2(x, dy), ImVec2(x + detailW, dy + detailH), bg, 3.f);
    dl->AddRect(ImVec2(x, dy), ImVec2(x + detailW, dy + detailH), border, 3.f);
    ImFont* font = ImGui::GetFont();
    const float size = ImGui::GetFontSize();
    dl->AddText(font, size, ImVec2(x + pad.x, dy + pad.y), kindColour(sel.kind), detail.c_str(), nullptr,
                detailW - pad.x * 2.f);
    if (!sel.description.empty())
        dl->AddText(font, size, ImVec2(x + pad.x, dy + pad.y * 2.f + detailSize.y),
                    ImGui::GetColorU32(ImGuiCol_TextDisabled), sel.description.c_str(), nullptr, detailW - pad.x * 2.f);
    c.rect = {x, y, x + listW, y + listH};
    c.rowHeight = rowH;
    if (uiProbe().enabled)
        uiProbe().record("completion:list", c.rect);
}

// The hover text of the identifier [b, e) of the tab's text: a CUDA name's declaration and
// description, or a kernel parameter's type and what the running project binds to it.
std::string hoverTextOf(const EditorState& ed, const EditorTab& tab, std::size_t b, std::size_t e)
{
    const std::string_view word = std::string_view(tab.buffer).substr(b, e - b);
    if (const syntax::CudaBuiltin* builtin = syntax::findCudaBuiltin(word))
        return std::string(builtin->signature) + "\n" + std::string(builtin->description);
    // A parameter of the kernel the word is in: the last whose __global__ is before it (the
    // signatures are those read at the last typing pause).
    const syntax::KernelSignature* kernel = nullptr;
    for (const syntax::KernelSignature& k : tab.kernels)
        if (k.globalKeyword.begin <= b)
            kernel = &k;
    if (!kernel)
        return {};
    for (const syntax::KernelParam& p : kernel->params) {
        if (p.name != word)
            continue;
        std::string text = p.type + " " + p.name + "\nparameter of " + kernel->qualifiedName();
        const std::string running = syntax::splitNameExpression(ed.runningKernel).name;
        const bool runs = tab.doc.path() == ed.runningFile && (kernel->name == running || kernel->qualifiedName() == running);
        if (const auto it = ed.runningBindings.find(p.name); runs && it != ed.runningBindings.end())
            text += "\nbound to " + it->second + " in the project";
        else if (!ed.runningKernel.empty() && !runs)
            text += "\n(the project runs " + ed.runningKernel + ", not this kernel)";
        return text;
    }
    return {};
}

} // namespace

ListInput completionKeys(EditorState& /*ed*/, EditorTab& tab)
{
    ListInput r;
    CompletionState& c = tab.completion;
    if (!c.open || !tab.editing || c.shown.empty())
        return r;
    ImGuiIO& io = ImGui::GetIO();
    const int count = int(c.shown.size());
    // A click on a row accepts it; the click is the list's, not the text's.
    if (io.MouseClicked[0] && c.rowHeight > 0 && io.MousePos.x >= c.rect[0] && io.MousePos.x < c.rect[2] &&
        io.MousePos.y >= c.rect[1] && io.MousePos.y < c.rect[3]) {
        const int row = c.firstRow + int((io.MousePos.y - c.rect[1] - 2.f) / c.rowHeight);
        c.selected = std::clamp(row, 0, count - 1);
        io.MouseClicked[0] = false;
        accept(tab, r);
        return r;
    }
    // The wheel over the list scrolls it, three rows a notch, and leaves the selection where it is
    // (as VS Code's list does); the text under the list does not scroll.
    if (io.MouseWheel != 0.f && c.rowHeight > 0 && io.MousePos.x >= c.rect[0] && io.MousePos.x < c.rect[2] &&
        io.MousePos.y >= c.rect[1] && io.MousePos.y < c.rect[3]) {
        const int notches = int(std::lround(io.MouseWheel * 3.f));
        c.firstRow = std::clamp(c.firstRow - notches, 0, std::max(0, count - CompletionState::kRows));
        io.MouseWheel = 0.f;
    }
    if (io.KeyCtrl || io.KeyAlt)
        return r;
    if (pressed(ImGuiKey_UpArrow) || pressed(ImGuiKey_DownArrow) || pressed(ImGuiKey_PageUp) ||
        pressed(ImGuiKey_PageDown)) {
        const int step = pressed(ImGuiKey_UpArrow)     ? -1
                         : pressed(ImGuiKey_DownArrow) ? 1
                         : pressed(ImGuiKey_PageUp)    ? -CompletionState::kRows
                                                       : CompletionState::kRows;
        if (std::abs(step) == 1) // Up and Down wrap around, as in VS Code; a page stops at the ends
            c.selected = (c.selected + step + count) % count;
        else
            c.selected = std::clamp(c.selected + step, 0, count - 1);
        scrollToSelected(c);
        c.chosen = true;
        r.tookKeys = true;
    } else if (pressed(ImGuiKey_Tab) && !io.KeyShift) {
        accept(tab, r);
        r.tookKeys = true;
    } else if ((pressed(ImGuiKey_Enter) || pressed(ImGuiKey_KeyPadEnter)) && !io.KeyShift) {
        if (c.chosen) {
            accept(tab, r);
            r.tookKeys = true;
        } else {
            close(c); // Enter breaks the line, as if the list had not been there
        }
    } else if (pressed(ImGuiKey_Escape)) {
        close(c);
        r.tookKeys = true; // the list goes; the selection and the keyboard stay
    }
    return r;
}

void completionList(EditorState& ed, EditorTab& tab, const std::vector<int>& starts, bool typedWordChar,
                    bool ctrlSpace, ImVec2 textPos, float lineH, ImVec2 viewMin, ImVec2 viewMax)
{
    CompletionState& c = tab.completion;
    const text::Caret& caret = tab.input.caret;
    if (!tab.editing || !caret.empty()) {
        if (c.open)
            close(c);
        return;
    }
    const std::size_t cursor = caret.cursor;
    const std::size_t begin = syntax::identifierStart(tab.buffer, cursor);
    // The cursor left the word, or the word is gone (Backspace to its start, unless Ctrl+Space
    // asked for every name).
    if (c.open && (begin != c.wordBegin || (begin == cursor && !c.invoked)))
        close(c);
    if (begin == cursor || begin != c.noMatchAt) // a new word (or none): it may match again
        c.noMatchAt = std::size_t(-1);
    if (!c.open && (typedWordChar || ctrlSpace) && (ctrlSpace || begin != c.noMatchAt)) {
        const bool digit = begin < cursor && tab.buffer[begin] >= '0' && tab.buffer[begin] <= '9';
        if (!digit && (ctrlSpace || (begin < cursor && inCode(tab, starts, cursor)))) {
            if (!tab.wordsRead) { // nothing read them at a pause (the editor without the app around it)
                tab.words = syntax::identifiersOf(tab.buffer);
                tab.wordsRead = true;
                ++tab.wordsGeneration;
            }
            auto same = [](const syntax::CompletionItem& a, const syntax::CompletionItem& b) {
                return a.label == b.label && a.kind == b.kind && a.detail == b.detail;
            };
            if (c.candidates.empty() || c.candidatesWords != tab.wordsGeneration ||
                !std::equal(ed.projectNames.begin(), ed.projectNames.end(), c.candidatesProject.begin(),
                            c.candidatesProject.end(), same)) {
                c.candidates = syntax::completionCandidates(ed.projectNames, tab.words);
                c.candidatesWords = tab.wordsGeneration;
                c.candidatesProject = ed.projectNames;
            }
            c.open = true;
            c.chosen = c.invoked = ctrlSpace;
            c.wordBegin = begin;
            c.prefix = std::string(1, '\0'); // ranked below
        }
    }
    if (!c.open)
        return;
    const std::string_view prefix = std::string_view(tab.buffer).substr(begin, cursor - begin);
    if (prefix != c.prefix) {
        c.shown = syntax::rankCompletions(c.candidates, prefix);
        c.prefix = std::string(prefix);
        c.selected = c.firstRow = 0;
    }
    if (c.shown.empty()) { // nothing matches: the list goes, as in VS Code, until the next word
        c.noMatchAt = c.wordBegin;
        close(c);
        return;
    }
    c.noMatchAt = std::size_t(-1);
    drawList(tab, starts, textPos, lineH, viewMin, viewMax);
}

void codeHover(const EditorState& ed, EditorTab& tab, const CodeInputLayout& layout, bool hovered)
{
    const ImGuiIO& io = ImGui::GetIO();
    const ImVec2 m = io.MousePos;
    const auto& r = tab.completion.rect;
    const bool overList = tab.completion.open && m.x >= r[0] && m.x < r[2] && m.y >= r[1] && m.y < r[3];
    tab.hoverText.clear();
    int b = -1, e = -1;
    if (hovered && !overList && !io.MouseDown[0] && !tab.input.dragging && m.x >= layout.textPos.x) {
        const std::size_t at = codeOffsetAt(tab.buffer, layout, m);
        const text::Caret word = text::wordAt(tab.buffer, at);
        const std::size_t wb = word.begin(), we = word.end();
        const bool identifier = we > wb && syntax::isIdentifierChar(tab.buffer[wb]) &&
                                !(tab.buffer[wb] >= '0' && tab.buffer[wb] <= '9');
        if (identifier) {
            // The mouse over the word itself, not past its line's end or between lines.
            const std::vector<int>& starts = *layout.starts;
            const auto line = int(std::upper_bound(starts.begin(), starts.end(), int(wb)) - starts.begin() - 1);
            const auto lineB = std::size_t(starts[std::size_t(line)]);
            const float y = layout.textPos.y + float(line) * layout.lineHeight;
            const char* lb = tab.buffer.data() + lineB;
            const float x0 = layout.textPos.x + ImGui::CalcTextSize(lb, tab.buffer.data() + wb).x;
            const float x1 = layout.textPos.x + ImGui::CalcTextSize(lb, tab.buffer.data() + we).x;
            if (m.x >= x0 && m.x < x1 && m.y >= y && m.y < y + layout.lineHeight) {
                b = int(wb);
                e = int(we);
            }
        }
    }
    if (b != tab.hoverBegin || e != tab.hoverEnd) {
        tab.hoverBegin = b;
        tab.hoverEnd = e;
        tab.hoverSince = steadySeconds();
    }
    constexpr double kRest = 0.3; // seconds the mouse rests on a word before its text shows
    if (b < 0 || steadySeconds() - tab.hoverSince < kRest)
        return;
    if (inCode(tab, *layout.starts, std::size_t(b) + 1)) // not a word of a comment or a string
        tab.hoverText = hoverTextOf(ed, tab, std::size_t(b), std::size_t(e));
    if (tab.hoverText.empty())
        return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40.f);
    const std::size_t nl = tab.hoverText.find('\n');
    ImGui::TextUnformatted(tab.hoverText.c_str(), tab.hoverText.c_str() + nl);
    if (nl != std::string::npos) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextUnformatted(tab.hoverText.c_str() + nl + 1);
        ImGui::PopStyleColor();
    }
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

} // namespace ks::app::editor_parts
