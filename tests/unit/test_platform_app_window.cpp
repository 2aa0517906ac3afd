// The window's saved place (app/platform/app_window.cpp): window.json in the settings folder reads
// back as written; a missing, malformed or out-of-range file gives none (a warning says why), so
// the window opens at --size or the default.
#include "platform/app_window.hpp"

#include "ks/core/paths.hpp"

#include "test_support.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

TEST(WindowPlacement, ReadsBackWhatWasSaved)
{
    ks::test::TempDir dir;
    ks::test::ScopedEnv config("XDG_CONFIG_HOME", dir.path().string());
    EXPECT_FALSE(ks::app::loadWindowPlacement()) << "nothing saved yet";
    ks::app::saveWindowPlacement({120, 80, 1440, 810, false});
    const auto p = ks::app::loadWindowPlacement();
    ASSERT_TRUE(p);
    EXPECT_EQ(p->x, 120);
    EXPECT_EQ(p->y, 80);
    EXPECT_EQ(p->width, 1440);
    EXPECT_EQ(p->height, 810);
    EXPECT_FALSE(p->maximized);
    EXPECT_TRUE(fs::exists(dir.path() / "kernelscope" / "window.json"));
}

TEST(WindowPlacement, MalformedOrOutOfRangeGivesNone)
{
    ks::test::TempDir dir;
    ks::test::ScopedEnv config("XDG_CONFIG_HOME", dir.path().string());
    const fs::path file = dir.write("kernelscope/window.json", "{\"width\": 1440, \"height\": ");
    EXPECT_FALSE(ks::app::loadWindowPlacement());
    std::ofstream(file) << R"({"x": 0, "y": 0, "width": 0, "height": 900})";
    EXPECT_FALSE(ks::app::loadWindowPlacement()) << "a zero width";
    std::ofstream(file) << R"({"x": 0, "y": 0, "width": 100000, "height": 900})";
    EXPECT_FALSE(ks::app::loadWindowPlacement()) << "past the largest window";
    std::ofstream(file) << R"({"width": 800, "height": 600, "maximized": true})";
    const auto p = ks::app::loadWindowPlacement();
    ASSERT_TRUE(p) << "fields left out take their defaults";
    EXPECT_TRUE(p->maximized);
}
