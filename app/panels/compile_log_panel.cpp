#include "panels/panels.hpp"

#include "ks/pipeline/kernel_stage.hpp"
#include "ks/rtc/diagnostics.hpp"
#include "panels/theme.hpp"

#include <imgui.h>

#include <algorithm>
#include <vector>

namespace ks::app {

namespace {

ImVec4 severityColour(const rtc::Diagnostic& d)
{
    if (d.likelyCause)
        return theme::colour(theme::kLikelyCause);
    return theme::colour(d.severity == rtc::Severity::Error     ? theme::kError
                         : d.severity == rtc::Severity::Warning ? theme::kWarning
                                                                : theme::kNote);
}

// The open project's kernel stages that run `path`'s kernels.
std::vector<const pipeline::KernelStage*> stagesOf(const AppState& s, const std::filesystem::path& path)
{
    std::vector<const pipeline::KernelStage*> out;
    if (!s.project.session)
        return out;
    const pipeline::Pipeline& p = s.project.session->pipeline();
    for (std::size_t i = 0; i < p.stageCount(); ++i)
        if (const auto* k = dynamic_cast<const pipeline::KernelStage*>(&p.stage(i));
            k && FileWatcher::normalize(p.project().resolve(k->desc().file)) == path)
            out.push_back(k);
    return out;
}

// One file's newest build: its outcome and its diagnostics (a click shows the line in the editor).
void drawBuild(const AppState& s, EditorTab& tab, Commands& commands)
{
    const std::string file = tab.doc.path().filename().string();
    const BuildState& b = tab.build;
    const std::vector<const pipeline::KernelStage*> stages = stagesOf(s, tab.doc.path());
    ImGui::PushID(tab.doc.path().c_str());
    if (!b.result) {
        textWrappedColored(theme::colour(theme::kBusy), "%s: building%s", file.c_str(),
                           theme::symbol("\xE2\x80\xA6", "..."));
    } else if (b.result->ok) {
        // A build the cache answered cost no NVRTC now: say so, and what NVRTC took when it ran.
        const bool cached = b.resultSource != rtc::CacheSource::Compiled;
        textWrappedColored(theme::colour(theme::kOk),
                           cached ? "%s: from cache in %.0f ms (NVRTC %.0f ms when built, %zu bytes CUBIN)%s"
                                  : "%s: built in %.0f ms (NVRTC %.0f ms, %zu bytes CUBIN)%s",
                           file.c_str(), b.resultTotalMs, b.result->compileMs, b.result->cubin.size(),
                           b.inFlight ? (std::string("; rebuilding") + theme::symbol("\xE2\x80\xA6", "...")).c_str()
                                      : "");
    } else {
        const bool keeps = std::any_of(stages.begin(), stages.end(), [](auto* k) { return k->function() != nullptr; });
        textWrappedColored(theme::colour(theme::kError), "%s: build failed%s%s", file.c_str(),
                           keeps ? "; the last good kernel keeps running" : "",
                           b.inFlight ? (std::string("; rebuilding") + theme::symbol("\xE2\x80\xA6", "...")).c_str()
                                      : "");
    }
    for (const pipeline::KernelStage* stage : stages) {
        if (const cuda::Function* k = stage->function()) {
            const auto& a = k->attributes();
            textWrappedDisabled("  stage %s runs %s: %d registers, %d B static shared, %d B local",
                                stage->desc().name.c_str(), stage->desc().kernel.c_str(), a.numRegs,
                                a.staticSharedBytes, a.localBytes);
        } else if (b.result && b.result->ok && !stage->status().empty()) {
            textWrappedColored(theme::colour(theme::kWarning), "  stage %s: %s", stage->desc().name.c_str(),
                               stage->status().c_str());
        }
    }
    if (uiProbe().enabled)
        uiProbe().forget("log:"); // where each diagnostic is listed (tests click them)
    if (b.result) {
        int i = 0;
        for (const rtc::Diagnostic& d : b.result->diagnostics) {
            ImGui::PushID(i++);
            ImGui::PushStyleColor(ImGuiCol_Text, severityColour(d));
            const std::string text = "  " + rtc::formatDiagnostic(d) + (d.likelyCause ? " (likely cause)" : "");
            const bool clicked = ImGui::Selectable(text.c_str());
            if (uiProbe().enabled)
                uiProbe().record("log:" + std::to_string(i - 1), lastItemRect());
            if (clicked && d.line > 0 && tab.owns(d))
                commands.jumpTo = JumpTo{tab.doc.path(), d.line};
            ImGui::PopStyleColor();
            if (!d.excerpt.empty())
                ImGui::TextDisabled("      %s", d.excerpt.c_str());
            ImGui::PopID();
        }
        if (!b.result->log.empty() && ImGui::TreeNode("NVRTC log")) {
            ImGui::TextUnformatted(b.result->log.c_str());
            ImGui::TreePop();
        }
    }
    ImGui::PopID();
}

// Each file's build, then the app's messages.
void drawLog(AppState& s, Commands& commands)
{
    for (const auto& tab : s.editor.tabs)
        drawBuild(s, *tab, commands);
    if (ImGui::CollapsingHeader("Messages", ImGuiTreeNodeFlags_DefaultOpen)) {
        std::lock_guard lock(s.log.mutex);
        for (const LogLine& line : s.log.lines) {
            const ImVec4 colour = line.level == log::Level::Error     ? theme::colour(theme::kError)
                                  : line.level == log::Level::Warning ? theme::colour(theme::kWarning)
                                                                      : theme::colour(theme::kMuted);
            ImGui::PushStyleColor(ImGuiCol_Text, colour);
            ImGui::TextWrapped("%s", line.text.c_str());
            ImGui::PopStyleColor();
        }
    }
}

} // namespace

void drawCompileLogPanel(AppState& s, Commands& commands)
{
    ImGui::Begin(kCompileLogPanel);
    bool log = true; // also while the window is collapsed (no tab bar): nothing is drawn then
    if (ImGui::BeginTabBar("compile-log-tabs")) {
        log = ImGui::BeginTabItem("Log");
        uiProbe().record("tab:Log", lastItemRect());
        if (log)
            ImGui::EndTabItem();
        const bool listing = ImGui::BeginTabItem("PTX / SASS");
        uiProbe().record("tab:PTX / SASS", lastItemRect());
        if (listing) {
            drawListingTab(s, commands);
            ImGui::EndTabItem();
        }
        ImGui::EndTabBar();
    }
    if (log)
        drawLog(s, commands);
    ImGui::End();
}

} // namespace ks::app
