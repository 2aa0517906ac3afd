// The live-kernel loop of the whole app, headless (Mesa where there is no GPU: NVRTC still
// compiles, so diagnostics appear): an edit with a missing ';' puts an error marker and a
// likely-cause marker in the editor's gutter at the right lines; a file written by another program
// is reloaded and rebuilt; unsaved edits are kept for recovery and never overwritten silently.
#include "app.hpp"
#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/project/recovery_store.hpp"
#include "options.hpp"
#include "panels/theme.hpp"
#include "platform/platforms.hpp"

#include "test_support.hpp"

#include <chrono>
#include <memory>
#include <thread>

namespace fs = std::filesystem;
using ks::app::HeadlessSession;

namespace {

class EditorHeadless : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_kernel = m_dir.path() / "live.cu";
        m_source = ks::test::demoKernelSource();
        ks::test::writeFile(m_kernel, m_source);
        m_options.headless = true;
        m_options.width = 1200;
        m_options.height = 720;
        m_options.dataDir = ks::test::sourceDir();
        m_options.kernelFile = m_kernel;
        m_options.recoveryDir = m_dir.path() / "recovery";
        try {
            m_session = std::make_unique<HeadlessSession>(m_options);
        } catch (const ks::Error& e) {
            if (e.domain() == ks::ErrorDomain::Egl)
                GTEST_SKIP() << "no headless GL: " << e.what();
            throw;
        }
    }

    ks::app::App& app() { return m_session->app(); }
    const ks::app::EditorTab& tab() { return *app().state().editor.tabs.at(0); }

    // Renders frames (with a little sleep between) until `done` or `timeout`; returns whether done.
    template <class Pred>
    bool framesUntil(Pred done, std::chrono::milliseconds timeout = std::chrono::seconds(20))
    {
        const auto end = std::chrono::steady_clock::now() + timeout;
        while (std::chrono::steady_clock::now() < end) {
            m_session->renderFrame();
            if (done())
                return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        return false;
    }

    void settle()
    {
        ASSERT_TRUE(app().settleBuilds(std::chrono::seconds(60)));
        m_session->renderFrame(); // takes the results in
        m_session->renderFrame(); // and lays out what changed (ImGui sizes new items a frame late)
    }

    ks::test::TempDir m_dir;
    fs::path m_kernel;
    std::string m_source;
    ks::app::AppOptions m_options;
    std::unique_ptr<HeadlessSession> m_session;
};

// Pixels of the editor panel (the left part of the window) within `tolerance` of `colour`.
int countColour(const ks::image::Rgba8Image& shot, float fractionOfWidth, ImU32 colour, int tolerance = 14)
{
    const int r = int(colour & 0xFF), g = int((colour >> 8) & 0xFF), b = int((colour >> 16) & 0xFF);
    int n = 0;
    for (int y = 0; y < shot.height; ++y)
        for (int x = 0; x < int(float(shot.width) * fractionOfWidth); ++x) {
            const std::uint8_t* p = &shot.pixels[(std::size_t(y) * std::size_t(shot.width) + std::size_t(x)) * 4];
            n += std::abs(p[0] - r) <= tolerance && std::abs(p[1] - g) <= tolerance && std::abs(p[2] - b) <= tolerance;
        }
    return n;
}

// With KS_KEEP_SCREENSHOTS=DIR, writes the screenshot there for a person to look at.
void keepScreenshot(const char* name, const ks::image::Rgba8Image& shot)
{
    if (const char* keep = std::getenv("KS_KEEP_SCREENSHOTS"); keep && *keep)
        ks::image::writePng(fs::path(keep) / name, shot);
}

} // namespace

