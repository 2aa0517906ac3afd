// The live-kernel loop of the whole app, headless (Mesa where there is no GPU: NVRTC still
// compiles, so diagnostics appear): an edit with a missing ';' puts an error marker and a
// likely-cause marker in the editor's gutter at the right lines; a file written by another program
// is reloaded and rebuilt; unsaved edits are kept for recovery and never overwritten silently.
#include "app.hpp"
#include "editor/editor_text.hpp"
#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/pipeline/kernel_stage.hpp"
#include "ks/project/recovery_store.hpp"
#include "cli/options.hpp"
#include "panels/panels.hpp"
#include "panels/theme.hpp"
#include "platform/platforms.hpp"
#include "supervise/protocol.hpp"

#include "headless_app.hpp"
#include "test_support.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <memory>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace fs = std::filesystem;
using ks::app::HeadlessSession;

void mapGlfwKeys(); // below: keys as the GLFW shell sends them

namespace {

class EditorHeadless : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_kernel = m_dir.path() / "live.cu";
        m_source = ks::test::demoKernelSource();
        ks::test::writeFile(m_kernel, m_source);
        m_options = ks::test::kernelAppOptions(m_kernel, m_dir.path(), 1200, 720);
        std::string whyNot;
        m_session = ks::test::openHeadlessApp(m_options, whyNot);
        if (!m_session)
            GTEST_SKIP() << "no headless GL: " << whyNot;
    }

    ks::app::App& app() { return m_session->app(); }
    const ks::app::EditorTab& tab() { return *app().state().editor.tabs.at(0); }

    // Renders frames (with a little sleep between) until `done` or `timeout`; returns whether done.
    template <class Pred>
    bool framesUntil(Pred done, std::chrono::milliseconds timeout = std::chrono::seconds(20))
    {
        return ks::test::framesUntil(*m_session, done, timeout);
    }

    // `key` (with Ctrl when `ctrl`, Shift when `shift`) down for one frame, up for the next.
    void ctrlPress(int key, bool ctrl = true, bool shift = false) { ks::test::pressKey(*m_session, key, ctrl, shift); }

    // Clicks the menu or menu item (or "dialog:Save", ...) `name` where the app last drew it.
    void click(const std::string& name)
    {
        const auto r = ks::app::uiProbe().find(name.starts_with("dialog:") ? name : "menu:" + name);
        ASSERT_TRUE(r) << name << " was drawn";
        clickAt(*r);
    }

    // Moves the mouse to the middle of `r` (x0, y0, x1, y1) and clicks the left button there.
    void clickAt(const std::array<float, 4>& r) { ks::test::clickAt(*m_session, r); }

    // Types `text` into whatever has the keyboard (characters, as the GLFW shell queues them).
    void type(const std::string& text)
    {
        for (char c : text)
            ImGui::GetIO().AddInputCharacter(static_cast<unsigned char>(c));
        m_session->renderFrame();
        m_session->renderFrame();
    }

    // One notch of the mouse wheel (`notches` up, negative: down) at `at`, with Ctrl held when `ctrl`.
    void wheel(ImVec2 at, float notches, bool ctrl)
    {
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = at;
        m_session->renderFrame(); // hovered first, as a real pointer would be
        io.KeyCtrl = ctrl;
        io.MouseWheel = notches; // ImGui clears it at the end of the frame
        m_session->renderFrame();
        io.KeyCtrl = false;
        m_session->renderFrame();
    }

    void settle()
    {
        ASSERT_TRUE(app().settleBuilds(std::chrono::seconds(60)));
        m_session->renderFrame(); // takes the results in
        m_session->renderFrame(); // and lays out what changed (ImGui sizes new items a frame late)
    }

    // Settles, gives the first tab's source the keyboard (the cursor at the start of line 1) and
    // types `text` there, as the GLFW shell's keys: one undo step.
    void typeAtTheStart(const std::string& text)
    {
        settle();
        mapGlfwKeys();
        auto& t = *app().state().editor.tabs.at(0);
        t.jumpToLine = 1;
        m_session->renderFrame();
        m_session->renderFrame();
        ASSERT_TRUE(t.editing);
        for (char c : text)
            ImGui::GetIO().AddInputCharacter(static_cast<unsigned char>(c));
        m_session->renderFrame();
        m_session->renderFrame();
        ASSERT_EQ(t.doc.text(), text + m_source);
    }

    ks::test::TempDir m_dir;
    fs::path m_kernel;
    std::string m_source;
    ks::app::AppOptions m_options;
    std::unique_ptr<HeadlessSession> m_session;
};

// Pixels of the editor panel (the left part of the window) within `tolerance` of `colour`.
int countColour(const ks::io::Rgba8Image& shot, float fractionOfWidth, ImU32 colour, int tolerance = 14)
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

using ks::test::keepScreenshot;

// The height of the first band of rows (from the top, within the left `fractionOfWidth` of the shot)
// holding pixels of `colour`: the height of the first line's glyphs of that colour, blurred or not.
int firstInkBand(const ks::io::Rgba8Image& shot, float fractionOfWidth, ImU32 colour, int tolerance)
{
    const int right = std::min(shot.width, int(float(shot.width) * fractionOfWidth));
    const int cr = int(colour & 0xFF), cg = int((colour >> 8) & 0xFF), cb = int((colour >> 16) & 0xFF);
    int top = -1;
    for (int y = 0; y < shot.height; ++y) {
        bool ink = false;
        for (int x = 0; x < right && !ink; ++x) {
            const std::uint8_t* p = &shot.pixels[(std::size_t(y) * std::size_t(shot.width) + std::size_t(x)) * 4];
            ink = std::abs(p[0] - cr) <= tolerance && std::abs(p[1] - cg) <= tolerance && std::abs(p[2] - cb) <= tolerance;
        }
        if (ink && top < 0)
            top = y;
        if (!ink && top >= 0)
            return y - top;
    }
    return 0;
}

