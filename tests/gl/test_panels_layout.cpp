// The layouts fit their window: the default demo, headless (Mesa where there is no GPU: the kernel
// compiles and the panels draw), at the sizes people run it at, cuts no label or button of any panel
// (panels/ui_probe.hpp, recordClipped: whatever a window's items reach past its clip rectangle where
// no scroll bar reaches it, and whatever a table column's cells reach past the column), and at the
// default size, and at UI scales 1.5 and 2 on windows scaled alike, the kernel editor shows at least
// 80 columns of source. The classroom layout and a saved project (heat) cut nothing either.
#include "app.hpp"
#include "cli/options.hpp"
#include "panels/panels.hpp"
#include "panels/ui_probe.hpp"
#include "platform/platforms.hpp"

#include "headless_app.hpp"
#include "test_support.hpp"

#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

namespace {

struct Size {
    int width, height;
    float uiScale;
    int minColumns;           // 0: no demand
    const char* layout = "";  // --layout (and so the whole app); empty: none
    const char* project = ""; // --project, under the source folder; empty: the default demo
};

void PrintTo(const Size& s, std::ostream* os)
{
    *os << s.width << "x" << s.height << " at UI scale " << s.uiScale << (*s.layout ? ", layout " : "") << s.layout
        << (*s.project ? ", " : "") << s.project;
}

struct Fit {
    std::string clipped; // "WINDOW: W x H px cut" a line, empty when nothing is cut
    int columns = 0;     // the editor's whole columns of source
};

// Runs the app at `size` for a few frames (panels take their places on the first, scroll bars come
// on the next) and reads what the last frame cut and showed.
std::unique_ptr<ks::app::HeadlessSession> runApp(const Size& size, Fit& fit, std::string& whyNot)
{
    ks::app::AppOptions options = ks::test::headlessOptions(size.width, size.height);
    options.uiScale = size.uiScale;
    options.layout = size.layout;
    options.ui = *size.layout != 0;
    if (*size.project)
        options.project = ks::test::sourceDir() / size.project;
    auto session = ks::test::openHeadlessApp(options, whyNot);
    if (!session)
        return nullptr;
    for (int i = 0; i < 6; ++i)
        session->renderFrame();
    std::ostringstream clipped;
    for (const auto& [name, r] : ks::app::uiProbe().withPrefix("clip:"))
        clipped << name.substr(5) << ": " << std::lround(r[2] - r[0]) << " x " << std::lround(r[3] - r[1])
                << " px cut\n";
    fit.clipped = clipped.str();
    const auto text = ks::test::drawnAt("editor:text"), cell = ks::test::drawnAt("editor:cell");
    const float advance = cell[2] - cell[0];
    fit.columns = advance > 0 ? int(std::floor((text[2] - text[0]) / advance)) : 0;
    return session;
}

class LayoutFits : public ::testing::TestWithParam<Size> {};

TEST_P(LayoutFits, NoPanelCutsALabelAndTheEditorIsWide)
{
    const Size size = GetParam();
    Fit fit;
    std::string whyNot;
    const auto session = runApp(size, fit, whyNot);
    if (!session)
        GTEST_SKIP() << "no headless GL: " << whyNot;
    EXPECT_EQ(fit.clipped, "") << "what the panels cut";
    EXPECT_GE(fit.columns, size.minColumns) << "the editor's columns";
    std::cout << ::testing::PrintToString(size) << ": the editor shows " << fit.columns << " columns\n";
}

// A bar's overlay (the Timings panel's "stage: 0.1234 ms, 2950.1 GB/s") stays inside the bar where
// it fits, and goes on wrapped lines above an empty overlay where it does not (the bar would cut it).
TEST(LayoutOverlay, ABarsTextMovesAboveItWhereTheBarIsTooNarrow)
{
    ImGuiContext* context = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr; // writes no imgui.ini
    io.DisplaySize = ImVec2(800, 600);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h); // the default font, built in
    const char* text = "mandelbrot: 0.1234 ms, 2950.1 GB/s";
    std::string wide, narrow;
    float narrowCursor = 0, narrowStart = 0, line = 0;
    for (int frame = 0; frame < 2; ++frame) { // window sizes apply from the first frame
        ImGui::NewFrame();
        const float textWidth = ImGui::CalcTextSize(text).x;
        ImGui::SetNextWindowSize(ImVec2(textWidth + 100, 200));
        ImGui::Begin("wide");
        wide = ks::app::overlayOrAbove(text);
        ImGui::End();
        ImGui::SetNextWindowSize(ImVec2(textWidth * 0.5f, 200));
        ImGui::Begin("narrow");
        narrowStart = ImGui::GetCursorPosY();
        narrow = ks::app::overlayOrAbove(text);
        narrowCursor = ImGui::GetCursorPosY();
        line = ImGui::GetTextLineHeight();
        ImGui::End();
        ImGui::EndFrame();
    }
    ImGui::DestroyContext(context);
    EXPECT_EQ(wide, text) << "it fits: inside the bar";
    EXPECT_EQ(narrow, "") << "too wide for the bar: the bar shows none";
    EXPECT_GT(narrowCursor - narrowStart, 2 * line)
        << "the text went above the bar, on more than one line";
}

INSTANTIATE_TEST_SUITE_P(Sizes, LayoutFits,
                         ::testing::Values(Size{1600, 900, 1.f, 80}, Size{1280, 720, 1.f, 0},
                                           Size{2400, 1350, 1.5f, 80}, Size{3200, 1800, 2.f, 80},
                                           Size{1600, 900, 1.f, 0, "classroom"}, Size{1280, 720, 1.f, 0, "classroom"},
                                           Size{1600, 900, 1.f, 0, "standard", "projects/heat.json"},
                                           Size{1280, 720, 1.f, 0, "standard", "projects/heat.json"}),
                         [](const auto& info) {
                             const Size& s = info.param;
                             std::string name = std::to_string(s.width) + "x" + std::to_string(s.height);
                             if (*s.project)
                                 name += "_" + std::filesystem::path(s.project).stem().string();
                             else if (*s.layout)
                                 name += std::string("_") + s.layout;
                             return name;
                         });

} // namespace
