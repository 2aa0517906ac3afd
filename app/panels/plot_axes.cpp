#include "plot_axes.hpp"

#include "ks/render/axes.hpp"

#include <algorithm>
#include <cmath>

namespace ks::app {

PlotAxesLayout layoutPlotAxes(const render::PlotFrame& frame, std::int64_t count, float originX, float originY,
                              float width, float height, float lineHeight,
                              const std::function<float(const std::string&)>& textWidth)
{
    PlotAxesLayout out;
    out.x0 = originX + 0.05f * width, out.x1 = originX + 0.95f * width;
    out.y0 = originY + 0.05f * height, out.y1 = originY + 0.95f * height;
    if (count <= 0)
        return out;
    const double lo = frame.y0, hi = frame.y1, left = frame.x0, right = frame.x1;
    auto place = [&](float x, float y, std::string text, bool index) {
        PlotAxisLabel l{x, y, textWidth(text), lineHeight, std::move(text), index};
        constexpr float kGap = 4.f;
        for (const PlotAxisLabel& p : out.labels)
            if (l.x < p.x + p.width + kGap && p.x < l.x + l.width + kGap && l.y < p.y + p.height + kGap &&
                p.y < l.y + l.height + kGap)
                return;
        out.labels.push_back(std::move(l));
    };
    const double last = double(count - 1);
    const double tickLo = std::max(0.0, std::ceil(left)), tickHi = std::min(last, std::floor(right));
    if (right > left && tickHi >= tickLo) {
        const render::AxisTicks xs =
            render::niceTicks(tickLo, std::max(tickLo + 1, tickHi), std::max(2, int((out.x1 - out.x0) / 90.f)));
        for (double t : xs.values) {
            if (t > tickHi || t < tickLo || t != std::floor(t))
                continue;
            const float x = out.x0 + float((t - left) / (right - left)) * (out.x1 - out.x0);
            out.tickX.push_back(x);
            std::string text = render::tickLabel(t, std::max(1.0, xs.step));
            const float w = textWidth(text);
            const float ly = out.y1 + 4.f + lineHeight <= originY + height ? out.y1 + 4.f : out.y1 - 4.f - lineHeight;
            place(std::clamp(x - w / 2, originX + 2.f, originX + width - w - 2.f), ly, std::move(text), true);
        }
    }
    if (hi != lo) {
        const render::AxisTicks ys =
            render::niceTicks(lo, hi, std::max(2, int((out.y1 - out.y0) / (lineHeight * 3.f))));
        for (double t : ys.values) {
            const float y = out.y1 - float((t - lo) / (hi - lo)) * (out.y1 - out.y0);
            out.gridY.push_back(y);
            const float ly = y - lineHeight - 1.f < out.y0 ? y + 1.f : y - lineHeight - 1.f;
            place(out.x0 + 4.f, ly, render::tickLabel(t, ys.step), false);
        }
    }
    return out;
}

} // namespace ks::app
