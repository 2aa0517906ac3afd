// On a GPU host: the teaching panels in the whole app, headless. The launch panel refuses each kind
// of invalid launch naming the limit and leaves the stage as it was; a valid one relaunches (a
// "once" stage from its initial data); "suggest" asks the driver; the overlay records who wrote
// each element and the inspector reads every resource there; the timeline records every block.
#include "app.hpp"
#include "ks/core/file_watcher.hpp"
#include "ks/core/paths.hpp"
#include "cli/options.hpp"
#include "platform/platforms.hpp"
#include "loop/teach_support.hpp"

#include "test_support.hpp"

#include <memory>

using ks::test::InteropTest;

namespace {

class TeachAppInterop : public InteropTest {
protected:
    void SetUp() override
    {
        InteropTest::SetUp();
        if (IsSkipped())
            return;
        m_egl = ks::gl::EglContext(); // the session makes its own context on this device
        ks::app::AppOptions options;
        options.headless = true;
        options.width = 1400;
        options.height = 800;
        options.dataDir = ks::test::sourceDir();
        options.recoveryDir = std::filesystem::temp_directory_path() / "ks_interop_teach_recovery";
        options.project = ks::test::sourceDir() / "projects" / "doublify.json";
        options.overlayMode = 1; // threadIdx
        options.inspect = std::array<int, 2>{1, 2};
        m_session = std::make_unique<ks::app::HeadlessSession>(options);
        frames(3);
    }
    void frames(int n)
    {
        for (int i = 0; i < n; ++i)
            m_session->renderFrame();
    }
    ks::app::App& app() { return m_session->app(); }
    const ks::app::AppState& state() { return app().state(); }
    const ks::project::StageDesc& stage() { return state().project.session->pipeline().stage(0).desc(); }
    // Pushes a launch edit and returns the refusal ("" when applied).
    std::string launch(std::array<int, 3> grid, std::array<int, 3> block, int shared = 0)
    {
        ks::app::LaunchEdit e;
        e.grid = grid;
        e.block = block;
        e.sharedBytes = shared;
        app().teachCommands().setLaunch = e;
        frames(1);
        return state().teach.refusal;
    }
    std::unique_ptr<ks::app::HeadlessSession> m_session;
};

TEST_F(TeachAppInterop, LaunchPanelRefusesEachLimitAndAppliesValidLaunches)
{
    ASSERT_TRUE(state().project.session);
    const struct {
        std::array<int, 3> grid, block;
        int shared;
        const char* limit;
    } refused[] = {
        {{1, 1, 1}, {64, 32, 1}, 0, "threads per block"},
        {{1, 1, 1}, {2000, 1, 1}, 0, "block dimension x"},
        {{1, 1, 1}, {1, 1, 65}, 0, "block dimension z"},
        {{1, 70000, 1}, {4, 4, 1}, 0, "grid"},
        {{0, 1, 1}, {4, 4, 1}, 0, "at least 1"},
        {{1, 1, 1}, {4, 4, 1}, 400 * 1024, "shared memory"},
    };
    for (const auto& r : refused) {
        const std::string why = launch(r.grid, r.block, r.shared);
        EXPECT_NE(why.find(r.limit), std::string::npos) << "expected the limit \"" << r.limit << "\" in: " << why;
        EXPECT_EQ(stage().block, (std::array<unsigned, 3>{4, 4, 1})) << "a refused launch changes nothing";
        EXPECT_EQ(stage().grid, (std::array<unsigned, 3>{1, 1, 1}));
    }
    // The classic hard-wired blockDim bug: 8 x 2 threads, idx = threadIdx.x + threadIdx.y * 4.
    EXPECT_EQ(launch({1, 1, 1}, {8, 2, 1}), "");
    EXPECT_EQ(stage().block, (std::array<unsigned, 3>{8, 2, 1}));
    frames(3);
    const auto* c = state().project.probe->latest(ks::teach::VariantKind::WhoWrote);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->launch.block, (ks::cuda::Dim3{8, 2, 1}));
    for (unsigned i = 0; i < 16; ++i) {
        // Row 0 of threads writes 0..7, row 1 writes 4..11: 4..7 twice, 12..15 never.
        const unsigned expected = i < 4 ? 1u : i < 8 ? 2u : i < 12 ? 1u : 0u;
        EXPECT_EQ(c->who.records[i].writeCount, expected) << i;
    }
    // Suggest asks the driver; the answer launches. Not on doublify: it indexes by threadIdx alone,
    // so any block of more than 16 threads writes past its 16 floats; whether that faults depends
    // on what lies after the buffer (it did once other tests had run in the process). pi_map has a
    // bounds check.
    app().projectCommands().open = ks::test::sourceDir() / "projects" / "teaching" / "pi_small.json";
    frames(3);
    ASSERT_EQ(stage().kernel, "pi_map");
    app().teachCommands().suggest = true;
    frames(2);
    EXPECT_NE(state().teach.suggestion.find("cuOccupancyMaxPotentialBlockSize"), std::string::npos)
        << state().teach.suggestion;
    EXPECT_EQ(state().teach.refusal, "");
    EXPECT_EQ(stage().block[0] * stage().block[1] % 32, 0u);
}

TEST_F(TeachAppInterop, InspectorAndTimeline)
{
    ASSERT_TRUE(state().project.session);
    ASSERT_TRUE(state().teach.inspection) << state().teach.error;
    const auto& in = *state().teach.inspection;
    EXPECT_EQ(in.element, 9u); // (1, 2) of a 4-wide output
    ASSERT_TRUE(in.who.writer);
    EXPECT_EQ(in.who.writer->threadIdx, (ks::cuda::Dim3{1, 2, 0}));
    ASSERT_EQ(in.values.size(), 1u);
    EXPECT_EQ(in.values[0].resource, "a");
    const double doubled = 2 * state().project.session->pipeline().project().resources[0].init[9];
    EXPECT_NEAR(std::stod(in.values[0].text), doubled, 1e-5) << in.values[0].text;

    app().teachCommands().recordTimeline = true;
    frames(3);
    const auto* t = state().project.probe->latest(ks::teach::VariantKind::BlockTimeline);
    ASSERT_TRUE(t) << state().teach.error;
    ASSERT_EQ(t->timeline.blocks.size(), 1u);
    EXPECT_GE(t->timeline.blocks[0].endNs, t->timeline.blocks[0].startNs);
    EXPECT_TRUE(t->model.problems.empty());
}

// An edit of the kernel records the overlay again (the recording is of the build that runs now):
// the key of a recording once held the address of the stage's function member, which no rebuild
// changes, so the overlay kept showing the first build's threads.
TEST_F(TeachAppInterop, OverlayRecordsAgainAfterAnEdit)
{
    ASSERT_TRUE(state().project.session);
    const std::int64_t first = state().teach.overlayFrame;
    ASSERT_GE(first, 0) << "no overlay recorded: " << state().teach.error;
    const std::filesystem::path file =
        state().project.session->pipeline().project().resolve(stage().file);
    const std::string text = ks::paths::readTextFile(file) + "\n// edited by OverlayRecordsAgainAfterAnEdit\n";
    ASSERT_TRUE(app().editDocument(ks::FileWatcher::normalize(file), text));
    ASSERT_TRUE(app().settleBuilds(std::chrono::seconds(60)));
    frames(3);
    EXPECT_TRUE(state().teach.error.empty()) << state().teach.error;
    EXPECT_GT(state().teach.overlayFrame, first) << "the overlay still shows the recording of the build before the edit";
}

} // namespace
