// The Views panel: the open project's views side by side or in tabs. In a 3-D view the left mouse
// button orbits, the right (or middle) pans and the wheel zooms; the mouse over the first view
// feeds the `mouse`/`buttons` builtins.
#include "panels.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdint>

namespace ks::app {

namespace {

void showView(AppState& s, std::size_t i, ImVec2 size)
{
    pipeline::Session& session = *s.project.session;
    const project::ViewDesc& v = session.pipeline().project().views[i];
    if (s.project.viewSizes.size() <= i)
        s.project.viewSizes.resize(i + 1, {16, 16});
    const int w = std::max(16, int(size.x)), h = std::max(16, int(size.y - ImGui::GetTextLineHeightWithSpacing()));
    s.project.viewSizes[i] = {w, h};
    ImGui::TextDisabled("%s (%s of %s)", v.name.c_str(), std::string(project::viewKindName(v.kind)).c_str(),
                        v.source.c_str());
    const gl::Framebuffer& target = session.viewTarget(i);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    if (!target.empty())
        ImGui::Image(reinterpret_cast<ImTextureID>(std::uintptr_t(target.color().name())), ImVec2(float(w), float(h)),
                     ImVec2(0, 1), ImVec2(1, 0));
    else
        ImGui::Dummy(ImVec2(float(w), float(h)));
    if (!session.viewError(i).empty())
        ImGui::GetWindowDrawList()->AddText(ImVec2(origin.x + 8, origin.y + 8), IM_COL32(255, 150, 100, 255),
                                            session.viewError(i).c_str());
    if (!ImGui::IsItemHovered())
        return;
    const ImGuiIO& io = ImGui::GetIO();
    if (i == 0) {
        s.project.input.mouseX = io.MousePos.x - origin.x;
        s.project.input.mouseY = io.MousePos.y - origin.y;
        s.project.input.buttons = (io.MouseDown[0] ? 1 : 0) | (io.MouseDown[1] ? 2 : 0) | (io.MouseDown[2] ? 4 : 0);
        s.project.input.viewportWidth = w;
        s.project.input.viewportHeight = h;
    }
    if (v.kind == project::ViewKind::Points || v.kind == project::ViewKind::HeightField) {
        render::OrbitCamera& cam = session.camera();
        if (ImGui::IsMouseDragging(ImGuiMouseButton_Left))
            cam.orbit(io.MouseDelta.x, io.MouseDelta.y);
        if (ImGui::IsMouseDragging(ImGuiMouseButton_Right) || ImGui::IsMouseDragging(ImGuiMouseButton_Middle))
            cam.pan(io.MouseDelta.x, io.MouseDelta.y, float(h));
        if (io.MouseWheel != 0)
            cam.zoom(io.MouseWheel);
    }
}

} // namespace

void drawViewsPanel(AppState& s, Commands&)
{
    ImGui::Begin("Views");
    pipeline::Session& session = *s.project.session;
    const std::size_t n = session.viewCount();
    if (n == 0) {
        ImGui::TextDisabled("the project has no views");
        ImGui::End();
        return;
    }
    if (session.pipeline().project().tabs) {
        if (ImGui::BeginTabBar("##views")) {
            for (std::size_t i = 0; i < n; ++i) {
                if (ImGui::BeginTabItem(session.pipeline().project().views[i].name.c_str())) {
                    s.project.activeView = int(i);
                    showView(s, i, ImGui::GetContentRegionAvail());
                    ImGui::EndTabItem();
                } else if (s.project.viewSizes.size() > i) {
                    s.project.viewSizes[i] = {16, 16}; // hidden tabs render small
                }
            }
            ImGui::EndTabBar();
        }
    } else {
        const ImVec2 avail = ImGui::GetContentRegionAvail();
        const float spacing = ImGui::GetStyle().ItemSpacing.x;
        const float w = (avail.x - spacing * float(n - 1)) / float(n);
        for (std::size_t i = 0; i < n; ++i) {
            if (i > 0)
                ImGui::SameLine();
            ImGui::BeginGroup();
            ImGui::PushID(int(i));
            showView(s, i, ImVec2(w, avail.y));
            ImGui::PopID();
            ImGui::EndGroup();
        }
    }
    if (const char* err = session.renderer().shaderError().c_str(); *err)
        ImGui::TextColored(ImVec4(1.f, 0.45f, 0.4f, 1.f), "%s", err);
    ImGui::End();
}

} // namespace ks::app
