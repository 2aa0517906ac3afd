#include "panels/plot_axes.hpp"

#include "ks/render/axes.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace ks::app {

PlotAxesLayout layoutPlotAxes(const render::PlotFrame& frame, std::int64_t count, float originX, float originY,
                              float width, float height, float lineHeight,
                              const std::function<float(const std::string&)>& textWidth, const std::string& xTitle,
                              const std::string& yTitle)
{
    PlotAxesLayout out;
    out.x0 = originX + 0.05f * width, out.x1 = originX + 0.95f * width;
    out.y0 = originY + 0.05f * height, out.y1 = originY + 0.95f * height;
    if (count <= 0)
        return out;
    const double lo = frame.y0, hi = frame.y1, left = frame.x0, right = frame.x1;
    constexpr float kGap = 4.f;
    auto place = [&](float x, float y, std::string text, PlotLabelKind kind) {
        PlotAxisLabel l{x, y, textWidth(text), lineHeight, std::move(text), kind};
        for (const PlotAxisLabel& p : out.labels)
            if (l.x < p.x + p.width + kGap && p.x < l.x + l.width + kGap && l.y < p.y + p.height + kGap &&
                p.y < l.y + l.height + kGap)
                return;
        out.labels.push_back(std::move(l));
    };
    // Inside the picture; a text wider than it starts at its left edge.
    auto clampX = [&](float x, float w) { return std::max(originX + 2.f, std::min(x, originX + width - w - 2.f)); };
    // The value ticks and their texts come first: a y title inside the frame goes right of the widest.
    std::vector<std::pair<float, std::string>> values; // gridline, label
    // A log axis without a positive range (a frame made by hand) has nowhere to put its lines.
    if (hi != lo && (!frame.logY || (lo > 0 && hi > 0))) {
        const int target = std::max(2, int((out.y1 - out.y0) / (lineHeight * 3.f)));
        const render::AxisTicks ys = frame.logY ? render::logTicks(lo, hi, target) : render::niceTicks(lo, hi, target);
        for (double t : ys.values)
            values.emplace_back(out.y1 - float(render::plotValueFraction(frame, t)) * (out.y1 - out.y0),
                                frame.logY ? render::logTickLabel(t, ys.step) : render::tickLabel(t, ys.step));
    }
    float widest = 0;
    for (const auto& [y, text] : values)
        widest = std::max(widest, textWidth(text));
    const float bottom = originY + height;
    const float indexY = out.y1 + 4.f + lineHeight <= bottom ? out.y1 + 4.f : out.y1 - 4.f - lineHeight;
    if (!xTitle.empty()) {
        // A row of its own, just far enough from the index labels' not to touch them.
        const float below = indexY + lineHeight + kGap + 1.f;
        const float y = below + lineHeight <= bottom ? below : indexY - lineHeight - kGap - 1.f;
        const float w = textWidth(xTitle);
        place(clampX((out.x0 + out.x1) / 2 - w / 2, w), y, xTitle, PlotLabelKind::Title);
    }
    if (!yTitle.empty()) {
        const float above = out.y0 - 2.f - lineHeight, w = textWidth(yTitle);
        if (above >= originY)
            place(clampX(out.x0 + 4.f, w), above, yTitle, PlotLabelKind::Title);
        else
            place(clampX(out.x0 + 4.f + (widest > 0 ? widest + 2 * kGap : 0.f), w), out.y0 + 2.f, yTitle,
                  PlotLabelKind::Title);
    }
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
            place(clampX(x - w / 2, w), indexY, std::move(text), PlotLabelKind::Index);
        }
    }
    for (auto& [y, text] : values) {
        out.gridY.push_back(y);
        const float ly = y - lineHeight - 1.f < out.y0 ? y + 1.f : y - lineHeight - 1.f;
        place(out.x0 + 4.f, ly, std::move(text), PlotLabelKind::Value);
    }
    return out;
}

std::string plotValueReadout(const render::PlotFrame& frame, double fraction)
{
    const double value = render::plotValueAt(frame, fraction);
    double step = render::niceTicks(frame.y0, frame.y1, 200).step;
    if (frame.logY) // a 200th of the frame is a factor there: the 200th root of the ends' ratio
        step = value * (std::pow(10.0, (std::log10(frame.y1) - std::log10(frame.y0)) / 200.0) - 1.0);
    return render::tickLabel(value, step > 0 ? step : 1e-3);
}

} // namespace ks::app
