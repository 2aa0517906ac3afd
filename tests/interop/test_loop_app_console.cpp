// On a GPU host: a kernel's printf reaches the Console of a window's GPU process (captureDeviceOutput
// on), a line per printf, named by the frame and the stage that printed it, in order, and the
// printf buffer's size is the one asked for (--printf-buffer); a printf buffer chosen in one GPU
// process is set by the next one before its first kernel (the window's workers, under a ShellLink).
#include "app.hpp"
#include "app_state.hpp"
#include "cli/options.hpp"
#include "platform/platforms.hpp"
#include "supervise/shell_link.hpp"

#include "test_support.hpp"

#include <GLFW/glfw3.h>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

using ks::test::InteropTest;

namespace {

// A headless session's options for kernel `hello` of `dir`/hello.cu, which prints when `printsIf`
// (of thread index i) holds, with the capture a window's GPU process has.
ks::app::AppOptions printingKernel(const ks::test::TempDir& dir, const std::string& printsIf, const std::string& format)
{
    ks::test::writeFile(dir.path() / "hello.cu", "extern \"C\" __global__ void hello(float* out, int n, int frame)\n"
                                                 "{\n"
                                                 "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                                 "    if (i < n)\n"
                                                 "        out[i] = float(i);\n"
                                                 "    if (" + printsIf + ")\n"
                                                 "        printf(" + format + ");\n"
                                                 "}\n");
    ks::app::AppOptions options;
    options.headless = true;
    options.width = 800;
    options.height = 600;
    options.dataDir = ks::test::sourceDir();
    options.kernelSpec = (dir.path() / "hello.cu").string() + ":hello";
    options.shapes = {{"out", {256}}};
    options.captureDeviceOutput = true;
    options.recoveryDir = dir.path() / "recovery";
    return options;
}

} // namespace

TEST_F(InteropTest, DevicePrintfReachesTheConsoleByFrameAndStage)
{
    m_egl = ks::gl::EglContext(); // the session makes its own context on this device
    ks::test::TempDir dir;
    ks::app::AppOptions options =
        printingKernel(dir, "i < 3", R"("hello from thread %d in frame %d\n", i, frame)");
    options.printfBuffer = std::size_t(8) << 20;
    ks::app::HeadlessSession session(options);
    ks::app::App& app = session.app();
    const ks::app::AppState& s = app.state();
    ASSERT_TRUE(s.project.session) << app.statusLine();
    ASSERT_TRUE(app.settleBuilds(std::chrono::seconds(60)));
    for (int i = 0; i < 4; ++i)
        session.renderFrame();
    ASSERT_TRUE(s.project.session->pipeline().error().empty()) << s.project.session->pipeline().error();
    EXPECT_EQ(s.console.printfBuffer, std::size_t(8) << 20);
    ASSERT_GE(s.console.lines.size(), 6u) << "three lines a frame";
    const std::string stage = s.project.session->pipeline().stage(0).desc().name;
    for (const auto& line : s.console.lines) {
        EXPECT_EQ(line.stage, stage) << line.text;
        EXPECT_NE(line.text.find("in frame " + std::to_string(line.frame)), std::string::npos)
            << "frame " << line.frame << ": " << line.text;
        EXPECT_EQ(line.text.rfind("hello from thread ", 0), 0u) << line.text;
    }
}

// A new size once a kernel that prints has run: the driver keeps the old one in this context, so a
// window's GPU process asks to be replaced (kind "restart"), its snapshot carrying the new size for
// the next process, which sets it before its first kernel (tests/gl: the snapshot's part).
TEST_F(InteropTest, PrintfBufferChangedAfterAPrintAsksForANewProcess)
{
    m_egl = ks::gl::EglContext();
    ks::test::TempDir dir;
    ks::app::AppOptions options = printingKernel(dir, "i == 0", R"("frame %d\n", frame)");
    options.workerMode = "window"; // as a window's GPU process
    ks::app::HeadlessSession session(options);
    ks::app::App& app = session.app();
    const ks::app::AppState& s = app.state();
    ASSERT_TRUE(s.project.session) << app.statusLine();
    ASSERT_TRUE(app.settleBuilds(std::chrono::seconds(60)));
    for (int i = 0; i < 3; ++i)
        session.renderFrame();
    ASSERT_FALSE(s.console.lines.empty()) << "the kernel printed";
    const std::size_t before = s.console.printfBuffer;
    ASSERT_GT(before, 0u);
    const std::size_t wanted = before + (std::size_t(4) << 20);
    app.setPrintfBuffer(wanted);
    EXPECT_EQ(s.console.printfBuffer, before) << "the driver keeps its size in this context";
    ASSERT_TRUE(app.restartRequest());
    EXPECT_EQ(app.restartRequest()->kind, "restart");
    EXPECT_NE(app.restartRequest()->summary.find("printf"), std::string::npos) << app.restartRequest()->summary;
    EXPECT_EQ(app.snapshot().ui.editor.printfBuffer, wanted) << "the next process is told";
    EXPECT_FALSE(s.console.bufferNote.empty());
}

