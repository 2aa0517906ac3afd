// The Compile log's PTX / SASS tab, driven headless (Mesa where there is no GPU: NVRTC still
// compiles): the default demo's kernel shows its PTX with registers per kernel; a cursor line in
// the editor highlights its instructions and scrolls the listing to them; a click on an instruction
// sends the editor to its source line; SASS shows where the toolkit has a disassembler, and where it
// has none the tab says how to get one.
#include "app.hpp"
#include "cli/options.hpp"
#include "panels/panels.hpp"
#include "platform/platforms.hpp"

#include "headless_app.hpp"
#include "test_support.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <chrono>

namespace fs = std::filesystem;

namespace {

class ListingHeadless : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_kernel = m_dir.path() / "live.cu";
        ks::test::writeFile(m_kernel, ks::test::demoKernelSource());
        m_options = ks::test::kernelAppOptions(m_kernel, m_dir.path(), 1600, 900);
        std::string whyNot;
        m_session = ks::test::openHeadlessApp(m_options, whyNot);
        if (!m_session)
            GTEST_SKIP() << "no headless GL: " << whyNot;
    }

    const ks::app::AppState& state() { return m_session->app().state(); }
    const ks::app::EditorTab& tab() { return *state().editor.tabs.at(0); }

    template <class Pred>
    bool framesUntil(Pred done, std::chrono::milliseconds timeout = std::chrono::seconds(60))
    {
        return ks::test::framesUntil(*m_session, done, timeout);
    }
    void keepScreenshot(const char* name) { ks::test::keepScreenshot(name, m_session->screenshot()); }

    ks::test::TempDir m_dir;
    fs::path m_kernel;
    ks::app::AppOptions m_options;
    std::unique_ptr<ks::app::HeadlessSession> m_session;
};

} // namespace

