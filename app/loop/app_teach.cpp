// App's handling of the teaching panels: recording who wrote each element (the overlay and the
// inspector) and the block timeline through ks::teach::StageProbe, and applying launch edits.
#include "app.hpp"
#include "loop/teach_support.hpp"

#include "ks/core/error.hpp"
#include "ks/core/log.hpp"
#include "ks/teach/launch_analysis.hpp"
#include "ks/teach/overlay.hpp"

#include <algorithm>
#include <functional>
#include <iterator>

namespace ks::app {

namespace {

// What a recording depends on: when it changes, the overlay is recorded again.
std::string captureKey(const pipeline::Pipeline& p, int stage, const std::string& output)
{
    const auto& k = static_cast<const pipeline::KernelStage&>(p.stage(std::size_t(stage)));
    const cuda::LaunchConfig c = k.launchConfig(p.resources());
    // The running build and the text the variant is made from: an edit records again.
    char text[240];
    std::snprintf(text, sizeof text, "%d|%u,%u,%u|%u,%u,%u|%u|%llu|%zx|", stage, c.grid.x, c.grid.y, c.grid.z,
                  c.block.x, c.block.y, c.block.z, c.sharedBytes, (unsigned long long)k.buildSerial(),
                  std::hash<std::string>{}(k.sourceText()));
    return text + output;
}

// A GL texture holds at most GL_MAX_TEXTURE_SIZE texels per side; a longer output (a 1-D buffer of
// 10^6 elements) is shown through every k-th element (nearest), which is what a view of that many
// elements can show anyway. The inspector reads the full records.
io::Rgba8Image fitTextureLimit(io::Rgba8Image image)
{
    GLint limit = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &limit);
    limit = std::min(limit, 8192);
    if (image.width <= limit && image.height <= limit)
        return image;
    const int w = std::min(image.width, int(limit)), h = std::min(image.height, int(limit));
    io::Rgba8Image out{w, h, std::vector<std::uint8_t>(std::size_t(w) * std::size_t(h) * 4)};
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const std::size_t sx = std::size_t(x) * std::size_t(image.width) / std::size_t(w);
            const std::size_t sy = std::size_t(y) * std::size_t(image.height) / std::size_t(h);
            std::copy_n(&image.pixels[(sy * std::size_t(image.width) + sx) * 4], 4,
                        &out.pixels[(std::size_t(y) * std::size_t(w) + std::size_t(x)) * 4]);
        }
    return out;
}

} // namespace

void App::showStageKernel(int stage)
{
    AppState& s = m_state;
    if (!s.project.session || stage < 0)
        return;
    const pipeline::Pipeline& p = s.project.session->pipeline();
    const auto* k = dynamic_cast<const pipeline::KernelStage*>(&p.stage(std::size_t(stage)));
    if (!k)
        return;
    const std::filesystem::path file = p.project().resolve(k->desc().file);
    openDocument(file);
    if (k->signature())
        s.commands.jumpTo = JumpTo{file, std::max(1, k->signature()->line - 3), false};
}

void App::teachBeforeFrame()
{
    AppState& s = m_state;
    TeachState& t = s.teach;
    if (!s.project.session || !s.cuda)
        return;
    pipeline::Pipeline& p = s.project.session->pipeline();
    const int stage = teachStage(s);
    if (stage < 0 || (p.paused() && !p.error().empty()))
        return;
    if (!s.project.probe)
        s.project.probe = std::make_unique<teach::StageProbe>(&*s.compileCache);
    teach::StageProbe& probe = *s.project.probe;
    if (probe.pending(p))
        return;
    const unsigned smCount = s.device() ? unsigned(s.device()->smCount) : 0u;
    const bool once = p.stage(std::size_t(stage)).desc().once;
    if (t.overlayMode >= 0 || t.inspectWanted) {
        const std::string key = captureKey(p, stage, t.outputParam);
        if (key != t.capturedKey || (t.overlayMode >= 0 && t.overlayLive && !once)) {
            t.capturedKey = key; // a failed request is not retried every frame
            if (probe.request(p, {std::size_t(stage), teach::VariantKind::WhoWrote, t.outputParam, smCount}))
                t.error.clear();
            else
                t.error = probe.error();
            return;
        }
    }
    if (t.timelineRequested) {
        t.timelineRequested = false;
        if (probe.request(p, {std::size_t(stage), teach::VariantKind::BlockTimeline, {}, smCount}))
            t.error.clear();
        else
            t.error = probe.error();
    }
}

