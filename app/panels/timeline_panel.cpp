// The Block timeline panel: for one recorded launch of the selected kernel stage, one row per SM
// and one bar per block from its start to its end (%globaltimer, in an instrumented variant), so
// waves, tails and imbalance are visible; the numbers that explain them above.
#include "panels/panels.hpp"
#include "loop/teach_support.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ks::app {

namespace {

void drawBars(const teach::ProbeCapture& c)
{
    const teach::TimelineModel& m = c.model;
    if (m.rows.empty() || m.blocks.empty() || m.makespanUs <= 0)
        return;
    const float label = ImGui::CalcTextSize("SM 000 ").x;
    const float axis = ImGui::GetTextLineHeightWithSpacing();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float rowHeight =
        std::clamp((avail.y - axis) / float(m.rows.size()), 3.f, ImGui::GetTextLineHeight() * 1.2f);
    const float plotWidth = std::max(50.f, avail.x - label - 8.f);
    const float height = rowHeight * float(m.rows.size());
    ImGui::BeginChild("##bars", ImVec2(avail.x, std::min(avail.y - axis, height + 2.f)), false);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float left = origin.x + label;
    const unsigned slots = std::max(1u, m.maxConcurrentPerSm);
    const double lastOrder = double(std::max<std::size_t>(1, m.blocks.size() - 1));
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const teach::TimelineBlock* hovered = nullptr;
    for (std::size_t r = 0; r < m.rows.size(); ++r) {
        const float y = origin.y + float(r) * rowHeight;
        if (r % 2 == 0)
            draw->AddRectFilled(ImVec2(left, y), ImVec2(left + plotWidth, y + rowHeight), IM_COL32(255, 255, 255, 10));
        if (rowHeight >= ImGui::GetTextLineHeight() * 0.9f || r % std::size_t(std::ceil(12.f / rowHeight)) == 0) {
            char name[16];
            std::snprintf(name, sizeof name, "SM %u", m.rows[r].sm);
            draw->AddText(ImGui::GetFont(), std::min(ImGui::GetFontSize(), std::max(rowHeight, 9.f)),
                          ImVec2(origin.x, y), IM_COL32(170, 170, 180, 255), name);
        }
        for (std::size_t index : m.rows[r].blocks) {
            const teach::TimelineBlock& b = m.blocks[index];
            const float x0 = left + float(b.startUs / m.makespanUs) * plotWidth;
            const float x1 = std::max(x0 + 1.f, left + float(b.endUs / m.makespanUs) * plotWidth);
            const float y0 = y + rowHeight * float(b.slot % slots) / float(slots);
            const float y1 = y0 + std::max(1.f, rowHeight / float(slots) - (rowHeight >= 6 ? 1.f : 0.f));
            // Start order on the ramp, kept off its darkest end so early blocks show on the dark
            // background.
            const teach::Color color = teach::sequentialColor(0.2 + 0.8 * double(b.order) / lastOrder);
            draw->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1), IM_COL32(color.r, color.g, color.b, 255));
            if (mouse.x >= x0 && mouse.x < x1 && mouse.y >= y0 && mouse.y < y1)
                hovered = &b;
        }
    }
    ImGui::Dummy(ImVec2(avail.x, height));
    if (hovered && ImGui::IsWindowHovered()) {
        const cuda::Dim3 g = c.launch.grid;
        const unsigned long long id = hovered->block;
        ImGui::SetTooltip("block (%llu, %llu, %llu), linear %llu\nSM %u, started %u-th\n%.2f .. %.2f us (%.2f us)",
                          id % g.x, id / g.x % g.y, id / (1ull * g.x * g.y), id, hovered->sm, hovered->order,
                          hovered->startUs, hovered->endUs, hovered->durationUs());
    }
    ImGui::EndChild();
    char end[32];
    std::snprintf(end, sizeof end, "%.1f us", m.makespanUs);
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + label);
    ImGui::TextDisabled("0 us");
    ImGui::SameLine(ImGui::GetCursorPosX() + label + plotWidth - ImGui::CalcTextSize(end).x - 4.f);
    ImGui::TextDisabled("%s", end);
}

} // namespace

void drawTimelinePanel(AppState& s, Commands& commands)
{
    ImGui::Begin(kTimelinePanel);
    const int stage = teachStage(s);
    if (stage < 0 || !s.cuda) {
        ImGui::TextDisabled(stage < 0 ? "the project has no kernel stage" : "needs a CUDA device");
        ImGui::End();
        return;
    }
    if (ImGui::Button("record"))
        commands.teach.recordTimeline = true;
    sameLineIfFits(ImGui::CalcTextSize("one launch of").x);
    textWrappedDisabled("one launch of %s: every block's SM, start and end",
                        s.project.session->pipeline().stage(std::size_t(stage)).desc().name.c_str());
    const teach::ProbeCapture* c = s.project.probe ? s.project.probe->latest(teach::VariantKind::BlockTimeline) : nullptr;
    if (!c || int(c->stage) != stage) {
        textWrappedDisabled("%s", s.teach.timelineRequested ? "recording on the next frame..." : "not recorded yet");
        ImGui::End();
        return;
    }
    const teach::TimelineModel& m = c->model;
    ImGui::TextWrapped("%zu blocks on %u of %u SMs, %d resident per SM: %llu wave%s; last wave %.0f%% full", m.blocks.size(),
                m.smsUsed, m.smCount, c->residentBlocksPerSm, m.waves, m.waves == 1 ? "" : "s", m.lastWaveFill * 100);
    ImGui::TextWrapped("utilisation %.0f%%, SMs busy %.0f%%, tail %.2f us (%.0f%%), imbalance %.0f%%, %.2f us in all",
                m.utilisation * 100, m.busyFraction * 100, m.tailUs, m.tailFraction * 100, m.imbalance * 100,
                m.makespanUs);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", teach::describeTimeline(m).c_str());
    for (const std::string& p : m.problems)
        textWrappedColored(ImVec4(1.f, 0.45f, 0.4f, 1.f), "%s", p.c_str());
    drawBars(*c);
    ImGui::End();
}

} // namespace ks::app
