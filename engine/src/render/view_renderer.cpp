#include "ks/render/view_renderer.hpp"

#include "ks/core/error.hpp"
#include "ks/core/log.hpp"
#include "ks/core/paths.hpp"
#include "ks/render/colormap.hpp"
#include "ks/render/image_view.hpp"

#include <glm/gtc/type_ptr.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ks::render {

namespace fs = std::filesystem;
using project::ScalarType;

namespace {

struct ProgramFiles {
    const char* name;
    const char* vert; // null for a compute program
    const char* frag; // or the compute shader
};
constexpr ProgramFiles kPrograms[] = {
    {"image", nullptr, "view_image.comp"},
    {"overlay", "fullscreen.vert", "view_overlay.frag"},
    {"points", "view_points.vert", "view_points.frag"},
    {"plot", "view_plot.vert", "view_plot.frag"},
    {"heightfield", "view_heightfield.vert", "view_heightfield.frag"},
    {"plot_range", nullptr, "plot_range.comp"},
};

// plotValueRange: a buffer of up to kRangeReadBack floats is read back and scanned on the CPU; a
// longer one goes through plot_range.comp, at most kRangeGroups groups of 256, each leaving one
// (min, max) pair. On a GPU the pass costs a small fraction of reading a long buffer back, and a short
// read-back stays cheap; on Mesa's software GL the pass is the slower one. ks_bench_pipeline --only
// plotrange measures both, at several lengths.
constexpr std::int64_t kRangeReadBack = 16384;
constexpr GLuint kRangeGroups = 1024;

fs::file_time_type mtime(const fs::path& p)
{
    std::error_code ec;
    const auto t = fs::last_write_time(p, ec);
    return ec ? fs::file_time_type{} : t;
}

// Binds a buffer resource's bytes to storage binding `index` (offsets are aligned for storage
// bindings by ResourceSet).
void bindStorage(GLuint index, const gl::BufferRange& r)
{
    if (r.size == 0)
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, index, r.name);
    else
        glBindBufferRange(GL_SHADER_STORAGE_BUFFER, index, r.name, GLintptr(r.offset), GLsizeiptr(r.size));
}

// The rule --validate applies (project::viewInputProblem), applied to what is bound now: a view
// whose resource changed under it since (a hand-made ViewInputs) is refused with the same words.
void requireDrawable(const project::ViewDesc& v, project::ViewInput input, const ViewSource& s)
{
    const char* role = input == project::ViewInput::Source ? "source" : input == project::ViewInput::Colors ? "colors" : "scalar";
    if (!s.valid())
        throwUsage("ViewRenderer", "view \"" + v.name + "\" has no " + role + " to draw");
    const std::int64_t cols = s.rows ? s.cols : s.count;
    if (auto why = project::viewInputProblem(v.kind, input, s.element, s.texture != nullptr, cols, s.rows))
        throwUsage("ViewRenderer", "view \"" + v.name + "\": " + role + ": " + *why);
}

bool isFloatVector(const project::ValueType& t, int components)
{
    return t.scalar == ScalarType::Float32 && t.components == components;
}

} // namespace

ViewRenderer::ViewRenderer(fs::path shaderDir) : m_dir(std::move(shaderDir)), m_vao(gl::VertexArray::Create{})
{
    for (const ProgramFiles& f : kPrograms) {
        Program p;
        if (f.vert)
            p.vert = m_dir / f.vert;
        p.frag = m_dir / f.frag;
        build(p); // throws at construction: the shipped shaders must compile
        m_programs.emplace(f.name, std::move(p));
    }
}

void ViewRenderer::build(Program& p)
{
    p.vertTime = p.vert.empty() ? fs::file_time_type{} : mtime(p.vert);
    p.fragTime = mtime(p.frag);
    const std::string label = "shaders/" + p.frag.filename().string();
    p.program = p.vert.empty() ? gl::ShaderProgram::compute(paths::readTextFile(p.frag), label)
                               : gl::ShaderProgram(paths::readTextFile(p.vert), paths::readTextFile(p.frag), label);
}

