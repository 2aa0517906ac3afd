// Views render headless (Mesa's software device where there is no GPU) from CPU-uploaded data and
// match reference images made by `kernelscope --headless --project tests/projects/views_X.json
// --frames 1 --size 480x270 --screenshot tests/reference/views_X.png` (or by this test with
// KS_UPDATE_REFERENCES=1). Also: stage order, restart and shader reload without CUDA.
#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/io/image.hpp"
#include "ks/project/project.hpp"
#include "ks/render/view_renderer.hpp"
#include "ks/scene/session.hpp"
#include "panels/panels.hpp"

#include "headless_app.hpp"
#include "test_support.hpp"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <fstream>
#include <functional>

namespace {

using ks::scene::Session;

ks::project::Project load(const std::filesystem::path& file)
{
    const auto r = ks::project::loadProject(file);
    for (const auto& p : r.problems)
        ADD_FAILURE() << p.format();
    return r.project.value_or(ks::project::Project{});
}

class Views : public ks::test::GlTest, public ::testing::WithParamInterface<const char*> {};

TEST_P(Views, MatchReference)
{
    const std::string name = std::string("views_") + GetParam();
    Session session(load(ks::test::sourceDir() / "tests" / "projects" / (name + ".json")), {},
                    ks::test::sourceDir() / "shaders");
    session.pipeline().frame();
    const ks::io::Rgba8Image shot = session.composite(480, 270);
    for (std::size_t i = 0; i < session.viewCount(); ++i)
        EXPECT_TRUE(session.viewError(i).empty()) << session.viewError(i);
    const std::filesystem::path ref = ks::test::referenceDir() / (name + ".png");
    if (const char* update = std::getenv("KS_UPDATE_REFERENCES"); update && *update == '1') {
        ks::io::writePng(ref, shot);
        GTEST_SKIP() << "wrote reference " << ref;
    }
    if (!std::filesystem::exists(ref))
        GTEST_SKIP() << "no reference " << ref << "; run with KS_UPDATE_REFERENCES=1 to make it";
    const ks::io::Rgba8Image expected = ks::io::readPng(ref);
    const ks::io::CompareResult c = ks::io::compare(shot, expected, 8);
    EXPECT_TRUE(c.matches(0.01)) << c.mismatched << " of " << c.total << " pixels differ (max difference "
                                 << c.maxDifference << ")";
    // Not a blank picture: many distinct colours.
    std::set<std::uint32_t> colours;
    for (std::size_t i = 0; i < shot.pixels.size(); i += 4)
        colours.insert(std::uint32_t(shot.pixels[i]) << 16 | std::uint32_t(shot.pixels[i + 1]) << 8 | shot.pixels[i + 2]);
    EXPECT_GE(colours.size(), 3u); // background, frame and data at least
}

INSTANTIATE_TEST_SUITE_P(Headless, Views, ::testing::Values("image", "points", "plot", "heightfield"));

class PipelineNoCuda : public ks::test::GlTest {};

TEST_F(PipelineNoCuda, StagesReorderAndRestartKeepsContents)
{
    Session session(load(ks::test::sourceDir() / "projects" / "heat.json"), {}, ks::test::sourceDir() / "shaders");
    ks::pipeline::Pipeline& p = session.pipeline();
    ASSERT_EQ(p.stageCount(), 3u);
    EXPECT_EQ(p.resources().registeredCount(), 0u); // no CUDA: nothing registered
    p.moveStage(2, 0);
    EXPECT_EQ(p.stage(0).desc().name, "next -> u");
    EXPECT_EQ(p.stage(1).desc().name, "initial state");
    p.stage(1).setEnabled(false);
    const ks::project::Project saved = p.snapshot();
    EXPECT_EQ(saved.stages[0].name, "next -> u");
    EXPECT_FALSE(saved.stages[1].enabled);
    EXPECT_FALSE(p.frame()); // no CUDA: stages do not run
    EXPECT_FALSE(p.error().empty());
    EXPECT_EQ(p.frameIndex(), 1);
    p.setPaused(true);
    EXPECT_FALSE(p.frame());
    EXPECT_EQ(p.frameIndex(), 1);
    p.step();
    p.frame();
    EXPECT_EQ(p.frameIndex(), 2);
    p.restart();
    EXPECT_EQ(p.frameIndex(), 0);
    EXPECT_EQ(p.time(), 0.0);
}

TEST_F(PipelineNoCuda, BuffersShareOneGlBufferAtAlignedOffsets)
{
    // Odd sizes, so that every offset after the first needs padding.
    ks::project::Project p;
    p.file = ks::test::sourceDir() / "tests" / "projects" / "shared_buffers.json";
    const std::int64_t counts[] = {1001, 3, 77, 513};
    for (int i = 0; i < 4; ++i) {
        ks::project::ResourceDesc r;
        r.name = "b" + std::to_string(i);
        r.element = {ks::project::ScalarType::Float32, 1};
        r.count = counts[i];
        r.init = {double(i) + 0.5};
        p.resources.push_back(r);
    }
    ks::pipeline::ResourceSet set(p, {}, false);
    EXPECT_EQ(set.registrationCount(), 0u);
    GLint storageAlignment = 0;
    glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &storageAlignment);
    const GLuint shared = set[0].buffer.name;
    std::size_t end = 0;
    for (std::size_t i = 0; i < set.size(); ++i) {
        SCOPED_TRACE(set[i].desc.name);
        EXPECT_EQ(set[i].buffer.name, shared) << "one GL buffer for buffers of the same (no) flags";
        EXPECT_EQ(set[i].buffer.offset % 256, 0u);
        EXPECT_EQ(set[i].buffer.offset % std::size_t(std::max(storageAlignment, 1)), 0u);
        EXPECT_GE(set[i].buffer.offset, end) << "ranges do not overlap";
        EXPECT_EQ(set[i].buffer.size, std::size_t(counts[i]) * sizeof(float));
        end = set[i].buffer.offset + set[i].buffer.size;
        // Initial contents, each in its own range.
        const auto bytes = set.download(set[i].desc.name);
        ASSERT_EQ(bytes.size(), set[i].buffer.size);
        std::vector<float> v(bytes.size() / sizeof(float));
        std::memcpy(v.data(), bytes.data(), bytes.size());
        for (float x : v)
            ASSERT_EQ(x, float(i) + 0.5f);
    }
    // Writing one buffer leaves its neighbours as they were; element reads see the offset.
    std::vector<float> mine(77);
    for (std::size_t k = 0; k < mine.size(); ++k)
        mine[k] = -float(k);
    set.upload("b2", mine.data(), mine.size() * sizeof(float));
    const auto back = set.download("b2");
    EXPECT_EQ(std::memcmp(back.data(), mine.data(), back.size()), 0);
    float element = 0;
    const auto e = set.downloadElement("b2", 76);
    std::memcpy(&element, e.data(), sizeof element);
    EXPECT_EQ(element, -76.f);
    for (const char* neighbour : {"b1", "b3"}) {
        const auto bytes = set.download(neighbour);
        std::vector<float> v(bytes.size() / sizeof(float));
        std::memcpy(v.data(), bytes.data(), bytes.size());
        const float want = neighbour[1] == '1' ? 1.5f : 3.5f;
        for (float x : v)
            ASSERT_EQ(x, want) << neighbour;
    }
    EXPECT_THROW(set.upload("b2", mine.data(), 4), ks::Error) << "the size must match";
    EXPECT_THROW(set.upload("nope", mine.data(), 4), ks::Error);
}

