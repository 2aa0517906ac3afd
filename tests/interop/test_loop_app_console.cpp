// On a GPU host: a kernel's printf reaches the Console of a window's GPU process (captureDeviceOutput
// on), a line per printf, named by the frame and the stage that printed it, in order, and the
// printf buffer's size is the one asked for (--printf-buffer).
#include "app.hpp"
#include "app_state.hpp"
#include "cli/options.hpp"
#include "platform/platforms.hpp"

#include "test_support.hpp"

#include <chrono>
#include <string>

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