bool ViewRenderer::reloadIfChanged()
{
    bool any = false;
    for (auto& [name, p] : m_programs) {
        if ((p.vert.empty() || mtime(p.vert) == p.vertTime) && mtime(p.frag) == p.fragTime)
            continue;
        try {
            build(p);
            m_error.clear();
            log::info("reloaded shaders/" + p.frag.filename().string());
            any = true;
        } catch (const Error& e) {
            // Keep the old program; do not retry until the file changes again.
            p.vertTime = p.vert.empty() ? fs::file_time_type{} : mtime(p.vert);
            p.fragTime = mtime(p.frag);
            m_error = e.what();
            log::warning("shader reload failed, keeping the previous program: " + m_error);
        }
    }
    return any;
}

ViewRenderer::Program& ViewRenderer::program(const std::string& name)
{
    return m_programs.at(name);
}

const gl::Texture2D& ViewRenderer::colormapTexture(const std::string& name)
{
    auto it = m_colormaps.find(name);
    if (it == m_colormaps.end()) {
        gl::Texture2D t(256, 1, GL_RGBA8, GL_LINEAR);
        t.upload(GL_RGBA, GL_UNSIGNED_BYTE, colormapTexels(name).data());
        it = m_colormaps.emplace(name, std::move(t)).first;
    }
    return it->second;
}

void ViewRenderer::draw(const project::ViewDesc& v, const ViewInputs& in, const OrbitCamera& camera,
                        const gl::Framebuffer& target, const PlotFrame* plot)
{
    if (!in.source.valid())
        throwUsage("ViewRenderer::draw", "view \"" + v.name + "\" has no source to draw");
    target.bind();
    if (v.kind == project::ViewKind::Image) {
        drawImage(v, in, target); // writes every pixel, the overlay included: nothing to clear
    } else {
        glClearColor(0.07f, 0.075f, 0.09f, 1.f);
        glClearDepth(1.0);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glDisable(GL_BLEND);
        glDisable(GL_DEPTH_TEST);
        glBindVertexArray(m_vao.name());
        switch (v.kind) {
        case project::ViewKind::Image: break;
        case project::ViewKind::Points: drawPoints(v, in, camera, target); break;
        case project::ViewKind::Plot: {
            const PlotFrame frame = plot ? *plot : unzoomedPlotFrame(v, in);
            drawPlot(v, in, frame, target);
            if (in.overlay.texture)
                drawOverlay(v, in, target, &frame);
            break;
        }
        case project::ViewKind::HeightField: drawHeightField(v, in, camera, target); break;
        }
        if (in.overlay.texture && v.kind != project::ViewKind::Plot)
            drawOverlay(v, in, target, nullptr);
    }
    glBindVertexArray(0);
    glUseProgram(0);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_PROGRAM_POINT_SIZE);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    gl::check("ViewRenderer::draw");
}

void ViewRenderer::drawImage(const project::ViewDesc& v, const ViewInputs& in, const gl::Framebuffer& target)
{
    const ViewSource& s = in.source;
    int mode = 0;
    int w = 0, h = 0;
    if (s.texture) {
        w = s.texture->width(), h = s.texture->height();
    } else {
        requireDrawable(v, project::ViewInput::Source, s);
        w = s.cols, h = s.rows;
        using project::ScalarType;
        const bool one = s.element.components == 1;
        mode = isFloatVector(s.element, 1) ? 1 : isFloatVector(s.element, 4) ? 2
               : one && s.element.scalar == ScalarType::UInt8 ? 4
               : one && s.element.scalar == ScalarType::Int32 ? 5
               : one && s.element.scalar == ScalarType::UInt32 ? 6
                                                                : 3; // float, float4, uchar, int, uint, uchar4
    }
    // "range": "auto" on a float buffer: the values' own range this frame (scaled as they are).
    std::array<float, 2> range = v.range;
    if (v.autoRange && mode == 1)
        if (const auto found = plotValueRange(v, in)) {
            range = {float((*found)[0]), float((*found)[1])};
            if (!(range[1] > range[0])) // one value everywhere: it sits mid-map
                range = {range[0] - 0.5f, range[0] + 0.5f};
        }
    const gl::ShaderProgram& p = program("image").program;
    glUseProgram(p.name());
    glUniform1i(p.uniform("u_mode"), mode);
    glUniform2i(p.uniform("u_size"), w, h);
    glUniform2f(p.uniform("u_range"), range[0], range[1]);
    glUniform1f(p.uniform("u_scale"), v.scale);
    glUniform1i(p.uniform("u_image"), 0);
    glUniform1i(p.uniform("u_colormap"), 1);
    glUniform1i(p.uniform("u_overlay"), 2);
    if (s.texture)
        glBindTextureUnit(0, s.texture->name());
    else
        bindStorage(0, s.buffer);
    glBindTextureUnit(1, colormapTexture(v.colormap).name());
    const gl::Texture2D* overlay = in.overlay.texture;
    glUniform1i(p.uniform("u_hasOverlay"), overlay ? 1 : 0);
    glUniform1f(p.uniform("u_opacity"), in.overlay.opacity);
    glBindTextureUnit(2, overlay ? overlay->name() : colormapTexture(v.colormap).name());
    dispatchImagePass(p, fitKeepAspect(w, h, target.width(), target.height()), target);
}

