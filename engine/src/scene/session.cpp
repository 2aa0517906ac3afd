#include "ks/scene/session.hpp"

#include "ks/core/error.hpp"
#include "ks/io/image.hpp"
#include "ks/io/npy.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace ks::scene {

using pipeline::FrameTimings;
using pipeline::Pipeline;
using pipeline::PipelineOptions;
using pipeline::Resource;
using pipeline::ResourceSet;
using pipeline::StageTiming;

Session::Session(project::Project project, const PipelineOptions& options, const std::filesystem::path& shaderDir)
    : m_pipeline(std::make_unique<Pipeline>(std::move(project), options)), m_renderer(shaderDir)
{
    const project::CameraDesc& c = m_pipeline->project().camera;
    m_camera.target = {c.target[0], c.target[1], c.target[2]};
    m_camera.distance = c.distance;
    m_camera.yaw = c.yaw;
    m_camera.pitch = c.pitch;
    m_camera.fov = c.fov;
    m_targets.resize(viewCount());
    m_viewErrors.resize(viewCount());
    m_plotFrames.resize(viewCount());
    m_plotZooms.resize(viewCount());
}

render::ViewInputs Session::inputs(const project::ViewDesc& v) const
{
    auto source = [&](const std::string& name) {
        render::ViewSource s;
        const Resource* r = m_pipeline->resources().find(name);
        if (!r)
            return s;
        if (r->isTexture()) {
            s.texture = &r->texture;
        } else {
            s.buffer = r->buffer;
            s.element = r->desc.element;
            s.count = r->desc.count;
            if (r->desc.shape) {
                s.rows = int((*r->desc.shape)[0]);
                s.cols = int((*r->desc.shape)[1]);
            }
        }
        return s;
    };
    render::ViewInputs in{source(v.source), source(v.colors), source(v.scalar), {}, {}};
    for (const std::string& series : v.series)
        in.series.push_back(source(series));
    if (m_overlay.texture && v.source == m_overlayResource)
        in.overlay = m_overlay;
    return in;
}

void Session::setOverlay(std::string resource, const gl::Texture2D* texture, float opacity)
{
    m_overlayResource = std::move(resource);
    m_overlay = {texture, opacity};
}

void Session::followViewport(int width, int height)
{
    width = std::max(1, width), height = std::max(1, height);
    for (const project::ResourceDesc& r : m_pipeline->project().resources) {
        const Resource* live = m_pipeline->resources().find(r.name);
        if (!r.followViewport || !live || (live->desc.width == width && live->desc.height == height))
            continue;
        m_pipeline->finish(); // queued frames may still use the storage that is about to go
        m_pipeline->resources().resizeTexture(r.name, width, height);
        // The new storage holds nothing yet: while paused, one frame fills it (as a scrub does).
        if (m_pipeline->paused())
            m_pipeline->step();
    }
}

void Session::renderViews(const std::vector<std::array<int, 2>>& sizes)
{
    const auto& views = m_pipeline->project().views;
    m_timer.begin();
    try {
        // Shared textures: the newest finished frame into the GL textures (with frames in flight,
        // the one before the frame just queued).
        m_pipeline->resources().publish(ResourceSet::Publish::Ready);
    } catch (const Error& e) {
        for (std::string& error : m_viewErrors)
            error = e.what();
        m_timer.end();
        return;
    }
    for (std::size_t i = 0; i < views.size() && i < sizes.size(); ++i) {
        const int w = std::max(1, sizes[i][0]), h = std::max(1, sizes[i][1]);
        if (m_targets[i].empty() || m_targets[i].width() != w || m_targets[i].height() != h)
            m_targets[i] = gl::Framebuffer(w, h);
        try {
            const render::ViewInputs in = inputs(views[i]);
            if (views[i].kind == project::ViewKind::Plot) {
                m_plotFrames[i] = m_plotZooms[i] ? *m_plotZooms[i] : m_renderer.unzoomedPlotFrame(views[i], in);
                m_renderer.draw(views[i], in, m_camera, m_targets[i], &m_plotFrames[i]);
            } else {
                m_renderer.draw(views[i], in, m_camera, m_targets[i]);
            }
            m_viewErrors[i].clear();
        } catch (const Error& e) {
            m_viewErrors[i] = e.what();
            gl::clearErrors();
        }
    }
    m_timer.end();
    m_pipeline->setRenderMs(m_timer.latestMs());
}

