#include "panels/panels.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace ks::app {
namespace {

void plot(const char* label, const std::vector<float>& values, const char* unit)
{
    if (values.empty()) {
        ImGui::TextDisabled("%s: no samples", label);
        return;
    }
    const float last = values.back();
    const float peak = *std::max_element(values.begin(), values.end());
    char overlay[96];
    std::snprintf(overlay, sizeof overlay, "%s %.3f %s (max %.3f)", label, double(last), unit, double(peak));
    ImGui::PlotLines("##plot", values.data(), int(values.size()), 0, overlayOrAbove(overlay), 0.f, peak * 1.15f + 1e-6f,
                     ImVec2(ImGui::GetContentRegionAvail().x, ImGui::GetTextLineHeight() * 2.6f));
}

} // namespace

// The open project's last frame as a bar per stage (CUDA events), with achieved bandwidth where
// the stage's bytes are known, interop and render pass, and rolling history.
static void drawPipelineTimings(const AppState& s)
{
    const pipeline::Pipeline& p = s.project.session->pipeline();
    const pipeline::FrameTimings& t = p.timings();
    if (!t.valid) {
        textWrappedDisabled("no GPU timings yet (%s)", p.error().empty() ? "waiting for a frame" : p.error().c_str());
        return;
    }
    float longest = 1e-6f;
    for (const pipeline::StageTiming& st : t.stages)
        longest = std::max(longest, st.ms);
    for (const pipeline::StageTiming& st : t.stages) {
        char overlay[160];
        if (!st.ran)
            std::snprintf(overlay, sizeof overlay, "%s: skipped", st.name.c_str());
        else if (st.bytes)
            std::snprintf(overlay, sizeof overlay, "%s: %.4f ms, %.1f GB/s", st.name.c_str(), double(st.ms),
                          st.gbPerSecond());
        else
            std::snprintf(overlay, sizeof overlay, "%s: %.4f ms", st.name.c_str(), double(st.ms));
        ImGui::ProgressBar(st.ran ? st.ms / longest : 0.f, ImVec2(-1, 0), overlayOrAbove(overlay));
    }
    ImGui::TextWrapped("map %.1f us (call %.1f) + unmap %.1f us  |  render %.3f ms (GL timer)", t.mapUs, t.mapCallUs,
                       t.unmapUs, t.renderMs);
    ImGui::TextWrapped("stages %.3f ms  |  frame %.2f ms, %.1f fps", double(t.stagesMs), s.lastFrameMs, double(s.fps));
    const PipelineHistory& h = s.project.history;
    for (std::size_t i = 0; i < h.stageMs.size(); ++i) {
        ImGui::PushID(int(i));
        plot(h.stageNames[i].c_str(), h.stageMs[i], "ms");
        ImGui::PopID();
    }
    ImGui::PushID("pinterop");
    plot("map+unmap", h.interopUs, "us");
    ImGui::PopID();
    ImGui::PushID("prender");
    plot("render", h.renderMs, "ms");
    ImGui::PopID();
    ImGui::PushID("pframe");
    plot("frame (host)", h.frameMs, "ms");
    ImGui::PopID();
}

void drawTimingsPanel(const AppState& s)
{
    ImGui::Begin(kTimingsPanel);
    if (s.project.session)
        drawPipelineTimings(s);
    else
        ImGui::TextDisabled("no project runs: no timings");
    ImGui::End();
}

} // namespace ks::app
