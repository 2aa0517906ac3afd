// On a GPU host: "Find the fault" end to end, each case in processes of its own (a fault poisons
// the process that has it). The app binary is $KS_KERNELSCOPE, else <this test's folder>/../app/kernelscope.
//   - `--find-faults` on a project whose kernel writes far out of bounds: exit 3, and the checked
//     re-run names `out`, "wrote" and the line of the bad store, also as FILE:LINE: error:
//   - `--find-faults` on a kernel that traps: the re-run finds no bad access and says so
//   - the checked re-run itself (`--checked-frame`) on a near overrun that need not fault: the
//     teaching sentence, 4 elements past the end of `out`
//   - the app's own "Find the fault" (the banner's button) after a restore that shows that fault:
//     the real checked re-run in a child, its finding in the banner and on the line in the editor
#include "app.hpp"
#include "supervise/find_fault.hpp"
#include "cli/options.hpp"
#include "platform/platforms.hpp"

#include "ks/core/error.hpp"
#include "ks/core/file_watcher.hpp"
#include "ks/core/paths.hpp"

#include "fault_restore.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <chrono>
#include <thread>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

fs::path kernelscope()
{
    return ks::test::appBinary();
}

fs::path faultsDir()
{
    return ks::test::sourceDir() / "tests" / "projects" / "faults";
}

// The 1-based line of faults.cu that holds `text`.
int lineOf(const std::string& text)
{
    const std::string source = ks::paths::readTextFile(faultsDir() / "faults.cu");
    const std::size_t at = source.find(text);
    if (at == std::string::npos)
        return -1;
    return 1 + int(std::count(source.begin(), source.begin() + std::ptrdiff_t(at), '\n'));
}

struct ProcessResult {
    int status = -1;
    std::string output; // stdout and stderr
};

ProcessResult run(const std::string& args)
{
    ProcessResult r;
    const std::string command = "'" + kernelscope().string() + "' " + args + " 2>&1";
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe)
        return r;
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
        r.output.append(buffer, n);
    const int status = ::pclose(pipe);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return r;
}

class FindFaults : public ::testing::Test {
protected:
    void SetUp() override
    {
        KS_REQUIRE_CUDA();
        ASSERT_TRUE(fs::exists(kernelscope())) << "no app binary at " << kernelscope() << " (set KS_KERNELSCOPE)";
    }
};

TEST_F(FindFaults, AFarOutOfBoundsWriteIsFoundAtTheLineOfTheStore)
{
    const int line = lineOf("out[(size_t(1) << 36) + i] = 1.0f;");
    ASSERT_GT(line, 0);
    const ProcessResult r = run("--headless --project '" + (faultsDir() / "oob_write.json").string() +
                      "' --frames 6 --find-faults --data-dir '" + ks::test::sourceDir().string() + "'");
    EXPECT_EQ(r.status, 3) << r.output;
    EXPECT_NE(r.output.find("kernelscope: found the fault: thread (5,0,0) of block (0,0,0) wrote out[68719476741], "
                            "68719472645 elements past the end of out (4096 elements), at line " +
                            std::to_string(line)),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find((faultsDir() / "faults.cu").string() + ":" + std::to_string(line) + ": error: thread (5,0,0)"),
              std::string::npos)
        << r.output;
}

TEST_F(FindFaults, ATrapIsSomethingElse)
{
    const ProcessResult r = run("--headless --project '" + (faultsDir() / "trap.json").string() + "' --frames 6 --find-faults");
    EXPECT_EQ(r.status, 3) << r.output;
    EXPECT_NE(r.output.find("kernelscope: the checked re-run found no out-of-bounds or misaligned access through "
                            "pointer parameters or surfaces; the fault was something else: "),
              std::string::npos)
        << r.output;
    EXPECT_EQ(r.output.find("found the fault"), std::string::npos) << r.output;
}

TEST_F(FindFaults, ANearOverrunIsFoundByTheCheckedFrame)
{
    const int line = lineOf("out[width * height + 4] = 1.0f;");
    ASSERT_GT(line, 0);
    ks::test::TempDir dir;
    const fs::path report = dir.path() / "report.json";
    const ProcessResult r = run("--headless --project '" + (faultsDir() / "oob_near.json").string() +
                      "' --checked-frame 3 --checked-stage paint --checked-report '" + report.string() + "'");
    EXPECT_EQ(r.status, 0) << r.output;
    std::string error;
    const auto found = ks::app::readCheckedReport(report, error);
    ASSERT_TRUE(found) << error << "\n" << r.output;
    EXPECT_TRUE(found->ran);
    EXPECT_TRUE(found->found);
    EXPECT_FALSE(found->faulted);
    EXPECT_EQ(found->sentence, "thread (5,0,0) of block (0,0,0) wrote out[4100], 4 elements past the end of out "
                               "(4096 elements), at line " + std::to_string(line));
    EXPECT_EQ(found->line, line);
    EXPECT_EQ(found->access, "write");
    EXPECT_EQ(found->param, "out");
    EXPECT_EQ(found->resource, "out");
    EXPECT_EQ(found->element, 4100);
    EXPECT_EQ(found->failures, 1u);
    EXPECT_EQ(found->kernel, "oob_near");
    EXPECT_EQ(fs::path(found->file).filename(), "faults.cu");

    // Frames before the faulting one run the normal kernel: at frame 2 nothing is out of bounds.
    const ProcessResult early = run("--headless --project '" + (faultsDir() / "oob_near.json").string() +
                          "' --checked-frame 2 --checked-stage paint --checked-report '" + report.string() + "'");
    EXPECT_EQ(early.status, 0) << early.output;
    const auto clean = ks::app::readCheckedReport(report, error);
    ASSERT_TRUE(clean) << error;
    EXPECT_TRUE(clean->ran);
    EXPECT_FALSE(clean->found) << clean->sentence;
}

