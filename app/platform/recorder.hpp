#pragma once
// --record: a headless run's frames at a fixed rate (one every N frames of the fixed time step, so
// 1 / (timeStep * N) frames per second of the run's time, whatever the run's speed), as a PNG
// sequence in a folder (DIR/frame_NNNNNN.png, NNNNNN the frame) or as a video, FILE.mp4 (H.264) or
// FILE.gif, written by the ffmpeg program (video_encoder.hpp).

#include "platform/video_encoder.hpp"

#include "ks/io/image.hpp"

#include <array>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

namespace ks::app {

class FrameRecorder {
public:
    // `target` empty: records nothing. Frames are `timeStep` seconds of run time apart, so a video's
    // rate is 1 / (timeStep * every) frames a second; its size is the first frame's.
    FrameRecorder(std::filesystem::path target, int every, double timeStep);
    ~FrameRecorder();
    FrameRecorder(const FrameRecorder&) = delete;
    FrameRecorder& operator=(const FrameRecorder&) = delete;

    bool active() const { return !m_target.empty(); }
    // After frame `frame` (1-based) is drawn: records it when it is one to record. Throws ks::Error
    // when the frame cannot be written.
    void frameDone(int frame, const std::function<io::Rgba8Image()>& capture);
    // After the last frame: a video is finished (ffmpeg writes the file). Throws ks::Error.
    void finish();
    int written() const { return m_written; }
    const std::filesystem::path& target() const { return m_target; }
    // After the run: what was recorded, at which step (a no-op when not recording).
    void report() const;
    // " (...)" when the file's frame rate is below the rate frames came at (a GIF faster than it
    // can play: gifFrameRate); empty otherwise.
    std::string rateNote() const;

private:
    std::filesystem::path m_target;
    int m_every = 1;
    double m_timeStep = 0;
    int m_written = 0;
    std::optional<VideoFormat> m_video;
    std::unique_ptr<VideoEncoder> m_encoder; // from the first frame on
};

class App;

// The app's Record window (RecordState in app_state.hpp) for a platform that draws the window: a
// FrameRecorder from Start to Stop (60 frames a second of video, one every N app frames), fed each
// frame the platform drew, cropped to the viewport's rectangle when asked. A recorder that fails
// stops and the app is told why; the app goes on. It also takes the screenshots asked for (F12):
// kernelscope-YYYYMMDD-HHMMSS.png in AppOptions::screenshotDir, never over an existing file.
class AppRecording {
public:
    AppRecording() = default;
    // A recording still running when the window goes (closed, quit) is finished, not lost: the
    // video is written with the frames recorded so far, and reported.
    ~AppRecording();
    AppRecording(const AppRecording&) = delete;
    AppRecording& operator=(const AppRecording&) = delete;

    // After each frame is drawn; `capture` gives the whole window (top-left origin).
    void afterFrame(App& app, const std::function<io::Rgba8Image()>& capture);

private:
    std::unique_ptr<FrameRecorder> m_recorder;
    int m_frames = 0;
    std::array<float, 4> m_rect{}; // the viewport's rectangle when it started; zero: the whole window
};

} // namespace ks::app