TEST_F(ListingHeadless, ShowsPtxMapsLinesBothWaysAndSaysWhereSassComesFrom)
{
    const ks::app::ListingState& l = state().listing;
    ASSERT_TRUE(framesUntil([&] { return bool(l.made); })) << "the PTX listing of the first build";
    EXPECT_FALSE(l.sass) << "no SASS until it is asked for";
    ks::test::clickAt(*m_session, ks::test::drawnAt("tab:PTX / SASS"));
    ASSERT_TRUE(framesUntil([&] { return ks::app::uiProbe().count("asm:") > 0; }, std::chrono::seconds(5)));

    // The demo's kernel is a kernel of the PTX, with what ptxas says of it.
    const ks::rtc::Listing& ptx = l.made->ptx;
    const ks::rtc::ListingFunction* kernel = nullptr;
    for (const auto& f : ptx.functions)
        if (f.symbol == ks::app::kDefaultDemoKernel)
            kernel = &f;
    ASSERT_NE(kernel, nullptr);
    EXPECT_TRUE(kernel->entry);
    EXPECT_TRUE(ptx.lineInfo) << "the app builds with -lineinfo";
    ks::test::drawnAt(std::string("asm:kernel:") + ks::app::kDefaultDemoKernel);
    bool reported = false;
    for (const auto& k : l.made->resources.kernels)
        reported = reported || (k.symbol == ks::app::kDefaultDemoKernel && k.registers > 0);
    EXPECT_TRUE(reported) << "registers from ptxas' report";

    // The cursor on line 9 (x = blockIdx.x * blockDim.x + threadIdx.x) highlights its instructions,
    // and the listing scrolls to them.
    const int own = ptx.fileIndex("live.cu");
    ASSERT_GT(own, 0);
    const std::vector<std::size_t> line9 = ptx.linesFrom(own, 9);
    ASSERT_FALSE(line9.empty());
    const auto& g = tab().textGeometry;
    ks::test::clickAt(*m_session, {g[0] + 8 * g[3], g[1] + 8 * g[2] + 1, g[0] + 10 * g[3], g[1] + 9 * g[2] - 1});
    ASSERT_EQ(tab().cursorLine, 9);
    m_session->renderFrame();
    bool shown = false;
    for (std::size_t i : line9)
        shown = shown || ks::app::uiProbe().find("asm:" + std::to_string(i));
    EXPECT_TRUE(shown) << "the listing scrolled to line 9's instructions";
    keepScreenshot("listing_ptx.png");

    // A click on an instruction of another line of the file puts the editor's cursor on that line.
    int target = 0;
    std::array<float, 4> where{};
    for (std::size_t i = kernel->first; i < kernel->end && !target; ++i) {
        const auto r = ks::app::uiProbe().find("asm:" + std::to_string(i));
        if (r && ptx.lines[i].file == own && ptx.lines[i].line > 0 && ptx.lines[i].line != 9) {
            target = ptx.lines[i].line;
            where = *r;
        }
    }
    ASSERT_GT(target, 0) << "an instruction of another line is in view";
    ks::test::clickAt(*m_session, where);
    EXPECT_TRUE(framesUntil([&] { return tab().cursorLine == target; }, std::chrono::seconds(5)))
        << "the editor went to line " << target << ", not " << tab().cursorLine;

    // SASS: the toolkit's disassembler, or a line saying how to get one.
    ks::test::clickAt(*m_session, ks::test::drawnAt("asm:SASS"));
    ASSERT_TRUE(framesUntil([&] { return bool(l.sass); }));
    m_session->renderFrame();
    if (l.sass->listing.lines.empty()) {
        EXPECT_EQ(l.sass->note, ks::rtc::kNoDisassembler);
        ks::test::drawnAt("asm:note");
        keepScreenshot("listing_sass_missing.png");
        return; // what there is to check without a disassembler is that message
    }
    keepScreenshot("listing_sass.png");
    const ks::rtc::Listing& sass = l.sass->listing;
    bool kernelInSass = false;
    for (const auto& f : sass.functions)
        kernelInSass = kernelInSass || (f.symbol == ks::app::kDefaultDemoKernel && f.entry);
    EXPECT_TRUE(kernelInSass);
    ks::test::drawnAt(std::string("asm:kernel:") + ks::app::kDefaultDemoKernel);
    if (sass.lineInfo) { // nvdisasm: line 9's SASS is in view after the cursor goes there again
        ks::test::clickAt(*m_session, {g[0] + 8 * g[3], g[1] + 8 * g[2] + 1, g[0] + 10 * g[3], g[1] + 9 * g[2] - 1});
        m_session->renderFrame();
        bool sassShown = false;
        for (std::size_t i : sass.linesFrom(sass.fileIndex("live.cu"), 9))
            sassShown = sassShown || ks::app::uiProbe().find("asm:" + std::to_string(i));
        EXPECT_TRUE(sassShown);
    }
}

// The tab's listing opens in a window of its own, larger than the tab, and comes back.
TEST_F(ListingHeadless, OpensInAWindowOfItsOwnAndComesBack)
{
    const ks::app::ListingState& l = state().listing;
    ASSERT_TRUE(framesUntil([&] { return bool(l.made); })) << "the PTX listing of the first build";
    ks::test::clickAt(*m_session, ks::test::drawnAt("tab:PTX / SASS"));
    ks::test::clickAt(*m_session, ks::test::drawnAt("listing:window"));
    ASSERT_TRUE(l.ownWindow);
    m_session->renderFrame();
    const ImGuiWindow* own = ImGui::FindWindowByName(ks::app::kListingWindow);
    const ImGuiWindow* log = ImGui::FindWindowByName(ks::app::kCompileLogPanel);
    ASSERT_TRUE(own && own->Active && log);
    EXPECT_GT(own->Size.y, 2 * log->Size.y) << "more lines than the tab has room for";
    const auto ptx = ks::test::drawnAt("asm:PTX");
    EXPECT_GE(ptx[1], own->Pos.y) << "the listing is drawn in the window";
    keepScreenshot("listing_window.png");
    ks::test::clickAt(*m_session, ks::test::drawnAt("listing:back"));
    EXPECT_FALSE(l.ownWindow);
    m_session->renderFrame();
    EXPECT_FALSE(ImGui::FindWindowByName(ks::app::kListingWindow)->Active);
}
