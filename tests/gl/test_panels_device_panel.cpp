// The Device panel of a GPU, drawn from a SystemInfo made here (drawing it needs no GPU, only the
// headless app's ImGui context and fonts), in the width the standard layout gives the right column
// at 1280x720 and at 1600x900 (a quarter of the window): no name or value is cut
// (panels/ui_probe.hpp, recordClipped). The names sit in a column as wide as the longest
// ("compute capability", "threads per block"), and the values wrap in the rest.
#include "app.hpp"
#include "app_state.hpp"
#include "cli/options.hpp"
#include "panels/panels.hpp"
#include "panels/ui_probe.hpp"
#include "platform/platforms.hpp"

#include "headless_app.hpp"
#include "test_support.hpp"

#include <imgui.h>

#include <string>

namespace {

// An H200 as the driver describes one.
ks::cuda::SystemInfo h200()
{
    ks::cuda::SystemInfo sys;
    sys.cudaAvailable = true;
    sys.driverVersion = 13000;
    sys.runtimeVersion = 12080;
    sys.nvrtcMajor = 12;
    sys.nvrtcMinor = 8;
    ks::cuda::DeviceInfo d;
    d.ordinal = 0;
    d.name = "NVIDIA H200";
    d.ccMajor = 9;
    d.totalMemory = std::size_t(143771) << 20;
    d.smCount = 132;
    d.clockKHz = 1980000;
    d.memoryClockKHz = 3201000;
    d.memoryBusWidthBits = 5120;
    d.l2CacheBytes = 60 << 20;
    d.maxThreadsPerSM = 2048;
    d.maxBlocksPerSM = 32;
    d.registersPerSM = 65536;
    d.sharedMemoryPerSM = 233472;
    d.concurrentKernels = true;
    d.asyncEngines = 3;
    d.eccEnabled = true;
    d.pciBusId = "0000:19:00.0";
    d.limits = {1024, {1024, 1024, 64}, {2147483647, 65535, 65535}, 49152, 232448, 65536, 32};
    sys.devices.push_back(d);
    return sys;
}

// What the Device panel cuts of `state` in a window `width` x `height`, drawn in frames of its own.
std::string cutAt(const ks::app::AppState& state, float width, float height)
{
    ImGuiIO& io = ImGui::GetIO();
    io.DeltaTime = 1.f / 60.f;
    std::string cut;
    for (int frame = 0; frame < 3; ++frame) { // the table's columns and the scroll bar settle
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::SetNextWindowSize(ImVec2(width, height));
        ks::app::drawDevicePanel(state);
        ks::app::uiProbe().recordClipped();
        ImGui::EndFrame();
    }
    for (const auto& [name, r] : ks::app::uiProbe().withPrefix("clip:"))
        cut += name.substr(5) + ": " + std::to_string(int(r[2] - r[0])) + " px\n";
    return cut;
}

TEST(DevicePanel, AGpuFitsTheRightColumn)
{
    std::string whyNot;
    const auto session = ks::test::openHeadlessApp(ks::test::headlessOptions(1280, 720), whyNot);
    if (!session)
        GTEST_SKIP() << "no headless GL: " << whyNot;
    session->renderFrame(); // the fonts are made
    ks::app::AppState state;
    state.system = h200();
    state.glCudaDevices = {0};
    state.glInfo = {"NVIDIA Corporation", "NVIDIA H200/PCIe/SSE2", "4.6.0 NVIDIA 580.95.05", "4.60 NVIDIA"};
    state.glDescription = "EGL device 0 (NVIDIA), headless";
    EXPECT_EQ(cutAt(state, 1280 * 0.25f, 300), "") << "at 1280x720";
    EXPECT_EQ(cutAt(state, 1600 * 0.25f, 300), "") << "at 1600x900";
}

} // namespace