TEST_F(PipelineNoCuda, InitialContentsAndViewportTextures)
{
    Session session(load(ks::test::sourceDir() / "tests" / "projects" / "views_plot.json"), {},
                    ks::test::sourceDir() / "shaders");
    const auto bytes = session.pipeline().resources().download("y");
    ASSERT_EQ(bytes.size(), 300u * 4);
    float v[2];
    std::memcpy(v, bytes.data() + 4, 8);
    EXPECT_NEAR(v[0], std::sin(1 / 300.0 * 4 * M_PI) * std::exp(-1 / 300.0), 1e-5);

    Session mandel(load(ks::test::sourceDir() / "projects" / "mandelbrot.json"), {}, ks::test::sourceDir() / "shaders");
    mandel.followViewport(320, 200);
    const ks::pipeline::Resource* img = mandel.pipeline().resources().find("image");
    ASSERT_NE(img, nullptr);
    EXPECT_EQ(img->texture.width(), 320);
    EXPECT_EQ(img->texture.height(), 200);
    const auto px = mandel.pipeline().resources().download("image");
    EXPECT_EQ(px.size(), 320u * 200 * 4);
}

TEST_F(PipelineNoCuda, ShadersReloadAndAFailedReloadKeepsTheOldProgram)
{
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "ks_gl_shaders";
    std::filesystem::remove_all(dir);
    std::filesystem::copy(ks::test::sourceDir() / "shaders", dir);
    ks::render::ViewRenderer r(dir);
    EXPECT_FALSE(r.reloadIfChanged());
    const std::string plot = ks::paths::readTextFile(dir / "view_plot.frag");
    auto write = [&](const std::string& text) {
        std::ofstream(dir / "view_plot.frag") << text;
        // Make sure the modification time moves even on coarse clocks.
        std::filesystem::last_write_time(dir / "view_plot.frag",
                                         std::filesystem::last_write_time(dir / "view_plot.frag") + std::chrono::seconds(2));
    };
    write(plot + "\n// edited\n");
    EXPECT_TRUE(r.reloadIfChanged());
    EXPECT_TRUE(r.shaderError().empty());
    write("#version 450 core\nvoid main() { this is not glsl }\n");
    EXPECT_FALSE(r.reloadIfChanged());
    EXPECT_NE(r.shaderError().find("view_plot.frag"), std::string::npos) << r.shaderError();
    std::filesystem::remove_all(dir);
}

// "range": "auto" finds every value's range on GL: the extremes of a 3,000,017-float buffer that
// lie between any even sampling of it, NaN and infinities left out, a view that starts at an
// unaligned offset of a shared buffer, a series, a negative scale.
TEST_F(PipelineNoCuda, PlotAutoRangeSeesEveryValue)
{
    ks::render::ViewRenderer r(ks::test::sourceDir() / "shaders");
    const std::size_t n = 3000017, lead = 5; // 5 floats of something else before the view's values
    std::vector<float> host(lead + n);
    for (std::size_t i = 0; i < host.size(); ++i)
        host[i] = float(std::sin(double(i) * 0.001)); // within [-1, 1]
    host[0] = -1000.f;                                // before the view: not its value
    host[lead + 1234567] = 7.5f;
    host[lead + 2999999] = -3.25f;
    host[lead + 17] = std::numeric_limits<float>::quiet_NaN();
    host[lead + 18] = std::numeric_limits<float>::infinity();
    host[lead + 19] = -std::numeric_limits<float>::infinity();
    const ks::gl::Buffer buffer(host.size() * 4, host.data());
    ks::project::ViewDesc v;
    v.kind = ks::project::ViewKind::Plot;
    v.autoRange = true;
    ks::render::ViewInputs in;
    in.source.buffer = {buffer.name(), lead * 4, n * 4};
    in.source.element = {ks::project::ScalarType::Float32, 1};
    in.source.count = std::int64_t(n);
    auto range = r.plotValueRange(v, in);
    ASSERT_TRUE(range);
    EXPECT_EQ((*range)[0], -3.25);
    EXPECT_EQ((*range)[1], 7.5);
    // A series with a larger value; a negative scale swaps the extremes.
    const std::vector<float> more = {2.f, 40.f, std::numeric_limits<float>::quiet_NaN()};
    const ks::gl::Buffer seriesBuffer(more.size() * 4, more.data());
    ks::render::ViewSource series = in.source;
    series.buffer = {seriesBuffer.name(), 0, more.size() * 4};
    series.count = 3;
    in.series.push_back(series);
    v.scale = -2;
    range = r.plotValueRange(v, in);
    ASSERT_TRUE(range);
    EXPECT_EQ((*range)[0], -80.0);
    EXPECT_EQ((*range)[1], 6.5);
    // On a log axis only the values the scale makes positive count: the positive ones here (the
    // smallest of them is no extreme of the sine), the negative ones under a negative scale.
    in.series.clear();
    v.scale = 1;
    v.yScale = ks::project::PlotScale::Log;
    float posLo = std::numeric_limits<float>::infinity(), posHi = 0, negLo = 0, negHi = -posLo;
    for (std::size_t i = lead; i < host.size(); ++i) {
        if (!std::isfinite(host[i]) || host[i] == 0)
            continue;
        if (host[i] > 0)
            posLo = std::min(posLo, host[i]), posHi = std::max(posHi, host[i]);
        else
            negLo = std::min(negLo, host[i]), negHi = std::max(negHi, host[i]);
    }
    range = r.plotValueRange(v, in);
    ASSERT_TRUE(range);
    EXPECT_EQ((*range)[0], double(posLo));
    EXPECT_EQ((*range)[1], 7.5);
    EXPECT_LT(posLo, 1e-3f);
    v.scale = -2;
    range = r.plotValueRange(v, in);
    ASSERT_TRUE(range);
    EXPECT_EQ((*range)[0], double(negHi) * -2);
    EXPECT_EQ((*range)[1], 6.5);
    v.yScale = ks::project::PlotScale::Linear;
    // Nothing finite: no range.
    const std::vector<float> nothing = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()};
    const ks::gl::Buffer nothingBuffer(nothing.size() * 4, nothing.data());
    in.series.clear();
    in.source.buffer = {nothingBuffer.name(), 0, 8};
    in.source.count = 2;
    EXPECT_FALSE(r.plotValueRange(v, in));
}

} // namespace

