// Help while typing in the kernel editor, driven headless as the GLFW shell drives it: typing
// "atomicA" opens the completion list with atomicAdd first; Tab accepts; Escape closes it and
// keeps the keyboard; Ctrl+Space opens it and then Enter accepts; without a choice Enter breaks
// the line; Up and Down move in it; a click on a row accepts it. Hovering threadIdx shows its
// declaration, hovering a kernel parameter its type and binding; a project's parameter is offered.
#include "app.hpp"
#include "cli/options.hpp"
#include "ks/io/image.hpp"
#include "ks/core/paths.hpp"
#include "platform/platforms.hpp"

#include "headless_app.hpp"
#include "test_support.hpp"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

namespace fs = std::filesystem;

namespace {

// GLFW's codes for the keys, as the window sends them.
enum : int { kSpace = 32, kEscape = 256, kEnter = 257, kTab = 258, kDown = 264, kUp = 265 };

class CompletionHeadless : public ::testing::Test {
protected:
    void open(const fs::path& project = {})
    {
        m_kernel = m_dir.path() / "live.cu";
        m_source = ks::test::demoKernelSource();
        ks::test::writeFile(m_kernel, m_source);
        m_options.headless = true;
        m_options.width = 1200;
        m_options.height = 720;
        m_options.dataDir = ks::test::sourceDir();
        if (project.empty())
            m_options.kernelSpec = m_kernel.string();
        else
            m_options.project = project;
        m_options.recoveryDir = m_dir.path() / "recovery";
        std::string whyNot;
        m_session = ks::test::openHeadlessApp(m_options, whyNot);
        if (!m_session)
            GTEST_SKIP() << "no headless GL: " << whyNot;
        ImGuiIO& io = ImGui::GetIO();
        io.KeyMap[ImGuiKey_Space] = kSpace;
        io.KeyMap[ImGuiKey_Escape] = kEscape;
        io.KeyMap[ImGuiKey_Enter] = kEnter;
        io.KeyMap[ImGuiKey_Tab] = kTab;
        io.KeyMap[ImGuiKey_DownArrow] = kDown;
        io.KeyMap[ImGuiKey_UpArrow] = kUp;
    }

    ks::app::App& app() { return m_session->app(); }

    ks::app::EditorTab* tabOf(const std::string& fileName)
    {
        for (auto& t : app().state().editor.tabs)
            if (t->doc.path().filename() == fileName)
                return t.get();
        return nullptr;
    }

    void settle()
    {
        ASSERT_TRUE(app().settleBuilds(std::chrono::seconds(60)));
        m_session->renderFrame();
        m_session->renderFrame();
    }

    // The cursor at the start of `line` of `tab`, the source with the keyboard.
    void cursorToLine(ks::app::EditorTab& tab, int line)
    {
        tab.jumpToLine = line;
        m_session->renderFrame();
        m_session->renderFrame();
        ASSERT_TRUE(tab.editing) << tab.doc.path() << " is the tab shown";
    }

    void type(const std::string& text)
    {
        for (char c : text) { // a character a frame, as a person types
            ImGui::GetIO().AddInputCharacter(static_cast<unsigned char>(c));
            m_session->renderFrame();
        }
        m_session->renderFrame();
    }

    void press(int key, bool ctrl = false) { ks::test::pressKey(*m_session, key, ctrl); }

    static std::string lineOf(const ks::app::EditorTab& tab, int line)
    {
        std::size_t b = 0;
        for (int l = 1; l < line; ++l)
            b = tab.buffer.find('\n', b) + 1;
        return tab.buffer.substr(b, tab.buffer.find('\n', b) - b);
    }

    static std::string first(const ks::app::EditorTab& tab)
    {
        const auto& c = tab.completion;
        return c.open && !c.shown.empty() ? c.candidates[c.shown[std::size_t(c.selected)]].label : std::string();
    }