ElementRect elementRect(project::ViewKind kind, int cols, int rows, int targetWidth, int targetHeight,
                        const PlotFrame* plot)
{
    const float w = float(targetWidth), h = float(targetHeight);
    if (kind == project::ViewKind::Image) {
        const FitRect fit = fitKeepAspect(cols, rows, targetWidth, targetHeight);
        return {fit.x, fit.y, fit.width, fit.height};
    }
    if (kind == project::ViewKind::Plot && cols > 0) {
        // view_plot.vert puts element i at (i - x0) / (x1 - x0) across the middle 90%; the strip
        // reaches half an element beyond on each side so that texel i is centred on element i.
        const PlotFrame f = plot ? *plot : defaultPlotFrame(project::ViewDesc{}, cols, std::nullopt);
        const float x0 = 0.05f * w, x1 = 0.95f * w;
        const double span = f.x1 > f.x0 ? f.x1 - f.x0 : 1.0;
        const float perElement = float(double(x1 - x0) / span);
        const float first = x0 + float((0.0 - f.x0) / span) * (x1 - x0);
        return {first - perElement / 2, 0.05f * h, perElement * float(cols), 0.9f * h};
    }
    return {};
}

double plotValueFraction(const PlotFrame& f, double value)
{
    if (!f.logY)
        return (value - f.y0) / (f.y1 - f.y0);
    if (!(value > 0))
        return -std::numeric_limits<double>::infinity();
    // Differences of logarithms: a ratio of far-apart values could overflow.
    return (std::log10(value) - std::log10(f.y0)) / (std::log10(f.y1) - std::log10(f.y0));
}

double plotValueAt(const PlotFrame& f, double fraction)
{
    if (!f.logY)
        return f.y0 + fraction * (f.y1 - f.y0);
    const double l0 = std::log10(f.y0);
    return std::pow(10.0, l0 + fraction * (std::log10(f.y1) - l0));
}

PlotFrame defaultPlotFrame(const project::ViewDesc& view, std::int64_t count, std::optional<std::array<double, 2>> values)
{
    PlotFrame f;
    f.logY = view.yScale == project::PlotScale::Log;
    if (count > 1)
        f.x0 = 0, f.x1 = double(count - 1);
    else
        f.x0 = -0.5, f.x1 = 0.5;
    if (!view.autoRange) {
        f.y0 = view.range[0], f.y1 = view.range[1];
        return f;
    }
    // The rules of an automatic range apply to what the axis is even in: log10 of the values on a
    // log axis, so that there its margin is a fraction of the decades shown.
    auto axis = [&](double v) { return f.logY ? std::log10(v) : v; };
    auto value = [&](double a) { return f.logY ? std::pow(10.0, a) : a; };
    double lo = 0, hi = 1;
    if (values) {
        lo = axis((*values)[0]), hi = axis((*values)[1]);
        const double margin = hi > lo ? (hi - lo) * 0.05 : 1.0;
        lo -= margin, hi += margin;
    }
    f.y0 = value(lo), f.y1 = value(hi);
    return f;
}

