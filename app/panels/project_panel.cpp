// The Project panel: open / save / save as / recent, run control, the stage list (enable,
// reorder, status) and the parameters (sliders, colour pickers, typed fields).
#include "panels/panels.hpp"

#include "ks/pipeline/kernel_stage.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace ks::app {

namespace {

void fileControls(AppState& s, Commands& commands, bool haveProject)
{
    char path[512];
    std::snprintf(path, sizeof path, "%s", s.project.pathInput.c_str());
    // The path field leaves room for the buttons beside it, or where that leaves it under ten
    // characters, takes the line and the buttons go under it.
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    float buttons = buttonWidth("Open") + spacing;
    if (haveProject)
        buttons += buttonWidth("Save") + buttonWidth("Save as") + buttonWidth("Close") + 3 * spacing;
    const float beside = ImGui::GetContentRegionAvail().x - buttons;
    ImGui::SetNextItemWidth(beside >= ImGui::GetFontSize() * 10 ? beside : -FLT_MIN);
    if (ImGui::InputTextWithHint("##path", "project file (.json)", path, sizeof path))
        s.project.pathInput = path;
    sameLineIfFits(buttonWidth("Open"));
    if (ImGui::Button("Open") && !s.project.pathInput.empty())
        commands.project.open = std::filesystem::path(s.project.pathInput);
    if (haveProject) {
        sameLineIfFits(buttonWidth("Save"));
        if (ImGui::Button("Save"))
            commands.project.save = true;
        sameLineIfFits(buttonWidth("Save as"));
        if (ImGui::Button("Save as") && !s.project.pathInput.empty())
            commands.project.saveAs = std::filesystem::path(s.project.pathInput);
        sameLineIfFits(buttonWidth("Close"));
        if (ImGui::Button("Close"))
            commands.project.close = true;
    }
    if (!s.project.recent.empty())
        ImGui::SetNextItemWidth(fieldWidth("recent", ImGui::GetFontSize() * 16));
    if (!s.project.recent.empty() && ImGui::BeginCombo("recent", s.project.recent.front().filename().c_str())) {
        for (const auto& r : s.project.recent)
            if (ImGui::Selectable(r.c_str()))
                commands.project.open = r;
        ImGui::EndCombo();
    }
    for (const project::Problem& p : s.project.problems)
        textWrappedColored(ImVec4(1.f, 0.45f, 0.4f, 1.f), "%s", p.format().c_str());
}

// The time the kernels receive: dragged (a scrub: while paused, a frame at the new time runs at
// once), the step each frame adds, and a speed that scales it (0 holds the time still).
void drawTimeControls(AppState& s, pipeline::Pipeline& p)
{
    const float unit = ImGui::GetFontSize();
    if (!s.project.scrubbing)
        s.project.scrubTime = p.frameIndex() > 0 ? p.lastFrameTime() : p.time();
    // Each control beside the last where it fits with its label.
    const auto beside = [](float field, const char* label) {
        sameLineIfFits(field + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x);
    };
    ImGui::SetNextItemWidth(unit * 4.5f);
    const double dragStep = std::max(p.clock().advance(), 1e-6);
    if (ImGui::DragScalar("t (s)", ImGuiDataType_Double, &s.project.scrubTime, float(dragStep), nullptr, nullptr,
                          "%.3f")) {
        p.setTime(s.project.scrubTime);
        if (p.paused())
            p.step();
    }
    s.project.scrubbing = ImGui::IsItemActive();
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The time the kernels receive. Drag to scrub: the next frame runs at the new time\n"
                          "(at once while paused).");
    beside(unit * 4.f, "dt (s)");
    double step = p.clock().step();
    ImGui::SetNextItemWidth(unit * 4.f);
    if (ImGui::InputDouble("dt (s)", &step, 0.0, 0.0, "%.4g", ImGuiInputTextFlags_EnterReturnsTrue))
        p.setTimeStep(step);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The fixed step each frame adds to the time (the project's timeStep; saved with it).");
    beside(unit * 3.5f, "speed");
    float speed = float(p.clock().speed());
    ImGui::SetNextItemWidth(unit * 3.5f);
    if (ImGui::SliderFloat("speed", &speed, 0.f, 4.f, "%.2fx"))
        p.setSpeed(double(speed));
    sameLineIfFits(buttonWidth("1x"));
    if (ImGui::SmallButton("1x"))
        p.setSpeed(1.0);
}

} // namespace

