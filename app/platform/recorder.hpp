#pragma once
// --record: a headless run's frames as a PNG sequence, DIR/frame_NNNNNN.png, one every N frames.
// Frames are a fixed time step apart, so the sequence's rate is fixed whatever the run's speed:
// 1 / (timeStep * N) frames per second of the run's time.

#include "ks/image/png.hpp"

#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>

namespace ks::app {

class FrameRecorder {
public:
    FrameRecorder(std::filesystem::path dir, int every) : m_dir(std::move(dir)), m_every(every < 1 ? 1 : every)
    {
        if (!m_dir.empty())
            std::filesystem::create_directories(m_dir);
    }
    bool active() const { return !m_dir.empty(); }
    // After frame `frame` (1-based) is drawn: writes it when it is one to record.
    void frameDone(int frame, const std::function<image::Rgba8Image()>& capture)
    {
        if (!active() || frame % m_every != 0)
            return;
        char name[32];
        std::snprintf(name, sizeof name, "frame_%06d.png", frame);
        image::writePng(m_dir / name, capture());
        ++m_written;
    }
    int written() const { return m_written; }
    const std::filesystem::path& dir() const { return m_dir; }
    // After the run: what was recorded, at which step (a no-op when not recording).
    void report(double timeStep) const
    {
        if (active())
            std::printf("kernelscope: recorded %d frames to %s (every %d frames of %g s)\n", m_written,
                        m_dir.c_str(), m_every, timeStep);
    }

private:
    std::filesystem::path m_dir;
    int m_every = 1;
    int m_written = 0;
};

} // namespace ks::app