// The whole app with a project open (Project, Views and Timings panels) renders headless.
#include "app.hpp"
#include "cli/options.hpp"
#include "panels/plot_axes.hpp"
#include "panels/theme.hpp"
#include "platform/platforms.hpp"
#include "supervise/protocol.hpp"

namespace {

// The whole app, headless (1000 x 600, 3 frames), on a project of tests/projects; its screenshot,
// or nothing with `skip` set when there is no headless GL.
std::optional<ks::io::Rgba8Image> appScreenshot(const char* project, std::string& skip)
{
    ks::app::AppOptions options;
    options.headless = true;
    options.frames = 3;
    options.width = 1000;
    options.height = 600;
    options.dataDir = ks::test::sourceDir();
    options.project = ks::test::sourceDir() / "tests" / "projects" / project;
    options.screenshot = std::filesystem::temp_directory_path() / ("ks_headless_app_" + std::string(project) + ".png");
    std::filesystem::remove(options.screenshot);
    try {
        const int rc = ks::app::runHeadless(options);
        EXPECT_EQ(rc, 0);
        if (rc != 0)
            return std::nullopt;
    } catch (const ks::Error& e) {
        if (e.domain() != ks::ErrorDomain::Egl)
            throw;
        skip = std::string("no headless GL: ") + e.what();
        return std::nullopt;
    }
    ks::io::Rgba8Image shot = ks::io::readPng(options.screenshot);
    if (const char* keep = std::getenv("KS_KEEP_SCREENSHOTS"); keep && *keep)
        ks::io::writePng(std::filesystem::path(keep) / options.screenshot.filename(), shot);
    return shot;
}

// Pixels of ink `c` (within 10 of it) in columns x0..x1 and rows y0..y1 of `shot` (ends excluded).
int inkIn(const ks::io::Rgba8Image& shot, ImU32 c, int x0, int y0, int x1, int y1)
{
    const int r = int(c & 0xFF), g = int((c >> 8) & 0xFF), b = int((c >> 16) & 0xFF);
    int ink = 0;
    for (int y = std::max(0, y0); y < std::min(shot.height, y1); ++y)
        for (int x = std::max(0, x0); x < std::min(shot.width, x1); ++x) {
            const std::uint8_t* p = &shot.pixels[(std::size_t(y) * std::size_t(shot.width) + std::size_t(x)) * 4];
            ink += std::abs(p[0] - r) <= 10 && std::abs(p[1] - g) <= 10 && std::abs(p[2] - b) <= 10;
        }
    return ink;
}

// Pixels of the axis and colour-bar labels' ink (theme::kViewLabel) in the Views panel of a
// 1000 x 600 app screenshot (the middle of the standard project layout); nothing else there has
// that grey.
int labelInkInViews(const ks::io::Rgba8Image& shot)
{
    return inkIn(shot, ks::app::theme::kViewLabel, 320, 30, 700, 330);
}

} // namespace

TEST(HeadlessAppProject, OpensAProjectAndDrawsItsPanels)
{
    std::string skip;
    const auto shot = appScreenshot("views_heightfield.json", skip);
    if (!skip.empty())
        GTEST_SKIP() << skip;
    ASSERT_TRUE(shot);
    // The height field's peak (viridis yellow-green) shows up inside the Views panel, top-left.
    int greenish = 0;
    for (int y = 0; y < 330; ++y)
        for (int x = 0; x < 600; ++x) {
            const std::uint8_t* p = &shot->pixels[(std::size_t(y) * 1000 + std::size_t(x)) * 4];
            greenish += p[1] > 150 && p[1] > p[2] + 40 && p[0] < 230;
        }
    EXPECT_GT(greenish, 100);
}

// A plot view in the app has axes: value gridlines with labels and element-index ticks, drawn over
// the plot (a project without kernel stages runs without CUDA).
TEST(HeadlessAppProject, PlotViewsHaveAxesWithLabels)
{
    std::string skip;
    const auto shot = appScreenshot("views_plot.json", skip);
    if (!skip.empty())
        GTEST_SKIP() << skip;
    ASSERT_TRUE(shot);
    // The curve is green and the frame darker than the labels. Without the axes: 10 pixels.
    const int ink = labelInkInViews(*shot);
    EXPECT_GT(ink, 150) << "tick labels in the plot";
}

