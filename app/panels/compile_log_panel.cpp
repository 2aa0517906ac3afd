#include "panels.hpp"

#include "ks/rtc/diagnostics.hpp"

#include <imgui.h>

namespace ks::app {

void drawCompileLogPanel(AppState& s)
{
    ImGui::Begin("Compile log");
    if (s.demo) {
        const rtc::CompileResult& r = s.demo->compileResult();
        const std::string file = s.demo->kernelFile().filename().string();
        if (r.ok)
            ImGui::TextColored(ImVec4(0.55f, 0.9f, 0.55f, 1.f), "%s: built in %.0f ms (%zu bytes CUBIN)", file.c_str(),
                               r.compileMs, r.cubin.size());
        else if (r.diagnostics.empty() && r.log.empty())
            ImGui::TextColored(ImVec4(1.f, 0.7f, 0.35f, 1.f), "%s: %s", file.c_str(), s.demo->status().c_str());
        else
            ImGui::TextColored(ImVec4(1.f, 0.45f, 0.4f, 1.f), "%s: build failed", file.c_str());
        if (const cuda::Function* k = s.demo->kernel()) {
            const auto& a = k->attributes();
            ImGui::Text("%s: %d registers, %d B static shared, %d B local", k->name().c_str(), a.numRegs,
                        a.staticSharedBytes, a.localBytes);
        }
        for (const rtc::Diagnostic& d : r.diagnostics) {
            const ImVec4 colour = d.severity == rtc::Severity::Error     ? ImVec4(1.f, 0.45f, 0.4f, 1.f)
                                  : d.severity == rtc::Severity::Warning ? ImVec4(1.f, 0.8f, 0.35f, 1.f)
                                                                         : ImVec4(0.6f, 0.75f, 1.f, 1.f);
            ImGui::TextColored(colour, "%s", rtc::formatDiagnostic(d).c_str());
            if (!d.excerpt.empty())
                ImGui::TextDisabled("    %s", d.excerpt.c_str());
        }
        if (!r.log.empty() && ImGui::CollapsingHeader("NVRTC log"))
            ImGui::TextUnformatted(r.log.c_str());
    }
    if (ImGui::CollapsingHeader("Messages", ImGuiTreeNodeFlags_DefaultOpen)) {
        std::lock_guard lock(s.log.mutex);
        for (const LogLine& line : s.log.lines) {
            const ImVec4 colour = line.level == log::Level::Error     ? ImVec4(1.f, 0.45f, 0.4f, 1.f)
                                  : line.level == log::Level::Warning ? ImVec4(1.f, 0.8f, 0.35f, 1.f)
                                                                      : ImVec4(0.75f, 0.75f, 0.75f, 1.f);
            ImGui::PushStyleColor(ImGuiCol_Text, colour);
            ImGui::TextWrapped("%s", line.text.c_str());
            ImGui::PopStyleColor();
        }
    }
    ImGui::End();
}

} // namespace ks::app
