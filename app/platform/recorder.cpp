#include "platform/recorder.hpp"

#include "app.hpp"
#include "loop/recording_target.hpp"

#include "ks/core/error.hpp"
#include "ks/core/log.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace ks::app {

FrameRecorder::FrameRecorder(std::filesystem::path target, int every, double timeStep)
    : m_target(std::move(target)), m_every(every < 1 ? 1 : every), m_timeStep(timeStep), m_video(videoFormatOf(m_target))
{
    if (active() && !m_video)
        std::filesystem::create_directories(m_target);
}

FrameRecorder::~FrameRecorder() = default;

void FrameRecorder::frameDone(int frame, const std::function<io::Rgba8Image()>& capture)
{
    if (!active() || frame % m_every != 0)
        return;
    const io::Rgba8Image image = capture();
    if (m_video) {
        if (!m_encoder)
            m_encoder = std::make_unique<VideoEncoder>(m_target, *m_video, image.width, image.height,
                                                       1.0 / (m_timeStep * m_every));
        m_encoder->write(image);
    } else {
        char name[32];
        std::snprintf(name, sizeof name, "frame_%06d.png", frame);
        io::writePng(m_target / name, image);
    }
    ++m_written;
}

void FrameRecorder::finish()
{
    if (m_encoder)
        m_encoder->finish();
}

void FrameRecorder::report() const
{
    if (!active())
        return;
    if (m_video)
        std::printf("kernelscope: recorded %d frames to %s (%dx%d at %g frames a second: every %d frames of %g s)%s\n",
                    m_written, m_target.c_str(), m_encoder ? m_encoder->width() : 0,
                    m_encoder ? m_encoder->height() : 0, 1.0 / (m_timeStep * m_every), m_every, m_timeStep,
                    rateNote().c_str());
    else
        std::printf("kernelscope: recorded %d frames to %s (every %d frames of %g s)\n", m_written, m_target.c_str(),
                    m_every, m_timeStep);
}

std::string FrameRecorder::rateNote() const
{
    if (!m_encoder)
        return {};
    const double rate = 1.0 / (m_timeStep * m_every);
    if (m_encoder->fps() >= rate * (1 - 1e-9))
        return {};
    char note[160];
    std::snprintf(note, sizeof note, " (written at %g frames a second, the most a GIF plays: frames left out evenly)",
                  m_encoder->fps());
    return note;
}

AppRecording::~AppRecording()
{
    if (!m_recorder)
        return;
    try {
        m_recorder->finish();
        m_recorder->report();
    } catch (const Error& e) {
        log::error(std::string("recording: ") + e.what());
    }
}

namespace {

// The part of `shot` inside `rect` (pixels, top-left: x0, y0, x1, y1); all of it for an empty rect.
// `even`: even sizes, which H.264 wants.
io::Rgba8Image crop(io::Rgba8Image shot, const std::array<float, 4>& rect, bool even)
{
    if (rect[2] <= rect[0] || rect[3] <= rect[1] || shot.width < 2 || shot.height < 2)
        return shot;
    const int x0 = std::clamp(int(rect[0]), 0, shot.width - 2), y0 = std::clamp(int(rect[1]), 0, shot.height - 2);
    int w = std::clamp(int(rect[2]), x0 + 2, shot.width) - x0;
    int h = std::clamp(int(rect[3]), y0 + 2, shot.height) - y0;
    if (even) {
        w &= ~1;
        h &= ~1;
    }
    io::Rgba8Image out{w, h, std::vector<std::uint8_t>(std::size_t(w) * std::size_t(h) * 4)};
    for (int y = 0; y < h; ++y)
        std::copy_n(&shot.pixels[(std::size_t(y0 + y) * std::size_t(shot.width) + std::size_t(x0)) * 4],
                    std::size_t(w) * 4, &out.pixels[std::size_t(y) * std::size_t(w) * 4]);
    return out;
}

void takeScreenshot(App& app, const std::function<io::Rgba8Image()>& capture)
{
    const RecordState& r = app.state().record;
    const bool views = r.shot == RecordState::Shot::Views;
    try {
        const io::Rgba8Image shot = crop(capture(), views ? r.viewportRect : std::array<float, 4>{}, false);
        const std::time_t now = std::time(nullptr);
        std::tm local{};
        localtime_r(&now, &local);
        char name[48];
        std::strftime(name, sizeof name, "kernelscope-%Y%m%d-%H%M%S.png", &local);
        const std::filesystem::path file = nextFreeRecordingTarget(app.screenshotDir() / name);
        io::writePng(file, shot);
        app.screenshotTaken("saved a screenshot of the " + std::string(views ? "views" : "window") + " (" +
                            std::to_string(shot.width) + "x" + std::to_string(shot.height) + ") to " +
                            std::filesystem::absolute(file).string());
    } catch (const Error& e) {
        app.screenshotTaken(std::string("no screenshot: ") + e.what());
    }
}

} // namespace

void AppRecording::afterFrame(App& app, const std::function<io::Rgba8Image()>& capture)
{
    if (app.state().record.shot != RecordState::Shot::None)
        takeScreenshot(app, capture);
    const RecordState& r = app.state().record;
    try {
        if (r.wanted && !m_recorder) {
            m_recorder = std::make_unique<FrameRecorder>(r.target, r.every, 1.0 / 60.0);
            m_frames = 0;
            m_rect = r.viewportOnly ? r.viewportRect : std::array<float, 4>{};
            app.recordingStatus(true, 0, {});
        }
        if (!m_recorder)
            return;
        if (!r.wanted) {
            m_recorder->finish();
            m_recorder->report(); // on the terminal too, as headless runs say it
            const int written = m_recorder->written();
            const std::string note = m_recorder->rateNote();
            m_recorder.reset();
            app.recordingStatus(false, written, "recorded " + std::to_string(written) + " frames to " + r.target + note);
            return;
        }
        m_recorder->frameDone(++m_frames, [&] { return crop(capture(), m_rect, true); });
        app.recordingStatus(true, m_recorder->written(), {});
    } catch (const Error& e) {
        const int written = m_recorder ? m_recorder->written() : 0;
        m_recorder.reset();
        app.recordingStatus(false, written, std::string("recording stopped: ") + e.what());
        app.stopRecording();
    }
}

} // namespace ks::app
