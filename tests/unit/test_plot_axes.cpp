// Where a plot view's axes go (app/panels/plot_axes.hpp): labels never touch, each value label sits
// at its gridline inside the picture, index labels come first. The frames are the README's plots
// (a fixed range of [-1, 1], whose end gridlines lie on the frame's edges, and an auto range) at
// the sizes they are drawn at, with a font of 7 pixels per character and lines of 15.
#include "panels/plot_axes.hpp"

#include <gtest/gtest.h>

#include <string>

using ks::app::PlotAxesLayout;
using ks::app::PlotAxisLabel;

namespace {

float width7(const std::string& text)
{
    return 7.f * float(text.size());
}

// Labels `a` and `b` come within 4 pixels of each other.
bool touch(const PlotAxisLabel& a, const PlotAxisLabel& b)
{
    return a.x < b.x + b.width + 4.f && b.x < a.x + a.width + 4.f && a.y < b.y + b.height + 4.f &&
           b.y < a.y + a.height + 4.f;
}

void expectApart(const PlotAxesLayout& l)
{
    for (std::size_t i = 0; i < l.labels.size(); ++i)
        for (std::size_t j = i + 1; j < l.labels.size(); ++j)
            EXPECT_FALSE(touch(l.labels[i], l.labels[j]))
                << "\"" << l.labels[i].text << "\" at " << l.labels[i].y << " and \"" << l.labels[j].text << "\" at "
                << l.labels[j].y;
}

} // namespace

TEST(PlotAxes, EdgeGridlinesDoNotPutTheirLabelsOnTheirNeighbours)
{
    // dots of docs/images/plot-series.png: range [-1, 1], 200 elements, a 270 x 360 picture.
    const ks::render::PlotFrame frame{-0.5, 199.5, -1.0, 1.0};
    const PlotAxesLayout l = ks::app::layoutPlotAxes(frame, 200, 0.f, 0.f, 270.f, 360.f, 15.f, width7);
    expectApart(l);
    // Every gridline is drawn, with ends on the frame's edges; labels for the most of them.
    ASSERT_GE(l.gridY.size(), 5u);
    EXPECT_FLOAT_EQ(l.gridY.front(), l.y1);
    EXPECT_FLOAT_EQ(l.gridY.back(), l.y0);
    int values = 0, indexes = 0;
    for (const PlotAxisLabel& a : l.labels) {
        (a.index ? indexes : values) += 1;
        EXPECT_GE(a.y, 0.f);
        EXPECT_LE(a.y + a.height, 360.f);
    }
    EXPECT_GE(values, int(l.gridY.size()) - 2) << "at most the two edge labels are left out";
    EXPECT_GE(indexes, 2);
    // Each value label lies next to a gridline (above it, or below the top one).
    for (const PlotAxisLabel& a : l.labels) {
        if (a.index)
            continue;
        bool byItsLine = false;
        for (float y : l.gridY)
            byItsLine = byItsLine || std::abs(a.y + a.height + 1.f - y) < 0.01f || std::abs(a.y - 1.f - y) < 0.01f;
        EXPECT_TRUE(byItsLine) << a.text;
    }
}

TEST(PlotAxes, LabelsStayApartAtEverySize)
{
    // Auto ranges with margins, a fixed range, a zoomed window into the elements; small to large.
    const ks::render::PlotFrame frames[] = {
        {-0.5, 199.5, -0.7, 0.88}, {-0.5, 199.5, -1.0, 1.0}, {10.2, 57.9, 0.0, 1.0}, {-0.5, 9.5, -1e6, 3e6}};
    for (const auto& f : frames)
        for (float w : {120.f, 270.f, 600.f})
            for (float h : {80.f, 200.f, 360.f, 900.f}) {
                SCOPED_TRACE(std::to_string(w) + " x " + std::to_string(h));
                const PlotAxesLayout l = ks::app::layoutPlotAxes(f, 200, 10.f, 20.f, w, h, 15.f, width7);
                expectApart(l);
                EXPECT_FALSE(l.gridY.empty());
            }
}

TEST(PlotAxes, NothingForAnEmptyPlot)
{
    const PlotAxesLayout l = ks::app::layoutPlotAxes({0, 1, 0, 1}, 0, 0.f, 0.f, 300.f, 200.f, 15.f, width7);
    EXPECT_TRUE(l.labels.empty());
    EXPECT_TRUE(l.gridY.empty());
}
