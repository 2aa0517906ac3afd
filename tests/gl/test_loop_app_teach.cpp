// The teaching panels in the whole app, headless on Mesa (no GPU needed): opening a project shows
// its kernel in the editor, the classroom layout puts the editor beside the picture with the launch
// panel open and large fonts, and the layout switch brings the standard panels back.
#include "app.hpp"
#include "ks/core/error.hpp"
#include "cli/options.hpp"
#include "platform/platforms.hpp"

#include "panels/theme.hpp"
#include "test_support.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <chrono>
#include <memory>

namespace {

std::unique_ptr<ks::app::HeadlessSession> openHeadless(ks::app::AppOptions options)
{
    options.headless = true;
    options.dataDir = ks::test::sourceDir();
    options.recoveryDir = std::filesystem::temp_directory_path() / "ks_gl_teach_recovery";
    try {
        return std::make_unique<ks::app::HeadlessSession>(options);
    } catch (const ks::Error& e) {
        if (e.domain() == ks::ErrorDomain::Egl)
            return nullptr;
        throw;
    }
}

// The window called `name` as the last frame placed it; null when it was not drawn.
const ImGuiWindow* drawn(const char* name)
{
    const ImGuiWindow* w = ImGui::FindWindowByName(name);
    return w && w->Active ? w : nullptr;
}

} // namespace

// With DejaVu (where installed) and with ImGui's built-in font ("--font none": what a machine
// without DejaVu gets, as the lent GPU hosts): the classroom fonts are half as large again either way.
TEST(TeachApp, ClassroomLayoutAndBack)
{
    for (const char* font : {"", "none"}) {
        SCOPED_TRACE(std::string("--font ") + (*font ? font : "(default)"));
        ks::app::AppOptions options;
        options.width = 1600;
        options.height = 900;
        options.project = ks::test::sourceDir() / "projects" / "doublify.json";
        options.layout = "classroom";
        options.font = font;
        auto session = openHeadless(options);
        if (!session)
            GTEST_SKIP() << "no headless GL";
        for (int i = 0; i < 3; ++i)
            session->renderFrame();
        const ks::app::AppState& state = session->app().state();
        ASSERT_TRUE(state.project.session) << "the project did not open";
        // The stage's kernel file is open in the editor.
        EXPECT_TRUE(std::any_of(state.editor.tabs.begin(), state.editor.tabs.end(),
                                [](const auto& tab) { return tab->doc.path().filename() == "pycuda_tutorial.cu"; }));
        const ImGuiWindow* editor = drawn("Kernel editor");
        const ImGuiWindow* views = drawn("Views");
        const ImGuiWindow* launch = drawn("Launch");
        ASSERT_TRUE(editor && views && launch);
        EXPECT_FLOAT_EQ(editor->Pos.x, 0.f);
        EXPECT_NEAR(views->Pos.x, editor->Size.x, 1.f) << "the picture is beside the editor";
        EXPECT_NEAR(launch->Pos.x, views->Pos.x, 1.f) << "the launch panel is under the picture";
        EXPECT_GT(launch->Pos.y, views->Pos.y);
        EXPECT_FALSE(launch->Collapsed);
        EXPECT_EQ(drawn("Device"), nullptr);
        EXPECT_EQ(drawn("Project"), nullptr);
        ASSERT_TRUE(state.editor.monoFont);
        const float classroom = state.editor.monoFont->FontSize;

        session->app().teachCommands().layout = ks::app::Layout::Standard;
        session->renderFrame(); // applies the command
        session->renderFrame(); // lays out again
        EXPECT_EQ(state.teach.layout, ks::app::Layout::Standard);
        ASSERT_TRUE(drawn("Device"));
        ASSERT_TRUE(drawn("Project"));
        ASSERT_TRUE(state.editor.monoFont);
        EXPECT_NEAR(classroom / state.editor.monoFont->FontSize, 1.5f, 0.01f) << "large fonts: 1.5 times the standard";
        EXPECT_LT(drawn("Kernel editor")->Size.x, editor->Size.x + 1.f);
        // The panels' symbols: a check mark where the font has one, ASCII where it does not.
        const bool dejaVu = std::filesystem::exists("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf");
        EXPECT_STREQ(ks::app::theme::symbol("\xE2\x9C\x94", "ok:"), *font || !dejaVu ? "ok:" : "\xE2\x9C\x94");
    }
}

