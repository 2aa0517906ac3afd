#include "panels/panels.hpp"

#include <imgui.h>
#include <imgui_internal.h> // RenderTextEllipsis

#include <algorithm>
#include <cstdarg>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace ks::app {

namespace {

struct Box {
    float x, y, w, h; // fractions of the display (height: of the space above the status bar)
};

// Standard: the views in the middle with the launch panel under them; the project, timeline and
// facts on the right. (With no project open, the views' place says how to open one.)
// A project inferred from a kernel (the default demo is one): the editor keeps the left column's
// height and nearly half the width (80 columns of source at 1600 pixels wide, the default, and at
// any UI scale on a window scaled alike), its Arguments go under the views (what goes in under what
// comes out), and the launch heads the right column. The places are fractions of the window; the
// panels wrap their rows to the width they get (sameLineIfFits and its kin in panels.hpp), so that
// down to 1280x720 none cuts a label.
std::optional<Box> projectBox(std::string_view panel, bool kernel)
{
    if (kernel && panel == kEditorPanel) return Box{0, 0, 0.47f, 0.76f};
    if (kernel && panel == kCompileLogPanel) return Box{0, 0.76f, 0.47f, 0.24f};
    if (kernel && panel == kViewsPanel) return Box{0.47f, 0, 0.28f, 0.48f};
    if (kernel && panel == kArgumentsPanel) return Box{0.47f, 0.48f, 0.28f, 0.52f};
    if (kernel && panel == kLaunchPanel) return Box{0.75f, 0, 0.25f, 0.40f};
    if (kernel && panel == kProjectPanel) return Box{0.75f, 0.40f, 0.25f, 0.16f};
    if (kernel && panel == kOverlayPanel) return Box{0.75f, 0.56f, 0.25f, 0.14f};
    if (kernel && panel == kTimelinePanel) return Box{0.75f, 0.70f, 0.25f, 0.10f};
    if (kernel && panel == kDevicePanel) return Box{0.75f, 0.80f, 0.25f, 0.10f};
    if (kernel && panel == kTimingsPanel) return Box{0.75f, 0.90f, 0.25f, 0.10f};
    if (panel == kEditorPanel) return Box{0, 0, 0.30f, 0.74f};
    if (panel == kCompileLogPanel) return Box{0, 0.74f, 0.30f, 0.26f};
    if (panel == kViewsPanel) return Box{0.30f, 0, 0.42f, 0.58f};
    if (panel == kLaunchPanel) return Box{0.30f, 0.58f, 0.42f, 0.42f};
    if (panel == kProjectPanel) return Box{0.72f, 0, 0.28f, 0.30f};
    if (panel == kOverlayPanel) return Box{0.72f, 0.30f, 0.28f, 0.22f};
    if (panel == kTimelinePanel) return Box{0.72f, 0.52f, 0.28f, 0.24f};
    if (panel == kDevicePanel) return Box{0.72f, 0.76f, 0.28f, 0.12f};
    if (panel == kTimingsPanel) return Box{0.72f, 0.88f, 0.28f, 0.12f};
    return std::nullopt;
}

// Classroom: large fonts, the editor beside the picture, the launch panel open under it, the
// overlay and the timeline beside the launch panel. The project, device and timings panels are
// not shown.
std::optional<Box> classroomBox(std::string_view panel, bool project, bool kernel)
{
    if (kernel && panel == kEditorPanel) return Box{0, 0, 0.32f, 0.60f};
    if (kernel && panel == kArgumentsPanel) return Box{0, 0.60f, 0.32f, 0.22f};
    if (panel == kEditorPanel) return Box{0, 0, 0.32f, 0.80f};
    if (kernel && panel == kCompileLogPanel) return Box{0, 0.82f, 0.32f, 0.18f};
    if (panel == kCompileLogPanel) return Box{0, 0.80f, 0.32f, 0.20f};
    if (panel == kViewsPanel) return Box{0.32f, 0, 0.68f, 0.48f};
    if (panel == kLaunchPanel) return project ? Box{0.32f, 0.48f, 0.36f, 0.52f} : Box{0.32f, 0.48f, 0.68f, 0.52f};
    if (panel == kOverlayPanel) return Box{0.68f, 0.48f, 0.32f, 0.26f};
    if (panel == kTimelinePanel) return Box{0.68f, 0.74f, 0.32f, 0.26f};
    return std::nullopt;
}

} // namespace