PlotFrame ViewRenderer::unzoomedPlotFrame(const project::ViewDesc& view, const ViewInputs& inputs)
{
    return defaultPlotFrame(view, inputs.source.count, view.autoRange ? plotValueRange(view, inputs) : std::nullopt);
}

std::optional<std::array<double, 2>> ViewRenderer::plotValueRange(const project::ViewDesc& view, const ViewInputs& inputs)
{
    if (m_rangePartials.empty())
        m_rangePartials = gl::Buffer(kRangeGroups * 2 * sizeof(float));
    const gl::ShaderProgram& p = program("plot_range").program;
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    // On a log axis only the values that the scale makes positive count: those of its sign.
    const bool log = view.yScale == project::PlotScale::Log;
    if (log && view.scale == 0)
        return std::nullopt;
    const int sign = !log ? 0 : view.scale > 0 ? 1 : -1;
    std::vector<float> values;
    auto scan = [&](const ViewSource& s) {
        if (s.buffer.empty() || s.count <= 0 || !isFloatVector(s.element, 1) || s.buffer.offset % 4 != 0)
            return;
        if (s.count <= kRangeReadBack) {
            // Few values: read them back (at most 64 KB) and scan them here.
            values.resize(std::size_t(s.count));
            glGetNamedBufferSubData(s.buffer.name, GLintptr(s.buffer.offset), GLsizeiptr(s.count * 4), values.data());
            for (float x : values)
                if (std::isfinite(x) && (sign == 0 || (sign > 0 ? x > 0 : x < 0)))
                    lo = std::min(lo, x), hi = std::max(hi, x);
            return;
        }
        // Many: the compute pass. The whole buffer is bound and the values start at float u_first
        // (a storage binding's offset must be aligned, a view's need not be).
        const auto count = GLuint(std::min<std::int64_t>(s.count, std::numeric_limits<GLuint>::max()));
        const GLuint groups = std::min<GLuint>(kRangeGroups, (count + 255) / 256);
        glUseProgram(p.name());
        glUniform1ui(p.uniform("u_first"), GLuint(s.buffer.offset / 4));
        glUniform1ui(p.uniform("u_count"), count);
        glUniform1i(p.uniform("u_sign"), sign);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, s.buffer.name);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, m_rangePartials.name());
        glDispatchCompute(groups, 1, 1);
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        values.resize(std::size_t(groups) * 2);
        m_rangePartials.download(values.data(), values.size() * sizeof(float));
        for (std::size_t g = 0; g < groups; ++g)
            lo = std::min(lo, values[2 * g]), hi = std::max(hi, values[2 * g + 1]);
    };
    scan(inputs.source);
    for (const ViewSource& s : inputs.series)
        scan(s);
    if (!(lo <= hi))
        return std::nullopt;
    // The scale is applied to the extremes (a negative scale swaps them); a product that overflows
    // to infinity leaves no finite range.
    double a = double(lo) * view.scale, b = double(hi) * view.scale;
    if (a > b)
        std::swap(a, b);
    if (!std::isfinite(a) || !std::isfinite(b))
        return std::nullopt;
    return std::array<double, 2>{a, b};
}

std::array<float, 4> plotSeriesColor(const project::ViewDesc& view, std::size_t index)
{
    static constexpr std::array<std::array<float, 4>, 6> kPalette = {{
        {0.98f, 0.60f, 0.20f, 1.f}, // orange
        {0.35f, 0.65f, 1.00f, 1.f}, // blue
        {0.93f, 0.40f, 0.80f, 1.f}, // magenta
        {0.95f, 0.88f, 0.30f, 1.f}, // yellow
        {0.40f, 0.90f, 0.90f, 1.f}, // cyan
        {0.90f, 0.35f, 0.35f, 1.f}, // red
    }};
    return index == 0 ? view.color : kPalette[(index - 1) % kPalette.size()];
}

