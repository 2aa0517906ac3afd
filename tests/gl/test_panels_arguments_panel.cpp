// The Arguments panel of a project inferred from a kernel, headless (Mesa where there is no GPU:
// the kernel does not run, but it is inferred, the project opens and the panels draw): one row per
// parameter with its binding and reason; a changed binding infers the project again and Undo
// brings the last one back; a bad binding keeps the project running and says why; a data file
// dropped on a row binds that parameter; a dropped .cu runs its kernel; File > Open kernel... and
// File > Save project as... go through the file dialog.
#include "app.hpp"
#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/io/npy.hpp"
#include "ks/project/project.hpp"
#include "cli/options.hpp"
#include "panels/panels.hpp"
#include "platform/platforms.hpp"
#include "supervise/protocol.hpp"

#include "headless_app.hpp"
#include "test_support.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using ks::app::HeadlessSession;

namespace {

constexpr int kGlfwKeyEnter = 257, kGlfwKeyZ = 90, kGlfwKeyA = 65; // as the GLFW shell sends them

class ArgumentsPanel : public ::testing::Test {
protected:
    void SetUp() override
    {
        // The kernels in a folder of the test's own: Save project as... defaults to the kernel's folder.
        // fill.cu's output is zeros until a kernel runs: a flat plot, quick to draw on Mesa (a
        // million random values, as saxpy's y starts, take seconds a frame).
        ks::test::writeFile(m_dir.path() / "vector_add.cu",
                            ks::paths::readTextFile(ks::test::sourceDir() / "kernels" / "tutorials" / "vector_add.cu"));
        ks::test::writeFile(m_dir.path() / "fill.cu", "__global__ void fill(float* out, int n, float value)\n"
                                                       "{\n"
                                                       "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                                       "    if (i < n) out[i] = value;\n"
                                                       "}\n");
        m_options.headless = true;
        m_options.width = 1600;
        m_options.height = 900;
        m_options.dataDir = ks::test::sourceDir();
        m_options.recoveryDir = m_dir.path() / "recovery";
        m_options.kernelSpec = (m_dir.path() / "vector_add.cu").string(); // --kernel
        std::string whyNot;
        m_session = ks::test::openHeadlessApp(m_options, whyNot);
        if (!m_session)
            GTEST_SKIP() << "no headless GL: " << whyNot;
        ImGuiIO& io = ImGui::GetIO();
        io.KeyMap[ImGuiKey_Enter] = kGlfwKeyEnter;
        io.KeyMap[ImGuiKey_Z] = kGlfwKeyZ;
        io.KeyMap[ImGuiKey_A] = kGlfwKeyA;
        frames(3);
    }

    ks::app::App& app() { return m_session->app(); }
    const ks::app::AppState& state() { return app().state(); }
    const ks::app::KernelProject& kernel()
    {
        EXPECT_TRUE(state().project.kernel) << "a project inferred from a kernel runs";
        return *state().project.kernel;
    }
    void frames(int n)
    {
        for (int i = 0; i < n; ++i)
            m_session->renderFrame();
    }
    // The running project's resource `name`.
    const ks::project::ResourceDesc& resource(const std::string& name)
    {
        const ks::project::ResourceDesc* r = state().project.session->pipeline().project().resource(name);
        EXPECT_TRUE(r) << name;
        return *r;
    }
    std::array<float, 4> rect(const std::string& name) { return ks::test::drawnAt("args:" + name); }
    std::array<float, 4> menuRect(const std::string& name)
    {
        return ks::test::drawnAt(name.starts_with("dialog:") ? name : "menu:" + name);
    }
    void clickAt(const std::array<float, 4>& r) { ks::test::clickAt(*m_session, r); }
    void press(int key, bool ctrl = false)
    {
        ImGuiIO& io = ImGui::GetIO();
        io.KeyCtrl = ctrl;
        io.KeysDown[key] = true;
        frames(1);
        io.KeysDown[key] = false;
        io.KeyCtrl = false;
        frames(2); // the command is applied after the frame; the next frame draws the new project
    }
    // Clicks the field, replaces its text with `text` and presses Enter.
    void enter(const std::array<float, 4>& field, const std::string& text)
    {
        clickAt(field);
        ImGuiIO& io = ImGui::GetIO();
        io.KeyCtrl = true;
        io.KeysDown[kGlfwKeyA] = true; // select what is there
        frames(1);
        io.KeysDown[kGlfwKeyA] = false;
        io.KeyCtrl = false;
        for (char c : text)
            io.AddInputCharacter(static_cast<unsigned char>(c));
        frames(1);
        press(kGlfwKeyEnter);
    }

    ks::test::TempDir m_dir;
    ks::app::AppOptions m_options;
    std::unique_ptr<HeadlessSession> m_session;
};

} // namespace

