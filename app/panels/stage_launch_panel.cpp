// The Launch panel for the open project's kernel stage: gridDim, blockDim and dynamic shared memory
// with live validation against the device, what the launch means (threads, warps, the `if (i < n)`
// guard, occupancy, waves), the overlay that colours the output by the thread that wrote it, and
// the inspector of one element.
#include "panels/panels.hpp"
#include "loop/teach_support.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

namespace ks::app {

namespace {

const ImVec4 kRefused(1.f, 0.45f, 0.4f, 1.f);
const ImVec4 kWarning(1.f, 0.72f, 0.35f, 1.f);
const ImVec4 kGood(0.55f, 0.9f, 0.55f, 1.f);

ImU32 imColor(const teach::Color& c)
{
    return IM_COL32(c.r, c.g, c.b, c.a);
}

void stageSelector(AppState& s, Commands& commands, int stage)
{
    const pipeline::Pipeline& p = s.project.session->pipeline();
    const auto label = [&](int i) { // the kernel's name once where the stage is named after it
        const project::StageDesc& d = p.stage(std::size_t(i)).desc();
        return d.name == d.kernel ? d.name : d.name + "  (" + d.kernel + ")";
    };
    ImGui::SetNextItemWidth(comboWidth(label(stage).c_str()));
    if (ImGui::BeginCombo("##kernel stage", label(stage).c_str())) {
        for (int i : kernelStages(p))
            if (ImGui::Selectable(label(i).c_str(), i == stage))
                commands.teach.selectStage = i;
        ImGui::EndCombo();
    }
    labelBesideIfFits("kernel stage");
}

// The grid, block and shared memory fields. A finished edit (Enter, or leaving the field) is pushed
// as a command; App applies it when the device accepts it.
void launchFields(AppState& s, Commands& commands, int stage)
{
    TeachState& t = s.teach;
    const pipeline::Pipeline& p = s.project.session->pipeline();
    LaunchEdit e = t.edit;
    bool changed = false;
    const float field = ImGui::GetFontSize() * 12;

    bool cover = !e.cover.empty();
    if (ImGui::Checkbox("cover a resource", &cover)) {
        if (cover) {
            const auto outputs = teach::StageProbe::outputChoices(p, std::size_t(stage));
            e.cover = outputs.empty() ? (p.resources().size() ? p.resources()[0].desc.name : "") : outputs.front().resource;
        } else {
            e.grid = gridFor(s, stage, e);
            e.cover.clear();
        }
        changed = true;
    }
    if (cover) {
        sameLineIfFits(ImGui::GetFontSize() * 8);
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
        if (ImGui::BeginCombo("##cover", e.cover.c_str())) {
            for (std::size_t i = 0; i < p.resources().size(); ++i) {
                const std::string& name = p.resources()[i].desc.name;
                if (ImGui::Selectable(name.c_str(), name == e.cover)) {
                    e.cover = name;
                    changed = true;
                }
            }
            ImGui::EndCombo();
        }
        const auto g = gridFor(s, stage, e);
        char grid[96];
        std::snprintf(grid, sizeof grid, "gridDim = ceil(extent / blockDim) = (%d, %d, %d)", g[0], g[1], g[2]);
        sameLineIfFits(ImGui::CalcTextSize(grid).x);
        textWrappedDisabled("%s", grid);
    } else {
        ImGui::SetNextItemWidth(fieldWidth("gridDim (x, y, z)", field));
        ImGui::InputInt3("gridDim (x, y, z)", t.edit.grid.data());
        if (ImGui::IsItemDeactivatedAfterEdit()) {
            e.grid = t.edit.grid;
            changed = true;
        }
    }
    ImGui::SetNextItemWidth(fieldWidth("blockDim (x, y, z)", field));
    ImGui::InputInt3("blockDim (x, y, z)", t.edit.block.data());
    if (ImGui::IsItemDeactivatedAfterEdit()) {
        e.block = t.edit.block;
        changed = true;
    }
    const bool twoD = e.block[1] > 1;
    static constexpr int kSquare[] = {8, 16, 32}, kLine[] = {32, 128, 256, 1024};
    const std::span<const int> presets = twoD ? std::span<const int>(kSquare) : std::span<const int>(kLine);
    std::vector<std::string> names;
    float all = 0; // the presets stay together: beside the fields, or on a line of their own
    for (int preset : presets) {
        names.push_back(twoD ? std::to_string(preset) + "x" + std::to_string(preset) : std::to_string(preset));
        all += buttonWidth(names.back().c_str()) + (names.size() > 1 ? ImGui::GetStyle().ItemSpacing.x : 0);
    }
    sameLineIfFits(all);
    for (std::size_t i = 0; i < presets.size(); ++i) {
        const int preset = presets[i];
        const char* name = names[i].c_str();
        if (i > 0)
            sameLineIfFits(buttonWidth(name));
        if (ImGui::SmallButton(name)) {
            e.block = twoD ? std::array<int, 3>{preset, preset, 1} : std::array<int, 3>{preset, 1, 1};
            changed = true;
        }
    }
    ImGui::SetNextItemWidth(field / 2);
    if (ImGui::InputInt("##dynamic shared memory", &t.edit.sharedBytes, 1024, 4096,
                        ImGuiInputTextFlags_EnterReturnsTrue) ||
        ImGui::IsItemDeactivatedAfterEdit()) {
        e.sharedBytes = t.edit.sharedBytes;
        changed = true;
    }
    labelBesideIfFits("dynamic shared memory (bytes)");
    sameLineIfFits(buttonWidth("suggest"));
    if (ImGui::Button("suggest"))
        commands.teach.suggest = true;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("the block size with the best occupancy for this kernel (cuOccupancyMaxPotentialBlockSize)");
    if (changed)
        commands.teach.setLaunch = e;
}

void launchFacts(const AppState& s, int stage)
{
    const TeachState& t = s.teach;
    if (!t.refusal.empty())
        textWrappedColored(kRefused, "refused, not launched: %s", t.refusal.c_str());
    if (!t.suggestion.empty())
        textWrappedDisabled("%s", t.suggestion.c_str());
    const std::optional<teach::LaunchReport> report = analyzeEdit(s, stage, t.edit);
    if (!report) {
        textWrappedDisabled("no device or no loaded kernel: the launch cannot be checked");
        return;
    }
    const teach::Coverage& c = report->coverage;
    const cuda::Dim3 extent = dataExtent(s, stage, t.edit);
    const cuda::LaunchConfig launch = launchConfigOf(s, stage, t.edit);
    const int warp = s.device()->limits.warpSize;
    ImGui::TextWrapped("threads: %llu = %llu blocks x %llu threads", c.threads, c.blocks, launch.block.count());
    ImGui::TextWrapped("warps: %llu (%llu per block of %d lanes)%s", c.warps, c.blocks ? c.warps / c.blocks : 0, warp,
                       c.idleLanes ? ";" : "; every lane busy");
    if (c.idleLanes)
        textWrappedColored(kWarning, "%llu idle lanes in partly filled warps", c.idleLanes);
    ImGui::TextWrapped("data: %u x %u x %u = %llu elements;", extent.x, extent.y, extent.z, c.elements);
    if (c.threadsOutside)
        textWrappedColored(kWarning, "%llu threads fall outside it (the `if (i < n)` guard sends them away)",
                           c.threadsOutside);
    else
        ImGui::TextWrapped("no thread falls outside it");
    if (c.elementsUncovered) {
        ImGui::PushStyleColor(ImGuiCol_Text, kWarning);
        ImGui::TextWrapped("one element per thread leaves %llu elements to no thread (too few blocks); only a "
                           "grid-stride loop (i += blockDim.x * gridDim.x) reaches them",
                           c.elementsUncovered);
        ImGui::PopStyleColor();
    }
    if (report->refusal) {
        textWrappedColored(kRefused, "cannot launch: %s", report->refusal->message.c_str());
        return;
    }
    const cuda::Occupancy& o = report->occupancy;
    textWrappedColored(o.fraction >= 0.5 ? kGood : kWarning, "occupancy: %s", o.summary().c_str());
    const auto& attrs = static_cast<const pipeline::KernelStage&>(s.project.session->pipeline().stage(std::size_t(stage)))
                            .function()
                            ->attributes();
    ImGui::TextWrapped("waves: %llu on %d SMs (%d blocks resident per SM); %d registers per thread, %d B static shared",
                       report->waves, s.device()->smCount, o.blocksPerSM, attrs.numRegs, attrs.staticSharedBytes);
}

void legend(const TeachState& t)
{
    const teach::Legend& l = t.legend;
    textWrappedDisabled("%s", l.title.c_str());
    const float box = ImGui::GetTextLineHeight();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    for (std::size_t i = 0; i < l.entries.size(); ++i) {
        const teach::LegendEntry& e = l.entries[i];
        if (i > 0)
            sameLineIfFits(box + 6 + ImGui::CalcTextSize(e.label.c_str()).x);
        const ImVec2 p = ImGui::GetCursorScreenPos();
        draw->AddRectFilled(p, ImVec2(p.x + box, p.y + box), imColor(e.color));
        ImGui::Dummy(ImVec2(box, box));
        ImGui::SameLine(0, 6);
        ImGui::TextUnformatted(e.label.c_str());
    }
}

void overlaySection(AppState& s, int stage)
{
    TeachState& t = s.teach;
    const pipeline::Pipeline& p = s.project.session->pipeline();
    const std::string currentName =
        t.overlayMode < 0 ? "off" : std::string(teach::overlayModeName(teach::kOverlayModes[t.overlayMode]));
    ImGui::SetNextItemWidth(fieldWidth("overlay", ImGui::GetFontSize() * 10));
    if (ImGui::BeginCombo("overlay", currentName.c_str())) {
        if (ImGui::Selectable("off", t.overlayMode < 0))
            t.overlayMode = -1;
        for (int i = 0; i < int(std::size(teach::kOverlayModes)); ++i)
            if (ImGui::Selectable(std::string(teach::overlayModeName(teach::kOverlayModes[i])).c_str(), i == t.overlayMode))
                t.overlayMode = i;
        ImGui::EndCombo();
    }
    const auto outputs = teach::StageProbe::outputChoices(p, std::size_t(stage));
    if (outputs.size() > 1) {
        sameLineIfFits(ImGui::GetFontSize() * 7 + ImGui::GetStyle().ItemInnerSpacing.x +
                       ImGui::CalcTextSize("output").x);
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
        const std::string shown = t.outputParam.empty() ? outputs.front().param : t.outputParam;
        if (ImGui::BeginCombo("output", shown.c_str())) {
            for (const auto& o : outputs)
                if (ImGui::Selectable((o.param + " -> " + o.resource).c_str(), o.param == shown))
                    t.outputParam = o.param;
            ImGui::EndCombo();
        }
    }
    if (t.overlayMode < 0) {
        textWrappedDisabled("colour each output element by the thread that wrote it (the kernel is instrumented, "
                            "not edited)");
        return;
    }
    sameLineIfFits(ImGui::GetFontSize() * 6 + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("opacity").x);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::SliderFloat("opacity", &t.overlayOpacity, 0.f, 1.f, "%.2f");
    sameLineIfFits(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
                   ImGui::CalcTextSize("every frame").x);
    ImGui::Checkbox("every frame", &t.overlayLive);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("record again every frame (for kernels whose writes change); costs a wait per frame");
    if (!t.error.empty())
        textWrappedColored(kRefused, "%s", t.error.c_str());
    const teach::ProbeCapture* c = s.project.probe ? s.project.probe->latest(teach::VariantKind::WhoWrote) : nullptr;
    if (c && int(c->stage) == stage) {
        textWrappedDisabled("recorded frame %lld: %s written through %s, %u blocks started%s", (long long)c->frame,
                            c->resource.c_str(), c->outputParam.c_str(), c->who.blocksStarted,
                            c->who.droppedWrites ? "" : ", no write outside it");
        if (c->who.droppedWrites)
            textWrappedColored(kWarning, "%u writes outside it", c->who.droppedWrites);
        legend(t);
    } else if (s.project.probe && s.project.probe->pending(p)) {
        textWrappedDisabled("recording on the next frame...");
    }
}

void inspectorSection(AppState& s)
{
    TeachState& t = s.teach;
    if (!t.inspection) {
        textWrappedDisabled("inspector: %s", s.cuda ? "hover over the output (click to pin)"
                                                    : "needs a CUDA device (who wrote each element is recorded on it)");
        return;
    }
    const Inspection& in = *t.inspection;
    ImGui::TextWrapped("%s", in.who.summary.c_str());
    if (t.pinnedElement) {
        sameLineIfFits(buttonWidth("unpin"));
        if (ImGui::SmallButton("unpin"))
            t.pinnedElement.reset();
    }
    for (const InspectedValue& v : in.values)
        ImGui::BulletText("%s = %s", v.resource.c_str(), v.text.c_str());
}

} // namespace

void drawStageLaunchPanel(AppState& s, Commands& commands)
{
    ImGui::Begin(kLaunchPanel);
    const int stage = teachStage(s);
    if (stage < 0) {
        ImGui::TextDisabled("the project has no kernel stage");
        ImGui::End();
        return;
    }
    TeachState& t = s.teach;
    const auto& k = static_cast<const pipeline::KernelStage&>(s.project.session->pipeline().stage(std::size_t(stage)));
    if (t.editStage != stage) {
        t.edit = launchEditOf(k.desc());
        t.editStage = stage;
    }
    stageSelector(s, commands, stage);
    sameLineIfFits(ImGui::CalcTextSize(k.status().c_str()).x);
    textWrappedDisabled("%s", k.status().c_str());
    launchFields(s, commands, stage);
    launchFacts(s, stage);
    ImGui::End();
}

void drawOverlayPanel(AppState& s, Commands&)
{
    ImGui::Begin(kOverlayPanel);
    const int stage = teachStage(s);
    if (stage < 0) {
        ImGui::TextDisabled("the project has no kernel stage");
        ImGui::End();
        return;
    }
    overlaySection(s, stage);
    ImGui::Separator();
    inspectorSection(s);
    ImGui::End();
}

} // namespace ks::app