bool placePanel(const char* panel, const PanelLayout& layout)
{
    // Each panel takes its place on first use, and again once after every layout change.
    struct Placed {
        int generation;
        bool split; // placed as half of the compile log's place (the Console open)
    };
    static std::map<std::string, Placed> placedIn;
    auto boxOf = [&](std::string_view name) {
        return layout.layout == Layout::Classroom ? classroomBox(name, layout.project, layout.kernel)
                                                  : projectBox(name, layout.kernel);
    };
    const bool console = panel == std::string_view(kConsolePanel);
    std::optional<Box> box = boxOf(console ? kCompileLogPanel : panel);
    if (!box)
        return false;
    const bool split = layout.console && (console || panel == std::string_view(kCompileLogPanel));
    if (split) {
        box->h /= 2; // the compile log above, the console below
        if (console)
            box->y += box->h;
    }
    auto placed = placedIn.find(panel);
    const bool changed = placed == placedIn.end() ? layout.generation != 0
                                                  : placed->second.generation != layout.generation || placed->second.split != split;
    const ImGuiCond cond = changed ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
    placedIn[panel] = {layout.generation, split};
    const float status = ImGui::GetFrameHeight() + 8.f;
    const float w = layout.display.x, h = layout.display.y - status - layout.top;
    ImGui::SetNextWindowPos(ImVec2(box->x * w, layout.top + box->y * h), cond);
    ImGui::SetNextWindowSize(ImVec2(box->w * w, box->h * h), cond);
    return true;
}

bool sameLineIfFits(float width, float spacing)
{
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    const float gap = spacing < 0 ? ImGui::GetStyle().ItemSpacing.x : spacing;
    const bool fits = ImGui::GetItemRectMax().x + gap + width <= right;
    if (fits)
        ImGui::SameLine(0, gap);
    return fits;
}

void labelBesideIfFits(const char* label)
{
    sameLineIfFits(ImGui::CalcTextSize(label).x, ImGui::GetStyle().ItemInnerSpacing.x);
    ImGui::TextUnformatted(label);
}

float comboWidth(const char* preview)
{
    const float whole = ImGui::CalcTextSize(preview).x + ImGui::GetStyle().FramePadding.x * 2 + ImGui::GetFrameHeight();
    return std::min(whole, ImGui::GetContentRegionAvail().x);
}

float buttonWidth(const char* label)
{
    return ImGui::CalcTextSize(label, nullptr, true).x + 2.f * ImGui::GetStyle().FramePadding.x;
}

float fieldWidth(const char* label, float wanted)
{
    const float text = ImGui::CalcTextSize(label, nullptr, true).x;
    const float beside =
        ImGui::GetContentRegionAvail().x - (text > 0 ? text + ImGui::GetStyle().ItemInnerSpacing.x : 0);
    return std::max(ImGui::GetFontSize() * 4, std::min(wanted, beside));
}

const char* overlayOrAbove(const char* text)
{
    const float inside = ImGui::GetContentRegionAvail().x - 2 * ImGui::GetStyle().FramePadding.x;
    if (ImGui::CalcTextSize(text).x <= inside)
        return text;
    ImGui::TextWrapped("%s", text);
    return "";
}

void textWrappedColored(const ImVec4& colour, const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextWrappedV(fmt, args);
    ImGui::PopStyleColor();
    va_end(args);
}

void textWrappedDisabled(const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrappedV(fmt, args);
    ImGui::PopStyleColor();
    va_end(args);
}

void drawStatusBar(const AppState& state, const std::string& statusLine, Commands& commands)
{
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float height = ImGui::GetFrameHeight() + 8.f;
    ImGui::SetNextWindowPos(ImVec2(0, display.y - height));
    ImGui::SetNextWindowSize(ImVec2(display.x, height));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(8, 4));
    ImGui::Begin("##status", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoBringToFrontOnFocus);
    const ImVec4 colour = state.cudaRunning() ? ImVec4(0.55f, 0.9f, 0.55f, 1.f) : ImVec4(1.f, 0.7f, 0.35f, 1.f);
    // The layout switch first, so a long status line never covers it.
    const bool classroom = state.teach.layout == Layout::Classroom;
    if (ImGui::SmallButton(classroom ? "Standard layout" : "Classroom layout"))
        commands.teach.layout = classroom ? Layout::Standard : Layout::Classroom;
    ImGui::SameLine();
    // The line ends in an ellipsis where the window ends; the whole of it shows on hover.
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float width = std::max(1.f, ImGui::GetContentRegionAvail().x);
    ImGui::Dummy(ImVec2(width, ImGui::GetTextLineHeight()));
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::RenderTextEllipsis(ImGui::GetWindowDrawList(), at, ImVec2(at.x + width, at.y + ImGui::GetTextLineHeight()),
                              at.x + width, at.x + width, statusLine.c_str(), nullptr, nullptr);
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered() && ImGui::CalcTextSize(statusLine.c_str()).x > width) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(display.x * 0.6f);
        ImGui::TextUnformatted(statusLine.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
    ImGui::End();
    ImGui::PopStyleVar();
}

} // namespace ks::app