TEST_F(ArgumentsPanel, ListsEachParameterWithItsBindingAndReason)
{
    ASSERT_TRUE(state().project.session);
    const ks::app::KernelProject& k = kernel();
    ASSERT_EQ(k.inference.bindings.size(), 4u);
    const ImGuiWindow* w = ImGui::FindWindowByName(ks::app::kArgumentsPanel);
    ASSERT_TRUE(w && w->Active) << "the Arguments panel is drawn";
    float above = w->Pos.y;
    for (const char* name : {"A", "B", "C", "numElements"}) {
        SCOPED_TRACE(name);
        const auto b = std::find_if(k.inference.bindings.begin(), k.inference.bindings.end(),
                                    [&](const auto& b) { return b.param == name; });
        ASSERT_NE(b, k.inference.bindings.end());
        EXPECT_FALSE(b->reason.empty());
        const std::array<float, 4> row = rect(std::string("row:") + name);
        EXPECT_GE(row[1], above) << "rows in the order of the parameters";
        EXPECT_GT(row[3], row[1]);
        EXPECT_LE(row[3], w->Pos.y + w->Size.y) << "the row is inside the panel, not cut";
        above = row[3];
        rect(std::string("spec:") + name); // each has a control
    }
    EXPECT_EQ(kernel().inference.bindings[3].bound, "count of A");
    for (const char* buffer : {"A", "B", "C"})
        rect(std::string("shape:") + buffer);
    // In its place under the views: what goes in under what comes out.
    const ImGuiWindow* views = ImGui::FindWindowByName(ks::app::kViewsPanel);
    ASSERT_TRUE(views && views->Active);
    EXPECT_NEAR(w->Pos.x, views->Pos.x, 1.f);
    EXPECT_NEAR(w->Pos.y, views->Pos.y + views->Size.y, 1.f);
}

TEST_F(ArgumentsPanel, AChangedShapeInfersAgainAndUndoRestoresIt)
{
    const std::int64_t inferredCount = resource("A").count;
    ASSERT_GT(inferredCount, 1000);
    enter(rect("shape:A"), "1000");
    ASSERT_EQ(kernel().options.shapes.size(), 1u);
    EXPECT_EQ(kernel().options.shapes[0].second, std::vector<std::int64_t>{1000});
    EXPECT_EQ(resource("A").count, 1000) << "the running project was inferred again";
    EXPECT_EQ(kernel().undo.size(), 1u);
    EXPECT_TRUE(kernel().problems.empty());

    clickAt(rect("Undo"));
    EXPECT_TRUE(kernel().options.shapes.empty());
    EXPECT_EQ(resource("A").count, inferredCount);
    EXPECT_TRUE(kernel().undo.empty());

    // Ctrl+Z in the panel does the same.
    enter(rect("shape:B"), "4x8");
    EXPECT_EQ(resource("B").count, 32);
    ASSERT_TRUE(resource("B").shape);
    press(kGlfwKeyZ, true);
    EXPECT_TRUE(kernel().options.shapes.empty());
    EXPECT_EQ(resource("B").count, inferredCount);
}

TEST_F(ArgumentsPanel, ABadBindingKeepsTheProjectAndShowsTheProblem)
{
    const ks::scene::Session* running = state().project.session.get();
    enter(rect("spec:A"), "missing.npy");
    EXPECT_EQ(state().project.session.get(), running) << "the project runs on";
    EXPECT_TRUE(kernel().options.args.empty());
    ASSERT_FALSE(kernel().problems.empty());
    EXPECT_NE(kernel().problems.front().format().find("missing.npy"), std::string::npos)
        << kernel().problems.front().format();
    // And a field that is not a shape says so without inferring.
    enter(rect("shape:A"), "ten");
    EXPECT_NE(kernel().fieldProblem.find("'ten'"), std::string::npos) << kernel().fieldProblem;
    EXPECT_EQ(state().project.session.get(), running);
}

TEST_F(ArgumentsPanel, ADataFileDroppedOnARowBindsItsParameter)
{
    const fs::path npy = m_dir.path() / "b.npy";
    std::vector<float> values(500);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = float(i);
    ks::io::writeNpy(npy, "<f4", {500}, values.data(), values.size() * sizeof(float));
    const std::array<float, 4> row = rect("row:B");
    app().dropFiles({npy}, (row[0] + row[2]) / 2, (row[1] + row[3]) / 2);
    frames(2);
    ASSERT_EQ(kernel().options.args.size(), 1u);
    EXPECT_EQ(kernel().options.args[0].first, "B");
    EXPECT_EQ(resource("B").count, 500) << "its shape is the data's";

    // A kernel dropped anywhere runs its first kernel.
    app().dropFiles({m_dir.path() / "fill.cu"}, 800, 300);
    frames(2);
    EXPECT_EQ(kernel().file.filename(), "fill.cu");
    EXPECT_TRUE(kernel().undo.empty());
}

