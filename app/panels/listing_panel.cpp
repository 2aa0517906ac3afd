// The Compile log's "PTX / SASS" tab: the active file's newest good build as NVRTC's PTX or the
// toolkit's SASS, each kernel's registers, shared and local memory and spills at the top. The
// editor's cursor line highlights its instructions (and scrolls to them); a click on an instruction
// asks for its source line in the editor (Commands::jumpTo). The listings are made by
// App::updateListings off the UI thread; this only draws them.
#include "panels/panels.hpp"

#include "ks/rtc/symbols.hpp"
#include "panels/theme.hpp"

#include <imgui.h>

#include <algorithm>
#include <string>

namespace ks::app {

namespace {

const rtc::PtxasKernelReport* resourcesOf(const rtc::PtxasReport& report, const std::string& symbol)
{
    for (const rtc::PtxasKernelReport& k : report.kernels)
        if (k.symbol == symbol)
            return &k;
    return nullptr;
}

// One row per kernel: its name, then what ptxas reported (a click shows its listing).
void drawKernels(const rtc::Listing& listing, const rtc::PtxasReport& resources, ListingState& l)
{
    for (const rtc::ListingFunction& f : listing.functions) {
        if (!f.entry)
            continue;
        std::string text = "kernel " + rtc::demangle(f.symbol);
        if (const rtc::PtxasKernelReport* r = resourcesOf(resources, f.symbol)) {
            text += ": " + std::to_string(r->registers) + " registers, " + std::to_string(r->sharedBytes) +
                    " B shared, " + std::to_string(r->stackFrameBytes) + " B local";
            text += r->spillStoreBytes || r->spillLoadBytes
                        ? ", SPILLS " + std::to_string(r->spillStoreBytes) + " B stored, " +
                              std::to_string(r->spillLoadBytes) + " B loaded"
                        : ", no spills";
        }
        const bool spills = text.find("SPILLS") != std::string::npos;
        if (spills)
            ImGui::PushStyleColor(ImGuiCol_Text, theme::colour(theme::kWarning));
        if (ImGui::Selectable(text.c_str())) {
            l.scrollToLine = true;
            l.scrollLine = f.first;
        }
        if (spills)
            ImGui::PopStyleColor();
        uiProbe().record("asm:kernel:" + f.symbol, lastItemRect());
    }
}

// The listing's lines, those of `highlightLine` of its own file highlighted; a click on a line from
// the file asks the editor for it.
void drawLines(const rtc::Listing& listing, ListingState& l, int highlightLine, bool cursorMoved, ImFont* mono,
               Commands& commands)
{
    const int own = listing.fileIndex(l.file.filename().string());
    ImGui::BeginChild("listing", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    if (mono)
        ImGui::PushFont(mono);
    const float lineHeight = ImGui::GetTextLineHeightWithSpacing();
    auto scrollTo = [&](std::size_t index) {
        const float y = float(index) * lineHeight, top = ImGui::GetScrollY(), height = ImGui::GetWindowHeight();
        if (y < top || y + lineHeight > top + height)
            ImGui::SetScrollY(std::max(0.f, y - 2 * lineHeight));
    };
    if (l.scrollToLine) {
        ImGui::SetScrollY(float(l.scrollLine) * lineHeight);
        l.scrollToLine = false;
    } else if (cursorMoved && own > 0) {
        const std::vector<std::size_t> hits = listing.linesFrom(own, highlightLine);
        // Scroll only when none of them is in view: a click on one of them moves the cursor there too.
        const float top = ImGui::GetScrollY(), height = ImGui::GetWindowHeight();
        const bool seen = std::any_of(hits.begin(), hits.end(), [&](std::size_t i) {
            return float(i) * lineHeight >= top && float(i + 1) * lineHeight <= top + height;
        });
        if (!hits.empty() && !seen)
            scrollTo(hits.front());
    }
    ImGuiListClipper clipper;
    clipper.Begin(int(listing.lines.size()), lineHeight);
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const rtc::ListingLine& line = listing.lines[std::size_t(i)];
            const bool ours = own > 0 && line.file == own;
            const bool lit = ours && line.line == highlightLine;
            ImGui::PushID(i);
            // The text is drawn over an unlabelled selectable: a listing's "##" is no ImGui ID.
            const ImVec2 at = ImGui::GetCursorScreenPos();
            const float width = std::max(ImGui::GetContentRegionAvail().x, ImGui::CalcTextSize(line.text.c_str()).x);
            if (ImGui::Selectable("##line", lit, ImGuiSelectableFlags_None, ImVec2(width, 0)) && ours)
                commands.jumpTo = JumpTo{l.file, line.line};
            ImGui::GetWindowDrawList()->AddText(at, line.line == 0 ? theme::kLineNumber : theme::kCodeText,
                                                line.text.data(), line.text.data() + line.text.size());
            if (line.line > 0 && ImGui::IsItemHovered())
                ImGui::SetTooltip("%s:%d%s",
                                  std::filesystem::path(listing.files[std::size_t(line.file - 1)]).filename().c_str(),
                                  line.line, ours ? " (click: show it in the editor)" : "");
            uiProbe().record("asm:" + std::to_string(i), lastItemRect());
            ImGui::PopID();
        }
    }
    if (mono)
        ImGui::PopFont();
    ImGui::EndChild();
}

} // namespace

