#pragma once
// Where a plot view's axes go (pure, no ImGui calls: tested in tests/unit/test_plot_axes.cpp). The
// frame is where view_plot.vert draws it (the middle 90% of the picture): elements frame.x0..x1
// across, values frame.y0..y1 up. Value gridlines with their labels (above the line, below it
// where that would leave the frame), element-index ticks with theirs (under the frame where there
// is room, else just inside it). A label that would come within 4 pixels of one already placed is
// left out (the index labels are placed first), so that no two labels touch.
#include "ks/render/view_renderer.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ks::app {

struct PlotAxisLabel {
    float x = 0, y = 0; // top-left of the text
    float width = 0, height = 0;
    std::string text;
    bool index = false; // an element-index label (else a value label)
};

struct PlotAxesLayout {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0; // the frame, in the picture's pixels
    std::vector<float> gridY;              // value gridlines
    std::vector<float> tickX;              // element-index ticks
    std::vector<PlotAxisLabel> labels;
};

// `origin`/`width`/`height`: the picture; `lineHeight` and `textWidth`: the font's measures.
PlotAxesLayout layoutPlotAxes(const render::PlotFrame& frame, std::int64_t count, float originX, float originY,
                              float width, float height, float lineHeight,
                              const std::function<float(const std::string&)>& textWidth);

} // namespace ks::app
