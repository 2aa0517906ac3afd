#include "panels.hpp"

#include <imgui.h>

#include <cstring>

namespace ks::app {

void setDefaultLayout(const char* panel, float w, float h)
{
    const float status = ImGui::GetFrameHeight() + 8.f;
    const float usable = h - status;
    const float left = w * 0.62f;
    struct Box {
        float x, y, w, h;
    } box{0, 0, w, usable};
    if (!std::strcmp(panel, "Viewport"))
        box = {0, 0, left, usable * 0.74f};
    else if (!std::strcmp(panel, "Launch"))
        box = {0, usable * 0.74f, left, usable * 0.26f};
    else if (!std::strcmp(panel, "Device"))
        box = {left, 0, w - left, usable * 0.46f};
    else if (!std::strcmp(panel, "Timings"))
        box = {left, usable * 0.46f, w - left, usable * 0.27f};
    else if (!std::strcmp(panel, "Views"))
        box = {0, 0, left, usable * 0.62f};
    else if (!std::strcmp(panel, "Project"))
        box = {0, usable * 0.62f, left, usable * 0.38f};
    else if (!std::strcmp(panel, "Compile log"))
        box = {left, usable * 0.73f, w - left, usable * 0.27f};
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