namespace {

void drawListing(AppState& s, Commands& commands)
{
    ListingState& l = s.listing;
    uiProbe().forget("asm:");
    if (!l.of) {
        ImGui::TextDisabled("No good build yet: the PTX and SASS of the active file's kernels show here once it builds.");
        return;
    }
    if (ImGui::RadioButton("PTX", !l.showSass) && l.showSass) {
        l.showSass = false;
        l.scrolledForLine = 0;
    }
    uiProbe().record("asm:PTX", lastItemRect());
    ImGui::SameLine();
    if (ImGui::RadioButton("SASS", l.showSass) && !l.showSass) {
        l.showSass = true;
        l.scrolledForLine = 0;
    }
    uiProbe().record("asm:SASS", lastItemRect());
    ImGui::SameLine();
    ImGui::TextDisabled("%s%s", l.file.filename().c_str(),
                        l.of->ok && s.editor.find(l.file) && s.editor.find(l.file)->build.result != l.of
                            ? " (the last good build)"
                            : "");
    if (!l.made) {
        ImGui::TextColored(theme::colour(theme::kBusy), "Reading the PTX%s", theme::symbol("\xE2\x80\xA6", "..."));
        return;
    }
    const rtc::Listing* listing = &l.made->ptx;
    if (l.showSass) {
        if (!l.sass) {
            ImGui::TextColored(theme::colour(theme::kBusy), "Disassembling%s", theme::symbol("\xE2\x80\xA6", "..."));
            return;
        }
        if (!l.sass->note.empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, theme::colour(theme::kWarning));
            ImGui::TextWrapped("%s", l.sass->note.c_str());
            ImGui::PopStyleColor();
            uiProbe().record("asm:note", lastItemRect());
        }
        if (l.sass->listing.lines.empty())
            return;
        listing = &l.sass->listing;
    }
    if (!listing->lineInfo)
        ImGui::TextDisabled("No source lines in this listing: nothing to map.");
    drawKernels(*listing, l.made->resources, l);
    ImGui::Separator();
    // The editor's cursor line, when the editor shows the listing's file.
    const EditorTab* active = s.editor.activeTab >= 0 && std::size_t(s.editor.activeTab) < s.editor.tabs.size()
                                  ? s.editor.tabs[std::size_t(s.editor.activeTab)].get()
                                  : nullptr;
    const int cursorLine = active && active->doc.path() == l.file ? active->cursorLine : 0;
    const bool cursorMoved = cursorLine != l.scrolledForLine;
    l.scrolledForLine = cursorLine;
    drawLines(*listing, l, cursorLine, cursorMoved, s.editor.monoFont, commands);
}

} // namespace

void drawListingTab(AppState& s, Commands& commands)
{
    ListingState& l = s.listing;
    if (l.ownWindow) {
        ImGui::TextDisabled("In its own window.");
        ImGui::SameLine();
        if (ImGui::SmallButton("Bring it back here"))
            l.ownWindow = false;
        uiProbe().record("listing:back", lastItemRect());
        return;
    }
    if (ImGui::SmallButton("Open in a window"))
        l.ownWindow = true;
    uiProbe().record("listing:window", lastItemRect());
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The listing in a window of its own, as large as you make it");
    drawListing(s, commands);
}

void drawListingWindow(AppState& s, Commands& commands)
{
    ListingState& l = s.listing;
    if (!l.ownWindow)
        return;
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowSize(ImVec2(display.x * 0.42f, display.y * 0.7f), ImGuiCond_FirstUseEver);
    // Right of the editor (47% of the width in the standard layout), so both show at once.
    ImGui::SetNextWindowPos(ImVec2(display.x * 0.48f, display.y * 0.5f), ImGuiCond_FirstUseEver, ImVec2(0.f, 0.5f));
    if (ImGui::Begin(kListingWindow, &l.ownWindow, ImGuiWindowFlags_NoCollapse))
        drawListing(s, commands);
    ImGui::End();
}

} // namespace ks::app
