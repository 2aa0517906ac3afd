#pragma once
// A project running: its pipeline, the views drawing its resources, the camera, and the render
// pass's GL timer. The app's panels and the headless runner both drive one of these.
// ks::scene is the layer above both ks::pipeline and ks::render that joins them; neither of
// those includes the other.
//
// Contract: GL (and with CUDA the CUDA) context current for every call, construction and
// destruction included.

#include "ks/io/image.hpp"
#include "ks/pipeline/pipeline.hpp"
#include "ks/render/camera.hpp"
#include "ks/render/gpu_timer.hpp"
#include "ks/render/view_renderer.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ks::scene {

class Session {
public:
    Session(project::Project project, const pipeline::PipelineOptions& options, const std::filesystem::path& shaderDir);

    pipeline::Pipeline& pipeline() { return *m_pipeline; }
    const pipeline::Pipeline& pipeline() const { return *m_pipeline; }
    render::OrbitCamera& camera() { return m_camera; }
    render::ViewRenderer& renderer() { return m_renderer; }

    // What view `i` reads.
    render::ViewInputs inputs(const project::ViewDesc& view) const;

    // Views of resource `resource` (image and plot views) draw `texture` over their data, one texel
    // per element, with `opacity` (render::ViewOverlay). Null `texture`: no overlay. The texture
    // must live until the overlay is replaced or removed.
    void setOverlay(std::string resource, const gl::Texture2D* texture, float opacity);

    // Textures that follow the viewport get this size (re-registered when it changed). Call between
    // frames, before Pipeline::frame maps them.
    void followViewport(int width, int height);
    // Renders every view into its own target of `sizes[i]` (resized as needed), timed with one GL timer query. Errors of a view are kept
    // in viewError(i), not thrown.
    void renderViews(const std::vector<std::array<int, 2>>& sizes);
    std::size_t viewCount() const { return m_pipeline->project().views.size(); }
    const gl::Framebuffer& viewTarget(std::size_t i) const { return m_targets[i]; }
    const std::string& viewError(std::size_t i) const { return m_viewErrors[i]; }
    // Plot views: the frame the last renderViews drew (elements across, values up), and a zoomed
    // or panned frame the app sets (nullopt: every element, the view's fixed or auto range).
    const render::PlotFrame& plotFrame(std::size_t i) const { return m_plotFrames[i]; }
    const std::optional<render::PlotFrame>& plotZoom(std::size_t i) const { return m_plotZooms[i]; }
    void setPlotZoom(std::size_t i, std::optional<render::PlotFrame> frame) { m_plotZooms.at(i) = frame; }
    double renderMs() { return m_timer.latestMs(); }
    double finishRenderMs() { return m_timer.finishMs(); }

    // The views side by side (the first only when the project uses tabs) in one image.
    io::Rgba8Image composite(int width, int height);

    // Writes resource `name` as a .npy file: buffers with shape (count[, components]) or
    // (rows, cols[, components]), textures (height, width[, channels]). Not while mapped.
    void dump(const std::string& name, const std::filesystem::path& path) const;

private:
    std::unique_ptr<pipeline::Pipeline> m_pipeline;
    render::ViewRenderer m_renderer;
    render::OrbitCamera m_camera;
    render::GpuTimer m_timer;
    std::vector<gl::Framebuffer> m_targets;
    std::vector<std::string> m_viewErrors;
    std::vector<render::PlotFrame> m_plotFrames;
    std::vector<std::optional<render::PlotFrame>> m_plotZooms;
    std::string m_overlayResource;
    render::ViewOverlay m_overlay;
};

// numpy's shape of a resource as dumped.
std::vector<std::int64_t> dumpShape(const project::ResourceDesc& r);
std::string dumpDescr(const project::ResourceDesc& r);

// A frame of a run that did not finish: it faulted, failed, or ran past the frame limit.
struct FailedFrame {
    std::int64_t frame = -1;
    std::string kind;    // "fault", "error" or "time limit"
    std::string stage;   // the stage, when known
    std::string message;
};

// The --timings JSON of a run: every finished frame's timings plus per-stage medians; with
// `failed`, the frame that did not finish is the timeline's last entry ("failed": true, what and
// where) and "complete" is false.
std::string timingsJson(const project::Project& project, const std::vector<pipeline::FrameTimings>& frames,
                        const std::string& device, const FailedFrame* failed = nullptr);

} // namespace ks::scene
