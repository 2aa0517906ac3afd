#pragma once
// Draws a project's views into a render target: an image (a texture, or a 2-D buffer directly or
// through a colour map), points (positions plus colours, a scalar through a colour map, or one
// colour), a plot of a 1-D buffer, and a height field (a 2-D buffer as a lit mesh). 3-D views use an
// OrbitCamera. GLSL comes from shaders/ and is recompiled when a file changes (reloadIfChanged);
// a failed recompile keeps the previous program and reports the GLSL log.
//
// Needs its GL context current for every call, construction and destruction included.

#include "ks/gl/objects.hpp"
#include "ks/project/project.hpp"
#include "ks/render/camera.hpp"

#include <array>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ks::render {

// One resource as a view reads it.
struct ViewSource {
    gl::BufferRange buffer; // a buffer resource's bytes (its GL buffer may hold other resources too)
    const gl::Texture2D* texture = nullptr;
    project::ValueType element;
    std::int64_t count = 0;
    int cols = 0, rows = 0; // 2-D buffers
    bool valid() const { return !buffer.empty() || texture; }
};

// An RGBA image blended over a view's data, one texel per element (the teaching overlays: who
// wrote each element). Image views: over the fitted image; plot views: a strip over the plot, each
// texel centred on its element.
struct ViewOverlay {
    const gl::Texture2D* texture = nullptr;
    float opacity = 1.f;
};

struct ViewInputs {
    ViewSource source, colors, scalar;
    ViewOverlay overlay;
    std::vector<ViewSource> series; // plot views: one per ViewDesc::series, in order
};

// What a plot view shows: elements x0..x1 across the frame (the middle 90% of the target) and
// values y0..y1 up it (values after the view's scale), evenly or, with logY, evenly in log10 of
// them (then y0 and y1 are values, both > 0). Zoom and pan change it; out of it, nothing is drawn.
struct PlotFrame {
    double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
    bool logY = false;
    bool operator==(const PlotFrame&) const = default;
};
// Where `value` lies up `frame`: 0 at y0, 1 at y1 (on a log axis a non-positive value is -infinity).
double plotValueFraction(const PlotFrame& frame, double value);
// The value at `fraction` up `frame` (the inverse). Zooming the values around a point or panning
// them is asking for the values at other fractions of the frame, on either kind of axis.
double plotValueAt(const PlotFrame& frame, double fraction);
// The frame of a plot of `count` elements that is not zoomed: every element (one element is
// centred) and the view's fixed range, or with "range": "auto" the values' range `values` (a
// little margin added; nullopt, no finite value: 0..1; a constant c: c - 1..c + 1). On a log axis
// `values` are the positive ones' range and the margin and the fallbacks are in decades (1..10;
// c / 10..c * 10).
PlotFrame defaultPlotFrame(const project::ViewDesc& view, std::int64_t count,
                           std::optional<std::array<double, 2>> values);
// The colour of series `index` of a plot (0: the source, in the view's colour; then a fixed
// palette of distinct colours).
std::array<float, 4> plotSeriesColor(const project::ViewDesc& view, std::size_t index);

// Where the elements of a `cols` x `rows` source lie in a `targetWidth` x `targetHeight` target
// (pixels, origin top-left): the fitted image of an image view, the plot's strip for a plot view
// (rows = 1). Width 0 for the kinds that have no flat layout (points, height fields).
struct ElementRect {
    float x = 0, y = 0, width = 0, height = 0;
};
// A plot's elements lie where `plot` puts them (default: every element across the frame).
ElementRect elementRect(project::ViewKind kind, int cols, int rows, int targetWidth, int targetHeight,
                        const PlotFrame* plot = nullptr);

class ViewRenderer {
public:
    ViewRenderer() = default;
    explicit ViewRenderer(std::filesystem::path shaderDir);

    // Recompiles the programs whose shader files changed since they were built. Returns whether
    // any was rebuilt. A failure keeps the old program and sets shaderError().
    bool reloadIfChanged();
    const std::string& shaderError() const { return m_error; }

    // Draws `view` into `target` (cleared first). Throws ks::Error (Usage) for a source the view
    // kind cannot draw (for example a points view of int positions).
    // A plot view shows `plot` (nullptr: unzoomedPlotFrame).
    void draw(const project::ViewDesc& view, const ViewInputs& inputs, const OrbitCamera& camera,
              const gl::Framebuffer& target, const PlotFrame* plot = nullptr);

    // defaultPlotFrame of `view` with what `inputs` hold: their count, and for an auto range
    // plotValueRange's values.
    PlotFrame unzoomedPlotFrame(const project::ViewDesc& view, const ViewInputs& inputs);
    // The range of the finite values of a plot's source and series (times the view's scale; on a
    // log axis only those that are positive then): every value; up to 16,384 per buffer read back,
    // more through a compute pass on GL that leaves 2,048 floats to read back (waits for GL).
    // nullopt when there is no such value.
    std::optional<std::array<double, 2>> plotValueRange(const project::ViewDesc& view, const ViewInputs& inputs);

private:
    struct Program {
        std::filesystem::path vert, frag;
        std::filesystem::file_time_type vertTime, fragTime;
        gl::ShaderProgram program;
    };
    Program& program(const std::string& name);
    void build(Program& p);
    const gl::Texture2D& colormapTexture(const std::string& name);
    void drawImage(const project::ViewDesc& v, const ViewInputs& in, const gl::Framebuffer& target);
    void drawPoints(const project::ViewDesc& v, const ViewInputs& in, const OrbitCamera& cam, const gl::Framebuffer& t);
    void drawPlot(const project::ViewDesc& v, const ViewInputs& in, const PlotFrame& frame, const gl::Framebuffer& target);
    void drawOverlay(const project::ViewDesc& v, const ViewInputs& in, const gl::Framebuffer& target,
                     const PlotFrame* plot);
    void drawHeightField(const project::ViewDesc& v, const ViewInputs& in, const OrbitCamera& cam,
                         const gl::Framebuffer& t);

    std::filesystem::path m_dir;
    std::map<std::string, Program> m_programs;
    std::map<std::string, gl::Texture2D> m_colormaps;
    gl::VertexArray m_vao;
    gl::Buffer m_gridIndices;
    gl::Buffer m_rangePartials; // plotValueRange's per-group pairs
    int m_gridCols = 0, m_gridRows = 0;
    std::string m_error;
};

} // namespace ks::render
