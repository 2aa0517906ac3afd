#pragma once
// The data the panels draw from and the commands they push. Panels are functions over this state;
// a panel never reaches into another panel: it pushes a Command that App applies after the UI.

#include "ks/core/log.hpp"
#include "ks/cuda/context.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/stream.hpp"
#include "ks/demo/thread_colors_demo.hpp"
#include "ks/gl/gl.hpp"
#include "ks/render/image_view.hpp"

#include <deque>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace ks::app {

// Rolling per-frame history for the Timings panel.
struct TimingHistory {
    static constexpr std::size_t kCapacity = 240;
    std::vector<float> kernelMs, interopUs, frameMs;
    void push(float kernel, float interop, float frame);
};

struct LogLine {
    log::Level level;
    std::string text;
};

// Filled by the log sink from any thread; read by the UI thread.
struct LogBuffer {
    std::mutex mutex;
    std::deque<LogLine> lines;
    void add(log::Level level, std::string_view text);
};

struct Commands {
    std::optional<cuda::Dim3> setBlock;
};

// What the mouse is over in the viewport: the image pixel and the thread that wrote it.
struct PixelHover {
    bool valid = false;
    int x = 0, y = 0;
    cuda::Dim3 blockIdx, threadIdx;
};

struct ViewportState {
    gl::Framebuffer target; // the viewport's render target, resized to the panel
    render::FitRect fit;
    PixelHover hover;
};

struct AppState {
    std::filesystem::path dataRoot;
    cuda::SystemInfo system;
    gl::ContextInfo glInfo;
    std::string glDescription;
    std::vector<int> glCudaDevices; // CUDA devices rendering the GL context
    std::optional<cuda::PrimaryContext> cuda;
    cuda::Stream stream;
    render::ImageView imageView;
    std::optional<demo::ThreadColorsDemo> demo;
    ViewportState viewport;
    TimingHistory timings;
    LogBuffer log;
    Commands commands;
    float fps = 0;
    double lastFrameMs = 0;
    double smoothedFrameMs = 0;
    long long frameIndex = 0;

    bool cudaRunning() const { return demo && demo->running(); }
    const cuda::DeviceInfo* device() const
    {
        return cuda && system.devices.size() > std::size_t(cuda->ordinal()) ? &system.devices[std::size_t(cuda->ordinal())]
                                                                           : nullptr;
    }
};

} // namespace ks::app
