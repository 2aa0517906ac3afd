// The main menu bar: File (open a shipped or recent project, open a kernel file, save, close),
// Edit (find, replace, go to line, comment, build), View (layouts), Run (pause, step, restart,
// frame limit) and Help (keyboard shortcuts, the guided tour of the panels, about). Everything it
// does goes through Commands, like the panels' own buttons.
#include "panels/panels.hpp"
#include "version.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace ks::app {

namespace {

// The speeds '[' and ']' move between (a speed below the least is the held time, 0).
constexpr double kMinSpeed = 1.0 / 64;
constexpr double kMaxSpeed = 64.0;

namespace fs = std::filesystem;

// A path field and a button inside a menu; returns the path when the button or Enter is pressed.
// Remembers where a menu or menu item is (for tests that click it).
void noteRect(const char* name)
{
    uiProbe().record(std::string("menu:") + name, lastItemRect());
}

// ImGui::MenuItem, its place noted.
bool item(const char* label, const char* shortcut = nullptr, bool selected = false, bool enabled = true)
{
    const bool clicked = ImGui::MenuItem(label, shortcut, selected, enabled);
    noteRect(label);
    return clicked;
}
bool item(const char* label, const char* shortcut, bool* selected)
{
    const bool clicked = ImGui::MenuItem(label, shortcut, selected);
    noteRect(label);
    return clicked;
}

void fileMenu(AppState& s, Commands& commands)
{
    MenuState& m = s.menu;
    const bool open = ImGui::BeginMenu("File");
    noteRect("File");
    if (!open)
        return;
    if (ImGui::BeginMenu("Open a shipped project")) {
        const fs::path root = s.dataRoot / "projects";
        for (const fs::path& p : shippedProjects(s.dataRoot)) {
            const std::string label = p.lexically_relative(root).string();
            if (ImGui::MenuItem(label.c_str()))
                commands.project.open = p;
        }
        ImGui::EndMenu();
    }
    if (item("Examples...", nullptr, s.menu.examples.show))
        s.menu.examples.show = true;
    const bool fromTemplate = ImGui::BeginMenu("New project from a template");
    noteRect("New project from a template");
    if (fromTemplate) {
        const fs::path root = s.dataRoot / "projects";
        std::error_code ec;
        const fs::path home = std::getenv("HOME") ? fs::path(std::getenv("HOME")) : fs::current_path(ec);
        for (const fs::path& p : shippedProjects(s.dataRoot)) {
            const std::string label = p.lexically_relative(root).string();
            if (item(label.c_str()))
                openFileDialog(m, FileDialogState::Purpose::NewProject, "New project from " + label, {".json"},
                               home, p.stem().string() + "-mine.json", p);
        }
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Open recent", !s.project.recent.empty())) {
        for (const fs::path& p : s.project.recent)
            if (ImGui::MenuItem(p.filename().string().c_str(), p.parent_path().string().c_str()))
                commands.project.open = p;
        ImGui::EndMenu();
    }
    const fs::path here = s.project.session ? s.project.session->pipeline().project().file.parent_path()
                                            : s.dataRoot / "projects";
    if (item("Open project..."))
        openFileDialog(m, FileDialogState::Purpose::OpenProject, "Open a project", {".json"}, here);
    // A kernel runs on data made from its signature (the Arguments panel shows and changes how);
    // any source file can also just be edited.
    if (item("Open kernel..."))
        openFileDialog(m, FileDialogState::Purpose::OpenKernel, "Run a kernel on data made from its signature",
                       {".cu"}, s.project.kernel ? s.project.kernel->file.parent_path() : s.dataRoot / "kernels" / "tutorials");
    if (item("Open in the editor..."))
        openFileDialog(m, FileDialogState::Purpose::EditFile, "Open a file in the editor",
                       {".cu", ".cuh", ".h", ".hpp"}, here);
    ImGui::Separator();
    const int tab = s.editor.activeTab;
    const bool haveTab = tab >= 0 && tab < int(s.editor.tabs.size());
    if (item("Save kernel", "Ctrl+S", false, haveTab && s.editor.tabs[std::size_t(tab)]->doc.dirty()))
        commands.save = tab;
    const bool project = s.project.session != nullptr;
    if (item("Save project", nullptr, false, project))
        commands.project.save = true;
    // A kernel's project lives in the cache folder: it is saved beside the kernel by default.
    if (item("Save project as...", nullptr, false, project)) {
        if (s.project.kernel)
            openFileDialog(m, FileDialogState::Purpose::SaveProjectAs, "Save the project as", {".json"},
                           s.project.kernel->file.parent_path(), s.project.kernel->file.stem().string() + ".json");
        else
            openFileDialog(m, FileDialogState::Purpose::SaveProjectAs, "Save the project as", {".json"},
                           s.project.session->pipeline().project().file);
    }
    if (item("Close project", nullptr, false, project))
        commands.project.close = true;
    ImGui::Separator();
    // Reload: the disk's version replaces what is here. The kernel's unsaved edits go (Ctrl+Z
    // brings them back: the undo history survives a reload); the project is opened again from its
    // file (its parameters, launch settings and stage order as saved, its resources made anew).
    if (item("Reload kernel from disk", nullptr, false, haveTab))
        commands.resolveConflict = {tab, ConflictChoice::ReloadFromDisk}; // the same as a conflict's choice
    if (item("Reload project from disk", nullptr, false, project))
        commands.project.open = s.project.session->pipeline().project().file;
    ImGui::Separator();
    if (item(s.record.wanted ? "Recording... (the Record window)" : "Record...", nullptr, s.record.wanted))
        s.record.showWindow = true;
    if (item("Screenshot of the views", "F12", false, s.menu.hiddenPanels.count(kViewsPanel) == 0))
        s.record.shot = RecordState::Shot::Views;
    if (item("Screenshot of the window", "Shift+F12"))
        s.record.shot = RecordState::Shot::Window;
    ImGui::EndMenu();
}

void editMenu(AppState& s, Commands& commands)
{
    const bool open = ImGui::BeginMenu("Edit");
    noteRect("Edit");
    if (!open)
        return;
    const bool haveTab = s.editor.activeTab >= 0 && s.editor.activeTab < int(s.editor.tabs.size());
    const TextHistory* history = haveTab ? &s.editor.tabs[std::size_t(s.editor.activeTab)]->history : nullptr;
    if (item("Undo", "Ctrl+Z", false, history && history->canUndo()))
        commands.editorAction = EditorAction::Undo;
    if (item("Redo", "Ctrl+Y", false, history && history->canRedo()))
        commands.editorAction = EditorAction::Redo;
    ImGui::Separator();
    if (item("Find", "Ctrl+F", false, haveTab))
        commands.editorAction = EditorAction::Find;
    if (item("Replace", "Ctrl+H", false, haveTab))
        commands.editorAction = EditorAction::Replace;
    if (item("Go to line", "Ctrl+G", false, haveTab))
        commands.editorAction = EditorAction::GoToLine;
    if (item("Comment lines in/out", "Ctrl+/", false, haveTab))
        commands.editorAction = EditorAction::ToggleComment;
    ImGui::Separator();
    if (item("Build now", "Ctrl+Enter", false, haveTab))
        commands.buildNow = s.editor.activeTab;
    item("Build after a pause in typing", nullptr, &s.editor.buildOnPause);
    ImGui::EndMenu();
}

void viewMenu(AppState& s, Commands& commands)
{
    const bool open = ImGui::BeginMenu("View");
    noteRect("View");
    if (!open)
        return;
    const bool classroom = s.teach.layout == Layout::Classroom;
    if (item("Standard layout", nullptr, !classroom))
        commands.teach.layout = Layout::Standard;
    if (item("Classroom layout", nullptr, classroom))
        commands.teach.layout = Layout::Classroom;
    item("Syntax colours in the editor", nullptr, &s.editor.syntaxColours);
    if (item("Reset layout (every panel back in its place, and shown)"))
        commands.teach.resetLayout = true;
    ImGui::Separator();
    ImGui::TextDisabled("Panels");
    const std::vector<const char*> panels =
        s.project.kernel  ? std::vector<const char*>{kEditorPanel, kArgumentsPanel, kProjectPanel, kViewsPanel, kLaunchPanel,
                                                     kOverlayPanel, kTimelinePanel, kDevicePanel, kTimingsPanel,
                                                     kCompileLogPanel, kConsolePanel}
        : s.project.session ? std::vector<const char*>{kEditorPanel, kProjectPanel, kViewsPanel, kLaunchPanel, kOverlayPanel,
                                                     kTimelinePanel, kDevicePanel, kTimingsPanel, kCompileLogPanel, kConsolePanel}
                          : std::vector<const char*>{kEditorPanel, kViewsPanel, kDevicePanel, kTimingsPanel, kCompileLogPanel};
    for (const char* panel : panels) {
        bool visible = s.menu.hiddenPanels.count(panel) == 0;
        if (item(panel, nullptr, &visible)) {
            if (visible)
                s.menu.hiddenPanels.erase(panel);
            else
                s.menu.hiddenPanels.insert(panel);
        }
    }
    ImGui::EndMenu();
}

void stepOneFrame(pipeline::Pipeline& p)
{
    p.setPaused(true); // a running project would go on after the step
    p.step();
}

// The Run menu's keys, everywhere in the window: Space, Right (or '.'), '[' and ']' while no text
// field has the keyboard, Ctrl+R always; and F12 (Shift+F12) for a screenshot. ImGui 1.86 indexes io.KeysDown by the platform's codes;
// GLFW's are ASCII for these characters, as for letters.
void runKeys(AppState& s, Commands& commands)
{
    const ImGuiIO& io = ImGui::GetIO();
    constexpr int kF12 = 301; // GLFW_KEY_F12, as the window sends it
    if (ImGui::IsKeyPressed(kF12, false))
        s.record.shot = io.KeyShift || s.menu.hiddenPanels.count(kViewsPanel) ? RecordState::Shot::Window
                                                                               : RecordState::Shot::Views;
    if (!s.project.session)
        return;
    pipeline::Pipeline& p = s.project.session->pipeline();
    const int a = ImGui::GetKeyIndex(ImGuiKey_A);
    auto pressed = [&](char c) { return ImGui::IsKeyPressed(a + (c - 'A'), false); };
    if (io.KeyCtrl && pressed('R'))
        commands.project.restart = true;
    if (io.WantTextInput || io.KeyCtrl || io.KeyAlt)
        return;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space), false))
        p.setPaused(!p.paused());
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow), true) || pressed('.'))
        stepOneFrame(p);
    const double speed = p.clock().speed();
    if (pressed(']'))
        p.setSpeed(speed == 0 ? 0.25 : std::min(speed * 2, kMaxSpeed));
    if (pressed('['))
        p.setSpeed(speed <= kMinSpeed ? 0.0 : speed / 2);
}

