// The Console panel: what the GPU process's kernels printed (device printf), a line each, with
// the frame and the stage that printed it, oldest first; Clear, and how many lines were dropped.
#include "panels/panels.hpp"

#include "ks/cuda/memory.hpp"

#include <imgui.h>

#include <cstdio>

namespace ks::app {

void drawConsolePanel(AppState& s)
{
    ConsoleState& c = s.console;
    if (!ImGui::Begin(kConsolePanel)) {
        ImGui::End();
        return;
    }
    if (ImGui::SmallButton("Clear")) {
        c.lines.clear();
        c.partial.clear();
        c.dropped = 0;
    }
    ImGui::SameLine();
    ImGui::Checkbox("follow", &c.autoScroll);
    ImGui::SameLine();
    char facts[160];
    std::snprintf(facts, sizeof facts, "%zu lines", c.lines.size());
    std::string note = facts;
    if (c.dropped > 0)
        note += ", " + std::to_string(c.dropped) + " lines dropped";
    if (c.printfBuffer > 0)
        note += "; printf buffer " + cuda::formatBytes(c.printfBuffer) + " (Options, --printf-buffer)";
    ImGui::TextDisabled("%s", note.c_str());
    if (!c.bufferNote.empty())
        ImGui::TextDisabled("printf buffer: %s", c.bufferNote.c_str());
    if (!c.capturing)
        ImGui::TextDisabled("device printf goes to standard output in this run");
    ImGui::Separator();
    ImGui::BeginChild("##console", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    if (c.lines.empty())
        ImGui::TextDisabled("printf in a kernel prints here, with its frame and stage");
    ImGuiListClipper clipper;
    clipper.Begin(int(c.lines.size()));
    while (clipper.Step())
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const supervise::ConsoleLine& line = c.lines[std::size_t(i)];
            ImGui::TextDisabled("%6lld %-10s", static_cast<long long>(line.frame), line.stage.c_str());
            ImGui::SameLine();
            ImGui::TextUnformatted(line.text.c_str());
        }
    if (c.autoScroll) // the newest line in sight; "follow" off to read back
        ImGui::SetScrollHereY(1.f);
    ImGui::EndChild();
    ImGui::End();
}

} // namespace ks::app