io::Rgba8Image Session::composite(int width, int height)
{
    const std::size_t n = m_pipeline->project().tabs ? std::min<std::size_t>(1, viewCount()) : viewCount();
    io::Rgba8Image out{width, height, std::vector<std::uint8_t>(std::size_t(width) * std::size_t(height) * 4, 0)};
    for (std::size_t i = 3; i < out.pixels.size(); i += 4)
        out.pixels[i] = 255;
    if (n == 0)
        return out;
    std::vector<std::array<int, 2>> sizes;
    for (std::size_t i = 0; i < n; ++i) {
        const int x0 = int(i) * width / int(n), x1 = int(i + 1) * width / int(n);
        sizes.push_back({x1 - x0, height});
    }
    renderViews(sizes);
    for (std::size_t i = 0; i < n; ++i) {
        const int x0 = int(i) * width / int(n);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, m_targets[i].name());
        const std::vector<std::uint8_t> px = gl::readPixelsTopDown(0, 0, sizes[i][0], height);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
        for (int y = 0; y < height; ++y)
            std::copy_n(px.data() + std::size_t(y) * std::size_t(sizes[i][0]) * 4, std::size_t(sizes[i][0]) * 4,
                        out.pixels.data() + (std::size_t(y) * std::size_t(width) + std::size_t(x0)) * 4);
    }
    return out;
}

std::vector<std::int64_t> dumpShape(const project::ResourceDesc& r)
{
    std::vector<std::int64_t> shape;
    if (r.isTexture()) {
        shape = {r.height, r.width};
        if (r.format != project::TextureFormat::R32F)
            shape.push_back(4);
        return shape;
    }
    if (r.shape)
        shape = {(*r.shape)[0], (*r.shape)[1]};
    else
        shape = {r.count};
    if (r.element.components > 1)
        shape.push_back(r.element.components);
    return shape;
}

std::string dumpDescr(const project::ResourceDesc& r)
{
    if (r.isTexture())
        return r.format == project::TextureFormat::Rgba8 ? "|u1" : "<f4";
    return numpyDescr(r.element.scalar);
}

void Session::dump(const std::string& name, const std::filesystem::path& path) const
{
    const Resource* r = m_pipeline->resources().find(name);
    if (!r) {
        std::string names;
        for (const project::ResourceDesc& d : m_pipeline->project().resources)
            names += (names.empty() ? "" : ", ") + d.name;
        throwUsage("--dump", "the project has no resource \"" + name + "\" (it has " + names + ")");
    }
    const std::vector<std::uint8_t> bytes = m_pipeline->resources().download(name);
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (ext != ".png") {
        io::writeNpy(path, dumpDescr(r->desc), dumpShape(r->desc), bytes.data(), bytes.size());
        return;
    }
    // A picture of an 8-bit image: an rgba8 texture, or a 2-D buffer of uchar (gray), uchar3 or
    // uchar4. Anything else has no one right picture: .npy keeps its values.
    const project::ResourceDesc& d = r->desc;
    const bool texture8 = d.isTexture() && d.format == project::TextureFormat::Rgba8;
    const bool buffer8 = !d.isTexture() && d.shape && d.element.scalar == project::ScalarType::UInt8 &&
                         d.element.components != 2;
    if (!texture8 && !buffer8)
        throwUsage("--dump", "resource \"" + name + "\" is not an 8-bit image (" +
                                 (d.isTexture() ? "a " + std::string(project::formatName(d.format)) + " texture"
                                                : "a " + std::string(d.shape ? "2-D" : "1-D") + " buffer of " +
                                                      project::cudaTypeName(d.element)) +
                                 "); a .png dump takes an rgba8 texture or a 2-D buffer of uchar, uchar3 or uchar4: "
                                 "write " + path.stem().string() + ".npy instead");
    io::Rgba8Image picture;
    picture.width = texture8 ? d.width : int((*d.shape)[1]);
    picture.height = texture8 ? d.height : int((*d.shape)[0]);
    const int channels = texture8 ? 4 : d.element.components;
    const std::size_t pixels = std::size_t(picture.width) * std::size_t(picture.height);
    picture.pixels.resize(pixels * 4);
    for (std::size_t i = 0; i < pixels; ++i)
        for (int c = 0; c < 4; ++c)
            picture.pixels[i * 4 + c] = channels == 1 ? (c == 3 ? 255 : bytes[i])
                                        : c < channels ? bytes[i * channels + c]
                                                       : 255;
    io::writePng(path, picture);
}