// An image view of scalar data has a colour bar with its range's labels.
TEST(HeadlessAppProject, ScalarImageViewsHaveAColourBar)
{
    std::string skip;
    const auto shot = appScreenshot("views_image.json", skip);
    if (!skip.empty())
        GTEST_SKIP() << skip;
    ASSERT_TRUE(shot);
    const int ink = labelInkInViews(*shot);
    EXPECT_GT(ink, 60) << "the colour bars' labels";
}

namespace {

// A plot of a ramp (0..1 over 64 elements) and a second series held at -2, auto range.
std::string plotSeriesProject(const std::string& style)
{
    std::string ramp;
    for (int i = 0; i < 64; ++i)
        ramp += (i ? ", " : "") + std::to_string(double(i) / 63.0);
    return R"({"kernelscope": 1, "name": "series",
  "resources": {"a": {"kind": "buffer", "type": "float", "count": 64, "init": [)" + ramp + R"(]},
                "b": {"kind": "buffer", "type": "float", "count": 64, "init": -2}},
  "views": [{"kind": "plot", "name": "p", "source": "a", "series": ["b"], "range": "auto", "style": ")" +
           style + R"(", "pointSize": 3}]})";
}

// Pixel `p` (RGBA8) is within 40 of colour `c` (RGB, 0..1) in each channel.
bool nearColour(const std::uint8_t* p, const std::array<float, 4>& c)
{
    for (int k = 0; k < 3; ++k)
        if (std::abs(int(p[k]) - int(std::lround(c[std::size_t(k)] * 255))) > 40)
            return false;
    return true;
}

// Pixels of `shot` near colour `c` (nearColour) in rows rowLo..rowHi (the end excluded).
int pixelsOf(const ks::io::Rgba8Image& shot, std::array<float, 4> c, int rowLo = 0, int rowHi = 1 << 30)
{
    int n = 0;
    for (int y = std::max(0, rowLo); y < std::min(shot.height, rowHi); ++y)
        for (int x = 0; x < shot.width; ++x)
            n += nearColour(&shot.pixels[(std::size_t(y) * std::size_t(shot.width) + std::size_t(x)) * 4], c);
    return n;
}

} // namespace

// Plot views draw several series, each in its colour, in a range found from the values ("auto"),
// as lines or dots; a zoomed frame shows only what lies in it.
TEST_F(PipelineNoCuda, PlotSeriesAutoRangeScatterAndZoom)
{
    ks::test::TempDir dir;
    Session session(load(dir.write("p.json", plotSeriesProject("line"))), {}, ks::test::sourceDir() / "shaders");
    const ks::project::ViewDesc& v = session.pipeline().project().views.at(0);
    const auto green = ks::render::plotSeriesColor(v, 0), orange = ks::render::plotSeriesColor(v, 1);
    ASSERT_NE(green, orange);
    const int w = 400, h = 300;
    const ks::io::Rgba8Image line = session.composite(w, h);
    ASSERT_TRUE(session.viewError(0).empty()) << session.viewError(0);
    // Auto range: -2..1 and 5% of it on each side; every element across.
    const ks::render::PlotFrame f = session.plotFrame(0);
    EXPECT_NEAR(f.y0, -2.15, 1e-5);
    EXPECT_NEAR(f.y1, 1.15, 1e-5);
    EXPECT_DOUBLE_EQ(f.x0, 0.0);
    EXPECT_DOUBLE_EQ(f.x1, 63.0);
    // The series at -2 is an orange line across the lower part: the row of -2 is at
    // 0.05 h + 0.9 h * (1.15 - -2) / 3.3 from the top.
    const int rowB = int(0.05 * h + 0.9 * h * (1.15 + 2.0) / 3.3);
    EXPECT_GT(pixelsOf(line, orange, rowB - 2, rowB + 3), int(0.8 * 0.9 * w)) << "the -2 series";
    EXPECT_LT(pixelsOf(line, orange, 0, rowB - 10), 10) << "nothing orange above it";
    EXPECT_GT(pixelsOf(line, green, 0, rowB - 10), int(0.8 * 0.9 * w)) << "the ramp (a pixel per column)";

    // Zoomed to elements 0..10 and values 0.5..1.5: the -2 series is out of the frame, and so is
    // the ramp below 0.5 (elements 0..31), so the ramp's green is no more than a corner's worth.
    session.setPlotZoom(0, ks::render::PlotFrame{0, 10, 0.5, 1.5});
    const ks::io::Rgba8Image zoomed = session.composite(w, h);
    EXPECT_EQ(session.plotFrame(0), (ks::render::PlotFrame{0, 10, 0.5, 1.5}));
    EXPECT_EQ(pixelsOf(zoomed, orange), 0) << "the -2 series lies outside the zoomed frame";
    EXPECT_LT(pixelsOf(zoomed, green), 10) << "elements 0..10 of the ramp are below 0.5";
    session.setPlotZoom(0, ks::render::PlotFrame{30, 63, 0.4, 1.1});
    const ks::io::Rgba8Image zoomedRight = session.composite(w, h);
    EXPECT_GT(pixelsOf(zoomedRight, green), int(0.4 * w)) << "elements 32..63 of the ramp rise through it";
    session.setPlotZoom(0, std::nullopt);
    (void)session.composite(w, h);
    EXPECT_EQ(session.plotFrame(0), f) << "unzoomed: the auto range again";

    // Scatter: a dot (3 x 3 pixels) per element, 64 of them apart along the -2 row.
    Session dots(load(dir.write("s.json", plotSeriesProject("scatter"))), {}, ks::test::sourceDir() / "shaders");
    const ks::io::Rgba8Image scatter = dots.composite(w, h);
    ASSERT_TRUE(dots.viewError(0).empty()) << dots.viewError(0);
    const int dotPixels = pixelsOf(scatter, orange, rowB - 3, rowB + 4);
    EXPECT_GE(dotPixels, 64 * 6) << "64 dots of 3 x 3 pixels";
    int runs = 0;
    bool inside = false;
    for (int x = 0; x < w; ++x) {
        const std::uint8_t* p = &scatter.pixels[(std::size_t(rowB) * std::size_t(w) + std::size_t(x)) * 4];
        const bool o = std::abs(int(p[0]) - int(orange[0] * 255)) <= 40 && std::abs(int(p[1]) - int(orange[1] * 255)) <= 40 &&
                       std::abs(int(p[2]) - int(orange[2] * 255)) <= 40;
        runs += o && !inside;
        inside = o;
    }
    EXPECT_EQ(runs, 64) << "one dot per element along the -2 row";
}

