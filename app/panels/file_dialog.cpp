// Kernelscope's file dialog (a modal popup over FileBrowser, file_browser.hpp): the folder with an
// Up button and a path field, its folders and matching files (click a file to take its name,
// double-click to go into a folder or to take a file at once), the name, OK and Cancel. Its answer
// becomes the command the dialog was opened for.
#include "panels/panels.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <system_error>

namespace ks::app {

namespace fs = std::filesystem;

void openFileDialog(MenuState& m, FileDialogState::Purpose purpose, std::string title, std::vector<std::string> extensions,
                    const fs::path& where, std::string name, fs::path templateFile)
{
    FileDialogState& d = m.fileDialog;
    d.purpose = purpose;
    d.save = purpose == FileDialogState::Purpose::SaveProjectAs || purpose == FileDialogState::Purpose::NewProject;
    d.title = std::move(title);
    d.templateFile = std::move(templateFile);
    d.browser = FileBrowser(std::move(extensions));
    d.browser.show(where);
    if (!name.empty())
        d.browser.name() = std::move(name);
    d.problem.clear();
    d.opening = true;
}

namespace {

// Where a button or field of the dialog is (for tests that click it): "dialog:Save", "dialog:name", ...
void noteButton(const char* label)
{
    uiProbe().record(std::string("dialog:") + label, lastItemRect());
}

// Whether `path` answers the dialog; else why not (into d.problem).
bool acceptable(FileDialogState& d, const fs::path& path)
{
    std::error_code ec;
    if (path.empty()) {
        d.problem = "choose a file";
        return false;
    }
    if (d.save) {
        if (!fs::is_directory(path.parent_path(), ec) && d.purpose != FileDialogState::Purpose::NewProject) {
            d.problem = "there is no folder " + path.parent_path().string();
            return false;
        }
        if (d.purpose == FileDialogState::Purpose::NewProject && fs::exists(path, ec)) {
            d.problem = path.filename().string() + " exists already: a new project needs a new name";
            return false;
        }
        if (!d.browser.accepts(path.filename().string())) {
            d.problem = "a project file ends in .json";
            return false;
        }
        return true;
    }
    if (!fs::is_regular_file(path, ec)) {
        d.problem = "there is no file " + path.string();
        return false;
    }
    return true;
}

void answer(FileDialogState& d, const fs::path& path, Commands& commands)
{
    using P = FileDialogState::Purpose;
    switch (d.purpose) {
    case P::OpenProject: commands.project.open = path; break;
    case P::OpenKernel: commands.project.openKernel = {path, std::string()}; break;
    case P::EditFile: commands.openFile = path; break;
    case P::SaveProjectAs: commands.project.saveAs = path; break;
    case P::NewProject: commands.project.newFromTemplate = {d.templateFile, path}; break;
    case P::None: break;
    }
    d.purpose = P::None;
}

} // namespace

void drawFileDialog(AppState& s, Commands& commands)
{
    FileDialogState& d = s.menu.fileDialog;
    if (d.purpose == FileDialogState::Purpose::None)
        return;
    const std::string id = d.title + "###filedialog";
    if (d.opening) {
        ImGui::OpenPopup(id.c_str());
        d.opening = false;
    }
    const float unit = ImGui::GetFontSize();
    ImGui::SetNextWindowSize(ImVec2(unit * 40.f, unit * 28.f), ImGuiCond_Appearing);
    bool open = true;
    ImVec4 background = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
    background.w = 1.f; // opaque: the panels behind must not show through the list
    ImGui::PushStyleColor(ImGuiCol_PopupBg, background);
    const bool shown = ImGui::BeginPopupModal(id.c_str(), &open);
    ImGui::PopStyleColor();
    if (!shown) {
        if (!open)
            d.purpose = FileDialogState::Purpose::None;
        return;
    }
    FileBrowser& b = d.browser;
    if (ImGui::Button("Up"))
        b.up();
    ImGui::SameLine();
    std::string folder = b.folder().string();
    ImGui::SetNextItemWidth(-1.f);
    if (ImGui::InputText("##folder", &folder, ImGuiInputTextFlags_EnterReturnsTrue))
        b.show(folder);
    if (!b.error().empty())
        ImGui::TextColored(ImVec4(1.f, 0.55f, 0.4f, 1.f), "%s", b.error().c_str());
    const float footer = ImGui::GetFrameHeightWithSpacing() * 2.f + ImGui::GetTextLineHeightWithSpacing();
    std::optional<fs::path> chosen;
    if (ImGui::BeginChild("##entries", ImVec2(0, -footer), true)) {
        const std::vector<FileBrowser::Entry> entries = b.entries(); // a copy: choosing a folder relists
        for (const FileBrowser::Entry& e : entries) {
            const std::string label = e.folder ? e.name + "/" : e.name;
            const bool selected = !e.folder && b.name() == e.name;
            if (ImGui::Selectable(label.c_str(), selected, ImGuiSelectableFlags_AllowDoubleClick)) {
                if (e.folder && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
                    b.choose(e);
                    break;
                }
                if (!e.folder) {
                    b.choose(e);
                    if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left))
                        chosen = b.chosen();
                }
            }
            if (!e.folder) {
                ImGui::SameLine(unit * 28.f);
                ImGui::TextDisabled("%.1f KiB", double(e.bytes) / 1024.0);
            }
        }
        if (entries.empty() && b.error().empty())
            ImGui::TextDisabled("(nothing here to %s)", d.save ? "overwrite" : "open");
    }
    ImGui::EndChild();
    ImGui::SetNextItemWidth(unit * 26.f);
    if (ImGui::InputTextWithHint("##name", d.save ? "new name.json" : "file name", &b.name(),
                                 ImGuiInputTextFlags_EnterReturnsTrue))
        chosen = b.chosen();
    noteButton("name");
    ImGui::SameLine();
    if (ImGui::Button(d.save ? "Save" : "Open"))
        chosen = b.chosen();
    noteButton(d.save ? "Save" : "Open");
    ImGui::SameLine();
    const bool cancel = ImGui::Button("Cancel");
    noteButton("Cancel");
    if (cancel) {
        d.purpose = FileDialogState::Purpose::None;
        ImGui::CloseCurrentPopup();
    }
    if (chosen) {
        if (acceptable(d, *chosen)) {
            answer(d, *chosen, commands);
            ImGui::CloseCurrentPopup();
        }
    }
    if (!d.problem.empty())
        ImGui::TextColored(ImVec4(1.f, 0.55f, 0.4f, 1.f), "%s", d.problem.c_str());
    ImGui::EndPopup();
}

} // namespace ks::app