TEST_F(ArgumentsPanel, OpenKernelAndSaveProjectAsGoThroughTheFileDialog)
{
    clickAt(menuRect("File"));
    clickAt(menuRect("Open kernel..."));
    clickAt(menuRect("dialog:name"));
    for (char c : std::string("fill.cu"))
        ImGui::GetIO().AddInputCharacter(static_cast<unsigned char>(c));
    frames(1);
    clickAt(menuRect("dialog:Open"));
    ASSERT_EQ(kernel().file, fs::absolute(m_dir.path() / "fill.cu"));
    frames(1); // the new project's rows settle a frame after they first appear (ImGui sizes them late)

    enter(rect("spec:value"), "3"); // a parameter with a slider becomes the value 3
    ASSERT_EQ(kernel().options.args.size(), 1u);

    clickAt(menuRect("File"));
    clickAt(menuRect("Save project as..."));
    clickAt(menuRect("dialog:Save")); // the default: fill.json beside the kernel
    const fs::path saved = m_dir.path() / "fill.json";
    ASSERT_TRUE(fs::exists(saved)) << "dialog: " << state().menu.fileDialog.problem << " purpose "
                                   << int(state().menu.fileDialog.purpose);
    const ks::project::LoadResult loaded = ks::project::loadProject(saved);
    ASSERT_TRUE(loaded.ok()) << (loaded.problems.empty() ? "" : loaded.problems.front().format());
    const ks::pipeline::Pipeline& p = state().project.session->pipeline();
    EXPECT_EQ(ks::project::serializeProject(*loaded.project, saved), ks::project::serializeProject(p.snapshot(), saved));
}

// The supervised window's GPU process is replaced after a fault: the next one gets the snapshot the
// shell kept (as JSON) and shows the same bindings, with their undo steps.
TEST_F(ArgumentsPanel, TheBindingsComeBackInTheProcessThatReplacesThisOne)
{
    enter(rect("shape:A"), "1000");
    ASSERT_EQ(resource("A").count, 1000);
    ks::app::supervise::Restore restore;
    restore.state =
        nlohmann::json::parse(nlohmann::json(app().snapshot()).dump()).get<ks::app::supervise::AppSnapshot>();
    EXPECT_EQ(restore.state.kernelOptions.shapes.size(), 1u);

    m_session.reset();
    m_options.kernelSpec.clear(); // opened in the app, not by --kernel
    std::string whyNot;
    m_session = ks::test::openHeadlessApp(m_options, whyNot);
    ASSERT_TRUE(m_session) << whyNot;
    app().restore(restore);
    frames(2);
    ASSERT_TRUE(state().project.kernel);
    EXPECT_EQ(kernel().file, fs::absolute(m_dir.path() / "vector_add.cu"));
    ASSERT_EQ(kernel().options.shapes.size(), 1u);
    EXPECT_EQ(kernel().undo.size(), 1u);
    EXPECT_EQ(resource("A").count, 1000);
    rect("row:numElements"); // the panel is drawn
    clickAt(rect("Undo"));
    EXPECT_TRUE(kernel().options.shapes.empty());
}

// A struct passed by value gets a field per member; Enter binds the struct to the members typed,
// and the running project's argument carries them.
TEST_F(ArgumentsPanel, AStructByValueIsEditedMemberByMember)
{
    ks::test::writeFile(m_dir.path() / "particles_aos.cu",
                        ks::paths::readTextFile(ks::test::sourceDir() / "kernels" / "tutorials" / "particles_aos.cu"));
    app().projectCommands().openKernel = std::make_pair(m_dir.path() / "particles_aos.cu", std::string());
    frames(3);
    ASSERT_EQ(kernel().inference.bindings.size(), 3u);
    EXPECT_EQ(kernel().inference.bindings[2].bound, "struct StepSettings");
    enter(rect("member:step.gravity"), "0, -9.8, 0");
    enter(rect("member:step.dt"), "0.01");
    ASSERT_EQ(kernel().options.args.size(), 1u);
    EXPECT_EQ(kernel().options.args[0].second, R"({"dt": [0.01], "gravity": [0, -9.8, 0]})");
    const auto& args = state().project.session->pipeline().project().stages.at(0).args;
    ASSERT_EQ(args.size(), 3u);
    ASSERT_EQ(args[2].kind, ks::project::ArgBinding::Kind::Record);
    EXPECT_EQ(args[2].fields, (std::vector<ks::project::RecordValue>{{"dt", {0.01}}, {"gravity", {0, -9.8, 0}}}));
    EXPECT_TRUE(kernel().problems.empty());
    // A member it does not hold is refused; the project runs on with the members it had.
    enter(rect("member:step.floor"), "1, 2");
    EXPECT_FALSE(kernel().problems.empty());
    EXPECT_EQ(state().project.session->pipeline().project().stages.at(0).args[2].fields.size(), 2u);
}