// Ctrl+= five times (through `press`): the source's glyphs are drawn about 1.6 times as tall (the
// first line of qualifier-coloured text, `__global__`, measured as a band of rows, so blur does not
// count; the same text, scrolled to the top, before and after).
template <class Press>
void expectZoomGrowsGlyphs(HeadlessSession& session, Press press, const char* screenshotName)
{
    auto& ed = session.app().state().editor;
    auto& t = *ed.tabs.at(0);
    t.jumpToLine = 1;
    session.renderFrame();
    session.renderFrame();
    ASSERT_TRUE(t.editing);
    const int before = firstInkBand(session.screenshot(), 0.40f, ks::app::theme::kSyntaxQualifier, 24);
    for (int i = 0; i < 5; ++i)
        press('=');
    EXPECT_NEAR(ed.zoom, std::pow(1.1f, 5.f), 1e-3);
    const auto zoomed = session.screenshot();
    keepScreenshot(screenshotName, zoomed);
    const int after = firstInkBand(zoomed, 0.40f, ks::app::theme::kSyntaxQualifier, 24);
    std::printf("[ zoom ] glyph band %d -> %d pixels\n", before, after);
    EXPECT_GT(before, 6) << "the qualifier-coloured text was not found";
    EXPECT_GE(after * 100, before * 140) << "bigger glyphs";
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

// The source is drawn in syntax colours (ks/syntax/highlight.hpp): the demo's CUDA qualifiers,
// built-ins, types, keywords, preprocessor line and comments each show in theirs; an edit that
// opens a block comment at the top turns the rest of the file into comment colour in that frame.
TEST_F(EditorHeadless, SourceIsDrawnInSyntaxColoursThatFollowEdits)
{
    settle();
    const auto shot = m_session->screenshot();
    keepScreenshot("editor_colours.png", shot);
    using namespace ks::app::theme;
    for (const auto& [name, colour] : {std::pair{"qualifier", kSyntaxQualifier}, {"builtin", kSyntaxBuiltin},
                                       {"type", kSyntaxType}, {"keyword", kSyntaxKeyword},
                                       {"preprocessor", kSyntaxPreprocessor}, {"comment", kSyntaxComment},
                                       {"intrinsic", kSyntaxIntrinsic}})
        EXPECT_GT(countColour(shot, 0.40f, colour, 8), 5) << name << " colour in the editor";

    ASSERT_TRUE(app().editDocument(m_kernel, "/* commented out:\n" + m_source + "\n"));
    m_session->renderFrame();
    const auto commented = m_session->screenshot();
    keepScreenshot("editor_commented.png", commented);
    EXPECT_EQ(countColour(commented, 0.40f, kSyntaxQualifier, 8), 0) << "no qualifier colour inside a comment";
    EXPECT_EQ(countColour(commented, 0.40f, kSyntaxBuiltin, 8), 0);
    EXPECT_GT(countColour(commented, 0.40f, kSyntaxComment, 8), 2 * countColour(shot, 0.40f, kSyntaxComment, 8));
}

// Keys as the GLFW shell sends them (ImGui 1.86 reads io.KeysDown by the platform's codes).
void mapGlfwKeys()
{
    ImGuiIO& io = ImGui::GetIO();
    io.KeyMap[ImGuiKey_A] = 'A';
    io.KeyMap[ImGuiKey_Escape] = 256;
    io.KeyMap[ImGuiKey_Enter] = 257;
}

// Ctrl+F finds every occurrence and marks them; Enter goes to the next; Escape closes the bar and
// selects the match in the source. Ctrl+G goes to a line. Ctrl+/ comments the cursor's line out and
// in again, through the document (so it builds and saves like typing).
TEST_F(EditorHeadless, FindGoToLineAndCommentTogglingWorkFromTheKeyboard)
{
    settle();
    mapGlfwKeys();
    ImGuiIO& io = ImGui::GetIO();
    auto press = [&](int key, bool ctrl) { ctrlPress(key, ctrl); };
    auto type = [&](const std::string& s) {
        for (char c : s)
            io.AddInputCharacter(static_cast<unsigned char>(c));
        m_session->renderFrame();
        m_session->renderFrame();
    };
    auto& t = *app().state().editor.tabs.at(0);
    const auto& bar = app().state().editor.findBar;
    t.jumpToLine = 1; // the source takes the keyboard
    m_session->renderFrame();
    m_session->renderFrame();
    ASSERT_TRUE(t.editing);

    std::vector<std::size_t> expected;
    for (auto at = m_source.find("blockIdx"); at != std::string::npos; at = m_source.find("blockIdx", at + 1))
        expected.push_back(at);
    ASSERT_GE(expected.size(), 3u);
    press('F', true);
    ASSERT_TRUE(bar.open);
    m_session->renderFrame(); // the field takes the keyboard
    type("blockIdx");
    ASSERT_EQ(bar.matches.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i)
        EXPECT_EQ(bar.matches[i].begin, expected[i]);
    EXPECT_EQ(bar.current, 0);
    const auto shot = m_session->screenshot();
    keepScreenshot("editor_find.png", shot);
    // The current match's tint over the code background (alpha-blended, so a band of colours).
    EXPECT_GT(countColour(shot, 0.40f, IM_COL32(148, 118, 48, 255), 24), 30) << "the current match is marked";
    press(257, false); // Enter: the next match
    EXPECT_EQ(bar.current, 1);
    press(256, false); // Escape: closed, the match selected in the source
    for (int i = 0; i < 4; ++i)
        m_session->renderFrame();
    EXPECT_FALSE(bar.open);
    EXPECT_TRUE(t.editing);
    EXPECT_EQ(std::size_t(t.selectionBegin), expected[1]);
    EXPECT_EQ(std::size_t(t.selectionEnd), expected[1] + 8);

    press('G', true);
    m_session->renderFrame();
    type("12");
    press(257, false);
    m_session->renderFrame();
    EXPECT_EQ(t.cursorLine, 12);

    const std::size_t b12 = ks::app::text::lineStart(m_source, 12);
    const std::string line12 = m_source.substr(b12, m_source.find('\n', b12) - b12);
    ASSERT_NE(line12.find_first_not_of(' '), std::string::npos) << "line 12 has code";
    press('/', true);
    m_session->renderFrame();
    EXPECT_NE(t.doc.text(), m_source);
    EXPECT_EQ(t.doc.text().find("// " + line12.substr(line12.find_first_not_of(' '))) != std::string::npos, true)
        << t.doc.text();
    for (int i = 0; i < 3; ++i)
        m_session->renderFrame();
    press('/', true);
    m_session->renderFrame();
    EXPECT_EQ(t.doc.text(), m_source) << "Ctrl+/ again restores the line";
}

// The menu bar, clicked as a user would: Help > About opens the versions, Edit > Find opens the
// find bar, View > a panel hides and shows it, View > Classroom layout switches the layout, File
// lists the shipped projects.
TEST_F(EditorHeadless, MenuBarClicksReachTheirActions)
{
    settle();
    const auto& menu = app().state().menu;
    EXPECT_GT(menu.height, 10.f);
    click("File");
    keepScreenshot("menu_file.png", m_session->screenshot());
    click("File"); // closes it again
    click("File");
    click("Record...");
    EXPECT_TRUE(app().state().record.showWindow);
    keepScreenshot("record_window.png", m_session->screenshot());
    click("Help");
    click("About Kernelscope");
    EXPECT_TRUE(menu.showAbout);
    keepScreenshot("menu_about.png", m_session->screenshot());
    click("Edit");
    click("Find");
    EXPECT_TRUE(app().state().editor.findBar.open);
    // View > a panel's name hides it and shows it again; Reset layout shows every one.
    auto active = [](const char* name) {
        const ImGuiWindow* w = ImGui::FindWindowByName(name);
        return w && w->Active;
    };
    ASSERT_TRUE(active("Device"));
    click("View");
    click("Device");
    EXPECT_EQ(app().state().menu.hiddenPanels.count("Device"), 1u);
    EXPECT_FALSE(active("Device"));
    EXPECT_TRUE(active("Timings"));
    click("View");
    click("Device");
    EXPECT_TRUE(active("Device"));
    click("View");
    click("Timings");
    click("View");
    click("Compile log");
    EXPECT_FALSE(active("Timings"));
    EXPECT_FALSE(active("Compile log"));
    keepScreenshot("panels_hidden.png", m_session->screenshot());
    click("View");
    click("Reset layout (every panel back in its place, and shown)");
    EXPECT_TRUE(app().state().menu.hiddenPanels.empty());
    EXPECT_TRUE(active("Timings"));
    EXPECT_TRUE(active("Compile log"));
    EXPECT_EQ(app().state().teach.layout, ks::app::Layout::Standard);
    click("View");
    click("Classroom layout");
    EXPECT_EQ(app().state().teach.layout, ks::app::Layout::Classroom);
}

// File > Reload kernel from disk puts the file's text back over unsaved edits; File > Reload
// project from disk opens the project again from its file: a parameter changed here goes back to
// the file's value.
TEST_F(EditorHeadless, FileMenuReloadsTheKernelAndTheProjectFromDisk)
{
    settle();
    ASSERT_TRUE(app().editDocument(m_kernel, m_source + "\n// not saved\n"));
    m_session->renderFrame();
    ASSERT_TRUE(tab().doc.dirty());
    click("File");
    click("Reload kernel from disk");
    m_session->renderFrame();
    EXPECT_EQ(tab().doc.text(), m_source);
    EXPECT_FALSE(tab().doc.dirty());

    m_session.reset();
    m_options.project = ks::test::sourceDir() / "projects" / "heat.json";
    m_options.kernelSpec.clear(); // --kernel would win over --project
    m_session = std::make_unique<HeadlessSession>(m_options);
    ASSERT_TRUE(framesUntil([&] { return app().state().project.session != nullptr; })) << "heat.json opened";
    auto parameter = [&] { return app().state().project.session->pipeline().parameters().at(0)[0]; };
    const double saved = parameter();
    app().state().project.session->pipeline().parameters().at(0)[0] = saved / 2; // changed here, not saved
    m_session->renderFrame();
    ASSERT_NE(parameter(), saved);
    click("File");
    click("Reload project from disk");
    ASSERT_TRUE(framesUntil([&] { return app().state().project.session && parameter() == saved; }))
        << "the project came back as its file has it";
    EXPECT_EQ(app().state().project.session->pipeline().project().file,
              fs::absolute(ks::test::sourceDir() / "projects" / "heat.json"));
}

// File > New project from a template > pi.json opens the file dialog on the home folder with a
// new name; Save there makes the project (its kernel copied beside it) and opens it. File > Open
// project... lists the shipped projects; Cancel closes it.
TEST_F(EditorHeadless, NewProjectFromATemplateThroughTheFileDialog)
{
    settle();
    ks::test::TempDir home;
    const ks::test::ScopedEnv homeEnv("HOME", home.path().string());
    const auto& s = app().state();
    click("File");
    click("New project from a template");
    click("pi.json");
    EXPECT_EQ(s.menu.fileDialog.purpose, ks::app::FileDialogState::Purpose::NewProject);
    EXPECT_EQ(s.menu.fileDialog.browser.folder(), fs::absolute(home.path()));
    EXPECT_EQ(s.menu.fileDialog.browser.chosen(), fs::absolute(home.path() / "pi-mine.json"));
    keepScreenshot("new_project_dialog.png", m_session->screenshot());
    click("dialog:Save");
    ASSERT_TRUE(framesUntil([&] { return s.project.session != nullptr; })) << "the new project opened";
    EXPECT_EQ(s.project.session->pipeline().project().file, fs::absolute(home.path() / "pi-mine.json"));
    EXPECT_TRUE(fs::exists(home.path() / "pi.cu")) << "its kernel was copied beside it";
    EXPECT_EQ(s.menu.fileDialog.purpose, ks::app::FileDialogState::Purpose::None);
    keepScreenshot("new_project_opened.png", m_session->screenshot());

    click("File");
    click("Open project...");
    EXPECT_EQ(s.menu.fileDialog.purpose, ks::app::FileDialogState::Purpose::OpenProject);
    EXPECT_EQ(s.menu.fileDialog.browser.folder(), fs::absolute(home.path())) << "the open project's folder";
    bool listsIt = false;
    for (const auto& e : s.menu.fileDialog.browser.entries())
        listsIt = listsIt || e.name == "pi-mine.json";
    EXPECT_TRUE(listsIt);
    click("dialog:Cancel");
    EXPECT_EQ(s.menu.fileDialog.purpose, ks::app::FileDialogState::Purpose::None);
}

// Pixels within `tolerance` of `colour` inside a rectangle of the screenshot (x0, y0, x1, y1).
int countColourIn(const ks::io::Rgba8Image& shot, const std::array<float, 4>& r, ImU32 colour, int tolerance)
{
    const int cr = int(colour & 0xFF), cg = int((colour >> 8) & 0xFF), cb = int((colour >> 16) & 0xFF);
    int n = 0;
    for (int y = std::max(0, int(r[1])); y < std::min(shot.height, int(r[3])); ++y)
        for (int x = std::max(0, int(r[0])); x < std::min(shot.width, int(r[2])); ++x) {
            const std::uint8_t* p = &shot.pixels[(std::size_t(y) * std::size_t(shot.width) + std::size_t(x)) * 4];
            n += std::abs(p[0] - cr) <= tolerance && std::abs(p[1] - cg) <= tolerance && std::abs(p[2] - cb) <= tolerance;
        }
    return n;
}

// Without DejaVu (the GPU hosts have none; --font none here) the editor uses ImGui's built-in
// bitmap font, which zooms too (drawn from that font made at a larger size, scaled down to the zoom,
// rather than the 13-pixel font blown up).
TEST_F(EditorHeadless, ZoomWorksWithTheBuiltInFont)
{
    m_session.reset();
    m_options.font = "none";
    m_session = std::make_unique<HeadlessSession>(m_options);
    settle();
    mapGlfwKeys();
    expectZoomGrowsGlyphs(*m_session, [&](int key) { ctrlPress(key); }, "editor_zoomed_builtin_font.png");
}

// Ctrl+= zooms the source (bigger glyphs), Ctrl+0 resets; the bracket at the cursor and its match
// are outlined; a compile error shows in the overview ruler over the scrollbar.
TEST_F(EditorHeadless, ZoomBracketMatchAndOverviewRuler)
{
    settle();
    mapGlfwKeys();
    ImGuiIO& io = ImGui::GetIO();
    auto press = [&](int key) { ctrlPress(key); };
    auto& t = *app().state().editor.tabs.at(0);
    auto& ed = app().state().editor;
    expectZoomGrowsGlyphs(*m_session, press, "editor_zoomed.png");
    press('0');
    EXPECT_EQ(ed.zoom, 1.f);

    // The cursor just after the '{' that opens the first kernel's body.
    const std::size_t open = m_source.find("{\n");
    ASSERT_NE(open, std::string::npos);
    t.pendingCursor = int(open + 1);
    for (int i = 0; i < 3; ++i)
        m_session->renderFrame();
    const auto shot = m_session->screenshot();
    keepScreenshot("editor_brackets.png", shot);
    // The outline blends kBracketMatch over the code background.
    EXPECT_GT(countColour(shot, 0.40f, IM_COL32(121, 161, 205, 255), 20), 20) << "both brackets outlined";

    // Enter after the '{': the new line is indented one level (the body's own lines have 4 spaces).
    io.KeysDown[257] = true;
    m_session->renderFrame();
    io.KeysDown[257] = false;
    m_session->renderFrame();
    m_session->renderFrame();
    EXPECT_EQ(t.doc.text().substr(open, 8), "{\n    \n ") << "auto-indent after '{'";

    int causeLine = 0;
    ASSERT_TRUE(app().editDocument(m_kernel, ks::test::demoKernelMissingSemicolon(&causeLine)));
    settle();
    const auto broken = m_session->screenshot();
    keepScreenshot("editor_ruler.png", broken);
    const auto& r = tab().rulerRect;
    EXPECT_EQ(&tab(), &t) << "the tab was replaced";
    EXPECT_GT(countColourIn(broken, r, ks::app::theme::kError, 20), 6)
        << "the error in the ruler (" << r[0] << ", " << r[1] << ") - (" << r[2] << ", " << r[3] << "), "
        << (tab().build.result ? tab().build.result->diagnostics.size() : 0) << " diagnostics";
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

// Undo and redo are the editor's own and survive what remakes the text widget: typing, a comment
// toggle, a build (Ctrl+Enter), a save and a reload of the file written by another program; the
// reload, the toggle and the typing are undone in turn with Ctrl+Z, and redone with Ctrl+Y.
TEST_F(EditorHeadless, UndoAndRedoSurviveTogglesBuildsAndReloads)
{
    typeAtTheStart("// typed\n");
    ASSERT_FALSE(HasFatalFailure());
    auto& t = *app().state().editor.tabs.at(0);
    const std::string typed = t.doc.text();
    ctrlPress('/'); // comments out the cursor's line (line 2 now: the source's first line)
    const std::string toggled = t.doc.text();
    ASSERT_NE(toggled, typed);
    ctrlPress(257); // Ctrl+Enter: a build, and the widget made again
    ASSERT_TRUE(app().settleBuilds(std::chrono::seconds(60)));
    m_session->renderFrame();
    ctrlPress('S'); // saved, so that another program's write is reloaded (not a conflict)
    ASSERT_FALSE(t.doc.dirty());
    const std::string onDisk = m_source + "\n// written elsewhere\n";
    std::this_thread::sleep_for(std::chrono::milliseconds(20)); // a later modification time
    ks::test::writeFile(m_kernel, onDisk);
    ASSERT_TRUE(framesUntil([&] { return t.doc.text() == onDisk; })) << "reloaded from disk";

    ctrlPress('Z');
    EXPECT_EQ(t.doc.text(), toggled) << "undo brings back the text before the reload";
    ctrlPress('Z');
    EXPECT_EQ(t.doc.text(), typed) << "then the text before the comment toggle";
    ctrlPress('Z');
    EXPECT_EQ(t.doc.text(), m_source) << "then the text before the typing";
    ctrlPress('Y');
    EXPECT_EQ(t.doc.text(), typed) << "redo";
    ctrlPress('Z', true, true); // Ctrl+Shift+Z redoes too
    EXPECT_EQ(t.doc.text(), toggled);
    EXPECT_TRUE(t.doc.dirty());
}

// The undo and redo steps go with the rest of the state to the GPU process that replaces this one
// (App::snapshot, through the shell's JSON, App::restore in a new app): unsaved text comes back
// with the steps that led to it, and undo walks them there.
TEST_F(EditorHeadless, UndoStepsComeBackInTheProcessThatReplacesThisOne)
{
    typeAtTheStart("// first\n");
    ASSERT_FALSE(HasFatalFailure());
    auto& t = *app().state().editor.tabs.at(0);
    const std::string typed = t.doc.text();
    ctrlPress('/'); // a step of its own
    const std::string toggled = t.doc.text();
    ASSERT_NE(toggled, typed);
    ctrlPress('Z');
    ASSERT_EQ(t.doc.text(), typed); // one step to redo
    ASSERT_TRUE(t.doc.dirty());

    const std::string json = nlohmann::json(app().snapshot()).dump(); // strict: valid UTF-8 only
    ks::app::supervise::Restore restore;
    restore.state = nlohmann::json::parse(json).get<ks::app::supervise::AppSnapshot>();
    m_session.reset();
    m_session = std::make_unique<HeadlessSession>(m_options);
    app().restore(restore);
    mapGlfwKeys(); // the new app's ImGui context
    m_session->renderFrame();
    m_session->renderFrame();
    auto& t2 = *app().state().editor.tabs.at(0);
    ASSERT_EQ(t2.doc.text(), typed) << "the unsaved text came back";
    EXPECT_TRUE(t2.history.canUndo());
    EXPECT_TRUE(t2.history.canRedo());
    t2.jumpToLine = 1;
    t2.jumpFocus = true; // the restore scrolled there without taking the keyboard
    m_session->renderFrame();
    m_session->renderFrame();
    ASSERT_TRUE(t2.editing);
    ctrlPress('Y');
    EXPECT_EQ(t2.doc.text(), toggled) << "redo in the new process";
    ctrlPress('Z');
    ctrlPress('Z');
    EXPECT_EQ(t2.doc.text(), m_source) << "undo back to the file as it was opened";
    EXPECT_FALSE(t2.doc.dirty());
}

// The editor's settings go to the GPU process that replaces this one as well: the compile options
// (the open files build with them again: here a define the file needs), the typing pause, build
// on pause, syntax colours and the zoom; and from there to the next.
TEST_F(EditorHeadless, EditorSettingsComeBackInTheProcessThatReplacesThisOne)
{
    m_session.reset();
    const fs::path needsN = m_dir.path() / "needs_n.cu";
    ks::test::writeFile(needsN, "#ifndef N\n#error N is not defined\n#endif\n"
                                "extern \"C\" __global__ void k(float* p) { p[0] = N; }\n");
    m_options.kernelSpec = needsN.string();
    m_session = std::make_unique<HeadlessSession>(m_options);
    ASSERT_TRUE(app().settleBuilds(std::chrono::seconds(60)));
    m_session->renderFrame();
    ASSERT_TRUE(app().state().editor.tabs.at(0)->build.result);
    ASSERT_FALSE(app().state().editor.tabs.at(0)->build.result->ok) << "N is not defined yet";

    ks::app::supervise::Restore restore;
    restore.state =
        nlohmann::json::parse(nlohmann::json(app().snapshot()).dump()).get<ks::app::supervise::AppSnapshot>();
    ks::app::supervise::EditorSettings& es = restore.state.ui.editor;
    const bool ownArch = app().state().editor.archFromDevice; // a device's arch is the new process's own
    ks::app::supervise::EditorSettings defaults;
    defaults.arch = ownArch ? "" : app().state().editor.options.arch; // else the target picked
    EXPECT_EQ(nlohmann::json(es), nlohmann::json(defaults)) << "the defaults";
    es.arch = ownArch ? "" : "sm_80";
    es.fastMath = true;
    es.fastCompile = "mid";
    es.cppStandard = "c++20";
    es.defines = "N=3 EXTRA";
    es.pauseSeconds = 0.8;
    es.buildOnPause = es.syntaxColours = false;
    es.zoom = 1.5f;
    m_session.reset();
    m_session = std::make_unique<HeadlessSession>(m_options);
    app().restore(restore);
    ASSERT_TRUE(app().settleBuilds(std::chrono::seconds(60)));
    m_session->renderFrame();
    m_session->renderFrame(); // a stage's build is taken in at a frame boundary
    const ks::app::EditorState& ed = app().state().editor;
    // The project's kernel stage builds with them too: what runs, not only the tab's diagnostics.
    const auto* stage =
        dynamic_cast<const ks::pipeline::KernelStage*>(&app().state().project.session->pipeline().stage(0));
    ASSERT_TRUE(stage && stage->lastBuild());
    EXPECT_TRUE(stage->lastBuild()->ok) << stage->status();
    EXPECT_TRUE(ed.options.fastMath);
    EXPECT_EQ(ed.options.fastCompile, ks::rtc::FastCompile::Mid);
    EXPECT_EQ(ed.options.cppStandard, "c++20");
    if (!ownArch) {
        EXPECT_EQ(ed.options.arch, "sm_80");
    }
    EXPECT_EQ(ed.options.defines, (std::vector<std::string>{"N=3", "EXTRA"}));
    EXPECT_DOUBLE_EQ(ed.pauseSeconds, 0.8);
    EXPECT_FALSE(ed.buildOnPause);
    EXPECT_FALSE(ed.syntaxColours);
    EXPECT_FLOAT_EQ(ed.zoom, 1.5f);
    const ks::app::EditorTab& t = *ed.tabs.at(0);
    ASSERT_TRUE(t.build.result);
    EXPECT_TRUE(t.build.result->ok) << "built again with N defined: " << t.build.result->log;
    EXPECT_EQ(nlohmann::json(app().snapshot().ui.editor), nlohmann::json(es)) << "and on to the next process";
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

// Ctrl+H (from the keyboard, the source having it) opens the find bar with its replace row. The
// find field takes the typing; a click gives the replace field the keyboard. Replace replaces the
// match shown, one per click, and Replace all the rest; each change goes through the document.
TEST_F(EditorHeadless, CtrlHReplacesOneMatchAtATimeThenAll)
{
    settle();
    mapGlfwKeys();
    auto& t = *app().state().editor.tabs.at(0);
    const auto& bar = app().state().editor.findBar;
    t.jumpToLine = 1; // the source takes the keyboard, the cursor at the start
    m_session->renderFrame();
    m_session->renderFrame();
    ASSERT_TRUE(t.editing);
    ASSERT_FALSE(bar.open);

    const std::string needle = "width", with = "w_px";
    std::size_t count = 0;
    for (auto at = m_source.find(needle); at != std::string::npos; at = m_source.find(needle, at + 1))
        ++count;
    ASSERT_GE(count, 4u) << "the demo kernel says `width` several times";

    ctrlPress('H');
    ASSERT_TRUE(bar.open) << "Ctrl+H opens the bar";
    EXPECT_TRUE(bar.replace) << "with its replace row";
    m_session->renderFrame(); // the find field takes the keyboard
    type(needle);
    EXPECT_EQ(bar.needle, needle);
    ASSERT_EQ(bar.matches.size(), count);
    EXPECT_EQ(bar.current, 0) << "the first match after the cursor is shown";
    ASSERT_EQ(ks::app::uiProbe().count("find:replace"), 1u) << "the replace field was drawn";
    clickAt(ks::test::drawnAt("find:replace"));
    type(with);
    EXPECT_EQ(bar.replacement, with);
    EXPECT_EQ(bar.needle, needle) << "the replacement went to its own field";
    EXPECT_EQ(t.doc.text(), m_source) << "typing in the bar does not edit the source";

    // Replace: the match shown, then (a second click) the next one.
    std::string expected = m_source;
    for (int click = 1; click <= 2; ++click) {
        SCOPED_TRACE("Replace, click " + std::to_string(click));
        expected.replace(expected.find(needle), needle.size(), with); // the first one left
        clickAt(ks::test::drawnAt("find:Replace"));
        EXPECT_EQ(t.doc.text(), expected);
        EXPECT_EQ(bar.matches.size(), count - std::size_t(click));
    }
    // Replace all: every one left.
    clickAt(ks::test::drawnAt("find:Replace all"));
    for (auto at = expected.find(needle); at != std::string::npos; at = expected.find(needle, at))
        expected.replace(at, needle.size(), with);
    EXPECT_EQ(t.doc.text(), expected);
    EXPECT_EQ(t.doc.text().find(needle), std::string::npos);
    EXPECT_EQ(bar.message, std::to_string(count - 2) + " replaced");
    EXPECT_TRUE(bar.matches.empty());
    EXPECT_TRUE(t.doc.dirty());
    EXPECT_EQ(ks::paths::readTextFile(m_kernel), m_source) << "replacing is editing, not saving";
}

// A kernel that does not compile: hovering the error's marker in the gutter shows its message in a
// tooltip (hovering the gutter of a line without one shows none); a click on a diagnostic in the
// Compile log puts the editor's cursor on its line.
TEST_F(EditorHeadless, ErrorMarkerTooltipAndCompileLogClickShowTheLine)
{
    settle();
    int causeLine = 0;
    ASSERT_TRUE(app().editDocument(m_kernel, ks::test::demoKernelMissingSemicolon(&causeLine)));
    settle();
    const auto result = tab().build.result;
    ASSERT_TRUE(result);
    ASSERT_FALSE(result->ok);
    std::size_t error = result->diagnostics.size(), cause = result->diagnostics.size();
    for (std::size_t i = 0; i < result->diagnostics.size(); ++i) {
        const auto& d = result->diagnostics[i];
        const bool first = error == result->diagnostics.size();
        if (first && d.severity == ks::rtc::Severity::Error && !d.likelyCause && d.line == causeLine + 1)
            error = i;
        if (d.likelyCause && d.line == causeLine)
            cause = i;
    }
    ASSERT_LT(error, result->diagnostics.size()) << result->log;
    ASSERT_LT(cause, result->diagnostics.size()) << result->log;
    const ks::rtc::Diagnostic& err = result->diagnostics[error];
    ASSERT_FALSE(err.message.empty());

    // The markers of both lines; their distance is a line's height.
    ASSERT_EQ(ks::app::uiProbe().count("marker:" + std::to_string(err.line)), 1u) << "the error's marker was drawn";
    ASSERT_EQ(ks::app::uiProbe().count("marker:" + std::to_string(causeLine)), 1u) << "the likely cause's marker was drawn";
    const auto marker = ks::test::drawnAt("marker:" + std::to_string(err.line));
    const float lineH = marker[1] - ks::test::drawnAt("marker:" + std::to_string(causeLine))[1];
    ASSERT_GT(lineH, 5.f);
    const ImVec2 onMarker((marker[0] + marker[2]) / 2, (marker[1] + marker[3]) / 2);
    auto tooltipShown = [] {
        const ImGuiWindow* w = ImGui::FindWindowByName("##Tooltip_00");
        return w && w->Active;
    };
    auto onLine = [&](int line) {
        return std::count_if(result->diagnostics.begin(), result->diagnostics.end(), [&](const ks::rtc::Diagnostic& d) {
            return d.line == line && tab().owns(d);
        });
    };
    ImGuiIO& io = ImGui::GetIO();

    // The gutter of a line four above the likely cause: nothing to say there.
    io.MousePos = ImVec2(onMarker.x, onMarker.y - 5.f * lineH);
    m_session->renderFrame();
    m_session->renderFrame();
    EXPECT_TRUE(tab().gutterTooltip.empty()) << tab().gutterTooltip;
    EXPECT_FALSE(tooltipShown());

    io.MousePos = onMarker;
    m_session->renderFrame();
    m_session->renderFrame();
    EXPECT_NE(tab().gutterTooltip.find(err.message), std::string::npos)
        << "the tooltip says \"" << tab().gutterTooltip << "\"; the error is \"" << err.message << "\"";
    EXPECT_TRUE(tooltipShown()) << "a tooltip window is drawn";
    EXPECT_EQ(std::count(tab().gutterTooltip.begin(), tab().gutterTooltip.end(), '\n'), onLine(err.line))
        << tab().gutterTooltip;
    keepScreenshot("editor_marker_tooltip.png", m_session->screenshot());

    io.MousePos = ImVec2(onMarker.x, onMarker.y - lineH); // the likely cause's marker
    m_session->renderFrame();
    m_session->renderFrame();
    EXPECT_NE(tab().gutterTooltip.find(result->diagnostics[cause].message), std::string::npos) << tab().gutterTooltip;
    EXPECT_EQ(std::count(tab().gutterTooltip.begin(), tab().gutterTooltip.end(), '\n'), onLine(causeLine))
        << "one line per message of that line, and only those: " << tab().gutterTooltip;

    // The Compile log lists every diagnostic; a click on one shows its line in the editor.
    auto& t = *app().state().editor.tabs.at(0);
    ASSERT_EQ(ks::app::uiProbe().count("log:"), result->diagnostics.size()) << "the Compile log listed them";
    const ImGuiWindow* log = ImGui::FindWindowByName(ks::app::kCompileLogPanel);
    ASSERT_TRUE(log && log->Active);
    for (const std::size_t i : {error, cause}) {
        const ks::rtc::Diagnostic& d = result->diagnostics[i];
        SCOPED_TRACE("clicked: " + d.message + " at line " + std::to_string(d.line));
        const auto r = ks::test::drawnAt("log:" + std::to_string(i));
        ASSERT_TRUE(r[1] >= log->InnerClipRect.Min.y && r[3] <= log->InnerClipRect.Max.y + 1.f)
            << "the diagnostic is in view in the Compile log (" << r[1] << " to " << r[3] << ")";
        t.pendingCursor = 0; // the cursor elsewhere first
        m_session->renderFrame();
        ASSERT_EQ(t.cursorLine, 1);
        // Its visible part (a long message runs past the panel's right edge).
        const ImRect clip = log->InnerClipRect;
        clickAt({std::max(r[0], clip.Min.x), r[1], std::min(r[2], clip.Max.x), r[3]});
        for (int k = 0; k < 3; ++k)
            m_session->renderFrame();
        EXPECT_EQ(t.cursorLine, d.line);
        EXPECT_TRUE(t.editing) << "the editor has the keyboard, the cursor on that line";
    }
}

// Ctrl+wheel over the source zooms it in and (the other way) out, in steps of 1.1, over the text
// as over the gutter; the wheel without Ctrl leaves the zoom.
TEST_F(EditorHeadless, CtrlWheelOverTheSourceZoomsInAndOut)
{
    settle();
    auto& ed = app().state().editor;
    ASSERT_EQ(ed.zoom, 1.f);
    const auto& ruler = tab().rulerRect;
    ASSERT_GT(ruler[3], ruler[1]) << "the source was drawn";
    const ImGuiWindow* panel = ImGui::FindWindowByName(ks::app::kEditorPanel);
    ASSERT_TRUE(panel && panel->Active);
    const float y = (ruler[1] + ruler[3]) / 2; // halfway down the source
    for (const auto& [where, at] : {std::pair{"over the text", ImVec2(ruler[0] - 120.f, y)},
                                    std::pair{"over the gutter", ImVec2(panel->Pos.x + 20.f, y)}}) {
        SCOPED_TRACE(where);
        const float z = ed.zoom; // 1 at first
        wheel(at, 1.f, true);
        EXPECT_NEAR(ed.zoom, z * 1.1f, 1e-4) << "Ctrl+wheel up zooms in";
        wheel(at, 1.f, true);
        EXPECT_NEAR(ed.zoom, z * 1.21f, 1e-4);
        wheel(at, -1.f, true);
        wheel(at, -1.f, true);
        wheel(at, -1.f, true);
        EXPECT_NEAR(ed.zoom, z / 1.1f, 1e-4) << "Ctrl+wheel down zooms out";
        wheel(at, -1.f, false);
        EXPECT_NEAR(ed.zoom, z / 1.1f, 1e-4) << "the wheel alone does not zoom";
    }
}

// The source widget (app/editor/code_input.cpp) driven as a user would, with the keys the GLFW
// shell sends: a click places the cursor, a double-click takes a word, Shift+click and a drag
// select, the arrows, Home and End move, Enter keeps the indentation, Tab and Shift+Tab indent and
// outdent the selected lines, Ctrl+C / Ctrl+V copy and paste, a '}' at an indented line's start
// outdents it, Escape drops the selection. The selection is drawn.
TEST_F(EditorHeadless, TheSourceWidgetEditsFromTheMouseAndTheKeyboard)
{
    settle();
    mapGlfwKeys();
    ImGuiIO& io = ImGui::GetIO();
    // GLFW's codes for the keys the widget reads.
    enum : int { kTab = 258, kBackspace = 259, kInsert = 260, kDelete = 261, kRight = 262, kLeft = 263, kDown = 264,
                 kUp = 265, kHome = 268, kEnd = 269 };
    io.KeyMap[ImGuiKey_Tab] = kTab;
    io.KeyMap[ImGuiKey_Backspace] = kBackspace;
    io.KeyMap[ImGuiKey_Insert] = kInsert;
    io.KeyMap[ImGuiKey_Delete] = kDelete;
    io.KeyMap[ImGuiKey_RightArrow] = kRight;
    io.KeyMap[ImGuiKey_LeftArrow] = kLeft;
    io.KeyMap[ImGuiKey_DownArrow] = kDown;
    io.KeyMap[ImGuiKey_UpArrow] = kUp;
    io.KeyMap[ImGuiKey_Home] = kHome;
    io.KeyMap[ImGuiKey_End] = kEnd;
    io.KeyMap[ImGuiKey_C] = 'C';
    io.KeyMap[ImGuiKey_V] = 'V';
    io.KeyMap[ImGuiKey_X] = 'X';
    auto& t = *app().state().editor.tabs.at(0);
    auto key = [&](int k, bool shift = false, bool ctrl = false) {
        io.KeyShift = shift;
        io.KeyCtrl = ctrl;
        io.KeysDown[k] = true;
        m_session->renderFrame();
        io.KeysDown[k] = false;
        io.KeyShift = io.KeyCtrl = false;
        m_session->renderFrame();
        // The line table the editor keeps from its edits is the text's.
        EXPECT_EQ(t.lineStarts, ks::app::text::lineStarts(t.buffer)) << "after key " << k;
    };
    // On screen now: just right of the boundary before 0-based column `column` of 1-based line `line`.
    auto at = [&](int line, int column) {
        const auto& g = t.textGeometry;
        return ImVec2(g[0] + (float(column) + 0.2f) * g[3], g[1] + (float(line) - 0.5f) * g[2]);
    };
    auto press = [&](ImVec2 p, bool shift = false) {
        io.MousePos = p;
        io.KeyShift = shift;
        m_session->renderFrame();
        io.MouseDown[0] = true;
        m_session->renderFrame();
        io.MouseDown[0] = false;
        m_session->renderFrame();
        io.KeyShift = false;
    };
    auto selected = [&] { return t.buffer.substr(std::size_t(t.selectionBegin), std::size_t(t.selectionEnd - t.selectionBegin)); };
    auto offset = [&](int line, int column) { return int(ks::app::text::lineStart(t.buffer, line)) + column; };

    // Line 9 is "    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;".
    ASSERT_EQ(t.buffer.substr(std::size_t(offset(9, 0)), 22), "    const unsigned x =");
    press(at(9, 12)); // inside "unsigned"
    ASSERT_TRUE(t.editing);
    EXPECT_EQ(t.cursorLine, 9);
    EXPECT_EQ(t.cursorOffset, offset(9, 12));
    EXPECT_EQ(t.selectionBegin, t.selectionEnd);

    // A second press at once: the word.
    io.MouseDown[0] = true;
    m_session->renderFrame();
    io.MouseDown[0] = false;
    m_session->renderFrame();
    EXPECT_EQ(selected(), "unsigned");
    const auto shot = m_session->screenshot();
    keepScreenshot("editor_selection.png", shot);
    // Escape drops the selection and keeps the keyboard.
    key(256);
    EXPECT_EQ(t.selectionBegin, t.selectionEnd);
    EXPECT_TRUE(t.editing);
    // The selection is drawn in ImGui's selection colour (blue) under the word: the word's box is
    // bluer with it than without.
    const auto& g = t.textGeometry;
    auto blueness = [&](const ks::io::Rgba8Image& img) { // the mean of blue minus red over "unsigned"
        double sum = 0;
        int n = 0;
        for (int y = int(g[1] + 8 * g[2]) + 1; y < int(g[1] + 9 * g[2]) - 1; ++y)
            for (int x = int(g[0] + 10 * g[3]) + 1; x < int(g[0] + 18 * g[3]) - 1; ++x, ++n) {
                const std::uint8_t* p = &img.pixels[(std::size_t(y) * std::size_t(img.width) + std::size_t(x)) * 4];
                sum += double(p[2]) - double(p[0]);
            }
        return n ? sum / n : 0.0;
    };
    const double withSelection = blueness(shot);
    const double without = blueness(m_session->screenshot());
    EXPECT_GT(withSelection, without + 25) << "the selected word's background";

    // Shift+click extends from the cursor; a drag selects from where it began.
    press(at(9, 4));
    press(at(10, 4), true);
    EXPECT_EQ(t.selectionBegin, offset(9, 4));
    EXPECT_EQ(t.selectionEnd, offset(10, 4));
    io.MousePos = at(9, 10);
    m_session->renderFrame();
    io.MouseDown[0] = true;
    m_session->renderFrame();
    io.MousePos = at(10, 18);
    m_session->renderFrame();
    m_session->renderFrame();
    io.MouseDown[0] = false;
    m_session->renderFrame();
    EXPECT_EQ(t.selectionBegin, offset(9, 10));
    EXPECT_EQ(t.selectionEnd, offset(10, 18));
    EXPECT_EQ(t.cursorOffset, offset(10, 18)) << "the cursor where the drag ended";

    // Keys: Left collapses to the selection's start; Home goes to the first non-blank, then column
    // 0; End to the line's end; Ctrl+Right by a word; Up keeps the column.
    key(kLeft);
    EXPECT_EQ(t.cursorOffset, offset(9, 10));
    EXPECT_EQ(t.selectionBegin, t.selectionEnd);
    key(kHome);
    EXPECT_EQ(t.cursorOffset, offset(9, 4));
    key(kHome);
    EXPECT_EQ(t.cursorOffset, offset(9, 0));
    key(kRight, false, true);
    EXPECT_EQ(t.cursorOffset, offset(9, 9)) << "past the indentation and \"const\"";
    key(kDown);
    EXPECT_EQ(t.cursorLine, 10);
    EXPECT_EQ(t.cursorColumn, 10);
    key(kEnd);
    EXPECT_EQ(t.cursorOffset, offset(11, 0) - 1);
    key(kLeft, true); // Shift+Left: one character selected
    EXPECT_EQ(selected(), ";");
    EXPECT_EQ(t.doc.text(), m_source) << "nothing typed yet";

    // Enter at the end of line 10 keeps its four spaces; typing goes there.
    key(kRight);
    key(257);
    const std::string typed = "int q = 0;";
    for (char c : typed)
        io.AddInputCharacter(static_cast<unsigned char>(c));
    m_session->renderFrame();
    m_session->renderFrame();
    EXPECT_EQ(t.cursorLine, 11);
    EXPECT_EQ(t.doc.text().substr(std::size_t(offset(11, 0)), 14), "    int q = 0;");

    // Lines 10 and 11 selected with Shift+Up from line 11's end, then Tab and Shift+Tab.
    key(kUp, true);
    key(kTab);
    EXPECT_EQ(t.doc.text().substr(std::size_t(offset(10, 0)), 14), "        const ");
    EXPECT_EQ(t.doc.text().substr(std::size_t(offset(11, 0)), 18), "        int q = 0;");
    key(kTab, true);
    EXPECT_EQ(t.doc.text().substr(std::size_t(offset(10, 0)), 10), "    const ");
    EXPECT_EQ(t.doc.text().substr(std::size_t(offset(11, 0)), 14), "    int q = 0;");

    // Ctrl+C / Ctrl+V: "unsigned" copied (double-click) and pasted before line 11's code.
    press(at(9, 12));
    io.MouseDown[0] = true;
    m_session->renderFrame();
    io.MouseDown[0] = false;
    m_session->renderFrame();
    ASSERT_EQ(selected(), "unsigned");
    key('C', false, true);
    key(kDown); // from the selection's cursor, which it leaves
    key(kDown);
    key(kHome);
    key('V', false, true);
    EXPECT_EQ(t.doc.text().substr(std::size_t(offset(11, 0)), 16), "    unsignedint ");

    // A '}' typed after only spaces goes one level out.
    key(kEnd);
    key(257);
    io.AddInputCharacter('}');
    m_session->renderFrame();
    m_session->renderFrame();
    const std::size_t l12 = std::size_t(offset(12, 0));
    EXPECT_EQ(t.doc.text().substr(l12, t.doc.text().find('\n', l12) - l12), "}");

    // Backspace takes the '}' and then the line break; Delete the character after the cursor.
    key(kBackspace);
    key(kBackspace);
    EXPECT_EQ(t.cursorLine, 11);
    key(kHome);
    key(kHome);
    key(kDelete);
    const std::size_t l11 = std::size_t(offset(11, 0));
    EXPECT_EQ(t.doc.text().substr(l11, t.doc.text().find('\n', l11) - l11), "   unsignedint q = 0;");

    // A character beyond ASCII goes in as its UTF-8 bytes, and Backspace takes it whole.
    io.AddInputCharacter(0xE9); // é
    m_session->renderFrame();
    m_session->renderFrame();
    EXPECT_EQ(t.doc.text().substr(l11, 5), "\xC3\xA9   ");
    key(kBackspace);
    EXPECT_EQ(t.doc.text().substr(l11, 3), "   ");
}

// --kernel with a file of the user's runs the project inferred from its first kernel; the editor's
// kernel picker runs another kernel of the file in its place; and the tour describes the default
// demo's tiles only while the shipped kernel runs.
TEST_F(EditorHeadless, AKernelFileOfTheUsersRunsItsFirstKernelAndThePickerAnother)
{
    m_session.reset();
    const fs::path mine = m_dir.path() / "spiral.cu";
    ks::test::writeFile(mine, "extern \"C\" __global__ void helper(float* p, int n) { p[0] = 0; }\n"
                              "extern \"C\" __global__ void spiral(cudaSurfaceObject_t out, int width, int height, "
                              "float time)\n{\n}\n");
    m_options.kernelSpec = mine.string();
    m_session = std::make_unique<HeadlessSession>(m_options);
    settle();
    const ks::app::AppState& s = app().state();
    EXPECT_EQ(s.editor.runningKernel, "helper");
    EXPECT_EQ(s.editor.runningFile.filename(), "spiral.cu");
    EXPECT_FALSE(ks::app::runsDefaultDemo(s));
    const auto steps = ks::app::tourSteps(true);
    EXPECT_EQ(ks::app::tourStepText(*steps[0], s), steps[0]->text);

    app().projectCommands().openKernel = {mine, "spiral"}; // what picking it in the editor asks
    settle();
    EXPECT_EQ(s.editor.runningKernel, "spiral");
    ASSERT_TRUE(s.project.kernel);
    EXPECT_EQ(s.project.kernel->inference.bindings.at(0).bound, "texture out");
    EXPECT_EQ(s.project.session->pipeline().project().views.at(0).source, "out");
}

// With neither --project nor --kernel the default demo runs: the project inferred from the shipped
// kernels/thread_colors.cu's thread_colors_surface, through the same panels as any project (Views,
// Arguments, Launch), and the tour describes its picture tile by tile.
TEST_F(EditorHeadless, TheDefaultDemoIsTheShippedKernelsProject)
{
    m_session.reset();
    m_options.kernelSpec.clear();
    m_options.imageSize = std::array<int, 2>{96, 64};
    m_session = std::make_unique<HeadlessSession>(m_options);
    settle();
    const ks::app::AppState& s = app().state();
    ASSERT_TRUE(s.project.session && s.project.kernel) << app().statusLine();
    std::error_code ec;
    EXPECT_TRUE(fs::equivalent(s.project.kernel->file, ks::test::sourceDir() / "kernels" / "thread_colors.cu", ec));
    EXPECT_EQ(s.editor.runningKernel, "thread_colors_surface");
    EXPECT_TRUE(fs::equivalent(s.editor.runningFile, s.project.kernel->file, ec));
    EXPECT_TRUE(ks::app::runsDefaultDemo(s));
    const ks::pipeline::Resource* out = s.project.session->pipeline().resources().find("out");
    ASSERT_NE(out, nullptr);
    EXPECT_EQ(out->desc.width, 96); // --image-size
    EXPECT_EQ(out->desc.height, 64);
    for (const char* panel : {ks::app::kViewsPanel, ks::app::kArgumentsPanel, ks::app::kLaunchPanel, ks::app::kEditorPanel}) {
        const ImGuiWindow* w = ImGui::FindWindowByName(panel);
        EXPECT_TRUE(w && w->Active) << panel << " is drawn";
    }
    const auto steps = ks::app::tourSteps(true);
    const std::string text = ks::app::tourStepText(*steps[0], s);
    EXPECT_NE(text.find("The default demo runs the kernel thread_colors_surface"), std::string::npos) << text;
    EXPECT_NE(text.find("blockIdx"), std::string::npos) << text;
    EXPECT_NE(app().statusLine().find("project: thread_colors_surface"), std::string::npos) << app().statusLine();
}

// A file indented with tabs gets tabs where it is typed in (Tab, Enter after a '{', Shift+Tab, a
// '}'); a file indented with spaces gets spaces (the test above). Then Insert's overtype, and the
// position given to an input method.
TEST_F(EditorHeadless, AFileIndentedWithTabsGetsTabsWhereYouType)
{
    m_session.reset();
    const fs::path tabbed = m_dir.path() / "tabbed.cu";
    const std::string source = "extern \"C\" __global__ void k(float* p)\n{\n\tif (p) {\n\t\tp[0] = 1;\n\t}\n}\n";
    ks::test::writeFile(tabbed, source);
    m_options.kernelSpec = tabbed.string();
    m_session = std::make_unique<HeadlessSession>(m_options);
    settle();
    mapGlfwKeys();
    ImGuiIO& io = ImGui::GetIO();
    io.KeyMap[ImGuiKey_Tab] = 258;
    io.KeyMap[ImGuiKey_End] = 269;
    auto& t = *app().state().editor.tabs.at(0);
    ASSERT_EQ(t.buffer, source);
    auto key = [&](int k, bool shift = false) { ctrlPress(k, false, shift); };
    // Into line 3, "\tif (p) {", then to its end.
    const auto& g = t.textGeometry;
    io.MousePos = ImVec2(g[0] + 6.2f * g[3], g[1] + 2.5f * g[2]);
    m_session->renderFrame();
    io.MouseDown[0] = true;
    m_session->renderFrame();
    io.MouseDown[0] = false;
    m_session->renderFrame();
    ASSERT_TRUE(t.editing);
    ASSERT_EQ(t.cursorLine, 3);
    key(269); // End
    key(257); // Enter: the line's tab and one more
    key(258); // Tab: one more again
    io.AddInputCharacter('q');
    m_session->renderFrame();
    m_session->renderFrame();
    EXPECT_EQ(t.buffer.substr(0, t.buffer.find("p[0]")),
              "extern \"C\" __global__ void k(float* p)\n{\n\tif (p) {\n\t\t\tq\n\t\t") << t.buffer;
    key(258, true); // Shift+Tab: one tab less
    EXPECT_EQ(t.cursorLine, 4);
    EXPECT_NE(t.buffer.find("{\n\t\tq\n"), std::string::npos) << t.buffer;
    // Enter after "q" keeps its two tabs; a '}' typed there takes one off.
    key(257);
    io.AddInputCharacter('}');
    m_session->renderFrame();
    m_session->renderFrame();
    EXPECT_NE(t.buffer.find("{\n\t\tq\n\t}\n"), std::string::npos) << t.buffer;

    // Insert: overtype. A typed character replaces the one after the cursor, not a line's end.
    io.KeyMap[ImGuiKey_Insert] = 260;
    io.KeyMap[ImGuiKey_LeftArrow] = 263;
    auto type = [&](char c) {
        io.AddInputCharacter(static_cast<unsigned char>(c));
        m_session->renderFrame();
        m_session->renderFrame();
    };
    key(260);
    key(263); // before the '}'
    type(']');
    type('x');
    EXPECT_NE(t.buffer.find("\n\t]x\n\t\tp[0]"), std::string::npos) << t.buffer;
    key(260); // and off again
    key(263);
    type('y');
    EXPECT_NE(t.buffer.find("\n\t]yx\n\t\tp[0]"), std::string::npos) << t.buffer;
    // An input method's window goes where the cursor is (ImGui passes it to the platform).
    const ImVec2 ime = ImGui::GetCurrentContext()->PlatformImePos;
    EXPECT_FLOAT_EQ(ime.y, g[1] + float(t.cursorLine - 1) * g[2]);
    EXPECT_GT(ime.x, g[0] + 2.f * g[3]) << "after the tab and ']y'";
    EXPECT_LT(ime.x, g[0] + 12.f * g[3]);
}

// Help > Guided tour, clicked as a user would. Each step outlines the window of the panel it names
// and brings that panel to the front; the step for a panel the View menu hid shows it again. Back
// goes back a step, the outline is in the picture, and Escape closes the tour. With a project open
// (and ImGui's built-in font, as on the GPU hosts) the steps are the project's panels; a panel the
// classroom layout leaves out is not outlined; Finish on the last step closes the tour.
TEST_F(EditorHeadless, GuidedTourOutlinesEachPanelInTurn)
{
    settle();
    mapGlfwKeys();
    auto tour = [&]() -> const ks::app::TourState& { return app().state().menu.tour; }; // of the current app
    // The panels a step may outline: its own must be the frontmost of them.
    const char* panels[] = {ks::app::kEditorPanel, ks::app::kArgumentsPanel, ks::app::kViewsPanel, ks::app::kLaunchPanel, ks::app::kDevicePanel, ks::app::kTimingsPanel,
                            ks::app::kCompileLogPanel, ks::app::kProjectPanel, ks::app::kOverlayPanel, ks::app::kTimelinePanel};
    auto expectOutlined = [&](const char* name) {
        const ImGuiWindow* w = ImGui::FindWindowByName(name);
        ASSERT_TRUE(w && w->Active) << name << " is drawn";
        EXPECT_EQ(tour().panel, name);
        EXPECT_FLOAT_EQ(tour().highlight[0], w->Pos.x);
        EXPECT_FLOAT_EQ(tour().highlight[1], w->Pos.y);
        EXPECT_FLOAT_EQ(tour().highlight[2], w->Pos.x + w->Size.x);
        EXPECT_FLOAT_EQ(tour().highlight[3], w->Pos.y + w->Size.y);
        if (std::string_view(name) == "##status")
            return; // the status bar is never covered, and is not brought forward
        const int front = ImGui::FindWindowDisplayIndex(const_cast<ImGuiWindow*>(w));
        for (const char* other : panels) {
            ImGuiWindow* o = ImGui::FindWindowByName(other);
            if (o && o->Active && o != w) {
                EXPECT_GT(front, ImGui::FindWindowDisplayIndex(o)) << name << " is in front of " << other;
            }
        }
    };
    // Walks every step with Next, checking each.
    auto walk = [&](const std::vector<const ks::app::TourStep*>& steps) {
        for (std::size_t k = 0; k < steps.size(); ++k) {
            SCOPED_TRACE("step " + std::to_string(k + 1) + ": " + steps[k]->title);
            m_session->renderFrame(); // a panel shown again by this step is drawn from the next frame on
            ASSERT_TRUE(tour().open);
            EXPECT_EQ(tour().step, int(k));
            expectOutlined(steps[k]->panel);
            EXPECT_EQ(ks::app::uiProbe().count("tour:Finish"), k + 1 == steps.size() ? 1u : 0u) << "Finish on the last step only";
            if (k + 1 < steps.size())
                clickAt(ks::test::drawnAt("tour:Next"));
        }
    };

    click("View");
    click("Device");
    ASSERT_EQ(app().state().menu.hiddenPanels.count("Device"), 1u);
    click("Help");
    click("Guided tour");
    ASSERT_TRUE(tour().open);
    const auto steps = ks::app::tourSteps(true); // a project inferred from a kernel: with Arguments
    ASSERT_GE(steps.size(), 7u);
    // This app runs thread_colors_surface from a copy, live.cu: a file of the user's, so the tour
    // says nothing of the shipped demo's tiles (TheDefaultDemoIsTheShippedKernelsProject: it does
    // for the shipped file).
    EXPECT_EQ(ks::app::tourStepText(*steps[0], app().state()), steps[0]->text);
    walk(steps);
    ASSERT_FALSE(HasFatalFailure());
    EXPECT_EQ(app().state().menu.hiddenPanels.count("Device"), 0u) << "its step showed the hidden panel";

    clickAt(ks::test::drawnAt("tour:Back"));
    m_session->renderFrame();
    const std::size_t back = steps.size() - 2;
    EXPECT_EQ(tour().step, int(back));
    expectOutlined(steps[back]->panel);
    const std::array<float, 4> h = tour().highlight;
    const std::array<float, 4> band = {h[0] - 6, h[1] - 6, h[2] + 6, h[3] + 6};
    const auto shot = m_session->screenshot();
    keepScreenshot("guided_tour.png", shot);
    EXPECT_GT(countColourIn(shot, band, ks::app::theme::kTourHighlight, 12), int(h[2] - h[0] + h[3] - h[1]))
        << "the outline around " << steps[back]->panel;

    ctrlPress(256, false); // Escape
    EXPECT_FALSE(tour().open);
    EXPECT_TRUE(tour().panel.empty());
    EXPECT_LT(countColourIn(m_session->screenshot(), band, ks::app::theme::kTourHighlight, 12), 10)
        << "no outline once closed";

    m_session.reset();
    m_options.project = ks::test::sourceDir() / "projects" / "doublify.json";
    m_options.kernelSpec.clear(); // --kernel would win over --project
    m_options.font = "none";
    m_session = std::make_unique<HeadlessSession>(m_options);
    ASSERT_TRUE(framesUntil([&] { return app().state().project.session != nullptr; })) << "doublify.json opened";
    m_session->renderFrame();
    click("Help");
    click("Guided tour");
    ASSERT_TRUE(tour().open);
    const auto projectSteps = ks::app::tourSteps(false); // a saved project: no Arguments panel
    walk(projectSteps);
    ASSERT_FALSE(HasFatalFailure());
    keepScreenshot("guided_tour_project.png", m_session->screenshot());

    // The classroom layout leaves the Device panel out: its step outlines nothing.
    app().teachCommands().layout = ks::app::Layout::Classroom;
    m_session->renderFrame();
    m_session->renderFrame();
    // (A step's window takes its size and corner a frame after the step changes: a frame first.)
    auto press = [&](const char* button) {
        m_session->renderFrame();
        clickAt(ks::test::drawnAt(std::string("tour:") + button));
    };
    while (tour().step > 0 && std::string_view(projectSteps[std::size_t(tour().step)]->panel) != "Device")
        press("Back");
    ASSERT_EQ(std::string_view(projectSteps[std::size_t(tour().step)]->panel), "Device");
    m_session->renderFrame();
    EXPECT_TRUE(tour().open);
    EXPECT_TRUE(tour().panel.empty()) << "outlined " << tour().panel;
    keepScreenshot("guided_tour_classroom.png", m_session->screenshot());

    // A new GPU process (after a fault, or killed) goes on with the tour at the step it was on.
    const int at = tour().step;
    ks::app::supervise::Restore restore;
    restore.state =
        nlohmann::json::parse(nlohmann::json(app().snapshot()).dump()).get<ks::app::supervise::AppSnapshot>();
    EXPECT_EQ(restore.state.tourStep, at);
    m_session.reset();
    m_options.project.clear();
    m_session = std::make_unique<HeadlessSession>(m_options);
    app().restore(restore);
    ASSERT_TRUE(framesUntil([&] { return app().state().project.session != nullptr; })) << "the project came back";
    m_session->renderFrame();
    EXPECT_TRUE(tour().open);
    EXPECT_EQ(tour().step, at);
    EXPECT_EQ(app().state().teach.layout, ks::app::Layout::Classroom);
    while (ks::app::uiProbe().count("tour:Next"))
        press("Next");
    press("Finish");
    EXPECT_FALSE(tour().open);
    EXPECT_TRUE(tour().panel.empty());
}
