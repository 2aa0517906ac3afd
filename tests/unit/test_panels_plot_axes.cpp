// Where a plot view's axes go (app/panels/plot_axes.hpp): labels never touch, each value label sits
// at its gridline inside the picture, index labels come first. The frames are the README's plots
// (a fixed range of [-1, 1], whose end gridlines lie on the frame's edges, and an auto range) at
// the sizes they are drawn at, with a font of 7 pixels per character and lines of 15. Log value
// axes have their gridlines at decades (with 2 and 5 between where few are shown), and the axis
// titles go under the index labels and above the value axis.
#include "panels/plot_axes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

using ks::app::PlotAxesLayout;
using ks::app::PlotAxisLabel;
using ks::app::PlotLabelKind;

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
        (a.kind == PlotLabelKind::Index ? indexes : values) += 1;
        EXPECT_GE(a.y, 0.f);
        EXPECT_LE(a.y + a.height, 360.f);
    }
    EXPECT_GE(values, int(l.gridY.size()) - 2) << "at most the two edge labels are left out";
    EXPECT_GE(indexes, 2);
    // Each value label lies next to a gridline (above it, or below the top one).
    for (const PlotAxisLabel& a : l.labels) {
        if (a.kind != PlotLabelKind::Value)
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
    // The same on log axes (decades with their 2s and 5s, decades, every third decade, a zoom
    // inside one), and with axis titles.
    const ks::render::PlotFrame frames[] = {{-0.5, 199.5, -0.7, 0.88},        {-0.5, 199.5, -1.0, 1.0},
                                            {10.2, 57.9, 0.0, 1.0},           {-0.5, 9.5, -1e6, 3e6},
                                            {-0.5, 199.5, 0.8, 120.0, true},  {-0.5, 199.5, 1e-3, 1e3, true},
                                            {-0.5, 199.5, 1e-12, 1e12, true}, {10.2, 57.9, 3.12, 3.37, true}};
    for (const auto& f : frames)
        for (float w : {120.f, 270.f, 600.f})
            for (float h : {80.f, 200.f, 360.f, 900.f})
                for (bool titles : {false, true}) {
                    SCOPED_TRACE(std::to_string(w) + " x " + std::to_string(h) + " y " + std::to_string(f.y0) + ".." +
                                 std::to_string(f.y1) + (titles ? " with titles" : ""));
                    const PlotAxesLayout l = ks::app::layoutPlotAxes(
                        f, 200, 10.f, 20.f, w, h, 15.f, width7, titles ? "element" : "", titles ? "amplitude" : "");
                    expectApart(l);
                    EXPECT_FALSE(l.gridY.empty());
                    int placedTitles = 0;
                    for (const PlotAxisLabel& a : l.labels) {
                        placedTitles += a.kind == PlotLabelKind::Title;
                        EXPECT_GE(a.y, 20.f) << a.text;
                        EXPECT_LE(a.y + a.height, 20.f + h) << a.text;
                    }
                    EXPECT_EQ(placedTitles, titles ? 2 : 0) << "titles are placed first: always there";
                }
}

namespace {

// The value labels of `l`, top to bottom.
std::vector<std::string> valueLabels(const PlotAxesLayout& l)
{
    std::vector<std::pair<float, std::string>> byY;
    for (const PlotAxisLabel& a : l.labels)
        if (a.kind == PlotLabelKind::Value)
            byY.emplace_back(a.y, a.text);
    std::sort(byY.begin(), byY.end());
    std::vector<std::string> out;
    for (auto& [y, text] : byY)
        out.push_back(text);
    return out;
}

// Each gridline of `l` lies where log10 of `values` (ascending) puts it in the frame of `f`.
void expectLogGridlines(const PlotAxesLayout& l, const ks::render::PlotFrame& f, const std::vector<double>& values)
{
    ASSERT_EQ(l.gridY.size(), values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double fraction = std::log10(values[i] / f.y0) / std::log10(f.y1 / f.y0);
        EXPECT_NEAR(l.gridY[i], l.y1 - fraction * (l.y1 - l.y0), 0.01) << values[i];
    }
}

} // namespace