void runMenu(AppState& s, Commands& commands)
{
    const bool open = ImGui::BeginMenu("Run");
    noteRect("Run");
    if (!open)
        return;
    if (s.project.session) {
        pipeline::Pipeline& p = s.project.session->pipeline();
        if (item("Pause", "Space", p.paused()))
            p.setPaused(!p.paused());
        if (item("Step one frame", "Right"))
            stepOneFrame(p);
        if (item("Restart the project", "Ctrl+R"))
            commands.project.restart = true;
        if (ImGui::BeginMenu("Speed")) {
            for (const double speed : {0.0, 0.25, 0.5, 1.0, 2.0, 4.0}) {
                char label[32];
                std::snprintf(label, sizeof label, speed == 0.0 ? "hold the time" : "%gx", speed);
                if (ImGui::MenuItem(label, nullptr, p.clock().speed() == speed))
                    p.setSpeed(speed);
            }
            ImGui::EndMenu();
        }
        if (item("Time back to 0 (frames go on)"))
            p.setTime(0.0);
    } else {
        ImGui::TextDisabled("Pause, step and restart act on an open project");
    }
    ImGui::Separator();
    float limit = s.editor.frameLimitSeconds;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10.f);
    if (ImGui::InputFloat("frame limit (s, 0 off)", &limit, 0.5f, 2.f, "%.1f"))
        s.editor.frameLimitSeconds = std::clamp(limit, 0.f, 3600.f);
    ImGui::EndMenu();
}