void ViewRenderer::drawOverlay(const project::ViewDesc& v, const ViewInputs& in, const gl::Framebuffer& target,
                               const PlotFrame* plot)
{
    const gl::Texture2D& overlay = *in.overlay.texture;
    const ElementRect r = elementRect(v.kind, overlay.width(), overlay.height(), target.width(), target.height(), plot);
    if (r.width <= 0)
        return;
    const float tw = float(target.width()), th = float(target.height());
    const gl::ShaderProgram& p = program("overlay").program;
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
    glDisable(GL_DEPTH_TEST);
    glBindVertexArray(m_vao.name());
    glUseProgram(p.name());
    glUniform4f(p.uniform("u_rect"), r.x / tw * 2.f - 1.f, 1.f - (r.y + r.height) / th * 2.f, (r.x + r.width) / tw * 2.f - 1.f,
                1.f - r.y / th * 2.f);
    glUniform1f(p.uniform("u_opacity"), in.overlay.opacity);
    glUniform1i(p.uniform("u_image"), 0);
    glBindTextureUnit(0, overlay.name());
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glDisable(GL_BLEND);
    target.bind();
}

void ViewRenderer::drawPoints(const project::ViewDesc& v, const ViewInputs& in, const OrbitCamera& cam,
                              const gl::Framebuffer& target)
{
    const ViewSource& s = in.source;
    requireDrawable(v, project::ViewInput::Source, s);
    int colorMode = 0;
    gl::BufferRange colors;
    if (in.colors.valid()) {
        requireDrawable(v, project::ViewInput::Colors, in.colors);
        colors = in.colors.buffer;
        colorMode = isFloatVector(in.colors.element, 4) ? 1 : 2; // float4, uchar4
    } else if (in.scalar.valid()) {
        requireDrawable(v, project::ViewInput::Scalar, in.scalar);
        colors = in.scalar.buffer;
        colorMode = 3;
    }
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_PROGRAM_POINT_SIZE);
    const gl::ShaderProgram& p = program("points").program;
    glUseProgram(p.name());
    const glm::mat4 vp = cam.viewProjection(float(target.width()) / float(target.height()));
    glUniformMatrix4fv(p.uniform("u_viewProjection"), 1, GL_FALSE, glm::value_ptr(vp));
    glUniform1i(p.uniform("u_components"), s.element.components);
    glUniform1i(p.uniform("u_colorMode"), colorMode);
    glUniform4f(p.uniform("u_color"), v.color[0], v.color[1], v.color[2], v.color[3]);
    glUniform2f(p.uniform("u_range"), v.range[0], v.range[1]);
    glUniform1f(p.uniform("u_scale"), v.scale);
    glUniform1f(p.uniform("u_pointSize"), v.pointSize);
    glUniform1i(p.uniform("u_colormap"), 1);
    bindStorage(0, s.buffer);
    // A storage binding must exist even when unused.
    bindStorage(1, colors.empty() ? s.buffer : colors);
    glBindTextureUnit(1, colormapTexture(v.colormap).name());
    glDrawArrays(GL_POINTS, 0, GLsizei(s.count));
}

