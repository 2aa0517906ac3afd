#include "panels.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdint>

namespace ks::app {

void drawViewportPanel(AppState& s, Commands&)
{
    ImGui::Begin("Viewport");
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const ImVec2 at = ImGui::GetCursorScreenPos(); // what "record the viewport only" records
    s.record.viewportRect = {at.x, at.y, at.x + avail.x, at.y + avail.y};
    const int w = std::max(16, int(avail.x)), h = std::max(16, int(avail.y));
    if (s.viewport.target.empty() || s.viewport.target.width() != w || s.viewport.target.height() != h)
        s.viewport.target = gl::Framebuffer(w, h);

    s.viewport.hover.valid = false;
    if (s.demo) {
        const gl::Texture2D& image = s.demo->texture();
        s.viewport.fit = s.imageView.draw(image, s.viewport.target);
        const ImVec2 origin = ImGui::GetCursorScreenPos();
        // GL's framebuffer rows go bottom-up: flip v.
        ImGui::Image(reinterpret_cast<ImTextureID>(std::uintptr_t(s.viewport.target.color().name())),
                     ImVec2(float(w), float(h)), ImVec2(0, 1), ImVec2(1, 0));

        const render::FitRect& fit = s.viewport.fit;
        if (ImGui::IsItemHovered() && fit.width > 0 && s.demo->running()) {
            const ImVec2 m = ImGui::GetIO().MousePos;
            const float u = (m.x - origin.x - fit.x) / fit.width, v = (m.y - origin.y - fit.y) / fit.height;
            if (u >= 0 && u < 1 && v >= 0 && v < 1) {
                PixelHover& hv = s.viewport.hover;
                hv.valid = true;
                hv.x = int(u * float(image.width()));
                hv.y = int(v * float(image.height()));
                const cuda::Dim3 block = s.demo->config().block;
                hv.blockIdx = {unsigned(hv.x) / block.x, unsigned(hv.y) / block.y, 0};
                hv.threadIdx = {unsigned(hv.x) % block.x, unsigned(hv.y) % block.y, 0};
                ImGui::BeginTooltip();
                ImGui::Text("pixel (%d, %d)", hv.x, hv.y);
                ImGui::Text("blockIdx  = (%u, %u, 0)", hv.blockIdx.x, hv.blockIdx.y);
                ImGui::Text("threadIdx = (%u, %u, 0)", hv.threadIdx.x, hv.threadIdx.y);
                ImGui::Text("x = blockIdx.x * blockDim.x + threadIdx.x = %u * %u + %u", hv.blockIdx.x, block.x,
                            hv.threadIdx.x);
                ImGui::EndTooltip();
            }
        }
        if (!s.demo->running()) {
            // Say plainly why the image is empty, over the image itself.
            const std::string why = s.cuda ? s.demo->status() : "CUDA unavailable: " + s.system.unavailableReason;
            ImDrawList* dl = ImGui::GetWindowDrawList();
            const float wrap = std::max(100.f, float(w) - 40.f);
            const ImVec2 textSize = ImGui::CalcTextSize(why.c_str(), nullptr, false, wrap);
            const ImVec2 p(origin.x + (float(w) - textSize.x) * 0.5f, origin.y + (float(h) - textSize.y) * 0.5f);
            dl->AddRectFilled(ImVec2(p.x - 10, p.y - 8), ImVec2(p.x + textSize.x + 10, p.y + textSize.y + 8),
                              IM_COL32(20, 20, 24, 230), 4.f);
            dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), p, IM_COL32(255, 190, 100, 255), why.c_str(), nullptr,
                        wrap);
        }
    }
    ImGui::End();
}

} // namespace ks::app