TEST(TeachApp, TeachingFlagsParseAndRefuseNonsense)
{
    auto parse = [](std::vector<std::string> args) {
        args.insert(args.begin(), "kernelscope");
        std::vector<char*> argv;
        for (auto& a : args)
            argv.push_back(a.data());
        return ks::app::parseOptions(int(argv.size()), argv.data());
    };
    auto ok = parse({"--headless", "--project", "p.json", "--overlay", "write count", "--inspect", "3,2"});
    ASSERT_TRUE(ok.options);
    EXPECT_TRUE(ok.options->ui) << "an overlay needs the panels";
    EXPECT_EQ(ok.options->overlayMode, 7);
    EXPECT_EQ(ok.options->inspect, (std::array<int, 2>{3, 2}));
    EXPECT_EQ(parse({"--overlay", "WARP"}).options->overlayMode, 3);
    EXPECT_EQ(parse({"--inspect", "17"}).options->inspect, (std::array<int, 2>{17, 0}));
    EXPECT_FALSE(parse({"--overlay", "rainbow"}).options);
    EXPECT_EQ(parse({"--overlay", "rainbow"}).exitCode, 2);
    EXPECT_FALSE(parse({"--inspect", "-1,2"}).options);
    EXPECT_FALSE(parse({"--layout", "cinema"}).options);
    EXPECT_FALSE(parse({"--headless", "--project", "p.json"}).options->ui);
}

// A project's kernel stage follows the editor's text of its file (saved or not): a broken edit
// leaves the stage with the failed build (and the last good module, where CUDA runs), a fixed one
// builds again. Checked here through the builds the stage adopts; no GPU needed.
TEST(TeachApp, ProjectStagesBuildTheEditorsText)
{
    ks::test::TempDir dir;
    const std::string kernel = "extern \"C\" __global__ void doublify(float* a)\n{\n    a[threadIdx.x] *= 5;\n}\n";
    const auto cu = dir.write("k.cu", kernel);
    const auto project = dir.write("p.json", R"({"kernelscope": 1, "name": "p",
        "resources": {"a": {"kind": "buffer", "type": "float", "count": 4, "init": 1}},
        "stages": [{"kind": "kernel", "name": "d", "file": "k.cu", "kernel": "doublify", "grid": [1], "block": [4],
                    "args": ["a"]}],
        "views": [{"kind": "plot", "name": "a", "source": "a"}]})");
    ks::app::AppOptions options;
    options.width = 800;
    options.height = 500;
    options.project = project;
    auto session = openHeadless(options);
    if (!session)
        GTEST_SKIP() << "no headless GL";
    session->renderFrame();
    const ks::app::AppState& state = session->app().state();
    ASSERT_TRUE(state.project.session);
    const auto& stage = static_cast<const ks::pipeline::KernelStage&>(state.project.session->pipeline().stage(0));
    ASSERT_TRUE(stage.lastBuild() && stage.lastBuild()->ok);
    EXPECT_NE(stage.lastBuild()->ptx.find("0f40A00000"), std::string::npos) << "the file's own x5";

    ASSERT_TRUE(session->app().editDocument(cu, "extern \"C\" __global__ void doublify(float* a)\n{\n    a[threadIdx.x] *= 2\n}\n"));
    ASSERT_TRUE(session->app().settleBuilds(std::chrono::seconds(60)));
    session->renderFrame();
    ASSERT_TRUE(stage.lastBuild());
    EXPECT_FALSE(stage.lastBuild()->ok) << "the stage took the editor's broken text";
    EXPECT_NE(stage.status().find("build failed"), std::string::npos) << stage.status();

    ASSERT_TRUE(session->app().editDocument(cu, "extern \"C\" __global__ void doublify(float* a)\n{\n    a[threadIdx.x] *= 3;\n}\n"));
    ASSERT_TRUE(session->app().settleBuilds(std::chrono::seconds(60)));
    session->renderFrame();
    EXPECT_TRUE(stage.lastBuild()->ok) << stage.status();
    // 3.0f is 0f40400000 in PTX, 5.0f 0f40A00000: the build is of the new text.
    EXPECT_NE(stage.lastBuild()->ptx.find("0f40400000"), std::string::npos) << stage.lastBuild()->ptx;
    EXPECT_EQ(stage.lastBuild()->ptx.find("0f40A00000"), std::string::npos);
}