std::string timingsJson(const project::Project& project, const std::vector<FrameTimings>& frames,
                        const std::string& device, const FailedFrame* failed)
{
    using J = nlohmann::ordered_json;
    J j;
    j["project"] = project.file.string();
    j["device"] = device;
    j["frames"] = frames.size(); // finished frames
    j["complete"] = failed == nullptr;
    J list = J::array();
    std::vector<std::vector<double>> perStage;
    std::vector<double> maps, frameMs, render;
    for (const FrameTimings& f : frames) {
        J o;
        o["frame"] = f.frame;
        o["mapUs"] = f.mapUs;
        o["unmapUs"] = f.unmapUs;
        o["mapCallUs"] = f.mapCallUs;
        o["pointersUs"] = f.pointersUs;
        o["objectsUs"] = f.objectsUs;
        o["queueMs"] = f.queueMs;
        o["waitMs"] = f.waitMs;
        o["stagesMs"] = f.stagesMs;
        o["renderMs"] = f.renderMs;
        o["frameMs"] = f.frameMs;
        J stages = J::array();
        perStage.resize(std::max(perStage.size(), f.stages.size()));
        for (std::size_t i = 0; i < f.stages.size(); ++i) {
            const StageTiming& s = f.stages[i];
            J st{{"name", s.name}, {"ran", s.ran}, {"ms", s.ms}};
            if (s.bytes) {
                st["bytes"] = *s.bytes;
                st["GBps"] = s.gbPerSecond();
            }
            stages.push_back(st);
            if (s.ran)
                perStage[i].push_back(s.ms);
        }
        o["stages"] = stages;
        list.push_back(o);
        maps.push_back(f.mapUs + f.unmapUs);
        frameMs.push_back(f.frameMs);
        if (f.renderMs >= 0)
            render.push_back(f.renderMs);
    }
    auto median = [](std::vector<double> v) {
        if (v.empty())
            return -1.0;
        std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
        return v[v.size() / 2];
    };
    if (failed) {
        J f{{"frame", failed->frame}, {"failed", true}, {"kind", failed->kind}, {"message", failed->message}};
        if (!failed->stage.empty())
            f["stage"] = failed->stage;
        list.push_back(f);
        j["failed"] = f;
    }
    J summary;
    summary["medianMapUnmapUs"] = median(maps);
    summary["medianFrameMs"] = median(frameMs);
    summary["medianRenderMs"] = median(render);
    J stageMedians = J::array();
    if (!frames.empty())
        for (std::size_t i = 0; i < frames.back().stages.size() && i < perStage.size(); ++i)
            stageMedians.push_back({{"name", frames.back().stages[i].name}, {"medianMs", median(perStage[i])}});
    summary["stages"] = stageMedians;
    j["summary"] = summary;
    j["timeline"] = list;
    return j.dump(2) + "\n";
}

} // namespace ks::scene
