#include "panels/panels.hpp"

#include "ks/cuda/memory.hpp"
#include "ks/rtc/compiler.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace ks::app {
namespace {

using Rows = std::vector<std::pair<const char*, std::string>>;

void row(Rows& rows, const char* name, std::string value)
{
    rows.emplace_back(name, std::move(value));
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
    Rows rows;
    for (const cuda::DeviceInfo& d : sys.devices) {
        const bool active = s.cuda && s.cuda->ordinal() == d.ordinal;
        row(rows, "device", std::to_string(d.ordinal) + ": " + d.name + (active ? "  (in use)" : ""));
        row(rows, "compute capability", d.computeCapability() + " (" + d.archName() + ")");
        row(rows, "memory",
            d.freeMemoryKnown ? cuda::formatBytes(d.freeMemory) + " free of " + cuda::formatBytes(d.totalMemory)
                              : cuda::formatBytes(d.totalMemory) + " total");
        row(rows, "multiprocessors", std::to_string(d.smCount));
        char clocks[96];
        std::snprintf(clocks, sizeof clocks, "SM %.0f MHz, memory %.0f MHz, %d-bit bus (%.0f GB/s peak)",
                      d.clockKHz / 1e3, d.memoryClockKHz / 1e3, d.memoryBusWidthBits, d.peakBandwidthGBs());
        row(rows, "clocks", clocks);
        row(rows, "L2 cache", cuda::formatBytes(std::size_t(d.l2CacheBytes)));
        row(rows, "warp size", std::to_string(d.limits.warpSize));
        row(rows, "threads per block", "max " + std::to_string(d.limits.maxThreadsPerBlock));
        row(rows, "threads per SM",
            "max " + std::to_string(d.maxThreadsPerSM) + " (" + std::to_string(d.maxBlocksPerSM) + " blocks)");
        row(rows, "block dims", "max " + dims(d.limits.maxBlockDim));
        row(rows, "grid dims", "max " + dims(d.limits.maxGridDim));
        row(rows, "registers",
            std::to_string(d.limits.maxRegistersPerBlock) + " per block, " + std::to_string(d.registersPerSM) +
                " per SM");
        row(rows, "shared memory",
            cuda::formatBytes(std::size_t(d.limits.maxSharedMemoryPerBlock)) + " per block (" +
                cuda::formatBytes(std::size_t(d.limits.maxSharedMemoryPerBlockOptin)) + " opt-in), " +
                cuda::formatBytes(std::size_t(d.sharedMemoryPerSM)) + " per SM");
        row(rows, "concurrent kernels",
            yesNo(d.concurrentKernels) + ", " + std::to_string(d.asyncEngines) + " copy engines");
        row(rows, "ECC", d.eccEnabled ? "enabled" : "disabled");
        row(rows, "PCI", d.pciBusId);
        row(rows, "kernel time limit", d.kernelTimeout ? "yes (display watchdog)" : "none");
        const bool rendersGl =
            std::find(s.glCudaDevices.begin(), s.glCudaDevices.end(), d.ordinal) != s.glCudaDevices.end();
        row(rows, "renders GL", yesNo(rendersGl));
        row(rows, "", ""); // between devices
    }
    row(rows, "driver", sys.driverVersion ? "CUDA " + cuda::versionString(sys.driverVersion) : "not loaded");
    row(rows, "runtime (built with)", "CUDA " + cuda::versionString(sys.runtimeVersion));
    row(rows, "NVRTC", std::to_string(sys.nvrtcMajor) + "." + std::to_string(sys.nvrtcMinor));
    row(rows, "GL", s.glInfo.version);
    row(rows, "GL renderer", s.glInfo.renderer + " (" + s.glInfo.vendor + ")");
    row(rows, "GL context", s.glDescription);
    // The names in a column as wide as the longest; the values wrap in what is left.
    float names = 0;
    for (const auto& [name, value] : rows)
        names = std::max(names, ImGui::CalcTextSize(name).x);
    if (ImGui::BeginTable("##device", 2, ImGuiTableFlags_RowBg)) {
        ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthFixed, names);
        ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
        for (const auto& [name, value] : rows) {
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::TextDisabled("%s", name);
            ImGui::TableSetColumnIndex(1);
            ImGui::TextWrapped("%s", value.c_str());
        }
        ImGui::EndTable();
    }
    ImGui::End();
}

} // namespace ks::app