void helpMenu(AppState& s)
{
    const bool open = ImGui::BeginMenu("Help");
    noteRect("Help");
    if (!open)
        return;
    item("Keyboard shortcuts", nullptr, &s.menu.showShortcuts);
    if (item("Guided tour", nullptr, s.menu.tour.open)) {
        s.menu.tour = TourState{};
        s.menu.tour.open = true;
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The panels one at a time, each outlined in the window: what it shows, what to try.\n"
                          "The lessons on the CUDA thread hierarchy are in %s;\n"
                          "their projects under File > Open a shipped project > teaching/.",
                          (s.dataRoot / "docs" / "teaching" / "README.md").string().c_str());
    item("About Kernelscope", nullptr, &s.menu.showAbout);
    ImGui::EndMenu();
}

void shortcutsWindow(MenuState& m)
{
    if (!m.showShortcuts)
        return;
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 28.f, 0), ImGuiCond_Appearing);
    if (ImGui::Begin(kShortcutsWindow, &m.showShortcuts, ImGuiWindowFlags_NoCollapse)) {
        const char* rows[][2] = {
            {"Space", "pause or resume the project's frames (not while typing)"},
            {"Right or .", "step one frame (pauses first)"},
            {"[ / ]", "halve / double the speed (0.25x from a held time)"},
            {"Ctrl+R", "restart the project: frame 0, time 0, seeds and contents back"},
            {"F12", "save a screenshot of the views (PNG, named by the time)"},
            {"Shift+F12", "save a screenshot of the whole window"},
            {"Ctrl+Enter", "build the kernel now"},
            {"Ctrl+S", "save the kernel (atomically)"},
            {"Ctrl+F", "find (Enter: next, Shift+Enter: previous, Escape: select it)"},
            {"Ctrl+H", "find and replace"},
            {"Ctrl+G", "go to line"},
            {"Ctrl+/", "comment the selected lines out or in"},
            {"Ctrl+wheel, Ctrl+= / Ctrl+-, Ctrl+0", "zoom the source in / out, back to 100%"},
            {"Ctrl+Z / Ctrl+Y (Ctrl+Shift+Z)", "undo / redo: typing, replaces, comment toggles, reloads"},
            {"Ctrl+A, Ctrl+C, Ctrl+X, Ctrl+V", "select all, copy, cut, paste"},
            {"Ctrl+Space", "complete the name at the cursor (the list also opens as you type)"},
            {"Up / Down, Tab, Escape", "in the list: move, insert the name, close it"},
            {"Enter", "in the list: insert the name after Ctrl+Space, Up or Down; else a new line"},
            {"Mouse rests on a name", "its declaration, or a parameter's type and binding"},
        };
        if (ImGui::BeginTable("##keys", 2, ImGuiTableFlags_RowBg)) {
            for (const auto& r : rows) {
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(r[0]);
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(r[1]);
            }
            ImGui::EndTable();
        }
    }
    ImGui::End();
}