namespace {

// A geometric ramp (0.01 to 100 over 64 elements), a constant 1, and a series at 10 that from
// element 48 on drops to 0 and -1 between its 10s; on a log axis over `range`.
std::string logPlotProject(const std::string& range)
{
    std::string ramp, dips;
    for (int i = 0; i < 64; ++i) {
        ramp += (i ? ", " : "") + std::to_string(std::pow(10.0, -2.0 + 4.0 * i / 63.0));
        dips += (i ? ", " : "") + std::string(i < 48 || i % 2 == 0 ? "10" : i % 4 == 1 ? "0" : "-1");
    }
    return R"({"kernelscope": 1, "name": "log",
  "resources": {"a": {"kind": "buffer", "type": "float", "count": 64, "init": [)" + ramp + R"(]},
                "b": {"kind": "buffer", "type": "float", "count": 64, "init": 1},
                "c": {"kind": "buffer", "type": "float", "count": 64, "init": [)" + dips + R"(]}},
  "views": [{"kind": "plot", "name": "p", "source": "a", "series": ["b", "c"], "yScale": "log", "range": )" +
           range + "}]}";
}

} // namespace

// A log value axis: the geometric ramp is a straight line from corner to corner, 1 lies across the
// middle of 0.01..100, and the values at 0 and -1 are held below the frame (not at NaN positions):
// the lines to them dive out of its bottom, and nothing is drawn outside it. "range": "auto" on a
// log axis is the positive values' range with 5% of its decades on each side.
TEST_F(PipelineNoCuda, PlotLogScaleMapsDecadesEvenly)
{
    ks::test::TempDir dir;
    Session session(load(dir.write("log.json", logPlotProject("[0.01, 100]"))), {}, ks::test::sourceDir() / "shaders");
    const ks::project::ViewDesc& v = session.pipeline().project().views.at(0);
    const auto green = ks::render::plotSeriesColor(v, 0), orange = ks::render::plotSeriesColor(v, 1),
               blue = ks::render::plotSeriesColor(v, 2);
    const int w = 400, h = 300;
    const ks::io::Rgba8Image shot = session.composite(w, h);
    ASSERT_TRUE(session.viewError(0).empty()) << session.viewError(0);
    if (const char* keep = std::getenv("KS_KEEP_SCREENSHOTS"); keep && *keep)
        ks::io::writePng(std::filesystem::path(keep) / "ks_plot_log_scale.png", shot);
    EXPECT_TRUE(session.plotFrame(0).logY);
    // The frame: columns 20..380, rows 15..285 from the top. Value 10^e lies (e + 2) / 4 of the
    // way up, so the ramp's row falls evenly with its column.
    auto at = [&](int x, int y) { return &shot.pixels[(std::size_t(y) * std::size_t(w) + std::size_t(x)) * 4]; };
    for (double f : {0.1, 0.3, 0.45, 0.6, 0.9}) {
        const int x = int(20 + f * 360);
        double rows = 0;
        int n = 0;
        for (int y = 0; y < h; ++y)
            if (nearColour(at(x, y), green))
                rows += y, ++n;
        ASSERT_GT(n, 0) << "the ramp crosses column " << x;
        EXPECT_NEAR(rows / n, 15 + 270 * (1 - f), 3.0) << "a straight line on a log axis, at " << f;
    }
    EXPECT_GT(pixelsOf(shot, orange, 148, 153), int(0.8 * 360)) << "1 across the middle";
    // The dips series: its 10s a line at row 15 + 270 / 4, nothing above it; the lines to its 0s
    // and -1s go down through the frame's bottom edge; nothing of it outside the frame.
    const int row10 = 15 + 270 / 4;
    EXPECT_EQ(pixelsOf(shot, blue, 0, row10 - 3), 0) << "nothing above 10";
    EXPECT_GT(pixelsOf(shot, blue, 240, 285), 8 * 40) << "eight dives through the lower part of the frame";
    int outside = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            outside += (y > 286 || x < 19 || x > 381) && nearColour(at(x, y), blue);
    EXPECT_EQ(outside, 0) << "held below the frame, clipped at it";

    // Automatic: the positive values' range (0.01..100, the 0s and -1s left out), 5% of its four
    // decades added on each side.
    Session autoRange(load(dir.write("auto.json", logPlotProject("\"auto\""))), {}, ks::test::sourceDir() / "shaders");
    (void)autoRange.composite(w, h);
    ASSERT_TRUE(autoRange.viewError(0).empty()) << autoRange.viewError(0);
    const ks::render::PlotFrame f = autoRange.plotFrame(0);
    EXPECT_TRUE(f.logY);
    EXPECT_NEAR(std::log10(f.y0), -2.2, 1e-6);
    EXPECT_NEAR(std::log10(f.y1), 2.2, 1e-6);
}

namespace {

// One frame 1/60 s after the last for ImGui (a double-click is two clicks within 0.3 s of its
// clock), however long Mesa takes to draw it.
void frameAt60(ks::app::HeadlessSession& session)
{
    session.renderFrameAt(float(session.framesRendered()) / 60.f, 1.f / 60.f);
}

// A left drag from where the mouse is by `by`, in `steps` equal moves a frame apart, then released
// (a frame more); `onStep(k)` runs after the k-th move's frame.
void dragLeft(ks::app::HeadlessSession& session, ImVec2 by, int steps, const std::function<void(int)>& onStep = {})
{
    ImGuiIO& io = ImGui::GetIO();
    const ImVec2 from = io.MousePos;
    io.MouseDown[0] = true;
    frameAt60(session);
    for (int k = 1; k <= steps; ++k) {
        io.MousePos = ImVec2(from.x + by.x * float(k) / float(steps), from.y + by.y * float(k) / float(steps));
        frameAt60(session);
        if (onStep)
            onStep(k);
    }
    io.MouseDown[0] = false;
    frameAt60(session);
}

// The whole app, headless (1000 x 600), on a project of tests/projects, for tests that drive it with
// the mouse, after 3 frames; null, with `skip` set, when there is no headless GL.
std::unique_ptr<ks::app::HeadlessSession> mouseSession(const std::string& project, std::string& skip)
{
    ks::app::AppOptions options;
    options.headless = true;
    options.width = 1000;
    options.height = 600;
    options.dataDir = ks::test::sourceDir();
    options.project = ks::test::sourceDir() / "tests" / "projects" / project;
    options.recoveryDir = std::filesystem::temp_directory_path() / ("ks_gl_mouse_recovery_" + project);
    std::string whyNot;
    std::unique_ptr<ks::app::HeadlessSession> session = ks::test::openHeadlessApp(options, whyNot);
    if (!session) {
        skip = "no headless GL: " + whyNot;
        return nullptr;
    }
    for (int i = 0; i < 3; ++i)
        frameAt60(*session);
    return session;
}

} // namespace

// A plot view in the app, driven by the mouse as a user would: the wheel zooms the elements around
// the cursor (Shift+wheel: the values), a left drag pans (the curve follows the mouse) without
// moving the panel, and a double-click shows everything again.
TEST(HeadlessAppProject, PlotViewZoomsPansAndShowsAllFromTheMouse)
{
    std::string skip;
    const auto session = mouseSession("views_plot.json", skip);
    if (!session)
        GTEST_SKIP() << skip;
    auto frame = [&] { frameAt60(*session); };
    const ks::app::AppState& state = session->app().state();
    ASSERT_TRUE(state.project.session) << "the project opened";
    const ks::scene::Session& project = *state.project.session;
    ASSERT_EQ(project.viewCount(), 1u);
    ASSERT_EQ(ks::app::uiProbe().count("view:"), 1u) << "the views panel drew the plot";
    const ImGuiWindow* views = ImGui::FindWindowByName(ks::app::kViewsPanel);
    ASSERT_TRUE(views && views->Active);
    const ImVec2 panelAt = views->Pos;

    // Not zoomed: all 300 elements across and the view's range, -1 to 1.
    const ks::render::PlotFrame all = project.plotFrame(0);
    EXPECT_FALSE(project.plotZoom(0));
    EXPECT_DOUBLE_EQ(all.x0, 0.0);
    EXPECT_DOUBLE_EQ(all.x1, 299.0);
    EXPECT_DOUBLE_EQ(all.y0, -1.0);
    EXPECT_DOUBLE_EQ(all.y1, 1.0);

    // The plot's frame is the middle 90% of the picture; the mouse a quarter of the way across it.
    const auto r = ks::test::drawnAt("view:0");
    const float fx0 = r[0] + 0.05f * (r[2] - r[0]), fw = 0.9f * (r[2] - r[0]);
    const float fy1 = r[1] + 0.95f * (r[3] - r[1]), fh = 0.9f * (r[3] - r[1]);
    ImGuiIO& io = ImGui::GetIO();
    const ImVec2 at(fx0 + 0.25f * fw, fy1 - 0.5f * fh);
    io.MousePos = at;
    frame();
    frame();
    const double element = all.x0 + 0.25 * (all.x1 - all.x0); // under the mouse

    // A notch of the wheel up: 80% of the elements, the one under the mouse staying there.
    io.MouseWheel = 1.f;
    frame();
    frame();
    ASSERT_TRUE(project.plotZoom(0)) << "the wheel zoomed the plot";
    const ks::render::PlotFrame zoomed = *project.plotZoom(0);
    EXPECT_NEAR(zoomed.x1 - zoomed.x0, 0.8 * 299.0, 0.5);
    EXPECT_NEAR(zoomed.x0 + 0.25 * (zoomed.x1 - zoomed.x0), element, 0.5) << "zoomed around the cursor";
    EXPECT_EQ(zoomed.y0, all.y0) << "the values are left as they were";
    EXPECT_EQ(zoomed.y1, all.y1);
    frame();
    EXPECT_EQ(project.plotFrame(0), zoomed) << "the plot is drawn zoomed";
    // With Shift, the values: 80% of the range around the value under the mouse (0 here).
    io.KeyShift = true;
    io.MouseWheel = 1.f;
    frame();
    io.KeyShift = false;
    frame();
    ASSERT_TRUE(project.plotZoom(0));
    const ks::render::PlotFrame zoomedBoth = *project.plotZoom(0);
    EXPECT_NEAR(zoomedBoth.y1 - zoomedBoth.y0, 0.8 * 2.0, 0.01);
    EXPECT_NEAR(zoomedBoth.y0 + zoomedBoth.y1, 0.0, 0.02) << "around the value at the cursor";
    EXPECT_EQ(zoomedBoth.x0, zoomed.x0) << "Shift+wheel leaves the elements";
    EXPECT_EQ(zoomedBoth.x1, zoomed.x1);

    // A drag 60 pixels right and 30 down, in steps: the frame moves the other way by as much of its
    // spans (the curve follows the mouse), and the panel stays where it is.
    dragLeft(*session, ImVec2(60.f, 30.f), 6);
    frame();
    ASSERT_TRUE(project.plotZoom(0));
    const ks::render::PlotFrame panned = *project.plotZoom(0);
    const double dx = 60.0 / double(fw) * (zoomedBoth.x1 - zoomedBoth.x0);
    const double dy = 30.0 / double(fh) * (zoomedBoth.y1 - zoomedBoth.y0);
    EXPECT_NEAR(panned.x0, zoomedBoth.x0 - dx, 0.05 * dx) << "dragged right: earlier elements come in";
    EXPECT_NEAR(panned.x1, zoomedBoth.x1 - dx, 0.05 * dx);
    EXPECT_NEAR(panned.y0, zoomedBoth.y0 + dy, 0.05 * dy) << "dragged down: higher values come in";
    EXPECT_NEAR(panned.y1, zoomedBoth.y1 + dy, 0.05 * dy);
    EXPECT_EQ(views->Pos.x, panelAt.x) << "the drag panned the plot, not the panel";
    EXPECT_EQ(views->Pos.y, panelAt.y);

    // A drag that begins on the plot and leaves it to the left goes on panning all the way. (Its
    // press comes 0.5 s after the last one at the same place: not a double-click.)
    io.MousePos = at;
    for (int i = 0; i < 30; ++i)
        frame();
    const float left = (at.x - r[0]) + 40.f; // 40 pixels past the picture's left edge
    dragLeft(*session, ImVec2(-left, 0.f), 8);
    ASSERT_TRUE(project.plotZoom(0));
    const ks::render::PlotFrame outside = *project.plotZoom(0);
    const double dLeft = double(left) / double(fw) * (panned.x1 - panned.x0);
    EXPECT_NEAR(outside.x0, panned.x0 + dLeft, 0.05 * dLeft) << "the pan went on outside the picture";
    EXPECT_EQ(views->Pos.x, panelAt.x);
    io.MousePos = at;
    frame();
    frame();

    // A double-click: every element and the view's own range again.
    for (int click = 0; click < 2; ++click) {
        io.MouseDown[0] = true;
        frame();
        io.MouseDown[0] = false;
        frame();
    }
    frame();
    EXPECT_FALSE(project.plotZoom(0)) << "a double-click shows all";
    EXPECT_EQ(project.plotFrame(0), all);
}

// A log plot in the app (tests/projects/views_plot_log.json, 0.001..1000): labels at the decades,
// the axis titles drawn where the layout puts them, in their own ink; Shift+wheel zooms the values
// by a factor around the one under the mouse and a drag pans them by a factor.
TEST(HeadlessAppProject, LogPlotHasDecadesTitlesAndZoomsByFactors)
{
    std::string skip;
    std::unique_ptr<ks::app::HeadlessSession> session = mouseSession("views_plot_log.json", skip);
    if (!session)
        GTEST_SKIP() << skip;
    auto frame = [&] { frameAt60(*session); };
    const ks::app::AppState& state = session->app().state();
    ASSERT_TRUE(state.project.session) << "the project opened";
    const ks::scene::Session& project = *state.project.session;
    ASSERT_EQ(ks::app::uiProbe().count("view:"), 1u) << "the views panel drew the plot";
    const ks::render::PlotFrame all = project.plotFrame(0);
    EXPECT_TRUE(all.logY);
    EXPECT_FLOAT_EQ(float(all.y0), 1e-3f);
    EXPECT_FLOAT_EQ(float(all.y1), 1e3f);

    // The layout the panel drew from: the picture's rectangle and ImGui's font.
    const auto r = ks::test::drawnAt("view:0");
    const ks::app::PlotAxesLayout axes = ks::app::layoutPlotAxes(
        all, 200, r[0], r[1], r[2] - r[0], r[3] - r[1], ImGui::GetTextLineHeight(),
        [](const std::string& t) { return ImGui::CalcTextSize(t.c_str()).x; }, "element", "amplitude");
    const std::set<std::string> decadeLabels = {"1e-3", "0.01", "0.1", "1", "10", "100", "1000"};
    int values = 0;
    for (const ks::app::PlotAxisLabel& l : axes.labels) {
        if (l.kind != ks::app::PlotLabelKind::Value)
            continue;
        ++values;
        EXPECT_TRUE(decadeLabels.count(l.text)) << l.text;
    }
    EXPECT_GE(values, 3) << "every decade or every other one labelled";
    EXPECT_EQ(values, int(axes.gridY.size())) << "no label left out for the titles";
    const ks::io::Rgba8Image shot = session->screenshot();
    if (const char* keep = std::getenv("KS_KEEP_SCREENSHOTS"); keep && *keep)
        ks::io::writePng(std::filesystem::path(keep) / "ks_headless_app_views_plot_log.png", shot);
    int titles = 0;
    for (const ks::app::PlotAxisLabel& l : axes.labels) {
        if (l.kind != ks::app::PlotLabelKind::Title)
            continue;
        ++titles;
        const int ink =
            inkIn(shot, ks::app::theme::kViewTitle, int(l.x), int(l.y), int(l.x + l.width), int(l.y + l.height));
        EXPECT_GT(ink, 10) << "the title \"" << l.text << "\" where the layout put it";
    }
    EXPECT_EQ(titles, 2);

    // Shift+wheel with the mouse half-way up (at 1): a notch is 80% of the six decades, 1 stays.
    const float fx0 = r[0] + 0.05f * (r[2] - r[0]), fw = 0.9f * (r[2] - r[0]);
    const float fy1 = r[1] + 0.95f * (r[3] - r[1]), fh = 0.9f * (r[3] - r[1]);
    ImGuiIO& io = ImGui::GetIO();
    const ImVec2 at(fx0 + 0.5f * fw, fy1 - 0.5f * fh);
    io.MousePos = at;
    frame();
    frame();
    io.KeyShift = true;
    io.MouseWheel = 1.f;
    frame();
    io.KeyShift = false;
    frame();
    ASSERT_TRUE(project.plotZoom(0)) << "Shift+wheel zoomed the values";
    const ks::render::PlotFrame zoomed = *project.plotZoom(0);
    EXPECT_TRUE(zoomed.logY);
    EXPECT_NEAR(std::log10(zoomed.y1 / zoomed.y0), 0.8 * 6, 0.02);
    EXPECT_NEAR(std::log10(zoomed.y0 * zoomed.y1), 0.0, 0.03) << "around 1, the value at the cursor";
    EXPECT_EQ(zoomed.x0, all.x0) << "the elements as they were";

    // A drag 40 pixels down: both ends multiplied by the same factor, 40 / fh of the decades shown.
    io.MouseDown[0] = true;
    frame();
    for (int step = 1; step <= 4; ++step) {
        io.MousePos = ImVec2(at.x, at.y + 10.f * float(step));
        frame();
    }
    io.MouseDown[0] = false;
    frame();
    ASSERT_TRUE(project.plotZoom(0));
    const ks::render::PlotFrame panned = *project.plotZoom(0);
    const double decades = 40.0 / double(fh) * std::log10(zoomed.y1 / zoomed.y0);
    EXPECT_NEAR(std::log10(panned.y0 / zoomed.y0), decades, 0.05 * decades) << "dragged down: higher values come in";
    EXPECT_NEAR(std::log10(panned.y1 / zoomed.y1), decades, 0.05 * decades);

    // The GPU process that replaces this one (after a fault) shows the plot as it was zoomed.
    ks::app::supervise::Restore restore;
    restore.state = nlohmann::json::parse(nlohmann::json(session->app().snapshot()).dump())
                        .get<ks::app::supervise::AppSnapshot>();
    ASSERT_EQ(restore.state.plotZooms.size(), 1u);
    session.reset(); // one app (and ImGui context) at a time
    const std::unique_ptr<ks::app::HeadlessSession> next = mouseSession("views_plot_log.json", skip);
    ASSERT_TRUE(next) << skip;
    next->app().restore(restore);
    frameAt60(*next);
    const ks::app::AppState& nextState = next->app().state();
    ASSERT_TRUE(nextState.project.session);
    ASSERT_TRUE(nextState.project.session->plotZoom(0)) << "the zoom came back";
    EXPECT_EQ(*nextState.project.session->plotZoom(0), panned);
    EXPECT_EQ(nextState.project.session->plotFrame(0), panned) << "and was drawn";
}

// A 3-D view in the app, dragged as a user would: a left drag on the picture orbits the camera
// (0.3 degrees a pixel: right turns the yaw down, down tilts the pitch up) without moving the
// panel, and a drag that begins on the picture and leaves it goes on orbiting while it is held.
// The camera is the CPU's; the project has no kernel stage, so it runs without CUDA.
TEST(HeadlessAppProject, HeightFieldViewOrbitsFromADragThatMayLeaveIt)
{
    std::string skip;
    const auto session = mouseSession("views_heightfield.json", skip);
    if (!session)
        GTEST_SKIP() << skip;
    auto frame = [&] { frameAt60(*session); };
    const ks::app::AppState& state = session->app().state();
    ASSERT_TRUE(state.project.session) << "the project opened";
    ASSERT_EQ(state.project.session->pipeline().project().views.at(0).kind, ks::project::ViewKind::HeightField);
    ASSERT_EQ(ks::app::uiProbe().count("view:"), 1u) << "the views panel drew the height field";
    const ImGuiWindow* views = ImGui::FindWindowByName(ks::app::kViewsPanel);
    ASSERT_TRUE(views && views->Active);
    const ImVec2 panelAt = views->Pos;
    const ks::render::OrbitCamera& camera = state.project.session->camera();
    const ks::render::OrbitCamera start = camera;
    EXPECT_FLOAT_EQ(start.yaw, 25.f) << "the project's camera";
    EXPECT_FLOAT_EQ(start.pitch, 35.f);

    // A drag 60 pixels right and 30 down from the middle of the picture, in steps.
    const auto r = ks::test::drawnAt("view:0");
    const ImVec2 at(std::floor((r[0] + r[2]) / 2), std::floor((r[1] + r[3]) / 2)); // ImGui floors the mouse's place
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = at;
    frame();
    frame();
    dragLeft(*session, ImVec2(60.f, 30.f), 6);
    EXPECT_NEAR(camera.yaw, start.yaw - 0.3f * 60.f, 1e-3f) << "dragged right: the camera turns the other way";
    EXPECT_NEAR(camera.pitch, start.pitch + 0.3f * 30.f, 1e-3f) << "dragged down: it looks from higher up";
    EXPECT_EQ(camera.target, start.target) << "a left drag orbits; it does not pan";
    EXPECT_EQ(camera.distance, start.distance);
    EXPECT_EQ(views->Pos.x, panelAt.x) << "the drag turned the camera, not the panel";
    EXPECT_EQ(views->Pos.y, panelAt.y);

    // A drag from the middle to 40 pixels (or a few more) past the picture's left edge: it orbits all
    // the way, also on the steps taken outside the picture.
    io.MousePos = at;
    for (int i = 0; i < 30; ++i)
        frame();
    const ks::render::OrbitCamera before = camera;
    const float stepX = std::ceil((at.x - r[0] + 40.f) / 8.f), left = 8.f * stepX;
    ASSERT_GT(at.x - 6.f * stepX, r[0]) << "six steps inside the picture";
    ASSERT_LT(at.x - 7.f * stepX, r[0]) << "the last two outside";
    float yawInside = 0;
    dragLeft(*session, ImVec2(-left, 0.f), 8, [&](int step) {
        if (step == 6)
            yawInside = camera.yaw;
    });
    EXPECT_NEAR(camera.yaw, before.yaw + 0.3f * left, 1e-3f) << "the orbit went on outside the picture";
    EXPECT_NEAR(camera.yaw - yawInside, 0.3f * 2.f * stepX, 1e-3f) << "the two steps outside turned it too";
    EXPECT_EQ(camera.pitch, before.pitch);
    EXPECT_EQ(views->Pos.x, panelAt.x);
    EXPECT_EQ(views->Pos.y, panelAt.y);

    // Once released outside, moving back over the picture does not orbit.
    const float yawReleased = camera.yaw;
    io.MousePos = at;
    frame();
    frame();
    EXPECT_EQ(camera.yaw, yawReleased);
}