void drawParameterEditor(const project::ParameterDesc& q, std::array<double, 4>& v)
{
    const int n = q.type.components;
    if (q.type.color) {
        float c[4] = {float(v[0]), float(v[1]), float(v[2]), n > 3 ? float(v[3]) : 1.f};
        const bool changed = n > 3 ? ImGui::ColorEdit4(q.name.c_str(), c) : ImGui::ColorEdit3(q.name.c_str(), c);
        if (changed)
            for (int i = 0; i < n; ++i)
                v[std::size_t(i)] = c[i];
    } else if (project::isFloat(q.type.scalar)) {
        float f[4] = {float(v[0]), float(v[1]), float(v[2]), float(v[3])};
        const float lo = float(q.min), hi = float(q.max);
        if (ImGui::SliderScalarN(q.name.c_str(), ImGuiDataType_Float, f, n, &lo, &hi, "%.4g"))
            for (int i = 0; i < n; ++i)
                v[std::size_t(i)] = f[i];
    } else {
        int k[4] = {int(v[0]), int(v[1]), int(v[2]), int(v[3])};
        const int lo = int(q.min), hi = int(q.max);
        if (ImGui::SliderScalarN(q.name.c_str(), ImGuiDataType_S32, k, n, &lo, &hi))
            for (int i = 0; i < n; ++i)
                v[std::size_t(i)] = k[i];
    }
}

void drawNoProjectPanel(AppState& s, Commands& commands)
{
    ImGui::Begin(kViewsPanel);
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("Project:");
    ImGui::SameLine();
    fileControls(s, commands, false);
    ImGui::Separator();
    ImGui::TextWrapped("No project is open. File > Open kernel... runs any kernel on data made from its "
                       "signature, and File > Open project... opens a saved project (they ship in projects/).");
    if (ImGui::Button("Run the default demo"))
        commands.project.openKernel = {defaultDemoFile(s.dataRoot), kDefaultDemoKernel};
    ImGui::End();
}

