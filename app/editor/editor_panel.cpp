// The kernel editor: tabs of open files, each with its toolbar, banners, find bar, source view, build
// status and a clickable list of diagnostics; the compile options and the picker of the kernel the
// project runs. It edits its own widget buffers and pushes Commands for everything else.
#include "editor/editor_parts.hpp"
#include "panels/panels.hpp"

#include "ks/cuda/memory.hpp"
#include "ks/rtc/diagnostics.hpp"
#include "panels/theme.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <initializer_list>
#include <string>

namespace ks::app {

namespace {

const char* severityIcon(const rtc::Diagnostic& d)
{
    if (d.likelyCause)
        return "?";
    switch (d.severity) {
    case rtc::Severity::Error:
        return theme::symbol("\xE2\x9C\x96", "x"); // heavy multiplication x
    case rtc::Severity::Warning:
        return theme::symbol("\xE2\x96\xB2", "^"); // triangle
    default:
        return theme::symbol("\xE2\x97\x8F", "*"); // circle
    }
}

// One line of build status: building… / built / errors; a fast-compile build says so.
void drawBuildStatus(const EditorTab& tab, const rtc::CompileOptions& options)
{
    const BuildState& b = tab.build;
    if (b.inFlight) {
        const double seconds = editor_parts::steadySeconds() - b.submittedAt;
        const char* spin[] = {theme::symbol("\xE2\x97\x90", "|"), theme::symbol("\xE2\x97\x93", "/"),
                              theme::symbol("\xE2\x97\x91", "-"), theme::symbol("\xE2\x97\x92", "\\")}; // ◐◓◑◒
        ImGui::TextColored(theme::colour(theme::kBusy), "%s building%s %.1f s", spin[int(seconds * 8) % 4],
                           theme::symbol("\xE2\x80\xA6", "..."),
                           seconds);
        return;
    }
    if (!b.result) {
        ImGui::TextDisabled("not built yet");
        return;
    }
    const rtc::CompileResult& r = *b.result;
    if (r.ok) {
        ImGui::TextColored(theme::colour(theme::kOk),
                           b.resultSource != rtc::CacheSource::Compiled ? "%s from cache in %.0f ms" : "%s built in %.0f ms",
                           theme::symbol("\xE2\x9C\x94", "ok:"), b.resultTotalMs);
        if (const rtc::FastCompile level = rtc::effectiveFastCompile(options); level != rtc::FastCompile::Off) {
            ImGui::SameLine();
            ImGui::TextDisabled("\xC2\xB7 fast compile %s", rtc::fastCompileName(level).data());
        }
        if (b.warnings) {
            ImGui::SameLine();
            ImGui::TextColored(theme::colour(theme::kWarning), "\xC2\xB7 %d warning%s", b.warnings,
                               b.warnings == 1 ? "" : "s");
        }
    } else {
        ImGui::TextColored(theme::colour(theme::kError), "%s %d error%s", theme::symbol("\xE2\x9C\x96", "x"), b.errors,
                           b.errors == 1 ? "" : "s");
        if (b.warnings) {
            ImGui::SameLine();
            ImGui::TextColored(theme::colour(theme::kWarning), "\xC2\xB7 %d warning%s", b.warnings,
                               b.warnings == 1 ? "" : "s");
        }
        ImGui::SameLine();
        ImGui::TextDisabled("(%.0f ms)", b.resultTotalMs);
    }
    if (b.resultRevision != tab.doc.revision()) {
        ImGui::SameLine();
        ImGui::TextDisabled("\xC2\xB7 edited since");
    }
}

void drawOptionsPopup(EditorState& ed, Commands& commands)
{
    if (!ImGui::BeginPopup("compile-options"))
        return;
    rtc::CompileOptions& o = ed.options;
    bool changed = false;
    ImGui::TextDisabled("Compile options (every file of the session)");
    changed |= ImGui::Checkbox("fast math (-use_fast_math)", &o.fastMath);
    ImGui::TextDisabled("line info (-lineinfo): always on, for the PTX / SASS tab");
    changed |= ImGui::Checkbox("device debug (-G)", &o.debug);
    // NVRTC ignores --Ofast-compile with -G (which turns optimization off anyway).
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    if (!o.debug && ImGui::BeginCombo("fast compile", rtc::fastCompileName(o.fastCompile).data())) {
        for (rtc::FastCompile level : rtc::kFastCompileLevels)
            if (ImGui::Selectable(rtc::fastCompileName(level).data(), o.fastCompile == level)) {
                o.fastCompile = level;
                changed = true;
            }
        ImGui::EndCombo();
    } else if (o.debug) {
        ImGui::TextDisabled("fast compile: off (-G)");
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("NVRTC's --Ofast-compile: builds sooner, the kernels run slower\n"
                          "(docs/live-kernels.md has the figures for each level)");
    const char* standards[] = {"c++11", "c++14", "c++17", "c++20"};
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    if (ImGui::BeginCombo("C++ standard", o.cppStandard.c_str())) {
        for (const char* std : standards)
            if (ImGui::Selectable(std, o.cppStandard == std)) {
                o.cppStandard = std;
                changed = true;
            }
        ImGui::EndCombo();
    }
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    if (ed.archFromDevice) {
        ImGui::Text("target %s (the device's)", o.arch.c_str());
    } else if (ImGui::BeginCombo("target (no device)", o.arch.c_str())) {
        for (const char* arch : {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"})
            if (ImGui::Selectable(arch, o.arch == arch)) {
                o.arch = arch;
                changed = true;
            }
        ImGui::EndCombo();
    }
    ImGui::Separator();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    if (ImGui::InputFloat("frame limit (s)", &ed.frameLimitSeconds, 0.5f, 2.f, "%.1f"))
        ed.frameLimitSeconds = std::clamp(ed.frameLimitSeconds, 0.f, 3600.f);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("A frame running longer than this asks you to wait or stop it (0: never).\n"
                          "Applies to the window's GPU process (not with --no-supervise).");
    const std::size_t shown = ed.printfBuffer         ? ed.printfBuffer
                              : ed.driverPrintfBuffer ? ed.driverPrintfBuffer
                                                      : EditorState::kDocumentedPrintfBuffer;
    int printfMiB = std::max(1, int((shown + (std::size_t(1) << 19)) >> 20)); // to the nearest MiB
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    ImGui::InputInt("printf buffer (MiB)", &printfMiB, 0, 0);
    if (ImGui::IsItemDeactivatedAfterEdit() && printfMiB > 0)
        commands.printfBuffer = std::min(std::size_t(printfMiB) << 20, EditorState::kMaxPrintfBuffer);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Device printf's buffer (CU_LIMIT_PRINTF_FIFO_SIZE); what one launch prints past it is lost.\n"
                          "The driver takes a new size only until a kernel that prints has run: after that,\n"
                          "the window's GPU process is replaced to apply it (your work is kept).\n"
                          "The driver's own size: %s.",
                          ed.driverPrintfBuffer ? cuda::formatBytes(ed.driverPrintfBuffer).c_str() : "unknown (no CUDA device)");
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 18);
    ImGui::InputTextWithHint("defines", "NAME NAME=VALUE ...", &ed.definesText);
    changed |= ImGui::IsItemDeactivatedAfterEdit();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 18);
    ImGui::InputTextWithHint("include paths", "/path/a;/path/b", &ed.includesText);
    changed |= ImGui::IsItemDeactivatedAfterEdit();
    float pause = float(ed.pauseSeconds);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    if (ImGui::SliderFloat("typing pause", &pause, 0.1f, 2.f, "%.2f s")) {
        ed.pauseSeconds = double(pause);
        for (auto& tab : ed.tabs)
            tab->debounce.setDelay(ed.pauseSeconds);
    }
    if (changed)
        commands.optionsChanged = true;
    ImGui::EndPopup();
}

// A coloured box with a wrapped message and buttons (wrapping to new rows as needed); returns the
// index of the button pressed, or -1. The box is drawn behind its content through a second draw
// channel, so it takes exactly the height the text needs.
int banner(const char* id, ImU32 tint, const std::string& text, std::initializer_list<const char*> buttons)
{
    int pressed = -1;
    ImGui::PushID(id);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->ChannelsSplit(2);
    dl->ChannelsSetCurrent(1);
    const float pad = 6.f;
    const ImVec2 start = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x;
    ImGui::SetCursorScreenPos(ImVec2(start.x + pad, start.y + pad));
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width - 2.f * pad);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    const float rowEnd = start.x + width - pad;
    int i = 0;
    for (const char* b : buttons) {
        const float w = ImGui::CalcTextSize(b).x + ImGui::GetStyle().FramePadding.x * 2.f;
        if (i) {
            ImGui::SameLine();
            if (ImGui::GetCursorScreenPos().x + w > rowEnd)
                ImGui::NewLine();
        }
        if (ImGui::SmallButton(b))
            pressed = i;
        ++i;
    }
    ImGui::EndGroup();
    const float bottom = ImGui::GetItemRectMax().y + pad;
    dl->ChannelsSetCurrent(0);
    dl->AddRectFilled(start, ImVec2(start.x + width, bottom), tint, 4.f);
    dl->ChannelsMerge();
    ImGui::SetCursorScreenPos(ImVec2(start.x, bottom + ImGui::GetStyle().ItemSpacing.y));
    ImGui::Dummy(ImVec2(0, 0));
    ImGui::PopID();
    return pressed;
}

void drawBanners(int index, EditorTab& tab, Commands& commands)
{
    const std::string name = tab.doc.path().filename().string();
    if (tab.recovery) {
        char when[64] = "earlier";
        const std::time_t t = std::time_t(tab.recovery->savedAtUnix);
        if (std::tm tm{}; localtime_r(&t, &tm))
            std::strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
        const int b = banner("##recovery", theme::kBannerInfo,
                             "Unsaved edits of " + name + " from an earlier session (kept " + when + ").",
                             {"Restore them", "Discard them"});
        if (b >= 0)
            commands.recovery = {index, b == 0};
    }
    if (!tab.faultNote.empty()) {
        const std::string text = tab.faultFinding.empty() ? tab.faultNote : tab.faultNote + "\n\n" + tab.faultFinding;
        if (tab.faultSearch == FaultSearchState::Offered) {
            const int b = banner("##fault", theme::kBannerConflict, text, {"Find the fault", "Dismiss"});
            commands.findFault = commands.findFault || b == 0;
            commands.dismissFault = commands.dismissFault || b == 1;
        } else if (banner("##fault", theme::kBannerConflict, text, {"Dismiss"}) == 0) {
            commands.dismissFault = true;
        }
    }
    if (tab.doc.conflict()) {
        const int b = banner("##conflict", theme::kBannerConflict,
                             name + " changed on disk while you have unsaved edits here. Nothing is overwritten until "
                                    "you choose.",
                             {"Reload from disk", "Keep mine", "Save mine over disk"});
        if (b >= 0)
            commands.resolveConflict = {index, b == 0   ? ConflictChoice::ReloadFromDisk
                                               : b == 1 ? ConflictChoice::KeepMine
                                                        : ConflictChoice::SaveMine};
    } else if (tab.doc.missingOnDisk()) {
        if (banner("##deleted", theme::kBannerConflict, name + " was deleted on disk. Its text stays open here.",
                   {"Save it back"}) == 0)
            commands.save = index;
    }
}

// Which kernel of this file runs: picking one runs the project inferred from it (as File > Open
// kernel... does), in place of the open project.
void drawKernelPicker(const EditorState& ed, const EditorTab& tab, Commands& commands)
{
    const bool running = tab.doc.path() == ed.runningFile;
    ImGui::TextDisabled("runs");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(std::max(ImGui::GetFontSize() * 6, ImGui::GetContentRegionAvail().x));
    const std::string preview = running ? ed.runningKernel : std::string("(pick a kernel of this file to run it)");
    if (ImGui::BeginCombo("##stage", preview.c_str())) {
        if (tab.kernels.empty())
            ImGui::TextDisabled("no __global__ functions in this file");
        for (const auto& k : tab.kernels) {
            const std::string name = k.qualifiedName();
            std::string label = name + "##" + std::to_string(k.line);
            if (ImGui::Selectable(label.c_str(), running && name == ed.runningKernel,
                                  k.isTemplate() ? ImGuiSelectableFlags_Disabled : 0))
                commands.project.openKernel = {tab.doc.path(), name};
            if (k.isTemplate() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
                ImGui::SetTooltip("%s is a template: run an instantiation with --kernel %s:%s<float>",
                                  k.display().c_str(), tab.doc.path().filename().c_str(), name.c_str());
        }
        ImGui::EndCombo();
    }
}

void drawDiagnosticsList(EditorTab& tab, float height)
{
    ImGui::BeginChild("##diagnostics", ImVec2(0, height), true);
    const rtc::CompileResult* r = tab.build.result.get();
    if (!r) {
        ImGui::TextDisabled(tab.build.inFlight ? "the first build is running" : "not built yet");
    } else if (r->diagnostics.empty()) {
        ImGui::TextColored(theme::colour(r->ok ? theme::kOk : theme::kError), r->ok ? "No problems." : "%s",
                           r->ok ? "" : "The build failed without a diagnostic; see the Compile log.");
    }
    if (r) {
        int i = 0;
        for (const rtc::Diagnostic& d : r->diagnostics) {
            ImGui::PushID(i++);
            ImGui::PushStyleColor(ImGuiCol_Text, editor_parts::severityColour(d));
            ImGui::TextUnformatted(severityIcon(d));
            ImGui::PopStyleColor();
            ImGui::SameLine();
            const bool here = tab.owns(d);
            char where[96];
            if (d.line <= 0)
                std::snprintf(where, sizeof where, "%s", d.file.c_str());
            else if (here)
                std::snprintf(where, sizeof where, "%d:%d", d.line, std::max(d.column, 1));
            else
                std::snprintf(where, sizeof where, "%s:%d", d.file.c_str(), d.line);
            const std::string label = std::string(where) + "  " + editor_parts::describe(d);
            if (ImGui::Selectable(label.c_str(), false, ImGuiSelectableFlags_AllowDoubleClick) && here && d.line > 0)
                tab.jumpToLine = d.line;
            if (ImGui::IsItemHovered() && !d.excerpt.empty())
                ImGui::SetTooltip("%s", d.excerpt.c_str());
            ImGui::PopID();
        }
    }
    ImGui::EndChild();
}

void drawTab(EditorState& ed, int index, EditorTab& tab, Commands& commands)
{
    // Shortcuts while this editor has focus. Letters are contiguous key indices in every backend
    // ImGui ships (GLFW's are ASCII), so 'S' is A's index + 18.
    const ImGuiIO& io = ImGui::GetIO();
    if (ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) && io.KeyCtrl) {
        const int a = ImGui::GetKeyIndex(ImGuiKey_A);
        if (ImGui::IsKeyPressed(a + ('S' - 'A'), false))
            commands.save = index;
        if (ImGui::IsKeyPressed(a + ('F' - 'A'), false))
            commands.editorAction = EditorAction::Find;
        if (ImGui::IsKeyPressed(a + ('H' - 'A'), false))
            commands.editorAction = EditorAction::Replace;
        if (ImGui::IsKeyPressed(a + ('G' - 'A'), false))
            commands.editorAction = EditorAction::GoToLine;
        if (ImGui::IsKeyPressed(a + ('/' - 'A'), false)) // GLFW's key for '/' is its ASCII code, as letters'
            commands.editorAction = EditorAction::ToggleComment;
        // Undo and redo are the editor's own (text_history.hpp; the widget's are off).
        if (ImGui::IsKeyPressed(a + ('Z' - 'A'), true))
            commands.editorAction = io.KeyShift ? EditorAction::Redo : EditorAction::Undo;
        if (ImGui::IsKeyPressed(a + ('Y' - 'A'), true))
            commands.editorAction = EditorAction::Redo;
        // Zoom: Ctrl+= (and Ctrl++ on the keypad), Ctrl+-, Ctrl+0; GLFW's codes are ASCII here too
        // (334 and 333: the keypad's + and -).
        if (ImGui::IsKeyPressed(a + ('=' - 'A')) || ImGui::IsKeyPressed(a - 'A' + 334))
            ed.zoom = std::min(EditorState::kMaxZoom, ed.zoom * 1.1f);
        if (ImGui::IsKeyPressed(a + ('-' - 'A')) || ImGui::IsKeyPressed(a - 'A' + 333))
            ed.zoom = std::max(EditorState::kMinZoom, ed.zoom / 1.1f);
        if (ImGui::IsKeyPressed(a + ('0' - 'A'), false))
            ed.zoom = 1.f;
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false) ||
            ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_KeyPadEnter), false)) {
            commands.buildNow = index;
        }
    }

    // Toolbar: actions, then the stage picker.
    if (ImGui::Button("Build"))
        commands.buildNow = index;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Build now (Ctrl+Enter)");
    ImGui::SameLine();
    ImGui::BeginDisabled(!tab.doc.dirty());
    if (ImGui::Button("Save"))
        commands.save = index;
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("Save (Ctrl+S), atomically: %s", tab.doc.path().c_str());
    ImGui::SameLine();
    if (ImGui::Button((std::string("Options") + theme::symbol("\xE2\x80\xA6", "...")).c_str()))
        ImGui::OpenPopup("compile-options");
    drawOptionsPopup(ed, commands);
    sameLineIfFits(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("on pause").x);
    ImGui::Checkbox("on pause", &ed.buildOnPause);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Build %.2f s after you stop typing", ed.pauseSeconds);
    // The kernel picker after a bar where "runs" and a short combo fit, else on a line of its own.
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    if (sameLineIfFits(ImGui::CalcTextSize("| runs").x + spacing * 2 + ImGui::GetFontSize() * 6)) {
        ImGui::TextDisabled("|");
        ImGui::SameLine();
    }
    drawKernelPicker(ed, tab, commands);

    drawBanners(index, tab, commands);
    editor_parts::drawFindBar(ed, index, tab, commands);
    editor_parts::drawGotoLine(ed, tab);

    // Source, a status strip (build result, cursor), the diagnostics.
    // The diagnostics list is as tall as what it lists (a line and its excerpt each), up to 5 lines:
    // "No problems." takes one, and the source the rest.
    const std::size_t listed = tab.build.result ? tab.build.result->diagnostics.size() : 0;
    const float listH = ImGui::GetTextLineHeightWithSpacing() * float(std::clamp<std::size_t>(listed * 2, 1, 5)) + 10.f;
    const float stripH = ImGui::GetFrameHeightWithSpacing();
    const float sourceH = std::max(80.f, ImGui::GetContentRegionAvail().y - listH - stripH);
    editor_parts::drawSource(ed, index, tab, sourceH, commands);
    drawBuildStatus(tab, ed.options);
    if (!tab.message.empty()) {
        ImGui::SameLine();
        ImGui::TextDisabled("\xC2\xB7 %s", tab.message.c_str());
    }
    char position[64];
    std::snprintf(position, sizeof position, "Ln %d, Col %d", tab.cursorLine, tab.cursorColumn);
    ImGui::SameLine();
    const float right = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(position).x;
    if (right > 0)
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + right);
    ImGui::TextDisabled("%s", position);
    drawDiagnosticsList(tab, 0.f);
}

} // namespace

