#include "panels/ui_probe.hpp"

#include <imgui.h>
#include <imgui_internal.h> // ImGuiWindow, ImGuiTable: the furthest item each drew

#include <algorithm>

namespace ks::app {

void UiProbe::forget(std::string_view prefix)
{
    for (auto it = m_rects.lower_bound(prefix); it != m_rects.end() && it->first.starts_with(prefix);)
        it = m_rects.erase(it);
}

std::optional<UiProbe::Rect> UiProbe::find(const std::string& name) const
{
    const auto it = m_rects.find(name);
    return it == m_rects.end() ? std::nullopt : std::optional<Rect>(it->second);
}

std::size_t UiProbe::count(std::string_view prefix) const
{
    std::size_t n = 0;
    for (auto it = m_rects.lower_bound(prefix); it != m_rects.end() && it->first.starts_with(prefix); ++it)
        ++n;
    return n;
}

std::map<std::string, UiProbe::Rect, std::less<>> UiProbe::withPrefix(std::string_view prefix) const
{
    std::map<std::string, Rect, std::less<>> found;
    for (auto it = m_rects.lower_bound(prefix); it != m_rects.end() && it->first.starts_with(prefix); ++it)
        found.insert(*it);
    return found;
}

void UiProbe::recordClipped()
{
    if (!enabled)
        return;
    forget("clip:");
    ImGuiContext& g = *ImGui::GetCurrentContext(); // ImPool has no const look-up
    constexpr float kSlack = 0.5f;                 // ImGui rounds clip rectangles to whole pixels
    for (const ImGuiWindow* w : g.Windows) {
        if (!w->Active || w->Hidden || w->Collapsed || w->SkipItems)
            continue;
        const ImRect& clip = w->InnerClipRect;
        if (clip.GetWidth() <= 0 || clip.GetHeight() <= 0)
            continue; // a menu bar's window: its items are in its menu layer, outside this rectangle
        const ImVec2 reach = w->DC.CursorMaxPos;
        const std::string name = std::string("clip:") + w->Name;
        if (!w->ScrollbarX && reach.x > clip.Max.x + kSlack)
            record(name, {clip.Max.x, clip.Min.y, reach.x, clip.Max.y});
        else if (!w->ScrollbarY && (w->Flags & ImGuiWindowFlags_NoScrollbar) && reach.y > clip.Max.y + kSlack)
            record(name, {clip.Min.x, clip.Max.y, clip.Max.x, reach.y});
    }
    for (int i = 0; i < g.Tables.GetMapSize(); ++i) {
        const ImGuiTable* t = g.Tables.TryGetMapData(i);
        if (!t || t->LastFrameActive != g.FrameCount || !t->OuterWindow)
            continue;
        for (int c = 0; c < t->ColumnsCount; ++c) {
            const ImGuiTableColumn& column = t->Columns[c];
            const float reach = std::max(column.ContentMaxXFrozen, column.ContentMaxXUnfrozen);
            if (column.IsEnabled && column.IsVisibleX && reach > column.ClipRect.Max.x + kSlack)
                record(std::string("clip:") + t->OuterWindow->Name + " table " + std::to_string(i) + " column " +
                           std::to_string(c),
                       {column.ClipRect.Max.x, column.ClipRect.Min.y, reach, column.ClipRect.Max.y});
        }
    }
}

UiProbe& uiProbe()
{
    static UiProbe probe;
    return probe;
}

} // namespace ks::app