void aboutWindow(AppState& s)
{
    MenuState& m = s.menu;
    if (!m.showAbout)
        return;
    if (ImGui::Begin(kAboutWindow, &m.showAbout, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse)) {
        static const std::string text = versionText(s.glDescription); // versions do not change while the app runs
        ImGui::TextUnformatted(text.c_str());
        ImGui::TextDisabled("MIT licence; see LICENSE.");
    }
    ImGui::End();
}

} // namespace

// The projects shipped with the app (projects/*.json and projects/teaching/*.json), sorted.
std::vector<fs::path> shippedProjects(const fs::path& dataRoot)
{
    std::vector<fs::path> out;
    for (const fs::path& dir : {dataRoot / "projects", dataRoot / "projects" / "teaching"}) {
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(dir, ec))
            if (e.is_regular_file(ec) && e.path().extension() == ".json")
                out.push_back(e.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

void drawMenuBar(AppState& state, Commands& commands)
{
    if (ImGui::BeginMainMenuBar()) {
        fileMenu(state, commands);
        editMenu(state, commands);
        viewMenu(state, commands);
        runMenu(state, commands);
        helpMenu(state);
        state.menu.height = ImGui::GetWindowSize().y;
        ImGui::EndMainMenuBar();
    }
    runKeys(state, commands);
    drawFileDialog(state, commands);
    shortcutsWindow(state.menu);
    drawExamplesWindow(state, commands);
    aboutWindow(state);
}

} // namespace ks::app
