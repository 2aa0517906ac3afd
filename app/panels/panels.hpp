#pragma once
// Panels: each a function over the state it shows, pushing commands for what it wants changed.

#include "app_state.hpp"
#include "panels/ui_probe.hpp"

#include <imgui.h>

#include <array>
#include <vector>

namespace ks::app {

// The last ImGui item's rectangle on screen (x0, y0, x1, y1): what panels record for tests that
// click or hover their items (menu rects, the find bar, the compile log, gutter markers).
inline std::array<float, 4> lastItemRect()
{
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    return {a.x, a.y, b.x, b.y};
}

// Panels give way to a narrow window instead of cutting what they show (layout.cpp).
// The next item, `width` wide, on the current line when it fits before the content region's right
// edge, else on the next line: call it where ImGui::SameLine() would go (`spacing` as SameLine's,
// negative: the style's ItemSpacing.x). Returns whether it stays on the line.
bool sameLineIfFits(float width, float spacing = -1.f);
// A control's label, drawn by the panel (the control's own label hidden behind "##"): beside the
// control where it fits, as ImGui draws it, else under it.
void labelBesideIfFits(const char* label);
// The width that shows `preview` whole in a combo box, at most the width left on the line.
float comboWidth(const char* preview);
// The width of ImGui::Button(label) (and of SmallButton, which keeps the horizontal padding).
float buttonWidth(const char* label);
// The width for a control whose `label` ImGui draws to its right: `wanted`, or what the line has
// left beside the label, but not under four times the font size.
float fieldWidth(const char* label, float wanted);
// The overlay for a bar or plot as wide as the line (ImGui::ProgressBar, PlotLines with width -1 or
// the region's): `text` where it fits inside the frame, else "" after drawing `text` wrapped on
// the lines above, so a narrow panel moves it instead of cutting it.
const char* overlayOrAbove(const char* text);
// ImGui::TextWrapped in `colour`, and in the disabled text's colour.
void textWrappedColored(const ImVec4& colour, const char* fmt, ...) IM_FMTARGS(2);
void textWrappedDisabled(const char* fmt, ...) IM_FMTARGS(1);

// Every window's ImGui name: what it is drawn as, laid out by (layout.cpp), listed in View, pointed
// at by the tour, and found by tests. One constant each, so that a rename cannot miss one of them.
inline constexpr const char* kEditorPanel = "Kernel editor";
inline constexpr const char* kCompileLogPanel = "Compile log";
inline constexpr const char* kViewsPanel = "Views";
inline constexpr const char* kArgumentsPanel = "Arguments";
inline constexpr const char* kLaunchPanel = "Launch";
inline constexpr const char* kProjectPanel = "Project";
inline constexpr const char* kOverlayPanel = "Overlay and inspector";
inline constexpr const char* kTimelinePanel = "Block timeline";
inline constexpr const char* kDevicePanel = "Device";
inline constexpr const char* kTimingsPanel = "Timings";
inline constexpr const char* kConsolePanel = "Console";
inline constexpr const char* kTourWindow = "Guided tour";
inline constexpr const char* kRecordWindow = "Record";
inline constexpr const char* kShortcutsWindow = "Keyboard shortcuts";
inline constexpr const char* kExamplesWindow = "Examples";
inline constexpr const char* kAboutWindow = "About Kernelscope";
inline constexpr const char* kListingWindow = "PTX / SASS";

void drawDevicePanel(const AppState& state);
// The Compile log (compile_log_panel.cpp): a "Log" tab (each file's build and diagnostics, the
// messages) and a "PTX / SASS" tab, drawListingTab (listing_panel.cpp).
void drawCompileLogPanel(AppState& state, Commands& commands);
void drawListingTab(AppState& state, Commands& commands);
// The same listing in a window of its own, larger than the tab (ListingState::ownWindow).
void drawListingWindow(AppState& state, Commands& commands);
void drawEditorPanel(EditorState& editor, Commands& commands);
void drawTimingsPanel(const AppState& state);
// File > Examples: each shipped project with its picture and description (examples_window.cpp).
void drawExamplesWindow(AppState& state, Commands& commands);
std::vector<std::filesystem::path> shippedProjects(const std::filesystem::path& dataRoot);
// Device printf output by frame and stage (app/panels/console_panel.cpp).
void drawConsolePanel(AppState& state);
// The frame pipeline's panels (shown when a project is open).
void drawProjectPanel(AppState& state, Commands& commands);
// In the views' place while no project is open (one failed to open, or was closed): how to open
// one, or run the default demo again.
void drawNoProjectPanel(AppState& state, Commands& commands);
// A parameter's slider (colour picker, integer slider) over its value in the running pipeline.
void drawParameterEditor(const project::ParameterDesc& parameter, std::array<double, 4>& value);
// The Arguments panel (arguments_panel.cpp), shown while the project was inferred from a kernel
// (state.project.kernel): each parameter, what it is bound to and why, and controls that change the
// binding (ProjectCommands::rebind, undoRebind). Takes a data file dropped on a row (state.drop).
void drawArgumentsPanel(AppState& state, Commands& commands);
void drawViewsPanel(AppState& state, Commands& commands);

// The teaching panels for the open project's kernel stage: the launch (grid, block, validation,
// occupancy, suggest); the overlay, its legend and the inspector; and the block timeline.
void drawStageLaunchPanel(AppState& state, Commands& commands);
void drawOverlayPanel(AppState& state, Commands& commands);
void drawTimelinePanel(AppState& state, Commands& commands);

// The main menu bar (File, Edit, View, Run, Help) and the windows it opens; sets state.menu.height.
void drawMenuBar(AppState& state, Commands& commands);
// The file dialog (file_dialog.cpp): opened for `purpose` on `where` (a folder, or a file whose
// folder is listed and whose name is taken), with `extensions` (".json", ...), a starting `name`,
// and for a new project its template; drawn by drawMenuBar until it is answered or cancelled.
void openFileDialog(MenuState& menu, FileDialogState::Purpose purpose, std::string title,
                    std::vector<std::string> extensions, const std::filesystem::path& where, std::string name = {},
                    std::filesystem::path templateFile = {});
void drawFileDialog(AppState& state, Commands& commands);
// One step of Help > Guided tour: the window it outlines, when it is shown, what it says.
struct TourStep {
    enum When { Always, KernelProject }; // any project, or one inferred from a kernel (Arguments)
    const char* panel;
    When when;
    const char* title;
    const char* text;
    // What the step says instead while the default demo runs (the shipped thread_colors_surface),
    // whose picture it can describe tile by tile. Null: `text` says it.
    const char* demoText = nullptr;
};
// The tour's steps, in order: those for any project, and with `kernelProject` the Arguments step.
std::vector<const TourStep*> tourSteps(bool kernelProject);
// Whether the open project runs the default demo's kernel: thread_colors_surface of
// <data>/kernels/thread_colors.cu, whose picture the tour and the Launch panel describe tile by tile.
bool runsDefaultDemo(const AppState& state);
// What `step` says for the open project.
std::string tourStepText(const TourStep& step, const AppState& state);
// Help > Guided tour (tour.cpp): the step's window and the outline around its panel. Draw it after
// the panels: it shows the step's panel when the View menu hid it and brings it to the front.
void drawTour(AppState& state);
class App;
// File > Record... (record_window.cpp).
void drawRecordWindow(AppState& state, App& app);
void drawStatusBar(const AppState& state, const std::string& statusLine, Commands& commands);

struct PanelLayout {
    ImVec2 display;
    Layout layout = Layout::Standard;
    bool project = false; // a project is open
    int generation = 0;   // TeachState::layoutGeneration
    float top = 0;        // the menu bar's height: panels go below it
    bool kernel = false;  // the project was inferred from a kernel (the Arguments panel shows)
    bool console = false; // the Console shows: it takes the lower half of the compile log's place
};
// Places `panel` for `layout` (on first use, and once after each layout change or change of its
// place, as when the Console opens; the user may move panels in between). Returns false when the layout does not show the panel.
bool placePanel(const char* panel, const PanelLayout& layout);

} // namespace ks::app
