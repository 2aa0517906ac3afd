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

TEST_F(InteropTest, DevicePrintfReachesTheConsoleByFrameAndStage)
{
    m_egl = ks::gl::EglContext(); // the session makes its own context on this device
    ks::test::TempDir dir;
    ks::test::writeFile(dir.path() / "hello.cu", R"(extern "C" __global__ void hello(float* out, int n, int frame)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = float(i);
    if (i < 3)
        printf("hello from thread %d in frame %d\n", i, frame);
}
)");
    ks::app::AppOptions options;
    options.headless = true;
    options.width = 800;
    options.height = 600;
    options.dataDir = ks::test::sourceDir();
    options.kernelSpec = (dir.path() / "hello.cu").string() + ":hello";
    options.shapes = {{"out", {256}}};
    options.captureDeviceOutput = true;
    options.printfBuffer = std::size_t(8) << 20;
    options.recoveryDir = dir.path() / "recovery";
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
