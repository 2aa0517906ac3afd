// The Views panel: the open project's views side by side or in tabs. In a 3-D view the left mouse
// button orbits, the right (or middle) pans and the wheel zooms; in a plot the wheel zooms (Shift:
// the values), a drag pans and a double-click shows everything again; the mouse over the first
// view feeds the `mouse`/`buttons` builtins.
#include "panels/panels.hpp"
#include "panels/plot_axes.hpp"
#include "panels/theme.hpp"

#include "ks/render/axes.hpp"
#include "ks/render/colormap.hpp"
#include "ks/render/image_view.hpp"
#include "ks/render/view_renderer.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace ks::app {

namespace {

// Over a view of the recorded output: outlines the hovered and the pinned element and turns the
// mouse into the inspected element. `origin`, `size`: the view's image on screen.
void inspectUnderMouse(AppState& s, const project::ViewDesc& v, ImVec2 origin, ImVec2 size,
                       const render::PlotFrame* plot)
{
    TeachState& t = s.teach;
    const teach::ProbeCapture* c = s.project.probe ? s.project.probe->latest(teach::VariantKind::WhoWrote) : nullptr;
    if (!c || v.source != c->resource || c->width <= 0 || c->height <= 0)
        return;
    const render::ElementRect r = render::elementRect(v.kind, c->width, c->height, int(size.x), int(size.y), plot);
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

// A plot view's axes over its picture: value gridlines and labels, element-index ticks, the axis
// titles, a legend when it has several series, and under the mouse the element and the value at
// the cursor. The frame is where view_plot.vert draws it (the middle 90% of the target): elements
// frame.x0..x1 across, values frame.y0..y1 up (the buffer's values times the view's scale; on a log
// axis evenly in log10 of them).
void drawPlotAxes(const project::ViewDesc& v, const render::PlotFrame& frame, std::int64_t count, ImVec2 origin,
                  ImVec2 size, bool hovered, bool zoomed)
{
    if (count <= 0)
        return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float lineH = ImGui::GetTextLineHeight();
    const PlotAxesLayout axes = layoutPlotAxes(
        frame, count, origin.x, origin.y, size.x, size.y, lineH,
        [](const std::string& t) { return ImGui::CalcTextSize(t.c_str()).x; }, v.xLabel, v.yLabel);
    const float x0 = axes.x0, x1 = axes.x1, y0 = axes.y0, y1 = axes.y1;
    const double left = frame.x0, right = frame.x1;
    auto label = [&](ImVec2 at, const std::string& text, ImU32 colour = theme::kViewLabel) {
        const ImVec2 sz = ImGui::CalcTextSize(text.c_str());
        dl->AddRectFilled(ImVec2(at.x - 2, at.y), ImVec2(at.x + sz.x + 2, at.y + sz.y), theme::kViewLabelBack, 2.f);
        dl->AddText(at, colour, text.c_str());
    };
    auto screenX = [&](double element) { return x0 + float((element - left) / (right - left)) * (x1 - x0); };
    dl->PushClipRect(origin, ImVec2(origin.x + size.x, origin.y + size.y), true);
    for (float y : axes.gridY)
        dl->AddLine(ImVec2(x0, y), ImVec2(x1, y), theme::kViewGrid);
    for (float x : axes.tickX)
        dl->AddLine(ImVec2(x, y1 - 4.f), ImVec2(x, y1 + 4.f), theme::kViewLabel);
    for (const PlotAxisLabel& l : axes.labels)
        label(ImVec2(l.x, l.y), l.text, l.kind == PlotLabelKind::Title ? theme::kViewTitle : theme::kViewLabel);
    // Top right: the scale, the range's kind, and a legend of the series.
    std::vector<std::pair<std::string, std::array<float, 4>>> legend;
    if (!v.series.empty()) {
        legend.emplace_back(v.source, render::plotSeriesColor(v, 0));
        for (std::size_t k = 0; k < v.series.size(); ++k)
            legend.emplace_back(v.series[k], render::plotSeriesColor(v, k + 1));
    }
    float ty = y0 + 2.f;
    auto topRight = [&](const std::string& text, const std::array<float, 4>* swatch) {
        const float w = ImGui::CalcTextSize(text.c_str()).x + (swatch ? lineH + 4.f : 0.f);
        const ImVec2 at(x1 - w - 4.f, ty);
        if (swatch) {
            const ImU32 c = ImGui::ColorConvertFloat4ToU32(ImVec4((*swatch)[0], (*swatch)[1], (*swatch)[2], 1.f));
            dl->AddRectFilled(ImVec2(at.x - 2.f, at.y), ImVec2(at.x + lineH + 2.f, at.y + lineH), theme::kViewLabelBack);
            dl->AddLine(ImVec2(at.x, at.y + lineH / 2), ImVec2(at.x + lineH, at.y + lineH / 2), c, 3.f);
            label(ImVec2(at.x + lineH + 4.f, at.y), text);
        } else {
            label(at, text);
        }
        ty += lineH + 2.f;
    };
    if (v.scale != 1.f)
        topRight("values x " + render::tickLabel(v.scale, std::abs(v.scale) / 100.0), nullptr);
    if (zoomed)
        topRight("zoomed (double-click: all)", nullptr);
    else if (v.autoRange)
        topRight("auto range", nullptr);
    for (const auto& [name, colour] : legend)
        topRight(name, &colour);
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    if (hovered && mouse.x >= x0 && mouse.x <= x1 && mouse.y >= y0 && mouse.y <= y1 && right > left) {
        const double at = left + double(mouse.x - x0) / double(x1 - x0) * (right - left);
        const std::int64_t element = std::clamp(std::int64_t(std::llround(at)), std::int64_t(0), count - 1);
        const float ex = screenX(double(element));
        dl->AddLine(ImVec2(ex, y0), ImVec2(ex, y1), IM_COL32(255, 230, 120, 120));
        ImGui::SetTooltip("element %lld\ny %s at the cursor\nwheel: zoom, drag: pan, double-click: all",
                          (long long)element, plotValueReadout(frame, double(y1 - mouse.y) / double(y1 - y0)).c_str());
    }
    dl->PopClipRect();
}

// Zoom and pan of a plot view under the mouse: the wheel zooms the elements around the cursor
// (with Shift, the values: on a log axis by a factor of them), a left drag pans both, a
// double-click goes back to every element and the view's own range. `frame`: what was drawn; the
// new frame is drawn from the next frame on.
// `hovered`: the mouse is over the view (the wheel and a double-click count); otherwise only a drag
// that began on it goes on.
void zoomPlot(scene::Session& session, std::size_t i, ImVec2 origin, ImVec2 size, bool hovered)
{
    const ImGuiIO& io = ImGui::GetIO();
    if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
        session.setPlotZoom(i, std::nullopt);
        return;
    }
    render::PlotFrame f = session.plotFrame(i);
    const float fx0 = origin.x + 0.05f * size.x, fw = 0.9f * size.x;
    const float fy1 = origin.y + 0.95f * size.y, fh = 0.9f * size.y;
    bool changed = false;
    if (hovered && io.MouseWheel != 0) {
        const double factor = std::pow(0.8, double(io.MouseWheel)); // a notch up: 80% of the span
        if (io.KeyShift) {
            // The values at the fractions of the frame that become its ends, the cursor's fixed.
            const double at = double(fy1 - io.MousePos.y) / double(fh);
            const render::PlotFrame was = f;
            f.y0 = render::plotValueAt(was, at * (1 - factor)), f.y1 = render::plotValueAt(was, at + (1 - at) * factor);
        } else {
            const double at = f.x0 + double(io.MousePos.x - fx0) / double(fw) * (f.x1 - f.x0);
            f.x0 = at - (at - f.x0) * factor, f.x1 = at + (f.x1 - at) * factor;
        }
        changed = true;
    }
    if (ImGui::IsMouseDragging(ImGuiMouseButton_Left) && (io.MouseDelta.x != 0 || io.MouseDelta.y != 0)) {
        const double dx = double(io.MouseDelta.x) / double(fw) * (f.x1 - f.x0);
        const double dy = double(io.MouseDelta.y) / double(fh);
        const render::PlotFrame was = f;
        f.x0 -= dx, f.x1 -= dx;
        f.y0 = render::plotValueAt(was, dy), f.y1 = render::plotValueAt(was, 1 + dy);
        changed = true;
    }
    // Spans too small for a float's precision (or turned over) are refused; on a log axis the
    // shader's precision is that of log10 of the values.
    const bool valueSpanOk = f.logY ? f.y0 > 0 && std::log10(f.y1) - std::log10(f.y0) > 1e-5 : f.y1 - f.y0 > 1e-30;
    if (changed && f.x1 - f.x0 > 1e-3 && valueSpanOk && std::isfinite(f.x0 + f.x1 + f.y0 + f.y1))
        session.setPlotZoom(i, f);
}

// An image view of scalar data gets a colour bar: its colour map from range[0] (bottom) to
// range[1] (top), with labels, beside the fitted image where there is room, else over its right edge.
void drawColourBar(const project::ViewDesc& v, const project::ResourceDesc& r, ImVec2 origin, ImVec2 size)
{
    const int cols = r.shape ? int((*r.shape)[1]) : int(r.count), rows = r.shape ? int((*r.shape)[0]) : 1;
    if (cols <= 0 || rows <= 0)
        return;
    const render::FitRect fit = render::fitKeepAspect(cols, rows, int(size.x), int(size.y));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float lineH = ImGui::GetTextLineHeight();
    const render::AxisTicks ticks = render::niceTicks(v.range[0], v.range[1], 4);
    float labelW = 0;
    for (double t : ticks.values)
        labelW = std::max(labelW, ImGui::CalcTextSize(render::tickLabel(t, ticks.step).c_str()).x);
    const float barW = 14.f, need = barW + 6.f + labelW + 8.f;
    const float right = origin.x + fit.x + fit.width;
    const bool beside = origin.x + size.x - right >= need;
    const float x0 = beside ? right + 8.f : right - need;
    const float h = std::max(lineH * 3.f, fit.height * 0.6f);
    const float y0 = origin.y + fit.y + (fit.height - h) / 2.f, y1 = y0 + h;
    dl->PushClipRect(origin, ImVec2(origin.x + size.x, origin.y + size.y), true);
    if (!beside)
        dl->AddRectFilled(ImVec2(x0 - 4.f, y0 - lineH), ImVec2(x0 + need, y1 + lineH), theme::kViewLabelBack, 3.f);
    constexpr int kSteps = 64;
    for (int k = 0; k < kSteps; ++k) {
        const auto c = render::colormap(v.colormap, (float(k) + 0.5f) / float(kSteps));
        const float a = y1 - h * float(k + 1) / float(kSteps), b = y1 - h * float(k) / float(kSteps);
        dl->AddRectFilled(ImVec2(x0, a), ImVec2(x0 + barW, b + 0.5f),
                          IM_COL32(int(c[0] * 255.f), int(c[1] * 255.f), int(c[2] * 255.f), 255));
    }
    dl->AddRect(ImVec2(x0, y0), ImVec2(x0 + barW, y1), IM_COL32(90, 96, 108, 255));
    const double lo = v.range[0], hi = v.range[1];
    for (double t : ticks.values) {
        const float y = hi != lo ? y1 - float((t - lo) / (hi - lo)) * h : (y0 + y1) / 2;
        dl->AddLine(ImVec2(x0 + barW, y), ImVec2(x0 + barW + 4.f, y), theme::kViewLabel);
        dl->AddText(ImVec2(x0 + barW + 6.f, y - lineH / 2), theme::kViewLabel,
                    render::tickLabel(t, ticks.step).c_str());
    }
    dl->PopClipRect();
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
    // The picture is a button that takes the mouse: a drag over it pans the plot or turns the camera
    // (below). As a plain image it claimed no press, so ImGui moved the whole panel with the drag.
    ImGui::InvisibleButton("##view", ImVec2(float(w), float(h)),
                           ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight |
                               ImGuiButtonFlags_MouseButtonMiddle);
    if (!target.empty())
        ImGui::GetWindowDrawList()->AddImage(reinterpret_cast<ImTextureID>(std::uintptr_t(target.color().name())),
                                             origin, ImVec2(origin.x + float(w), origin.y + float(h)), ImVec2(0, 1),
                                             ImVec2(1, 0));
    const bool imageHovered = ImGui::IsItemHovered();
    const bool held = ImGui::IsItemActive(); // a press that began on the picture: its drag goes on outside
    if (imageHovered)
        s.teach.inspectWanted = true; // who wrote each element, recorded for the tooltip
    uiProbe().record("view:" + std::to_string(i), {origin.x, origin.y, origin.x + float(w), origin.y + float(h)});
    const bool plot = v.kind == project::ViewKind::Plot;
    inspectUnderMouse(s, v, origin, ImVec2(float(w), float(h)), plot ? &session.plotFrame(i) : nullptr);
    if (const project::ResourceDesc* r = session.pipeline().project().resource(v.source)) {
        if (plot)
            drawPlotAxes(v, session.plotFrame(i), r->count, origin, ImVec2(float(w), float(h)),
                         imageHovered && !s.teach.hoverElement, session.plotZoom(i).has_value());
        else if (v.kind == project::ViewKind::Image && !r->isTexture() && r->element.components == 1)
            drawColourBar(v, *r, origin, ImVec2(float(w), float(h)));
    }
    if (!session.viewError(i).empty())
        ImGui::GetWindowDrawList()->AddText(ImVec2(origin.x + 8, origin.y + 8), IM_COL32(255, 150, 100, 255),
                                            session.viewError(i).c_str());
    if (const std::string& why = session.pipeline().error(); i == 0 && !why.empty()) {
        // Why the picture is empty or stale (no CUDA, a refused launch), over the picture itself.
        ImDrawList* dl = ImGui::GetWindowDrawList();
        const float wrap = std::max(100.f, float(w) - 40.f);
        const ImVec2 text = ImGui::CalcTextSize(why.c_str(), nullptr, false, wrap);
        const ImVec2 p(origin.x + (float(w) - text.x) * 0.5f, origin.y + (float(h) - text.y) * 0.5f);
        dl->AddRectFilled(ImVec2(p.x - 10, p.y - 8), ImVec2(p.x + text.x + 10, p.y + text.y + 8),
                          IM_COL32(20, 20, 24, 230), 4.f);
        dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), p, IM_COL32(255, 190, 100, 255), why.c_str(), nullptr, wrap);
    }
    if (!imageHovered && !held)
        return;
    const ImGuiIO& io = ImGui::GetIO();
    if (i == 0) {
        s.project.input.mouseX = io.MousePos.x - origin.x;
        s.project.input.mouseY = io.MousePos.y - origin.y;
        s.project.input.buttons = (io.MouseDown[0] ? 1 : 0) | (io.MouseDown[1] ? 2 : 0) | (io.MouseDown[2] ? 4 : 0);
        s.project.input.viewportWidth = w;
        s.project.input.viewportHeight = h;
    }
    if (plot && !s.teach.hoverElement)
        zoomPlot(session, i, origin, ImVec2(float(w), float(h)), imageHovered);
    if (v.kind == project::ViewKind::Points || v.kind == project::ViewKind::HeightField) {
        render::OrbitCamera& cam = session.camera();
        if (ImGui::IsMouseDragging(ImGuiMouseButton_Left))
            cam.orbit(io.MouseDelta.x, io.MouseDelta.y);
        if (ImGui::IsMouseDragging(ImGuiMouseButton_Right) || ImGui::IsMouseDragging(ImGuiMouseButton_Middle))
            cam.pan(io.MouseDelta.x, io.MouseDelta.y, float(h));
        if (imageHovered && io.MouseWheel != 0)
            cam.zoom(io.MouseWheel);
    }
}

} // namespace

void drawViewsPanel(AppState& s, Commands&)
{
    ImGui::Begin(kViewsPanel);
    s.teach.hoverElement.reset(); // set again below while the mouse is over the recorded output
    {
        const ImVec2 at = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
        s.record.viewportRect = {at.x, at.y, at.x + avail.x, at.y + avail.y}; // "the viewport only"
    }
    scene::Session& session = *s.project.session;
    const std::size_t n = session.viewCount();
    if (uiProbe().enabled)
        uiProbe().forget("view:");
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