// The teaching panels' variants of the faulting kernel, checked (as .ci/checked-kernels.py runs
// them): "who wrote it" refuses the write through its recorded output (checked by its context: no
// line), the timeline's checked pointer gives the user's line; a frame before the fault is clean.
TEST_F(FindFaults, ANearOverrunIsFoundByTheCheckedTeachingVariants)
{
    const int line = lineOf("out[width * height + 4] = 1.0f;");
    ASSERT_GT(line, 0);
    ks::test::TempDir dir;
    const fs::path report = dir.path() / "report.json";
    const auto checkedRun = [&](const char* variant, int frame) {
        const ProcessResult r = run("--headless --project '" + (faultsDir() / "oob_near.json").string() +
                                    "' --checked-frame " + std::to_string(frame) +
                                    " --checked-stage paint --checked-variant " + variant + " --checked-report '" +
                                    report.string() + "'");
        EXPECT_EQ(r.status, 0) << r.output;
        std::string error;
        auto found = ks::app::readCheckedReport(report, error);
        EXPECT_TRUE(found) << error << "\n" << r.output;
        return found.value_or(ks::app::CheckedReport{});
    };
    const ks::app::CheckedReport who = checkedRun("who", 3);
    EXPECT_TRUE(who.ran) << who.error;
    EXPECT_TRUE(who.found);
    EXPECT_EQ(who.variant, "who");
    EXPECT_EQ(who.sentence, "thread (5,0,0) of block (0,0,0) wrote out[4100], 4 elements past the end of out "
                            "(4096 elements)");
    EXPECT_EQ(who.param, "out");
    EXPECT_EQ(who.resource, "out");
    EXPECT_EQ(who.line, 0);
    EXPECT_EQ(who.failures, 1u);

    const ks::app::CheckedReport timeline = checkedRun("timeline", 3);
    EXPECT_TRUE(timeline.ran) << timeline.error;
    EXPECT_TRUE(timeline.found);
    EXPECT_EQ(timeline.line, line);
    EXPECT_EQ(timeline.element, 4100);

    const ks::app::CheckedReport early = checkedRun("who", 2);
    EXPECT_TRUE(early.ran) << early.error;
    EXPECT_FALSE(early.found) << early.sentence;
}

} // namespace

// In this process the project only runs paused (nothing faults here); the checked frame runs in the
// child the app starts, as the banner's button does after a real fault.
TEST_F(FindFaults, TheAppsButtonFindsANearOverrunAndMarksItsLine)
{
    const int line = lineOf("out[width * height + 4] = 1.0f;");
    ASSERT_GT(line, 0);
    ks::test::TempDir dir;
    const fs::path cu = dir.write("faults.cu", ks::paths::readTextFile(faultsDir() / "faults.cu"));
    const fs::path project = dir.write("oob_near.json", ks::paths::readTextFile(faultsDir() / "oob_near.json"));
    const ks::test::ScopedEnv child("KS_KERNELSCOPE", kernelscope().string()); // the child: the app, not this test
    const ks::app::AppOptions options = ks::test::findFaultAppOptions(project, dir.path());
    ks::app::HeadlessSession session(options);
    ks::app::App& app = session.app();
    const ks::app::supervise::Restore restore = ks::test::restoreShowingFault("oob_near", cu, project);
    app.restore(restore);
    session.renderFrame();
    ASSERT_TRUE(app.state().project.session) << "the project did not open";
    const ks::app::EditorTab* tab = app.state().editor.find(ks::FileWatcher::normalize(cu));
    ASSERT_TRUE(tab);
    ASSERT_EQ(tab->faultSearch, ks::app::FaultSearchState::Offered) << tab->faultNote;
    ASSERT_TRUE(app.findFault());
    session.renderFrame();
    ASSERT_EQ(tab->faultSearch, ks::app::FaultSearchState::Running) << tab->faultFinding;
    const auto began = std::chrono::steady_clock::now();
    while (tab->faultSearch == ks::app::FaultSearchState::Running &&
           std::chrono::steady_clock::now() - began < std::chrono::seconds(60)) {
        session.renderFrame();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    std::printf("[ find the fault ] %.2f s: %s\n", seconds, tab->faultFinding.c_str());
    ASSERT_EQ(tab->faultSearch, ks::app::FaultSearchState::Done) << tab->faultFinding;
    EXPECT_EQ(tab->faultFinding.rfind("Found the fault: thread (5,0,0) of block (0,0,0) wrote out[4100], 4 elements past "
                                      "the end of out (4096 elements), at line " + std::to_string(line), 0),
              0u)
        << tab->faultFinding;
    ASSERT_TRUE(tab->faultMark);
    EXPECT_EQ(tab->faultMark->line, line);
}
