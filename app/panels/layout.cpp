#include "panels.hpp"

#include <imgui.h>

#include <cstring>

namespace ks::app {

void setDefaultLayout(const char* panel, float w, float h)
{
    const float status = ImGui::GetFrameHeight() + 8.f;
    const float usable = h - status;
    // Editor on the left, the picture in the middle, facts on the right.
    const float editor = w * 0.40f;
    const float right = w * 0.74f;
    struct Box {
        float x, y, w, h;
    } box{0, 0, w, usable};
    if (!std::strcmp(panel, "Kernel editor"))
        box = {0, 0, editor, usable};
    else if (!std::strcmp(panel, "Viewport"))
        box = {editor, 0, right - editor, usable * 0.64f};
    else if (!std::strcmp(panel, "Launch"))
        box = {editor, usable * 0.64f, right - editor, usable * 0.36f};
    else if (!std::strcmp(panel, "Device"))
        box = {right, 0, w - right, usable * 0.40f};
    else if (!std::strcmp(panel, "Timings"))
        box = {right, usable * 0.40f, w - right, usable * 0.25f};
    else if (!std::strcmp(panel, "Views"))
        box = {editor, 0, right - editor, usable * 0.64f};
    else if (!std::strcmp(panel, "Project"))
        box = {editor, usable * 0.64f, right - editor, usable * 0.36f};
    else if (!std::strcmp(panel, "Compile log"))
        box = {right, usable * 0.65f, w - right, usable * 0.35f};
    ImGui::SetNextWindowPos(ImVec2(box.x, box.y), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(box.w, box.h), ImGuiCond_FirstUseEver);
}

void drawStatusBar(const AppState& state, const std::string& statusLine)
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
    ImGui::TextColored(colour, "%s", statusLine.c_str());
    ImGui::End();
    ImGui::PopStyleVar();
}

} // namespace ks::app
