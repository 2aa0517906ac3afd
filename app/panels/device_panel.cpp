#include "panels/panels.hpp"

#include "ks/cuda/memory.hpp"
#include "ks/rtc/compiler.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace ks::app {
namespace {

void row(const char* name, const std::string& value)
{
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextDisabled("%s", name);
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(value.c_str());
}

std::string dims(const std::array<int, 3>& d)
{
    return "(" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) + ")";
}

std::string yesNo(bool b)
{
    return b ? "yes" : "no";
}

} // namespace

void drawDevicePanel(const AppState& s)
{
    ImGui::Begin(kDevicePanel);
    const cuda::SystemInfo& sys = s.system;
    if (!sys.cudaAvailable) {
        ImGui::TextColored(ImVec4(1.f, 0.7f, 0.35f, 1.f), "CUDA is unavailable");
        ImGui::TextWrapped("%s", sys.unavailableReason.c_str());
        ImGui::TextWrapped("Kernels still compile (NVRTC needs no GPU); nothing is launched.");
        ImGui::Separator();
    }
    if (ImGui::BeginTable("##device", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
        for (const cuda::DeviceInfo& d : sys.devices) {
            const bool active = s.cuda && s.cuda->ordinal() == d.ordinal;
            row("device", std::to_string(d.ordinal) + ": " + d.name + (active ? "  (in use)" : ""));
            row("compute capability", d.computeCapability() + " (" + d.archName() + ")");
            row("memory", d.freeMemoryKnown ? cuda::formatBytes(d.freeMemory) + " free of " + cuda::formatBytes(d.totalMemory)
                                            : cuda::formatBytes(d.totalMemory) + " total");
            row("multiprocessors", std::to_string(d.smCount));
            char clocks[96];
            std::snprintf(clocks, sizeof clocks, "SM %.0f MHz, memory %.0f MHz, %d-bit bus (%.0f GB/s peak)",
                          d.clockKHz / 1e3, d.memoryClockKHz / 1e3, d.memoryBusWidthBits, d.peakBandwidthGBs());
            row("clocks", clocks);
            row("L2 cache", cuda::formatBytes(std::size_t(d.l2CacheBytes)));
            row("warp size", std::to_string(d.limits.warpSize));
            row("threads per block", "max " + std::to_string(d.limits.maxThreadsPerBlock));
            row("threads per SM", "max " + std::to_string(d.maxThreadsPerSM) + " (" + std::to_string(d.maxBlocksPerSM) +
                                      " blocks)");
            row("block dims", "max " + dims(d.limits.maxBlockDim));
            row("grid dims", "max " + dims(d.limits.maxGridDim));
            row("registers", std::to_string(d.limits.maxRegistersPerBlock) + " per block, " +
                                 std::to_string(d.registersPerSM) + " per SM");
            row("shared memory", cuda::formatBytes(std::size_t(d.limits.maxSharedMemoryPerBlock)) + " per block (" +
                                     cuda::formatBytes(std::size_t(d.limits.maxSharedMemoryPerBlockOptin)) +
                                     " opt-in), " + cuda::formatBytes(std::size_t(d.sharedMemoryPerSM)) + " per SM");
            row("concurrent kernels", yesNo(d.concurrentKernels) + ", " + std::to_string(d.asyncEngines) + " copy engines");
            row("ECC", d.eccEnabled ? "enabled" : "disabled");
            row("PCI", d.pciBusId);
            row("kernel time limit", d.kernelTimeout ? "yes (display watchdog)" : "none");
            const bool rendersGl =
                std::find(s.glCudaDevices.begin(), s.glCudaDevices.end(), d.ordinal) != s.glCudaDevices.end();
            row("renders GL", yesNo(rendersGl));
            ImGui::TableNextRow();
        }
        row("driver", sys.driverVersion ? "CUDA " + cuda::versionString(sys.driverVersion) : "not loaded");
        row("runtime (built with)", "CUDA " + cuda::versionString(sys.runtimeVersion));
        row("NVRTC", std::to_string(sys.nvrtcMajor) + "." + std::to_string(sys.nvrtcMinor));
        row("GL", s.glInfo.version);
        row("GL renderer", s.glInfo.renderer + " (" + s.glInfo.vendor + ")");
        row("GL context", s.glDescription);
        ImGui::EndTable();
    }
    ImGui::End();
}

} // namespace ks::app
