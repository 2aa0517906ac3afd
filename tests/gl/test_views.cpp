// Views render headless (Mesa's software device where there is no GPU) from CPU-uploaded data and
// match reference images made by `kernelscope --headless --project tests/projects/views_X.json
// --frames 1 --size 480x270 --screenshot tests/reference/views_X.png` (or by this test with
// KS_UPDATE_REFERENCES=1). Also: stage order, restart and shader reload without CUDA.
#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/image/png.hpp"
#include "ks/project/project.hpp"
#include "ks/scene/session.hpp"

#include "test_support.hpp"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <set>
#include <string>
#include <fstream>

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
    const ks::image::Rgba8Image shot = session.composite(480, 270);
    for (std::size_t i = 0; i < session.viewCount(); ++i)
        EXPECT_TRUE(session.viewError(i).empty()) << session.viewError(i);
    const std::filesystem::path ref = ks::test::referenceDir() / (name + ".png");
    if (const char* update = std::getenv("KS_UPDATE_REFERENCES"); update && *update == '1') {
        ks::image::writePng(ref, shot);
        GTEST_SKIP() << "wrote reference " << ref;
    }
    if (!std::filesystem::exists(ref))
        GTEST_SKIP() << "no reference " << ref << "; run with KS_UPDATE_REFERENCES=1 to make it";
    const ks::image::Rgba8Image expected = ks::image::readPng(ref);
    const ks::image::CompareResult c = ks::image::compare(shot, expected, 8);
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

} // namespace

// The whole app with a project open (Project, Views and Timings panels) renders headless.
#include "app.hpp"
#include "options.hpp"
#include "panels/theme.hpp"
#include "platform/platforms.hpp"

namespace {

// The whole app, headless (1000 x 600, 3 frames), on a project of tests/projects; its screenshot,
// or nothing with `skip` set when there is no headless GL.
std::optional<ks::image::Rgba8Image> appScreenshot(const char* project, std::string& skip)
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
    ks::image::Rgba8Image shot = ks::image::readPng(options.screenshot);
    if (const char* keep = std::getenv("KS_KEEP_SCREENSHOTS"); keep && *keep)
        ks::image::writePng(std::filesystem::path(keep) / options.screenshot.filename(), shot);
    return shot;
}

// Pixels of the axis and colour-bar labels' ink (theme::kViewLabel) in the Views panel of a
// 1000 x 600 app screenshot (the middle of the standard project layout); nothing else there has
// that grey.
int labelInkInViews(const ks::image::Rgba8Image& shot)
{
    const ImU32 c = ks::app::theme::kViewLabel;
    const int r = int(c & 0xFF), g = int((c >> 8) & 0xFF), b = int((c >> 16) & 0xFF);
    int ink = 0;
    for (int y = 30; y < 330; ++y)
        for (int x = 320; x < 700; ++x) {
            const std::uint8_t* p = &shot.pixels[(std::size_t(y) * 1000 + std::size_t(x)) * 4];
            ink += std::abs(p[0] - r) <= 10 && std::abs(p[1] - g) <= 10 && std::abs(p[2] - b) <= 10;
        }
    return ink;
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
