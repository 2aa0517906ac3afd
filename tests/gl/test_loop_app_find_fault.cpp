// "Find the fault" in the whole app, headless on Mesa (no GPU needed): after a restore that shows a
// fault, the editor's banner offers the search; it runs in the background (the frames go on), hands
// the child a copy of the project and the editor's unsaved text, and its finding lands in the banner
// and on the line in the editor. The child is a stand-in (KS_KERNELSCOPE): the real checked re-run
// needs a GPU (tests/interop/test_supervise_find_fault.cpp).
#include "app.hpp"
#include "ks/core/error.hpp"
#include "ks/core/file_watcher.hpp"
#include "ks/core/paths.hpp"
#include "cli/options.hpp"
#include "platform/platforms.hpp"

#include "fault_restore.hpp"
#include "test_support.hpp"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <thread>

namespace {

namespace fs = std::filesystem;

std::vector<std::string> lines(const fs::path& file)
{
    std::ifstream in(file);
    std::vector<std::string> out;
    for (std::string l; std::getline(in, l);)
        out.push_back(l);
    return out;
}

std::string after(const std::vector<std::string>& args, const std::string& flag)
{
    for (std::size_t i = 0; i + 1 < args.size(); ++i)
        if (args[i] == flag)
            return args[i + 1];
    return "(missing)";
}

TEST(FindFaultApp, TheBannersButtonFindsTheFaultAndMarksTheLine)
{
    ks::test::TempDir dir;
    const fs::path faults = ks::test::sourceDir() / "tests" / "projects" / "faults";
    const fs::path cu = dir.write("faults.cu", ks::paths::readTextFile(faults / "faults.cu"));
    const fs::path project = dir.write("oob_write.json", ks::paths::readTextFile(faults / "oob_write.json"));
    // The stand-in keeps what it was given, waits until the test has drawn 5 frames (the app must
    // not wait for it: a file "go" says so), and reports the bad store of oob_write at its line.
    const fs::path script = dir.write(
        "fake-kernelscope.sh",
        "#!/bin/sh\n"
        "here=$(dirname \"$0\")\n"
        "printf '%s\\n' \"$@\" > \"$here/args.txt\"\n"
        "while [ $# -gt 0 ]; do\n"
        "  case \"$1\" in\n"
        "    --checked-report) report=$2;;\n"
        "    --project) cp \"$2\" \"$here/seen-project.json\";;\n"
        "    --checked-source) cp \"$2\" \"$here/seen-source.cu\";;\n"
        "  esac; shift\n"
        "done\n"
        "i=0; while [ ! -e \"$here/go\" ] && [ $i -lt 3000 ]; do sleep 0.01; i=$((i+1)); done\n"
        "cat > \"$report\" <<EOF\n"
        "{\"ran\": true, \"found\": true, \"frame\": 3, \"stage\": \"paint\", \"file\": \"" + cu.string() + "\",\n"
        " \"line\": 23, \"access\": \"write\", \"param\": \"out\", \"resource\": \"out\",\n"
        " \"sentence\": \"thread (5,0,0) of block (0,0,0) wrote out[68719476741], 68719472645 elements past the end of out (4096 elements), at line 23\"}\n"
        "EOF\n");
    fs::permissions(script, fs::perms::owner_all);
    const ks::test::ScopedEnv child("KS_KERNELSCOPE", script.string()); // for this test only, however it ends

    const ks::app::AppOptions options = ks::test::findFaultAppOptions(project, dir.path());
    std::unique_ptr<ks::app::HeadlessSession> session;
    try {
        session = std::make_unique<ks::app::HeadlessSession>(options);
    } catch (const ks::Error& e) {
        if (e.domain() == ks::ErrorDomain::Egl)
            GTEST_SKIP() << "no headless GL";
        throw;
    }
    ks::app::App& app = session->app();
    // As the shell sends it: the project comes back paused (on a GPU it would otherwise run on,
    // and a frame that runs dismisses the fault).
    const ks::app::supervise::Restore restore = ks::test::restoreShowingFault("oob_write", cu, project);
    app.restore(restore);
    session->renderFrame();

    const ks::app::AppState& state = app.state();
    ASSERT_TRUE(state.project.session);
    const ks::app::EditorTab* tab = state.editor.find(ks::FileWatcher::normalize(cu));
    ASSERT_TRUE(tab);
    EXPECT_FALSE(tab->faultNote.empty());
    EXPECT_EQ(tab->faultSearch, ks::app::FaultSearchState::Offered) << "the banner offers \"Find the fault\"";

    // An unsaved edit: the re-run must build the text the user sees.
    ASSERT_TRUE(app.editDocument(cu, tab->doc.text() + "// an unsaved edit\n"));
    ASSERT_TRUE(app.findFault());
    EXPECT_FALSE(app.findFault()) << "one search at a time";
    session->renderFrame();
    EXPECT_EQ(tab->faultSearch, ks::app::FaultSearchState::Running);
    EXPECT_EQ(tab->faultFinding.rfind("Looking for the fault: frame 3", 0), 0u) << tab->faultFinding;

    const auto began = std::chrono::steady_clock::now();
    int frames = 0;
    while (tab->faultSearch == ks::app::FaultSearchState::Running &&
           std::chrono::steady_clock::now() - began < std::chrono::seconds(30)) {
        session->renderFrame();
        if (++frames == 5)
            std::ofstream(dir.path() / "go") << "";
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_EQ(tab->faultSearch, ks::app::FaultSearchState::Done) << tab->faultFinding;
    EXPECT_GT(frames, 3) << "the app drew frames while the search ran";
    EXPECT_EQ(tab->faultFinding.rfind("Found the fault: thread (5,0,0) of block (0,0,0) wrote out[68719476741]", 0), 0u)
        << tab->faultFinding;
    ASSERT_TRUE(tab->faultMark);
    EXPECT_EQ(tab->faultMark->line, 23);
    EXPECT_EQ(tab->faultMark->severity, ks::rtc::Severity::Error);
    EXPECT_NE(tab->faultMark->message.find("wrote out[68719476741]"), std::string::npos);
    const std::vector<std::string> args = lines(dir.path() / "args.txt");
    EXPECT_FALSE(fs::exists(fs::path(after(args, "--checked-report")).parent_path())) << "its folder is removed";
    EXPECT_EQ(after(args, "--checked-frame"), "3");
    EXPECT_EQ(after(args, "--checked-stage"), "paint");
    EXPECT_EQ(after(args, "--headless"), "--project");
    const std::vector<std::string> source = lines(dir.path() / "seen-source.cu");
    ASSERT_FALSE(source.empty());
    EXPECT_EQ(source.back(), "// an unsaved edit");
    // The copy of the project names the same kernel file from where the child found it.
    const ks::project::LoadResult copy = ks::project::parseProject(
        ks::paths::readTextFile(dir.path() / "seen-project.json"), after(args, "--project"));
    ASSERT_TRUE(copy.project);
    ASSERT_EQ(copy.project->stages.size(), 1u);
    EXPECT_EQ(copy.project->resolve(copy.project->stages[0].file), ks::FileWatcher::normalize(cu));
    EXPECT_EQ(copy.project->stages[0].kernel, "oob_write");
}

} // namespace