void ViewRenderer::drawPlot(const project::ViewDesc& v, const ViewInputs& in, const PlotFrame& frame,
                            const gl::Framebuffer& target)
{
    requireDrawable(v, project::ViewInput::Source, in.source);
    for (std::size_t k = 0; k < in.series.size(); ++k)
        if (in.series[k].valid())
            requireDrawable(v, project::ViewInput::Source, in.series[k]);
    // On a log axis the shader compares log10 of each value with log10 of the frame's ends.
    if (frame.logY && !(frame.y0 > 0 && frame.y1 > 0))
        throwUsage("ViewRenderer", "view \"" + v.name + "\": a log value axis needs a positive range, not " +
                                       std::to_string(frame.y0) + " to " + std::to_string(frame.y1));
    const gl::ShaderProgram& p = program("plot").program;
    glUseProgram(p.name());
    glUniform2f(p.uniform("u_xrange"), float(frame.x0), float(frame.x1));
    if (frame.logY)
        glUniform2f(p.uniform("u_range"), float(std::log10(frame.y0)), float(std::log10(frame.y1)));
    else
        glUniform2f(p.uniform("u_range"), float(frame.y0), float(frame.y1));
    glUniform1i(p.uniform("u_logY"), frame.logY ? 1 : 0);
    glUniform1f(p.uniform("u_scale"), v.scale);
    glUniform1f(p.uniform("u_pointSize"), v.pointSize);
    glUniform1i(p.uniform("u_frame"), 1);
    glUniform4f(p.uniform("u_color"), 0.35f, 0.37f, 0.42f, 1.f);
    bindStorage(0, in.source.buffer);
    glDrawArrays(GL_LINE_STRIP, 0, 5);
    glUniform1i(p.uniform("u_frame"), 0);
    // Only what lies in the frame: the elements from just before x0 to just after x1, clipped to it.
    const int tw = target.width(), th = target.height();
    glEnable(GL_SCISSOR_TEST);
    glScissor(int(0.05f * float(tw)), int(0.05f * float(th)), std::max(1, int(0.9f * float(tw)) + 1),
              std::max(1, int(0.9f * float(th)) + 1));
    const bool scatter = v.style == project::PlotStyle::Scatter;
    if (scatter)
        glEnable(GL_PROGRAM_POINT_SIZE);
    auto series = [&](const ViewSource& s, std::size_t index) {
        if (!s.valid() || s.count <= 0)
            return;
        const std::int64_t first = std::clamp<std::int64_t>(std::int64_t(std::floor(frame.x0)) - 1, 0, s.count - 1);
        const std::int64_t last = std::clamp<std::int64_t>(std::int64_t(std::ceil(frame.x1)) + 1, 0, s.count - 1);
        const std::array<float, 4> c = plotSeriesColor(v, index);
        glUniform4f(p.uniform("u_color"), c[0], c[1], c[2], c[3]);
        bindStorage(0, s.buffer);
        glDrawArrays(scatter ? GL_POINTS : GL_LINE_STRIP, GLint(first), GLsizei(last - first + 1));
    };
    series(in.source, 0);
    for (std::size_t k = 0; k < in.series.size(); ++k)
        series(in.series[k], k + 1);
    glDisable(GL_SCISSOR_TEST);
}

void ViewRenderer::drawHeightField(const project::ViewDesc& v, const ViewInputs& in, const OrbitCamera& cam,
                                   const gl::Framebuffer& target)
{
    const ViewSource& s = in.source;
    requireDrawable(v, project::ViewInput::Source, s);
    if (m_gridCols != s.cols || m_gridRows != s.rows) {
        std::vector<std::uint32_t> idx;
        idx.reserve(std::size_t(s.cols - 1) * std::size_t(s.rows - 1) * 6);
        for (int r = 0; r + 1 < s.rows; ++r)
            for (int c = 0; c + 1 < s.cols; ++c) {
                const std::uint32_t a = std::uint32_t(r * s.cols + c), b = a + 1, d = a + std::uint32_t(s.cols),
                                    e = d + 1;
                idx.insert(idx.end(), {a, d, b, b, d, e});
            }
        m_gridIndices = gl::Buffer(idx.size() * sizeof(std::uint32_t), idx.data());
        m_gridCols = s.cols;
        m_gridRows = s.rows;
    }
    glEnable(GL_DEPTH_TEST);
    const gl::ShaderProgram& p = program("heightfield").program;
    glUseProgram(p.name());
    const glm::mat4 vp = cam.viewProjection(float(target.width()) / float(target.height()));
    glUniformMatrix4fv(p.uniform("u_viewProjection"), 1, GL_FALSE, glm::value_ptr(vp));
    glUniform2i(p.uniform("u_size"), s.cols, s.rows);
    glUniform1f(p.uniform("u_scale"), v.scale);
    glUniform2f(p.uniform("u_range"), v.range[0], v.range[1]);
    glUniform1i(p.uniform("u_colormap"), 1);
    bindStorage(0, s.buffer);
    glBindTextureUnit(1, colormapTexture(v.colormap).name());
    glVertexArrayElementBuffer(m_vao.name(), m_gridIndices.name());
    glDrawElements(GL_TRIANGLES, GLsizei(std::size_t(s.cols - 1) * std::size_t(s.rows - 1) * 6), GL_UNSIGNED_INT,
                   nullptr);
    glVertexArrayElementBuffer(m_vao.name(), 0);
}

} // namespace ks::render
