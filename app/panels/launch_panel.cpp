#include "panels.hpp"

#include "ks/cuda/module.hpp"

#include <imgui.h>

namespace ks::app {

// The demo's launch, explained: what gridDim, blockDim, blockIdx and threadIdx are for this
// picture. Changing the block shape relaunches on the next frame.
void drawLaunchPanel(AppState& s, Commands& commands)
{
    ImGui::Begin("Launch");
    // No project is open while the demo runs: opening one is the panel's first row, so nothing
    // floats over the default layout.
    drawProjectOpener(s, commands);
    ImGui::Separator();
    if (!s.demo) {
        ImGui::End();
        return;
    }
    const demo::DemoConfig& c = s.demo->config();
    const cuda::Dim3 grid = s.demo->grid();
    const bool shipped = demoRunsShippedKernel(s.editor, s.dataRoot);
    ImGui::Text("kernel %s (%s)  |  image %d x %d pixels, one thread per pixel", s.editor.stageKernel.c_str(),
                s.editor.stagePath.filename().string().c_str(), c.width, c.height);

    int block[2] = {int(c.block.x), int(c.block.y)};
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
    if (ImGui::InputInt2("blockDim (x, y)", block, ImGuiInputTextFlags_EnterReturnsTrue))
        commands.setBlock = cuda::Dim3{unsigned(std::max(1, block[0])), unsigned(std::max(1, block[1])), 1};
    ImGui::SameLine();
    for (unsigned preset : {8u, 16u, 32u}) {
        ImGui::SameLine();
        char label[16];
        std::snprintf(label, sizeof label, "%ux%u", preset, preset);
        if (ImGui::SmallButton(label))
            commands.setBlock = cuda::Dim3{preset, preset, 1};
    }

    const unsigned long long threads = grid.count() * c.block.count();
    const unsigned long long outside = threads - 1ull * unsigned(c.width) * unsigned(c.height);
    ImGui::Text("gridDim  = (%u, %u, 1)  blocks     = ceil(%d / %u), ceil(%d / %u)", grid.x, grid.y, c.width,
                c.block.x, c.height, c.block.y);
    ImGui::Text("threads  = %llu in %llu blocks; %llu fall outside the image and return at the bounds check",
                threads, grid.count(), outside);
    const int warp = s.device() ? s.device()->limits.warpSize : 32;
    ImGui::Text("warps    = %llu per block (%d threads each)", (c.block.count() + unsigned(warp) - 1) / unsigned(warp),
                warp);
    if (const cuda::DeviceInfo* d = s.device()) {
        const cuda::FunctionAttributes attrs = s.demo->kernel() ? s.demo->kernel()->attributes() : cuda::FunctionAttributes{};
        if (auto why = cuda::validateLaunch({grid, c.block, 0}, d->limits, attrs))
            ImGui::TextColored(ImVec4(1.f, 0.45f, 0.4f, 1.f), "refused: %s", why->c_str());
    }
    ImGui::Separator();
    if (shipped)
        ImGui::TextWrapped("Each tile is one block (its hue is blockIdx); the gradient inside it is threadIdx; the "
                           "dark lines are threads with threadIdx.x == 0 or threadIdx.y == 0. Hover the image to see "
                           "which thread wrote a pixel.");
    else
        ImGui::TextWrapped("The picture is what %s writes, one thread per pixel. Hover the image to see which "
                           "thread wrote a pixel.",
                           s.editor.stageKernel.c_str());
    ImGui::End();
}

} // namespace ks::app