void App::teachAfterFrame()
{
    AppState& s = m_state;
    TeachState& t = s.teach;
    if (!s.project.session || !s.project.probe)
        return;
    const teach::ProbeCapture* c = s.project.probe->latest(teach::VariantKind::WhoWrote);
    if (!c || int(c->stage) != teachStage(s)) {
        s.project.session->setOverlay({}, nullptr, 0);
        t.inspection.reset();
        return;
    }
    if (t.pinnedXY) {
        const auto [x, y] = *t.pinnedXY;
        if (x < c->width && y < c->height)
            t.pinnedElement = std::size_t(y) * std::size_t(c->width) + std::size_t(x);
        else
            log::error("--inspect " + std::to_string(x) + "," + std::to_string(y) + " is outside " + c->resource +
                       " (" + std::to_string(c->width) + " x " + std::to_string(c->height) + ")");
        t.pinnedXY.reset();
    }
    const unsigned warp = s.device() ? unsigned(s.device()->limits.warpSize) : 32u;
    if (t.overlayMode >= 0 && (std::int64_t(c->serial) != t.overlayFrame || t.overlayMode != t.overlayTextureMode)) {
        const teach::OverlayMode mode = teach::kOverlayModes[t.overlayMode];
        const io::Rgba8Image overlay =
            fitTextureLimit(teach::overlayImage(c->who.records, c->width, c->height, mode, c->launch, 255, warp));
        if (t.overlayTexture.width() != overlay.width || t.overlayTexture.height() != overlay.height)
            t.overlayTexture = gl::Texture2D(overlay.width, overlay.height, GL_RGBA8, GL_NEAREST);
        t.overlayTexture.upload(GL_RGBA, GL_UNSIGNED_BYTE, overlay.pixels.data());
        t.legend = teach::overlayLegend(mode, c->who.records, c->launch, 12, warp);
        t.overlayFrame = std::int64_t(c->serial);
        t.overlayTextureMode = t.overlayMode;
    }
    s.project.session->setOverlay(c->resource, t.overlayMode >= 0 ? &t.overlayTexture : nullptr, t.overlayOpacity);
    const std::optional<std::size_t> element = t.pinnedElement ? t.pinnedElement : t.hoverElement;
    if (!element || *element >= c->who.records.size()) {
        t.inspection.reset();
        return;
    }
    const pipeline::Pipeline& p = s.project.session->pipeline();
    if (t.inspection && t.inspection->element == *element && t.inspectionFrame == p.frameIndex())
        return;
    Inspection in;
    in.element = *element;
    in.who = teach::inspectElement(c->who.records, *element, c->launch, std::size_t(c->width));
    in.values = inspectValues(p.resources(), *element, c->width, c->height);
    t.inspection = std::move(in);
    t.inspectionFrame = p.frameIndex();
}

void App::applyTeachCommands(TeachCommands& c)
{
    AppState& s = m_state;
    TeachState& t = s.teach;
    if (c.layout && *c.layout != t.layout) {
        t.layout = *c.layout;
        ++t.layoutGeneration;
    } else if (c.resetLayout) {
        ++t.layoutGeneration;
        s.menu.hiddenPanels.clear();
    }
    if (c.overlayMode)
        t.overlayMode = std::clamp(*c.overlayMode, -1, int(std::size(teach::kOverlayModes)) - 1);
    if (!s.project.session)
        return;
    pipeline::Pipeline& p = s.project.session->pipeline();
    if (c.selectStage && *c.selectStage != t.stage) {
        t.stage = *c.selectStage;
        t.editStage = -2;
        t.capturedKey.clear();
        t.outputParam.clear();
        t.pinnedElement.reset();
        t.inspection.reset();
        t.refusal.clear();
        t.suggestion.clear();
        showStageKernel(teachStage(s));
    }
    const int stage = teachStage(s);
    if (stage < 0)
        return;
    auto& k = static_cast<pipeline::KernelStage&>(p.stage(std::size_t(stage)));
    if (c.suggest) {
        if (!k.function()) {
            t.suggestion = "no loaded kernel to ask the driver about";
        } else {
            try {
                const cuda::BlockSizeSuggestion b =
                    teach::suggestBlockSizeOnDevice(*k.function(), unsigned(t.edit.sharedBytes));
                LaunchEdit e = t.edit;
                e.block = suggestedBlockShape(unsigned(b.blockSize), t.edit.block);
                if (e.cover.empty()) // keep covering the same data with the new block
                    e.grid = gridFor(s, stage, e);
                c.setLaunch = e;
                char text[200];
                std::snprintf(text, sizeof text,
                              "cuOccupancyMaxPotentialBlockSize: %d threads per block (%d x %d x %d); %d blocks fill the GPU",
                              b.blockSize, e.block[0], e.block[1], e.block[2], b.minGridSize);
                t.suggestion = text;
            } catch (const Error& e) {
                t.suggestion = e.what();
            }
        }
    }
    if (c.setLaunch) {
        t.edit = *c.setLaunch;
        t.refusal = launchRefusal(s, stage, t.edit);
        if (t.refusal.empty()) {
            project::StageDesc& d = k.desc();
            for (int i = 0; i < 3; ++i) {
                d.block[std::size_t(i)] = unsigned(t.edit.block[std::size_t(i)]);
                d.grid[std::size_t(i)] = unsigned(t.edit.grid[std::size_t(i)]);
            }
            d.cover = t.edit.cover;
            d.sharedBytes = unsigned(t.edit.sharedBytes);
            // The new launch runs on the next frame; a stage that runs once runs again from the
            // initial data, so its result is the new launch's alone.
            if (d.once)
                p.restart();
            if (p.paused()) {
                if (p.error().empty())
                    p.step(); // paused by the user: show one frame of the new launch
                else
                    p.setPaused(false); // paused by a failed launch: try the new one
            }
        }
    }
    if (c.recordTimeline)
        t.timelineRequested = true;
}

} // namespace ks::app
