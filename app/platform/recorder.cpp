#include "recorder.hpp"

#include <cstdio>

namespace ks::app {

FrameRecorder::FrameRecorder(std::filesystem::path target, int every, double timeStep)
    : m_target(std::move(target)), m_every(every < 1 ? 1 : every), m_timeStep(timeStep), m_video(videoFormatOf(m_target))
{
    if (active() && !m_video)
        std::filesystem::create_directories(m_target);
}

FrameRecorder::~FrameRecorder() = default;

void FrameRecorder::frameDone(int frame, const std::function<image::Rgba8Image()>& capture)
{
    if (!active() || frame % m_every != 0)
        return;
    const image::Rgba8Image image = capture();
    if (m_video) {
        if (!m_encoder)
            m_encoder = std::make_unique<VideoEncoder>(m_target, *m_video, image.width, image.height,
                                                       1.0 / (m_timeStep * m_every));
        m_encoder->write(image);
    } else {
        char name[32];
        std::snprintf(name, sizeof name, "frame_%06d.png", frame);
        image::writePng(m_target / name, image);
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
        std::printf("kernelscope: recorded %d frames to %s (%dx%d at %g frames a second: every %d frames of %g s)\n",
                    m_written, m_target.c_str(), m_encoder ? m_encoder->width() : 0,
                    m_encoder ? m_encoder->height() : 0, 1.0 / (m_timeStep * m_every), m_every, m_timeStep);
    else
        std::printf("kernelscope: recorded %d frames to %s (every %d frames of %g s)\n", m_written, m_target.c_str(),
                    m_every, m_timeStep);
}

} // namespace ks::app
