// The whole window (scene and ImGui panels) renders headless into a PNG, on Mesa where there is no
// GPU; without CUDA the app still opens and says why.
#include "app.hpp"
#include "ks/core/error.hpp"
#include "ks/io/image.hpp"
#include "cli/options.hpp"
#include "platform/platforms.hpp"

#include "test_support.hpp"

#include <set>

TEST(HeadlessApp, WritesAScreenshotOfTheWholeWindow)
{
    ks::app::AppOptions options;
    options.headless = true;
    options.frames = 3;
    options.width = 800;
    options.height = 500;
    options.dataDir = ks::test::sourceDir();
    options.screenshot = std::filesystem::temp_directory_path() / "ks_headless_app.png";
    std::filesystem::remove(options.screenshot);
    int rc = -1;
    try {
        rc = ks::app::runHeadless(options);
    } catch (const ks::Error& e) {
        if (e.domain() == ks::ErrorDomain::Egl)
            GTEST_SKIP() << "no headless GL: " << e.what();
        throw;
    }
    ASSERT_EQ(rc, 0);
    const ks::io::Rgba8Image shot = ks::io::readPng(options.screenshot);
    EXPECT_EQ(shot.width, 800);
    EXPECT_EQ(shot.height, 500);
    std::set<std::uint32_t> colours;
    for (std::size_t i = 0; i < shot.pixels.size(); i += 4)
        colours.insert(std::uint32_t(shot.pixels[i]) << 16 | std::uint32_t(shot.pixels[i + 1]) << 8 | shot.pixels[i + 2]);
    EXPECT_GT(colours.size(), 40u) << "panels with text should give many distinct colours";
    // The title bar of the first panel (Viewport) is at the top-left, in the style's title colour.
    const std::uint8_t* title = &shot.pixels[(std::size_t(6) * 800 + 200) * 4];
    EXPECT_GT(int(title[1]) + int(title[2]), 40) << "no panel title bar at the top";
    std::filesystem::remove(options.screenshot);
}