void drawProjectPanel(AppState& s, Commands& commands)
{
    ImGui::Begin(kProjectPanel);
    pipeline::Pipeline& p = s.project.session->pipeline();
    ImGui::TextWrapped("%s", p.project().name.c_str());
    textWrappedDisabled("%s", p.project().file.c_str());
    fileControls(s, commands, true);
    ImGui::Separator();

    bool paused = p.paused();
    if (ImGui::Checkbox("Pause", &paused))
        p.setPaused(paused);
    sameLineIfFits(buttonWidth("Step"));
    if (ImGui::Button("Step"))
        p.step();
    sameLineIfFits(buttonWidth("Restart"));
    if (ImGui::Button("Restart"))
        commands.project.restart = true;
    char frame[64];
    std::snprintf(frame, sizeof frame, "frame %lld  seed %llu", (long long)p.frameIndex(),
                  (unsigned long long)p.seed());
    sameLineIfFits(ImGui::CalcTextSize(frame).x);
    ImGui::TextUnformatted(frame);
    drawTimeControls(s, p);
    if (!p.error().empty())
        textWrappedColored(ImVec4(1.f, 0.7f, 0.35f, 1.f), "%s", p.error().c_str());

    if (ImGui::CollapsingHeader("Stages", ImGuiTreeNodeFlags_DefaultOpen)) {
        for (std::size_t i = 0; i < p.stageCount(); ++i) {
            pipeline::Stage& st = p.stage(i);
            ImGui::PushID(int(i));
            bool on = st.enabled();
            if (ImGui::Checkbox("##on", &on))
                st.setEnabled(on);
            ImGui::SameLine();
            if (ImGui::ArrowButton("up", ImGuiDir_Up) && i > 0)
                commands.project.moveStage = {{i, i - 1}};
            ImGui::SameLine();
            if (ImGui::ArrowButton("down", ImGuiDir_Down) && i + 1 < p.stageCount())
                commands.project.moveStage = {{i, i + 1}};
            ImGui::SameLine();
            ImGui::TextWrapped("%zu. %s [%s%s]", i + 1, st.desc().name.c_str(),
                               std::string(project::stageKindName(st.desc().kind)).c_str(),
                               st.desc().once ? ", once" : "");
            sameLineIfFits(ImGui::CalcTextSize(st.status().c_str()).x);
            textWrappedColored(st.ready() ? ImVec4(0.55f, 0.9f, 0.55f, 1.f) : ImVec4(1.f, 0.7f, 0.35f, 1.f), "%s",
                               st.status().c_str());
            if (s.fault && s.fault->stage == st.desc().name)
                textWrappedColored(ImVec4(1.f, 0.4f, 0.35f, 1.f), "      %s in frame %lld: %s",
                                   s.fault->kind == "time limit" ? "stopped" : "faulted", (long long)s.fault->frame,
                                   s.fault->error.c_str());
            if (auto* k = dynamic_cast<pipeline::KernelStage*>(&st)) {
                const cuda::LaunchConfig lc = k->launchConfig(p.resources());
                textWrappedDisabled("      %s:%s  grid (%u, %u, %u)  block (%u, %u, %u)", k->desc().file.c_str(),
                                    k->desc().kernel.c_str(), lc.grid.x, lc.grid.y, lc.grid.z, lc.block.x, lc.block.y,
                                    lc.block.z);
            }
            ImGui::PopID();
        }
    }
    if (const auto readouts = p.readouts();
        !readouts.empty() && ImGui::CollapsingHeader("Read-outs", ImGuiTreeNodeFlags_DefaultOpen)) {
        for (const pipeline::Readout& r : readouts) {
            char line[64];
            std::string text;
            for (double v : r.values) {
                std::snprintf(line, sizeof line, "%s%.10g", text.empty() ? "" : ", ", v);
                text += line;
            }
            ImGui::TextWrapped("%s (%s): %s", r.stage.c_str(), r.op.c_str(), r.valid ? text.c_str() : "(not run yet)");
        }
    }
    if (!p.project().parameters.empty() && ImGui::CollapsingHeader("Parameters", ImGuiTreeNodeFlags_DefaultOpen)) {
        for (std::size_t i = 0; i < p.project().parameters.size(); ++i) {
            ImGui::PushID(int(i));
            drawParameterEditor(p.project().parameters[i], p.parameters()[i]);
            ImGui::PopID();
        }
    }
    if (ImGui::CollapsingHeader("Resources")) {
        for (std::size_t i = 0; i < p.resources().size(); ++i) {
            const pipeline::Resource& r = p.resources()[i];
            const std::string what =
                r.isTexture() ? std::string(project::formatName(r.desc.format)) + " texture " +
                                    std::to_string(r.desc.width) + "x" + std::to_string(r.desc.height)
                              : project::cudaTypeName(r.desc.element) + " x " + std::to_string(r.desc.count);
            const std::string how = r.shared() ? "a CUDA array shared with GL (not mapped)"
                                    : r.flags  ? "registered " + pipeline::describeFlags(*r.flags)
                                               : "not used by CUDA";
            ImGui::TextWrapped("%s: %s, %s", r.desc.name.c_str(), what.c_str(), how.c_str());
        }
    }
    ImGui::End();
}

} // namespace ks::app