TEST(PlotAxes, LogAxesHaveGridlinesAtDecades)
{
    // Six decades in 360 pixels of frame: a gridline at each, 60 pixels apart, labelled short.
    const ks::render::PlotFrame six{0, 99, 1e-3, 1e3, true};
    const PlotAxesLayout l = ks::app::layoutPlotAxes(six, 100, 0.f, 0.f, 600.f, 400.f, 15.f, width7);
    expectLogGridlines(l, six, {1e-3, 1e-2, 0.1, 1, 10, 100, 1000});
    EXPECT_NEAR(l.gridY[0] - l.gridY[1], 60.f, 0.01f) << "decades evenly apart";
    EXPECT_EQ(valueLabels(l), (std::vector<std::string>{"1000", "100", "10", "1", "0.1", "0.01", "1e-3"}));

    // Two decades: 2 and 5 between them.
    const ks::render::PlotFrame two{0, 99, 1, 100, true};
    const PlotAxesLayout t = ks::app::layoutPlotAxes(two, 100, 0.f, 0.f, 600.f, 400.f, 15.f, width7);
    expectLogGridlines(t, two, {1, 2, 5, 10, 20, 50, 100});
    EXPECT_EQ(valueLabels(t), (std::vector<std::string>{"100", "50", "20", "10", "5", "2", "1"}));

    // 24 decades: every third one, on multiples of three so that 1 is among them.
    const ks::render::PlotFrame wide{0, 99, 1e-12, 1e12, true};
    const PlotAxesLayout w = ks::app::layoutPlotAxes(wide, 100, 0.f, 0.f, 600.f, 400.f, 15.f, width7);
    expectLogGridlines(w, wide, {1e-12, 1e-9, 1e-6, 1e-3, 1, 1e3, 1e6, 1e9, 1e12});
    EXPECT_EQ(valueLabels(w),
              (std::vector<std::string>{"1e12", "1e9", "1e6", "1000", "1", "1e-3", "1e-6", "1e-9", "1e-12"}));

    // A zoom inside a decade, where there is no 1, 2 or 5 to mark: even steps (of 0.02 for 8
    // gridlines), placed on the log axis.
    const ks::render::PlotFrame deep{0, 99, 3.12, 3.37, true};
    const PlotAxesLayout d = ks::app::layoutPlotAxes(deep, 100, 0.f, 0.f, 600.f, 400.f, 15.f, width7);
    std::vector<double> steps;
    for (int k = 0; k <= 12; ++k)
        steps.push_back(3.12 + 0.02 * k);
    expectLogGridlines(d, deep, steps);
    const std::vector<std::string> deepLabels = valueLabels(d);
    EXPECT_NE(std::find(deepLabels.begin(), deepLabels.end(), "3.20"), deepLabels.end()) << "tickLabel's digits";

    // A log frame without a positive range (not one the renderer draws) gets no gridlines.
    const PlotAxesLayout bad = ks::app::layoutPlotAxes({0, 99, 0, 10, true}, 100, 0.f, 0.f, 600.f, 400.f, 15.f, width7);
    EXPECT_TRUE(bad.gridY.empty());
    EXPECT_FALSE(bad.tickX.empty());
}