namespace {

using namespace std::chrono_literals;

// Threads of the kernel below, each printing one line a frame. On the H200 (driver 580) a line took
// about 256 bytes of the driver's buffer: its default (8.25 MiB there; CUDA documents 1 MiB) kept
// about half of these 131,072 lines, 16 MiB exactly 65,536 a frame, 64 MiB all of them. So what a
// frame shows says which buffer the GPU process has.
constexpr std::int64_t kLinesPerFrame = 131072;
constexpr std::size_t kLargeBuffer = std::size_t(64) << 20;

// The kernels: thread i prints "FRAME i" in shout, "FRAME n+i" in echo. A block of shout waits up to
// about 0.6 ms before it prints, so the kernel is still printing when the host launches the next.
void writeShout(const ks::test::TempDir& dir)
{
    ks::test::writeFile(dir.path() / "shout.cu", "extern \"C\" __global__ void shout(float* out, int n, int frame)\n"
                                                 "{\n"
                                                 "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                                 "    const long long t0 = clock64();\n"
                                                 "    while (clock64() - t0 < (blockIdx.x % 64) * 20000ll) {}\n"
                                                 "    if (i < n) {\n"
                                                 "        out[i] = float(i);\n"
                                                 "        printf(\"%d %d\\n\", frame, i);\n"
                                                 "    }\n"
                                                 "}\n"
                                                 "extern \"C\" __global__ void echo(float* out, int n, int frame)\n"
                                                 "{\n"
                                                 "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                                 "    if (i < n) {\n"
                                                 "        out[i] *= 0.5f;\n"
                                                 "        printf(\"%d %d\\n\", frame, n + i);\n"
                                                 "    }\n"
                                                 "}\n");
}

// Where this process's standard output points while it lives: /dev/null. The workers inherit it, and
// each echoes its Console there (proc::OutputCapture), more than a megabyte a frame. Nothing is
// checked while it lives, so no failure message goes with it.
class QuietStdout {
public:
    QuietStdout() : m_saved(::dup(1))
    {
        std::fflush(stdout);
        const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
        ::dup2(null, 1);
        ::close(null);
    }
    ~QuietStdout()
    {
        std::fflush(stdout);
        ::dup2(m_saved, 1);
        ::close(m_saved);
    }
    QuietStdout(const QuietStdout&) = delete;
    QuietStdout& operator=(const QuietStdout&) = delete;

private:
    int m_saved;
};

// The project's frame and the Console's lines so far (kept and dropped), as a worker's state said.
struct ConsoleCount {
    std::int64_t frame = 0;
    std::uint64_t lines = 0;
};

// A window's workers on kernel `shout`, as a test drove them: the counts from the first worker and
// from the one that replaced it, each taken when the project's frame moved on.
struct WorkerRun {
    std::vector<ConsoleCount> first, next;
    int restarts = 0;
    std::string restartKind, status, dialog;
    std::uint64_t keptPrintfBuffer = 0;
};

// Lines a frame between the first and the last count (0 with fewer than two counts).
double linesPerFrame(const std::vector<ConsoleCount>& counts)
{
    if (counts.size() < 2 || counts.back().frame == counts.front().frame)
        return 0;
    return double(counts.back().lines - counts.front().lines) / double(counts.back().frame - counts.front().frame);
}

// "frame F: L lines, ..." of the counts, for a failure's message.
std::string said(const std::vector<ConsoleCount>& counts)
{
    std::string out;
    for (const ConsoleCount& c : counts)
        out += (out.empty() ? "" : ", ") + std::string("frame ") + std::to_string(c.frame) + ": " + std::to_string(c.lines);
    return out;
}

// Runs the window's worker on `dir`/shout.cu with `firstArgs` given to the first worker alone. With
// `crash`, the first worker is killed once it has shown three counts; the replacement opens the
// project paused (as after any crash) and Space resumes it, as a user would.
WorkerRun runShoutingWorkers(const ks::test::TempDir& dir, const std::vector<std::string>& firstArgs, bool crash)
{
    writeShout(dir);
    ks::app::ShellLink::Config config;
    config.executable = ks::test::appBinary();
    config.args = {"--kernel", (dir.path() / "shout.cu").string() + ":shout", "--shape",
                   "out=" + std::to_string(kLinesPerFrame), "--size", "640x360", "--no-settings",
                   "--data-dir", ks::test::sourceDir().string(), "--worker", "window"};
    config.firstArgs = firstArgs;
    WorkerRun run;
    QuietStdout quiet;
    ks::app::ShellLink link(config);
    bool killed = false;
    int spaceFrames = 0; // of the replacement: 1 presses Space, 2 lets it go
    for (const auto until = std::chrono::steady_clock::now() + 150s; std::chrono::steady_clock::now() < until;) {
        if (link.dialog() == ks::app::ShellLink::Dialog::GaveUp)
            break;
        const bool replaced = link.restarts() > 0;
        std::vector<ConsoleCount>& counts = replaced ? run.next : run.first;
        if (counts.size() >= 4 && (replaced || !crash))
            break;
        if (crash && !killed && run.first.size() >= 3) {
            ::kill(link.workerPid(), SIGKILL);
            killed = true;
        }
        if (link.readyForFrame()) {
            ks::app::supervise::FrameRequest r;
            r.width = 640;
            r.height = 360;
            r.dt = 1.0 / 60;
            if (replaced && spaceFrames < 2 && link.running()) {
                r.input.push_back({"key", GLFW_KEY_SPACE, spaceFrames == 0 ? GLFW_PRESS : GLFW_RELEASE, 0});
                ++spaceFrames;
            }
            link.requestFrame(r);
        }
        if (!link.pump(20ms))
            continue;
        const ks::app::supervise::AppSnapshot& s = link.keptState();
        const ConsoleCount c{s.pipelineFrame, s.console.size() + s.consoleDropped};
        if (link.restarts() == int(replaced) && c.frame > 1 && (counts.empty() || c.frame != counts.back().frame))
            counts.push_back(c);
    }
    run.restarts = link.restarts();
    run.restartKind = link.history().empty() ? "" : link.history().back().kind;
    run.status = link.lastStatus();
    run.dialog = link.dialog() == ks::app::ShellLink::Dialog::None ? "" : link.dialogText();
    run.keptPrintfBuffer = link.keptState().ui.editor.printfBuffer;
    return run;
}

} // namespace

// The printf buffer a window's GPU process was given is set again by the process that replaces it,
// before that one's first kernel: the replacement, started without --printf-buffer, shows every line
// of a frame that prints past CUDA's default buffer, as the first did. A worker left at the default
// loses lines of the same frames, so the count tells the buffers apart.
TEST(ConsoleWorkers, PrintfBufferChosenIsSetByTheNextProcessBeforeItsFirstKernel)
{
    KS_REQUIRE_CUDA();
    KS_REQUIRE_APP_BINARY();
    ks::test::TempDir dir;
    const WorkerRun chosen = runShoutingWorkers(dir, {"--printf-buffer", std::to_string(kLargeBuffer)}, true);
    const WorkerRun plain = runShoutingWorkers(dir, {}, false);
    std::printf("[ printf buffer ] 64 MiB: %.0f lines a frame (%s), then %.0f in the next process (%s); default: %.0f (%s)\n",
                linesPerFrame(chosen.first), said(chosen.first).c_str(), linesPerFrame(chosen.next),
                said(chosen.next).c_str(), linesPerFrame(plain.first), said(plain.first).c_str());

    ASSERT_GE(plain.first.size(), 2u) << plain.status << plain.dialog;
    EXPECT_LT(linesPerFrame(plain.first), double(kLinesPerFrame)) << "the default buffer kept every line: the test "
                                                                     "cannot tell the buffers apart";
    EXPECT_GT(linesPerFrame(plain.first), 0.0);

    ASSERT_GE(chosen.first.size(), 2u) << chosen.status << chosen.dialog;
    EXPECT_EQ(linesPerFrame(chosen.first), double(kLinesPerFrame)) << "--printf-buffer";
    EXPECT_EQ(chosen.restarts, 1) << "replaced once (killed), and not again for the buffer: " << chosen.status;
    EXPECT_EQ(chosen.restartKind, "crash");
    EXPECT_EQ(chosen.keptPrintfBuffer, kLargeBuffer) << "the replacement's state keeps the choice";
    ASSERT_GE(chosen.next.size(), 2u) << "the replacement ran no frames after Space: " << chosen.status << chosen.dialog;
    EXPECT_EQ(linesPerFrame(chosen.next), double(kLinesPerFrame)) << "the replacement did not set the buffer first";
    EXPECT_GE(chosen.next.front().lines, chosen.first.back().lines) << "the Console's lines went with the process";
}

// A headless project run prints device output to standard output, every line of every launch once
// and with its own arguments, from two kernel stages that print, the second launched while the first
// still prints: --printf-buffer holds them (headless project runs once ignored it, and the driver's
// default kept about half of one stage's lines).
TEST(ConsoleHeadless, EveryLineOfEveryFrameReachesStandardOutputOnce)
{
    KS_REQUIRE_CUDA();
    KS_REQUIRE_APP_BINARY();
    ks::test::TempDir dir;
    writeShout(dir);
    const std::string count = std::to_string(kLinesPerFrame);
    ks::test::writeFile(dir.path() / "shout.json",
                        R"({"kernelscope": 1, "name": "shout, then echo",
  "resources": {"out": {"kind": "buffer", "type": "float", "count": )" + count + R"(}},
  "stages": [
    {"kind": "kernel", "name": "shout", "file": "shout.cu", "kernel": "shout", "cover": "out", "block": [256],
     "args": ["out", {"count": "out"}, {"builtin": "frame"}]},
    {"kind": "kernel", "name": "echo", "file": "shout.cu", "kernel": "echo", "cover": "out", "block": [256],
     "args": ["out", {"count": "out"}, {"builtin": "frame"}]}],
  "views": [{"kind": "plot", "name": "out", "source": "out"}]})");
    const ks::test::AppRun r =
        ks::test::runApp({"--headless", "--project", (dir.path() / "shout.json").string(), "--frames", "3",
                          "--printf-buffer", std::to_string(kLargeBuffer), "--data-dir", ks::test::sourceDir().string()},
                         dir.path());
    ASSERT_EQ(r.code, 0) << r.output.substr(0, 4000);
    constexpr std::int64_t kPerFrame = 2 * kLinesPerFrame; // both stages
    std::vector<std::vector<bool>> seen(3, std::vector<bool>(std::size_t(kPerFrame), false));
    std::int64_t lines = 0, repeated = 0, foreign = 0;
    std::istringstream in(r.output);
    for (std::string line; std::getline(in, line);) {
        int frame = -1;
        long i = -1;
        char rest = 0;
        if (std::sscanf(line.c_str(), "%d %ld%c", &frame, &i, &rest) != 2)
            continue; // the app's own lines
        ++lines;
        if (frame < 0 || frame > 2 || i < 0 || i >= kPerFrame) {
            ++foreign;
            continue;
        }
        repeated += seen[std::size_t(frame)][std::size_t(i)];
        seen[std::size_t(frame)][std::size_t(i)] = true;
    }
    std::printf("[ headless printf ] %lld lines of %lld\n", static_cast<long long>(lines),
                static_cast<long long>(3 * kPerFrame));
    EXPECT_EQ(lines, 3 * kPerFrame);
    EXPECT_EQ(repeated, 0);
    EXPECT_EQ(foreign, 0);
    for (int f = 0; f < 3; ++f)
        EXPECT_EQ(std::count(seen[std::size_t(f)].begin(), seen[std::size_t(f)].end(), true), kPerFrame) << "frame " << f;
}
