#include "panels.hpp"

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
    ImGui::PlotLines("##plot", values.data(), int(values.size()), 0, overlay, 0.f, peak * 1.15f + 1e-6f,
                     ImVec2(ImGui::GetContentRegionAvail().x, ImGui::GetTextLineHeight() * 2.6f));
}

} // namespace

void drawTimingsPanel(const AppState& s)
{
    ImGui::Begin("Timings");
    if (s.demo && s.demo->timings().valid) {
        const auto& t = s.demo->timings();
        const demo::DemoConfig& c = s.demo->config();
        const double bytes = double(c.width) * c.height * 4.0;
        ImGui::Text("kernel %.4f ms (CUDA events), %.1f GB/s written", double(t.kernelMs),
                    t.kernelMs > 0 ? bytes / (double(t.kernelMs) * 1e6) : 0.0);
        ImGui::Text("map %.1f us + unmap %.1f us (host)", t.mapUs, t.unmapUs);
    } else {
        ImGui::TextDisabled("no GPU timings: the demo kernel is not running");
    }
    ImGui::Text("frame %.2f ms, %.1f fps", s.lastFrameMs, double(s.fps));
    ImGui::PushID("kernel");
    plot("kernel", s.timings.kernelMs, "ms");
    ImGui::PopID();
    ImGui::PushID("interop");
    plot("map+unmap", s.timings.interopUs, "us");
    ImGui::PopID();
    ImGui::PushID("frame");
    plot("frame", s.timings.frameMs, "ms");
    ImGui::PopID();
    ImGui::End();
}

} // namespace ks::app
