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
    const auto label = [&](int i) { return p.stage(std::size_t(i)).desc().name + "  (" + p.stage(std::size_t(i)).desc().kernel + ")"; };
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 18);
    if (ImGui::BeginCombo("kernel stage", label(stage).c_str())) {
        for (int i : kernelStages(p))
            if (ImGui::Selectable(label(i).c_str(), i == stage))
                commands.teach.selectStage = i;
        ImGui::EndCombo();
    }
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
    ImGui::SameLine();
    if (cover) {
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
        ImGui::SameLine();
        const auto g = gridFor(s, stage, e);
        ImGui::TextDisabled("gridDim = ceil(extent / blockDim) = (%d, %d, %d)", g[0], g[1], g[2]);
    } else {
        ImGui::SetNextItemWidth(field);
        ImGui::InputInt3("gridDim (x, y, z)", t.edit.grid.data());
        if (ImGui::IsItemDeactivatedAfterEdit()) {
            e.grid = t.edit.grid;
            changed = true;
        }
    }
    ImGui::SetNextItemWidth(field);
    ImGui::InputInt3("blockDim (x, y, z)", t.edit.block.data());
    if (ImGui::IsItemDeactivatedAfterEdit()) {
        e.block = t.edit.block;
        changed = true;
    }
    ImGui::SameLine();
    const bool twoD = e.block[1] > 1;
    static constexpr int kSquare[] = {8, 16, 32}, kLine[] = {32, 128, 256, 1024};
    for (int preset : twoD ? std::span<const int>(kSquare) : std::span<const int>(kLine)) {
        char name[24];
        if (twoD)
            std::snprintf(name, sizeof name, "%dx%d", preset, preset);
        else
            std::snprintf(name, sizeof name, "%d", preset);
        ImGui::SameLine();
        if (ImGui::SmallButton(name)) {
            e.block = twoD ? std::array<int, 3>{preset, preset, 1} : std::array<int, 3>{preset, 1, 1};
            changed = true;
        }
    }
    ImGui::SetNextItemWidth(field / 2);
    if (ImGui::InputInt("dynamic shared memory (bytes)", &t.edit.sharedBytes, 1024, 4096,
                        ImGuiInputTextFlags_EnterReturnsTrue) ||
        ImGui::IsItemDeactivatedAfterEdit()) {
        e.sharedBytes = t.edit.sharedBytes;
        changed = true;
    }
    ImGui::SameLine();
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
        ImGui::TextColored(kRefused, "refused, not launched: %s", t.refusal.c_str());
    if (!t.suggestion.empty())
        ImGui::TextDisabled("%s", t.suggestion.c_str());
    const std::optional<teach::LaunchReport> report = analyzeEdit(s, stage, t.edit);
    if (!report) {
        ImGui::TextDisabled("no device or no loaded kernel: the launch cannot be checked");
        return;
    }
    const teach::Coverage& c = report->coverage;
    const cuda::Dim3 extent = dataExtent(s, stage, t.edit);
    const cuda::LaunchConfig launch = launchConfigOf(s, stage, t.edit);
    const int warp = s.device()->limits.warpSize;
    ImGui::Text("threads: %llu = %llu blocks x %llu threads", c.threads, c.blocks, launch.block.count());
    ImGui::Text("warps: %llu (%llu per block of %d lanes)%s", c.warps, c.blocks ? c.warps / c.blocks : 0, warp,
                c.idleLanes ? "" : "; every lane busy");
    if (c.idleLanes) {
        ImGui::SameLine(0, 0);
        ImGui::TextColored(kWarning, "; %llu idle lanes in partly filled warps", c.idleLanes);
    }
    ImGui::Text("data: %u x %u x %u = %llu elements;", extent.x, extent.y, extent.z, c.elements);
    ImGui::SameLine();
    if (c.threadsOutside)
        ImGui::TextColored(kWarning, "%llu threads fall outside it (the `if (i < n)` guard sends them away)",
                           c.threadsOutside);
    else
        ImGui::TextUnformatted("no thread falls outside it");
    if (c.elementsUncovered) {
        ImGui::PushStyleColor(ImGuiCol_Text, kWarning);
        ImGui::TextWrapped("one element per thread leaves %llu elements to no thread (too few blocks); only a "
                           "grid-stride loop (i += blockDim.x * gridDim.x) reaches them",
                           c.elementsUncovered);
        ImGui::PopStyleColor();
    }
    if (report->refusal) {
        ImGui::TextColored(kRefused, "cannot launch: %s", report->refusal->message.c_str());
        return;
    }
    const cuda::Occupancy& o = report->occupancy;
    ImGui::TextColored(o.fraction >= 0.5 ? kGood : kWarning, "occupancy: %s", o.summary().c_str());
    const auto& attrs = static_cast<const pipeline::KernelStage&>(s.project.session->pipeline().stage(std::size_t(stage)))
                            .function()
                            ->attributes();
    ImGui::Text("waves: %llu on %d SMs (%d blocks resident per SM); %d registers per thread, %d B static shared",
                report->waves, s.device()->smCount, o.blocksPerSM, attrs.numRegs, attrs.staticSharedBytes);
}

void legend(const TeachState& t)
{
    const teach::Legend& l = t.legend;
    ImGui::TextDisabled("%s", l.title.c_str());
    const float box = ImGui::GetTextLineHeight();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float right = ImGui::GetWindowContentRegionMax().x;
    for (std::size_t i = 0; i < l.entries.size(); ++i) {
        const teach::LegendEntry& e = l.entries[i];
        const float width = box + 6 + ImGui::CalcTextSize(e.label.c_str()).x + 14;
        if (i > 0 && ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + width < right)
            ImGui::SameLine();
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
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
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
        ImGui::SameLine();
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
        ImGui::TextDisabled("colour each output element by the thread that wrote it (the kernel is instrumented, "
                            "not edited)");
        return;
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::SliderFloat("opacity", &t.overlayOpacity, 0.f, 1.f, "%.2f");
    ImGui::SameLine();
    ImGui::Checkbox("every frame", &t.overlayLive);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("record again every frame (for kernels whose writes change); costs a wait per frame");
    if (!t.error.empty())
        ImGui::TextColored(kRefused, "%s", t.error.c_str());
    const teach::ProbeCapture* c = s.project.probe ? s.project.probe->latest(teach::VariantKind::WhoWrote) : nullptr;
    if (c && int(c->stage) == stage) {
        ImGui::TextDisabled("recorded frame %lld: %s written through %s, %u blocks started%s", (long long)c->frame,
                            c->resource.c_str(), c->outputParam.c_str(), c->who.blocksStarted,
                            c->who.droppedWrites ? "" : ", no write outside it");
        if (c->who.droppedWrites) {
            ImGui::SameLine(0, 0);
            ImGui::TextColored(kWarning, ", %u writes outside it", c->who.droppedWrites);
        }
        legend(t);
    } else if (s.project.probe && s.project.probe->pending(p)) {
        ImGui::TextDisabled("recording on the next frame...");
    }
}

void inspectorSection(AppState& s)
{
    TeachState& t = s.teach;
    if (!t.inspection) {
        ImGui::TextDisabled("inspector: %s", s.cuda ? "hover over the output (click to pin)"
                                                     : "needs a CUDA device (who wrote each element is recorded on it)");
        return;
    }
    const Inspection& in = *t.inspection;
    ImGui::TextWrapped("%s", in.who.summary.c_str());
    if (t.pinnedElement) {
        ImGui::SameLine();
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
    ImGui::SameLine();
    ImGui::TextDisabled("%s", k.status().c_str());
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
