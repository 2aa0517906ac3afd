#pragma once
// Where a plot view's axes go (pure, no ImGui calls: tested in tests/unit/test_panels_plot_axes.cpp). The
// frame is where view_plot.vert draws it (the middle 90% of the picture): elements frame.x0..x1
// across, values frame.y0..y1 up (evenly in log10 of them on a log axis). Value gridlines with
// their labels (above the line, below it where that would leave the frame), at 1-2-5 steps or at
// decades; element-index ticks with theirs (under the frame where there is room, else just inside
// it). The axis titles: the x title centred under the index labels (above them, inside the frame,
// where the picture has no room below), the y title level, since ImGui draws no turned text, above
// the frame's top-left corner at the value labels (where the margin is too small, inside the frame
// at its top, right of the value labels). A label that would come within 4 pixels of one already
// placed is left out; the titles are placed first, then the index labels, so that value labels
// give way to both.
#include "ks/render/view_renderer.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ks::app {

enum class PlotLabelKind { Value, Index, Title };

struct PlotAxisLabel {
    float x = 0, y = 0; // top-left of the text
    float width = 0, height = 0;
    std::string text;
    PlotLabelKind kind = PlotLabelKind::Value;
};

struct PlotAxesLayout {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0; // the frame, in the picture's pixels
    std::vector<float> gridY;              // value gridlines
    std::vector<float> tickX;              // element-index ticks
    std::vector<PlotAxisLabel> labels;
};

// `origin`/`width`/`height`: the picture; `lineHeight` and `textWidth`: the font's measures;
// `xTitle`, `yTitle`: the view's axis titles (none where empty).
PlotAxesLayout layoutPlotAxes(const render::PlotFrame& frame, std::int64_t count, float originX, float originY,
                              float width, float height, float lineHeight,
                              const std::function<float(const std::string&)>& textWidth, const std::string& xTitle = {},
                              const std::string& yTitle = {});

// The value at `fraction` up the frame as the mouse read-out writes it: with the digits that a
// 200th of the frame's height needs there (on a log axis that step grows with the value).
std::string plotValueReadout(const render::PlotFrame& frame, double fraction);

} // namespace ks::app