    // Rests the mouse on the first `word` of the tab's text (at its second character) until the
    // hover text shows; returns it.
    std::string hover(ks::app::EditorTab& tab, const std::string& word, std::size_t from = 0)
    {
        const std::size_t at = tab.buffer.find(word, from);
        EXPECT_NE(at, std::string::npos) << word;
        const int line = int(std::count(tab.buffer.begin(), tab.buffer.begin() + std::ptrdiff_t(at), '\n'));
        tab.jumpToLine = line + 1; // scrolled into view, the keyboard left where it is
        tab.jumpFocus = false;
        m_session->renderFrame();
        m_session->renderFrame();
        const std::size_t column = at - (tab.buffer.rfind('\n', at - 1) + 1);
        const auto& g = tab.textGeometry; // line 1, column 1 on screen; line height; a character's width
        ImGui::GetIO().MousePos =
            ImVec2(g[0] + (float(column) + 1.5f) * g[3], g[1] + (float(line) + 0.5f) * g[2]);
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (std::chrono::steady_clock::now() < end && tab.hoverText.empty()) {
            m_session->renderFrame();
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        if (tab.hoverText.empty() && tab.hoverBegin >= 0)
            ADD_FAILURE() << "no hover text over \""
                          << tab.buffer.substr(std::size_t(tab.hoverBegin), std::size_t(tab.hoverEnd - tab.hoverBegin))
                          << "\" (" << tab.kernels.size() << " kernels read)";
        return tab.hoverText;
    }

    void keep(const char* name)
    {
        if (const char* dir = std::getenv("KS_KEEP_SCREENSHOTS"); dir && *dir)
            ks::io::writePng(fs::path(dir) / name, m_session->screenshot());
    }

    ks::test::TempDir m_dir;
    fs::path m_kernel;
    std::string m_source;
    ks::app::AppOptions m_options;
    std::unique_ptr<ks::app::HeadlessSession> m_session;
};

} // namespace

TEST_F(CompletionHeadless, TypingOpensTabAcceptsEscapeCloses)
{
    open();
    settle();
    auto& t = *app().state().editor.tabs.at(0);
    ASSERT_EQ(lineOf(t, 5), "");
    cursorToLine(t, 5);

    type("atomicA");
    ASSERT_TRUE(t.completion.open) << "typing an identifier opens the list";
    EXPECT_EQ(first(t), "atomicAdd");
    EXPECT_GT(ks::test::drawnAt("completion:atomicAdd")[2], 0.f);
    keep("completion_list.png");
    press(kEscape);
    EXPECT_FALSE(t.completion.open) << "Escape closes the list";
    EXPECT_TRUE(t.editing) << "and the source keeps the keyboard";
    EXPECT_EQ(lineOf(t, 5), "atomicA");

    press(kSpace, true); // Ctrl+Space opens it again: a choice, so Enter accepts
    ASSERT_TRUE(t.completion.open);
    EXPECT_EQ(first(t), "atomicAdd");
    press(kEnter);
    EXPECT_FALSE(t.completion.open);
    EXPECT_EQ(lineOf(t, 5), "atomicAdd") << "Enter accepted, no line break";

    type("(&n, ato");
    ASSERT_TRUE(t.completion.open);
    press(kTab);
    EXPECT_EQ(lineOf(t, 5), "atomicAdd(&n, atomicAdd") << "Tab accepts";

    type(" + ato");
    ASSERT_TRUE(t.completion.open);
    press(kEnter); // nothing chosen: Enter is the text's
    EXPECT_FALSE(t.completion.open);
    EXPECT_EQ(lineOf(t, 5), "atomicAdd(&n, atomicAdd + ato");
    EXPECT_EQ(lineOf(t, 6), "") << "Enter broke the line";

    type("atomicC");
    ASSERT_TRUE(t.completion.open);
    const std::string top = first(t);
    EXPECT_EQ(top, "atomicCAS");
    press(kDown);
    EXPECT_NE(first(t), top);
    press(kUp);
    EXPECT_EQ(first(t), top);
    press(kEnter); // moved in the list: a choice
    EXPECT_EQ(lineOf(t, 6), "atomicCAS");
    EXPECT_NE(t.doc.text().find("atomicCAS"), std::string::npos) << "through the document, like typing";

    // A click on a row accepts it; the source keeps the keyboard.
    type(" thread");
    ASSERT_TRUE(t.completion.open);
    ks::test::clickAt(*m_session, ks::test::drawnAt("completion:threadIdx"));
    EXPECT_EQ(lineOf(t, 6), "atomicCAS threadIdx");
    EXPECT_FALSE(t.completion.open);
    m_session->renderFrame();
    EXPECT_TRUE(t.editing);

    // Not in comments.
    type(" // a comment ato");
    EXPECT_FALSE(t.completion.open);
}

TEST_F(CompletionHeadless, HoverShowsDeclarationsAndBindings)
{
    open();
    settle();
    auto& t = *app().state().editor.tabs.at(0);
    m_session->renderFrame();
    const std::string builtin = hover(t, "threadIdx.x");
    EXPECT_NE(builtin.find("uint3 threadIdx"), std::string::npos) << builtin;
    EXPECT_NE(builtin.find("index within its block"), std::string::npos) << builtin;
    m_session->renderFrame(); // a tooltip shows from its second frame (ImGui sizes it in the first)
    EXPECT_FALSE(t.hoverText.empty()) << "the text stays while the mouse rests";
    keep("completion_hover.png");
    const std::string intrinsic = hover(t, "surf2Dwrite");
    EXPECT_NE(intrinsic.find("void surf2Dwrite(T data, cudaSurfaceObject_t surf"), std::string::npos) << intrinsic;

    // A parameter of the kernel the project runs: its type and what it is bound to.
    const std::string param = hover(t, "width", t.buffer.find("(unsigned)width")); // in the body: on screen
    EXPECT_NE(param.find("int width"), std::string::npos) << param;
    EXPECT_NE(param.find("parameter of thread_colors_surface"), std::string::npos) << param;
    EXPECT_NE(param.find("bound to "), std::string::npos) << param;
    const auto& bindings = app().state().editor.runningBindings;
    ASSERT_TRUE(bindings.count("width"));
    EXPECT_NE(param.find(bindings.at("width")), std::string::npos) << param;

    // Nothing over a comment's words.
    ImGui::GetIO().MousePos = ImVec2(-100, -100);
    m_session->renderFrame();
    EXPECT_TRUE(t.hoverText.empty());
}

TEST_F(CompletionHeadless, OffersTheProjectsParametersAndResources)
{
    open(ks::test::sourceDir() / "projects" / "heat.json");
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < end && (!app().state().project.session || !tabOf("heat.cu")))
        m_session->renderFrame();
    ASSERT_TRUE(app().state().project.session) << "heat.json opened";
    auto* t = tabOf("heat.cu");
    ASSERT_NE(t, nullptr) << "the project's kernel is open in the editor";
    settle();
    const auto& names = app().state().editor.projectNames;
    ASSERT_TRUE(std::any_of(names.begin(), names.end(), [](const auto& n) { return n.label == "alpha"; }));

