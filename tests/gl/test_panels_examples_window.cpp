// File > Examples on the whole app headless: every shipped project is listed with its name and its
// one-line description (each shipped project has one), with its picture where
// assets/thumbnails/NAME.png is shipped, and Open opens it and closes the window.
#include "app.hpp"
#include "app_state.hpp"
#include "cli/options.hpp"
#include "panels/panels.hpp"
#include "panels/ui_probe.hpp"
#include "platform/platforms.hpp"

#include "headless_app.hpp"
#include "test_support.hpp"

#include <imgui.h>

#include <filesystem>

namespace fs = std::filesystem;

TEST(ExamplesWindow, ListsEveryShippedProjectWithItsDescriptionAndOpensOne)
{
    ks::app::AppOptions options;
    options.headless = true;
    options.width = 1280;
    options.height = 720;
    options.dataDir = ks::test::sourceDir();
    std::string whyNot;
    auto session = ks::test::openHeadlessApp(options, whyNot);
    if (!session)
        GTEST_SKIP() << "no headless GL: " << whyNot;
    session->renderFrame();
    ks::test::clickAt(*session, ks::test::drawnAt("menu:File"));
    ks::test::clickAt(*session, ks::test::drawnAt("menu:Examples..."));
    const ks::app::ExamplesState& ex = session->app().state().menu.examples;
    ASSERT_TRUE(ex.show);
    const auto shipped = ks::app::shippedProjects(ks::test::sourceDir());
    ASSERT_EQ(ex.entries.size(), shipped.size());
    ASSERT_GE(shipped.size(), 10u);
    for (const ks::app::ExampleEntry& e : ex.entries) {
        EXPECT_FALSE(e.description.empty()) << e.file << " has a one-line description";
        EXPECT_EQ(e.description.find("cannot read it"), std::string::npos) << e.description;
        EXPECT_EQ(e.description.find('\n'), std::string::npos) << e.file;
        const fs::path picture = ks::test::sourceDir() / "assets" / "thumbnails" / (e.file.stem().string() + ".png");
        EXPECT_EQ(!e.thumbnail.empty(), fs::exists(picture)) << e.file;
    }
    const fs::path heat = ks::test::sourceDir() / "projects" / "heat.json";
    ks::test::clickAt(*session, ks::test::drawnAt("examples:heat"));
    EXPECT_FALSE(ex.show) << "Open closes the window";
    ASSERT_TRUE(session->app().state().project.session);
    EXPECT_EQ(session->app().state().project.session->pipeline().project().file, fs::absolute(heat).lexically_normal());
}
