// Help > Guided tour: a small window that walks the panels one at a time. Each step outlines its
// panel's window, shows it if the View menu hid it and brings it to the front. What the steps say
// is the table below; the code only walks it.
#include "panels/panels.hpp"
#include "loop/teach_support.hpp"
#include "panels/theme.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <iterator>

namespace ks::app {

namespace {

constexpr TourStep kSteps[] = {
    {kViewsPanel, TourStep::Always, "The views",
     "The project's views draw its GL buffers and textures after its kernels ran on them: images, points, "
     "plots and height fields. In a plot the wheel zooms, a drag pans and a double-click shows all; in a 3-D "
     "view a left drag orbits, a right drag pans and the wheel zooms. Hover an image (with a GPU) to see "
     "which thread wrote each element.",
     "The default demo runs the kernel thread_colors_surface every frame: one CUDA thread per pixel, each "
     "writing its pixel of a GL texture through the surface it is given. Each tile is one block (its hue is "
     "blockIdx), the gradient inside a tile is threadIdx, and the dark lines are the threads with "
     "threadIdx.x == 0 or threadIdx.y == 0. Hover a pixel to see which thread wrote it."},
    {kArgumentsPanel, TourStep::KernelProject, "The kernel's arguments",
     "The project was made from the kernel's signature: one row per parameter, what it is bound to and why "
     "(a buffer, a texture, the element count of a buffer, the time, a slider). Change a binding, a shape, "
     "the grid or the block here, or drop a .npy or image file on a row; Undo takes a change back.",
     "The project was made from thread_colors_surface's signature: the surface became a texture, width and "
     "height its extents, and time the frame's time. Any kernel file opens the same way (File > Open "
     "kernel..., or drop a .cu file on the window): its pointers become buffers, its scalars bindings or "
     "sliders, each with its reason here."},
    {kLaunchPanel, TourStep::Always, "gridDim and blockDim",
     "The launch of one kernel stage (pick it under kernel stage): gridDim, blockDim and dynamic shared "
     "memory, or a grid that covers a resource. Change the block and watch: each change is checked against "
     "the device's limits first, a refused launch names the limit and an accepted one runs on the next frame. "
     "Below: threads, warps and idle lanes, threads the if (i < n) guard sends away, occupancy and what limits "
     "it, waves, and suggest.",
     "blockDim is the shape of one block, and gridDim = ceil(image / blockDim) blocks cover the picture. Type "
     "another block (8 x 8, 32 x 4, ...) and watch the tiles change shape on the next frame; a block beyond the "
     "device's limits is refused and names the limit. Below: the threads and warps that launches, the threads "
     "that fall outside the image and return at the bounds check, and occupancy."},
    {kOverlayPanel, TourStep::Always, "Who wrote it",
     "Pick an overlay and each element of the views that show the stage's output is coloured by the thread "
     "that wrote it (blockIdx, threadIdx, linear thread id, warp, lane, SM, block start order or write count), "
     "with a legend. For that frame the stage runs as an instrumented variant; your source is not edited. "
     "Hover an element (click to pin it) for its writer and every resource's value there."},
    {kTimelinePanel, TourStep::Always, "Block timeline",
     "record runs the stage once as a variant that notes, for every block, the SM it ran on and when it "
     "started and ended: one row per SM, one bar per block. Above the bars: the waves, utilisation, tail and "
     "imbalance. Hover a bar for its block."},
    {kEditorPanel, TourStep::Always, "The kernel, live",
     "The project's kernel file. Edit it: after a pause in typing (Edit > Build after a pause in typing) or on "
     "Ctrl+Enter it builds, and the stage runs the new build from the next frame. A build that fails leaves "
     "the last good kernel running and marks its errors in the gutter at their lines; hover a marker for the "
     "message. The runs list above the source picks another kernel of the file to run."},
    {kCompileLogPanel, TourStep::Always, "Compile log",
     "Every open file's last build: NVRTC's diagnostics (click one to show its line in the editor), the "
     "running kernel's registers and memory use, and the raw log. Under Messages: the app's own messages."},
    {kTimingsPanel, TourStep::Always, "Timings",
     "The last frame as a bar per stage, each timed with CUDA events (with the bandwidth where the stage's "
     "bytes are known), then the interop map and unmap, the render pass (GL timer) and the frame. Below, a "
     "rolling plot per stage."},
    {kDevicePanel, TourStep::Always, "Device",
     "The GPU the kernels run on: compute capability, memory, SMs, clocks, the limits of blocks and grids, "
     "registers and shared memory, and whether it is also the GPU rendering GL. Without a CUDA driver it says "
     "why; kernels still compile, and nothing is launched."},
    {kProjectPanel, TourStep::Always, "Project",
     "Pause, step and restart the project, and the time its kernels receive (drag it to scrub). Below: its "
     "stages in order (switch one off, move it up or down), its parameters and its resources. Save as writes "
     "the project to a file that --project runs again; more projects ship in projects/ (File > Open a shipped "
     "project), the teaching ones under teaching/."},
    {"##status", TourStep::Always, "Classroom layout",
     "The button at the left of the status bar switches between the standard and the classroom layout (so "
     "do View > Classroom layout and --layout classroom). The classroom layout has fonts half as large again, "
     "the editor beside the picture and the launch panel open under it; the standard one brings back the "
     "other panels. The lessons on the thread hierarchy, project by project, are in docs/teaching/README.md."},
};

// Where the tour window goes: the corner of the work area (below the menu bar, above the status
// bar) where a window of `size` covers the least of `target`.
ImVec2 cornerAwayFrom(const ImRect& target, ImVec2 size, float top, ImVec2* pivot)
{
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float margin = 12.f, bottom = display.y - (ImGui::GetFrameHeight() + 8.f); // the status bar's top
    const ImVec2 pivots[] = {{1, 1}, {1, 0}, {0, 1}, {0, 0}};
    ImVec2 best, bestPivot;
    float least = -1;
    for (const ImVec2& p : pivots) {
        const ImVec2 at(p.x > 0 ? display.x - margin : margin, p.y > 0 ? bottom - margin : top + margin);
        const ImRect r(ImVec2(at.x - p.x * size.x, at.y - p.y * size.y),
                       ImVec2(at.x + (1 - p.x) * size.x, at.y + (1 - p.y) * size.y));
        ImRect overlap = r;
        overlap.ClipWithFull(target);
        const float area = std::max(0.f, overlap.GetWidth()) * std::max(0.f, overlap.GetHeight());
        if (least < 0 || area < least)
            least = area, best = at, bestPivot = p;
    }
    *pivot = bestPivot;
    return best;
}

} // namespace

bool runsDefaultDemo(const AppState& s)
{
    const int stage = teachStage(s);
    if (!s.project.session || stage < 0)
        return false;
    const pipeline::Pipeline& p = s.project.session->pipeline();
    const project::StageDesc& d = p.stage(std::size_t(stage)).desc();
    std::error_code error;
    return d.kernel == kDefaultDemoKernel &&
           std::filesystem::equivalent(p.project().resolve(d.file), defaultDemoFile(s.dataRoot), error);
}

std::string tourStepText(const TourStep& step, const AppState& s)
{
    return step.demoText && runsDefaultDemo(s) ? step.demoText : step.text;
}

std::vector<const TourStep*> tourSteps(bool kernelProject)
{
    std::vector<const TourStep*> out;
    for (const TourStep& s : kSteps)
        if (s.when == TourStep::Always || kernelProject)
            out.push_back(&s);
    return out;
}

void drawTour(AppState& s)
{
    TourState& t = s.menu.tour;
    t.panel.clear();
    uiProbe().forget("tour:");
    if (!t.open)
        return;
    const std::vector<const TourStep*> steps = tourSteps(s.project.kernel.has_value());
    const int n = int(steps.size());
    t.step = std::clamp(t.step, 0, n - 1);
    const TourStep& step = *steps[std::size_t(t.step)];

    // A new step shows its panel (as the View menu does) and brings it to the front once it is drawn:
    // a panel hidden until now is drawn from the next frame on.
    if (t.broughtUp != &step) {
        t.broughtUp = &step;
        t.focusPending = true;
        s.menu.hiddenPanels.erase(step.panel);
    }
    ImGuiWindow* panel = ImGui::FindWindowByName(step.panel);
    const bool drawn = panel && panel->Active; // this frame: the panels come before the tour
    if (drawn && t.focusPending) {
        ImGui::SetWindowCollapsed(step.panel, false);
        ImGui::SetWindowFocus(step.panel);
        t.focusPending = false;
    }
    ImRect target;
    if (drawn) {
        target = ImRect(panel->Pos, ImVec2(panel->Pos.x + panel->Size.x, panel->Pos.y + panel->Size.y));
        t.panel = step.panel;
        t.highlight = {target.Min.x, target.Min.y, target.Max.x, target.Max.y};
        // Just outside the window's border, over everything (menus and popups included), and inside
        // the display where the window touches its edge (the editor, the status bar).
        const ImVec2 display = ImGui::GetIO().DisplaySize;
        ImGui::GetForegroundDrawList()->AddRect(
            ImVec2(std::max(target.Min.x - 2, 2.f), std::max(target.Min.y - 2, 2.f)),
            ImVec2(std::min(target.Max.x + 2, display.x - 2), std::min(target.Max.y + 2, display.y - 2)),
            theme::kTourHighlight, 4.f, 0, 3.f);
    }

    const float width = ImGui::GetFontSize() * 30.f;
    // The corner is chosen for a window of a fixed size, not the one it had: an auto-resized
    // window takes a new step's size two frames late, and chosen by its size the window jumped to
    // another corner under the pointer (a quick click on Next missed it).
    ImVec2 pivot;
    const ImVec2 nominal(width + 2 * ImGui::GetStyle().WindowPadding.x, ImGui::GetFontSize() * 14.f);
    const ImVec2 at = cornerAwayFrom(target, nominal, s.menu.height, &pivot);
    ImGui::SetNextWindowPos(at, ImGuiCond_Always, pivot);
    bool open = true;
    ImGui::Begin(kTourWindow, &open,
                 ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                     ImGuiWindowFlags_NoSavedSettings);
    // Over the panels (a panel brought forward or clicked would cover it), under menus and popups.
    if (!ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel))
        ImGui::BringWindowToDisplayFront(ImGui::GetCurrentWindow());
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
    ImGui::TextColored(theme::colour(theme::kTourHighlight), "%s", step.title);
    ImGui::SameLine();
    ImGui::TextDisabled("  step %d of %d", t.step + 1, n);
    ImGui::Separator();
    ImGui::TextWrapped("%s", tourStepText(step, s).c_str());
    if (!drawn && s.teach.layout == Layout::Classroom)
        ImGui::TextColored(theme::colour(theme::kWarning),
                           "The classroom layout leaves this panel out; Standard layout (status bar) shows it.");
    ImGui::PopTextWrapPos();
    ImGui::Separator();
    int move = 0;
    ImGui::BeginDisabled(t.step == 0);
    if (ImGui::Button("Back"))
        move = -1;
    uiProbe().record("tour:Back", lastItemRect());
    ImGui::EndDisabled();
    ImGui::SameLine();
    const bool lastStep = t.step == n - 1;
    const char* next = lastStep ? "Finish" : "Next";
    if (ImGui::Button(next))
        move = 1;
    uiProbe().record(std::string("tour:") + next, lastItemRect());
    ImGui::SameLine();
    if (ImGui::Button("Close"))
        open = false;
    uiProbe().record("tour:Close", lastItemRect());
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Close the tour (Escape)");
    ImGui::End();
    // Escape closes the tour, unless a text field or a popup has it (it closes those first).
    const bool escape = ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false) &&
                        !ImGui::GetIO().WantTextInput &&
                        !ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel);
    t.step += move;
    if (!open || escape || t.step == n) // Finish steps past the last
        t = TourState{};
}

} // namespace ks::app