    cursorToLine(*t, 3); // above heat_init
    type("alp");
    ASSERT_TRUE(t->completion.open);
    const auto& c = t->completion;
    const auto& item = c.candidates[c.shown.front()];
    EXPECT_EQ(item.label, "alpha");
    EXPECT_EQ(item.kind, ks::syntax::CompletionKind::Parameter);
    EXPECT_EQ(item.detail, "float, 0 to 0.25");
    press(kEscape);
    type(" nex");
    ASSERT_TRUE(t->completion.open);
    EXPECT_EQ(first(*t), "next");
    EXPECT_EQ(c.candidates[c.shown.front()].kind, ks::syntax::CompletionKind::Resource)
        << "the resource, not the parameter of heat_step of the same name (the project's names come first)";
    press(kEscape);

    // The running stage's argument for a parameter, in the project's words.
    const std::string param = hover(*t, "alpha", t->buffer.find("+ alpha"));
    EXPECT_NE(param.find("float alpha"), std::string::npos) << param;
    if (app().state().editor.runningKernel == "heat_step") {
        EXPECT_NE(param.find("bound to parameter alpha"), std::string::npos) << param;
    } else {
        EXPECT_NE(param.find("(the project runs "), std::string::npos) << param;
    }
}

// The wheel over a long list scrolls it without moving the selection, and never past its ends.
TEST_F(CompletionHeadless, TheWheelScrollsALongList)
{
    open();
    settle();
    auto& t = *app().state().editor.tabs.at(0);
    cursorToLine(t, 5);
    press(kSpace, true); // nothing typed: every name
    ASSERT_TRUE(t.completion.open);
    const int count = int(t.completion.shown.size());
    ASSERT_GT(count, ks::app::CompletionState::kRows + 6);
    ASSERT_EQ(t.completion.firstRow, 0);
    ImGuiIO& io = ImGui::GetIO();
    const auto& r = t.completion.rect;
    const auto wheel = [&](float notches) {
        io.MousePos = ImVec2((r[0] + r[2]) / 2, (r[1] + r[3]) / 2);
        io.MouseWheel = notches;
        m_session->renderFrame();
    };
    wheel(-1.f); // down one notch
    EXPECT_EQ(t.completion.firstRow, 3);
    EXPECT_EQ(t.completion.selected, 0) << "the selection stays";
    EXPECT_TRUE(t.completion.open);
    wheel(-1000.f);
    EXPECT_EQ(t.completion.firstRow, count - ks::app::CompletionState::kRows) << "no further than the last row";
    wheel(1000.f);
    EXPECT_EQ(t.completion.firstRow, 0);
}