TEST(PlotAxes, TitlesGoUnderTheIndexLabelsAndAboveTheValueAxis)
{
    const ks::render::PlotFrame frame{-0.5, 199.5, -1.0, 1.0};
    auto find = [](const PlotAxesLayout& l, const std::string& text) {
        for (const PlotAxisLabel& a : l.labels)
            if (a.text == text)
                return a;
        ADD_FAILURE() << "no label \"" << text << "\"";
        return PlotAxisLabel{};
    };
    auto indexRow = [](const PlotAxesLayout& l) {
        for (const PlotAxisLabel& a : l.labels)
            if (a.kind == PlotLabelKind::Index)
                return a.y;
        ADD_FAILURE() << "no index label";
        return 0.f;
    };
    // Tall (margins of 45 pixels): the index labels under the frame, the x title under them, the
    // y title above the frame's top-left corner, at the value labels' column.
    const PlotAxesLayout tall =
        ks::app::layoutPlotAxes(frame, 200, 10.f, 20.f, 600.f, 900.f, 15.f, width7, "element", "amplitude");
    expectApart(tall);
    const PlotAxisLabel x = find(tall, "element"), y = find(tall, "amplitude");
    EXPECT_EQ(x.kind, PlotLabelKind::Title);
    EXPECT_FLOAT_EQ(x.x + x.width / 2, (tall.x0 + tall.x1) / 2) << "centred under the frame";
    EXPECT_GT(indexRow(tall), tall.y1) << "index labels under the frame";
    EXPECT_GT(x.y, indexRow(tall) + 15.f) << "under the index labels";
    EXPECT_LE(x.y + x.height, 20.f + 900.f);
    EXPECT_FLOAT_EQ(y.x, tall.x0 + 4.f);
    EXPECT_LT(y.y + y.height, tall.y0) << "above the frame";
    EXPECT_GE(y.y, 20.f);

    // Short (margins of 10 pixels): the index labels inside the frame, the x title just above
    // them; the y title inside the frame at its top, right of the value labels, so that the top
    // one ("1.0", just under the frame's edge) stays.
    const PlotAxesLayout shorter =
        ks::app::layoutPlotAxes(frame, 200, 10.f, 20.f, 600.f, 200.f, 15.f, width7, "element", "amplitude");
    expectApart(shorter);
    const PlotAxisLabel xs = find(shorter, "element"), ys = find(shorter, "amplitude"), top = find(shorter, "1.0");
    EXPECT_LT(indexRow(shorter), shorter.y1);
    EXPECT_LT(xs.y + xs.height, indexRow(shorter)) << "above the index labels";
    EXPECT_FLOAT_EQ(xs.x + xs.width / 2, (shorter.x0 + shorter.x1) / 2);
    EXPECT_GT(ys.y, shorter.y0);
    EXPECT_LT(ys.y, shorter.y0 + 15.f);
    EXPECT_LT(top.y, shorter.y0 + 15.f);
    for (const PlotAxisLabel& a : shorter.labels) {
        if (a.kind == PlotLabelKind::Value) {
            EXPECT_GT(ys.x, a.x + a.width + 4.f) << a.text;
        }
    }

    // A title wider than the picture starts at its left edge.
    const PlotAxesLayout narrow = ks::app::layoutPlotAxes(frame, 200, 10.f, 20.f, 60.f, 200.f, 15.f, width7,
                                                          "a title much wider than the view", "");
    EXPECT_FLOAT_EQ(find(narrow, "a title much wider than the view").x, 12.f);
}

TEST(PlotAxes, NothingForAnEmptyPlot)
{
    const PlotAxesLayout l = ks::app::layoutPlotAxes({0, 1, 0, 1}, 0, 0.f, 0.f, 300.f, 200.f, 15.f, width7);
    EXPECT_TRUE(l.labels.empty());
    EXPECT_TRUE(l.gridY.empty());
}

// The value at a height of the frame and back (what the mouse read-out and the value zoom use): in
// even steps on a linear axis, by even factors on a log one, where zero and below lie infinitely
// far down. The read-out has the digits a 200th of the frame needs there.
TEST(PlotAxes, ValuesAtHeightsOfLinearAndLogFrames)
{
    using ks::render::plotValueAt;
    using ks::render::plotValueFraction;
    const ks::render::PlotFrame lin{0, 9, -1, 1}, log{0, 9, 1e-2, 1e2, true};
    EXPECT_DOUBLE_EQ(plotValueAt(lin, 0.25), -0.5);
    EXPECT_DOUBLE_EQ(plotValueFraction(lin, -0.5), 0.25);
    EXPECT_NEAR(plotValueAt(log, 0.5), 1.0, 1e-12);
    EXPECT_NEAR(plotValueAt(log, 0.75), 10.0, 1e-12);
    EXPECT_NEAR(plotValueAt(log, -0.25), 1e-3, 1e-15) << "below the frame: smaller values still";
    EXPECT_NEAR(plotValueFraction(log, 1e-2), 0.0, 1e-12);
    EXPECT_NEAR(plotValueFraction(log, 1e4), 1.5, 1e-12);
    EXPECT_EQ(plotValueFraction(log, 0), -std::numeric_limits<double>::infinity());
    EXPECT_EQ(plotValueFraction(log, -3), -std::numeric_limits<double>::infinity());
    for (double f : {0.0, 0.1, 0.5, 0.93, 1.0})
        EXPECT_NEAR(plotValueFraction(log, plotValueAt(log, f)), f, 1e-12);
    // Far-apart ends do not overflow.
    const ks::render::PlotFrame wide{0, 9, 1e-300, 1e300, true};
    EXPECT_NEAR(plotValueFraction(wide, 1.0), 0.5, 1e-12);

    EXPECT_EQ(ks::app::plotValueReadout(lin, 0.25), "-0.50");
    EXPECT_EQ(ks::app::plotValueReadout(log, 0.5), "1.00");
    EXPECT_EQ(ks::app::plotValueReadout(log, 0.75), "10.0");
    EXPECT_EQ(ks::app::plotValueReadout(log, 0.0), "0.0100");
    EXPECT_EQ(ks::app::plotValueReadout({0, 9, 1e-9, 1e-5, true}, 0.5), "1e-07");
}