TEST_F(EditorHeadless, AMissingSemicolonShowsMarkersAtItsLines)
{
    settle();
    ASSERT_TRUE(tab().build.result);
    EXPECT_TRUE(tab().build.result->ok) << tab().build.result->log;
    const auto before = m_session->screenshot();
    EXPECT_EQ(countColour(before, 0.40f, ks::app::theme::kError), 0) << "no error marker before the edit";

    // Drop the ';' ending the first `const unsigned y = ...` line: NVRTC reports the next line.
    int causeLine = 0;
    const std::string broken = ks::test::demoKernelMissingSemicolon(&causeLine);
    ASSERT_TRUE(app().editDocument(m_kernel, broken));
    settle();

    const auto& result = tab().build.result;
    ASSERT_TRUE(result);
    EXPECT_FALSE(result->ok);
    bool errorBelow = false, causeMarked = false;
    for (const auto& d : result->diagnostics) {
        errorBelow |= d.severity == ks::rtc::Severity::Error && !d.likelyCause && d.line == causeLine + 1;
        causeMarked |= d.likelyCause && d.line == causeLine;
    }
    EXPECT_TRUE(errorBelow) << result->log;
    EXPECT_TRUE(causeMarked) << "the likely cause is the line before";
    EXPECT_TRUE(tab().doc.dirty());
    EXPECT_EQ(ks::paths::readTextFile(m_kernel), m_source) << "an edit is not a save";

    const auto after = m_session->screenshot();
    EXPECT_GT(countColour(after, 0.40f, ks::app::theme::kError), 60) << "error markers in the editor";
    EXPECT_GT(countColour(after, 0.40f, ks::app::theme::kLikelyCause), 20) << "the likely-cause marker";
    keepScreenshot("editor_error.png", after);

    // The build wrote the unsaved text to the recovery file first.
    const auto kept = ks::project::RecoveryStore(m_options.recoveryDir).find(m_kernel);
    ASSERT_TRUE(kept);
    EXPECT_EQ(kept->text, broken);
}

TEST_F(EditorHeadless, AFileWrittenByAnotherProgramIsReloadedAndRebuilt)
{
    settle();
    const auto ticket = tab().build.ticket;
    const std::string edited = m_source + "\n// edited elsewhere\n";
    const auto t0 = std::chrono::steady_clock::now();
    ks::test::writeFile(m_kernel, edited);
    ASSERT_TRUE(framesUntil([&] { return tab().doc.text() == edited; })) << "not reloaded";
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::printf("reloaded %.1f ms after the write (frames render on Mesa here)\n", ms);
    EXPECT_FALSE(tab().doc.dirty());
    EXPECT_GT(tab().build.ticket, ticket) << "a reload rebuilds";
    settle();
    EXPECT_TRUE(tab().build.result && tab().build.result->ok);
}

TEST_F(EditorHeadless, UnsavedEditsAndAChangeOnDiskMakeAConflictNotAnOverwrite)
{
    settle();
    const std::string mine = m_source + "\n// mine\n";
    const std::string theirs = m_source + "\n// theirs\n";
    ASSERT_TRUE(app().editDocument(m_kernel, mine));
    ks::test::writeFile(m_kernel, theirs);
    ASSERT_TRUE(framesUntil([&] { return tab().doc.conflict(); })) << "no conflict";
    EXPECT_EQ(tab().doc.text(), mine);
    EXPECT_EQ(ks::paths::readTextFile(m_kernel), theirs);
    settle();
    keepScreenshot("editor_conflict.png", m_session->screenshot());
}

TEST_F(EditorHeadless, RecoveredEditsAreOfferedAtTheNextStart)
{
    // A previous session left unsaved edits of this file.
    const std::string lost = m_source + "\n// unsaved when it crashed\n";
    ks::project::RecoveryStore(m_options.recoveryDir).write(m_kernel, lost);
    m_session.reset();
    m_session = std::make_unique<HeadlessSession>(m_options);
    settle();
    ASSERT_TRUE(tab().recovery);
    EXPECT_EQ(tab().recovery->text, lost);
    EXPECT_EQ(tab().doc.text(), m_source) << "offered, not applied";
    keepScreenshot("editor_recovery.png", m_session->screenshot());
}
