// The Views panel: the open project's views side by side or in tabs. In a 3-D view the left mouse
// button orbits, the right (or middle) pans and the wheel zooms; the mouse over the first view
// feeds the `mouse`/`buttons` builtins.
#include "panels.hpp"

#include "ks/render/view_renderer.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdint>

namespace ks::app {

namespace {

// Over a view of the recorded output: outlines the hovered and the pinned element and turns the
// mouse into the inspected element. `origin`, `size`: the view's image on screen.
void inspectUnderMouse(AppState& s, const project::ViewDesc& v, ImVec2 origin, ImVec2 size)
{
    TeachState& t = s.teach;
    const teach::ProbeCapture* c = s.project.probe ? s.project.probe->latest(teach::VariantKind::WhoWrote) : nullptr;
    if (!c || v.source != c->resource || c->width <= 0 || c->height <= 0)
        return;
    const render::ElementRect r = render::elementRect(v.kind, c->width, c->height, int(size.x), int(size.y));
    if (r.width <= 0)
        return; // points and height fields: no flat layout to inspect
    // The overlay itself is drawn by the view renderer (Session::setOverlay); here the mouse.
    const ImVec2 p0(origin.x + r.x, origin.y + r.y), p1(p0.x + r.width, p0.y + r.height);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float cellW = (p1.x - p0.x) / float(c->width), cellH = (p1.y - p0.y) / float(c->height);
    auto outline = [&](std::size_t element, ImU32 colour) {
        const float x = p0.x + float(element % std::size_t(c->width)) * cellW;
        const float y = p0.y + float(element / std::size_t(c->width)) * cellH;
        draw->AddRect(ImVec2(x, y), ImVec2(x + std::max(cellW, 3.f), y + std::max(cellH, 3.f)), colour, 0, 0, 2.f);
    };
    if (t.pinnedElement && *t.pinnedElement < c->who.records.size())
        outline(*t.pinnedElement, IM_COL32(255, 255, 255, 255));
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    if (!ImGui::IsItemHovered() || mouse.x < p0.x || mouse.y < p0.y || mouse.x >= p1.x || mouse.y >= p1.y)
        return;
    const std::size_t x = std::min(std::size_t((mouse.x - p0.x) / cellW), std::size_t(c->width - 1));
    const std::size_t y = std::min(std::size_t((mouse.y - p0.y) / cellH), std::size_t(c->height - 1));
    const std::size_t element = y * std::size_t(c->width) + x;
    t.hoverElement = element;
    outline(element, IM_COL32(255, 255, 0, 255));
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left))
        t.pinnedElement = t.pinnedElement == element ? std::nullopt : std::optional<std::size_t>(element);
    if (t.inspection && t.inspection->element == element) {
        std::string text = t.inspection->who.summary;
        for (const InspectedValue& value : t.inspection->values)
            text += "\n" + value.resource + " = " + value.text;
        ImGui::SetTooltip("%s", text.c_str());
    }
}

void showView(AppState& s, std::size_t i, ImVec2 size)
{
    scene::Session& session = *s.project.session;
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
    inspectUnderMouse(s, v, origin, ImVec2(float(w), float(h)));
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
    s.teach.hoverElement.reset(); // set again below while the mouse is over the recorded output
    scene::Session& session = *s.project.session;
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