void drawEditorPanel(EditorState& ed, Commands& commands)
{
    ImGui::Begin(kEditorPanel);
    if (ImGui::BeginTabBar("##files", ImGuiTabBarFlags_FittingPolicyScroll | ImGuiTabBarFlags_Reorderable)) {
        for (int i = 0; i < int(ed.tabs.size()); ++i) {
            EditorTab& tab = *ed.tabs[std::size_t(i)];
            ImGuiTabItemFlags flags = tab.doc.dirty() ? ImGuiTabItemFlags_UnsavedDocument : 0;
            if (ed.selectTab == i)
                flags |= ImGuiTabItemFlags_SetSelected;
            bool open = true;
            const std::string label = tab.doc.path().filename().string() + "##" + tab.doc.path().string();
            // Always closable: the unsaved marker takes the close button's place (the App refuses to
            // close a file with unsaved edits, and says why).
            const bool visible = ImGui::BeginTabItem(label.c_str(), &open, flags);
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("%s%s", tab.doc.path().c_str(),
                                  tab.doc.path() == ed.runningFile ? "\n(the open project runs a kernel of this file)"
                                                                   : "");
            if (visible) {
                ed.activeTab = i;
                drawTab(ed, i, tab, commands);
                ImGui::EndTabItem();
            }
            if (!open)
                commands.closeTab = i;
        }
        if (ImGui::TabItemButton("+", ImGuiTabItemFlags_Trailing | ImGuiTabItemFlags_NoTooltip))
            ImGui::OpenPopup("open-file");
        if (ImGui::BeginPopup("open-file")) {
            ImGui::TextDisabled("Open a .cu file in a new tab");
            ImGui::SetNextItemWidth(ImGui::GetFontSize() * 24);
            bool go = ImGui::InputTextWithHint("##path", "/path/to/kernel.cu", &ed.openPathText,
                                               ImGuiInputTextFlags_EnterReturnsTrue);
            ImGui::SameLine();
            go |= ImGui::Button("Open");
            if (go && !ed.openPathText.empty()) {
                commands.openFile = std::filesystem::path(ed.openPathText);
                ImGui::CloseCurrentPopup();
            }
            ImGui::EndPopup();
        }
        ImGui::EndTabBar();
    }
    if (ed.tabs.empty())
        ImGui::TextDisabled("No file is open: + opens one.");
    ed.selectTab = -1;
    ImGui::End();
}

} // namespace ks::app
