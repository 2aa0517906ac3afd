// File > Examples: every shipped project as a row of its picture (assets/thumbnails/NAME.png,
// where shipped), its name and its one-line description, with Open. The list is read when the
// window first opens; a project whose file cannot be read shows its file name and why.
#include "panels/panels.hpp"
#include "panels/ui_probe.hpp"

#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/io/image.hpp"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <filesystem>

namespace ks::app {

namespace fs = std::filesystem;

namespace {

void loadExamples(ExamplesState& ex, const fs::path& dataRoot)
{
    ex.loaded = true;
    const fs::path root = dataRoot / "projects";
    for (const fs::path& file : shippedProjects(dataRoot)) {
        ExampleEntry e;
        e.file = file;
        e.name = file.lexically_relative(root).string();
        try {
            const nlohmann::json j = nlohmann::json::parse(paths::readTextFile(file));
            e.name = j.value("name", e.name);
            e.description = j.value("description", std::string());
        } catch (const std::exception& why) {
            e.description = std::string("cannot read it: ") + why.what();
        }
        const fs::path picture = dataRoot / "assets" / "thumbnails" / (file.stem().string() + ".png");
        std::error_code ec;
        if (fs::exists(picture, ec)) {
            try {
                const io::Rgba8Image image = io::readPng(picture);
                e.thumbnail = gl::Texture2D(image.width, image.height, GL_RGBA8);
                e.thumbnail.upload(GL_RGBA, GL_UNSIGNED_BYTE, image.pixels.data());
            } catch (const Error&) {
                e.thumbnail = {}; // shown without its picture
            }
        }
        ex.entries.push_back(std::move(e));
    }
}

} // namespace

void drawExamplesWindow(AppState& s, Commands& commands)
{
    ExamplesState& ex = s.menu.examples;
    if (!ex.show)
        return;
    if (!ex.loaded)
        loadExamples(ex, s.dataRoot);
    const float line = ImGui::GetTextLineHeightWithSpacing();
    ImGui::SetNextWindowSize(ImVec2(line * 36, line * 24), ImGuiCond_FirstUseEver);
    if (ImGui::Begin(kExamplesWindow, &ex.show, ImGuiWindowFlags_NoCollapse)) {
        const ImVec2 thumb(line * 8, line * 4.5f); // 16:9
        for (std::size_t i = 0; i < ex.entries.size(); ++i) {
            const ExampleEntry& e = ex.entries[i];
            ImGui::PushID(int(i));
            if (!e.thumbnail.empty())
                ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(e.thumbnail.name())), thumb,
                             ImVec2(0, 0), ImVec2(1, 1));
            else
                ImGui::Dummy(thumb);
            ImGui::SameLine();
            ImGui::BeginGroup();
            ImGui::TextUnformatted(e.name.c_str());
            ImGui::PushTextWrapPos(0.f);
            ImGui::TextDisabled("%s", e.description.empty() ? e.file.filename().c_str() : e.description.c_str());
            ImGui::PopTextWrapPos();
            if (ImGui::SmallButton("Open")) {
                commands.project.open = e.file;
                ex.show = false;
            }
            uiProbe().record("examples:" + e.file.stem().string(), lastItemRect());
            ImGui::EndGroup();
            ImGui::Separator();
            ImGui::PopID();
        }
    }
    ImGui::End();
}

} // namespace ks::app
