#pragma once
// A video written by the ffmpeg program (Debian's `ffmpeg` package; not an encoder of our own): raw
// RGBA frames are piped to it as they come, and it writes an MP4 (H.264, yuv420p, even sizes padded)
// or a GIF (a palette made from the whole clip) at a fixed frame rate. KS_FFMPEG names the program
// when it is not `ffmpeg` on the PATH.

#include "ks/io/image.hpp"
#include "ks/proc/child_process.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace ks::app {

enum class VideoFormat { Mp4, Gif };

// The format a file name asks for (.mp4, .gif; any case); nullopt for anything else.
std::optional<VideoFormat> videoFormatOf(const std::filesystem::path& file);

// The ffmpeg program to run, or empty with `why` saying what is missing.
std::filesystem::path findFfmpeg(std::string* why = nullptr);

// A GIF's frame delays are whole hundredths of a second, and players show a delay under 2 as 10:
// a GIF plays at most 50 frames a second. The rate a GIF of frames coming at `fps` is written at:
// `fps` up to 50, else 50 (ffmpeg drops frames evenly; the clip keeps its length in time).
double gifFrameRate(double fps);

class VideoEncoder {
public:
    // Starts ffmpeg for frames of width x height at `fps` frames a second into `file`. Throws
    // ks::Error (Usage) when ffmpeg is not found, (System) when it cannot be started.
    VideoEncoder(std::filesystem::path file, VideoFormat format, int width, int height, double fps);
    ~VideoEncoder(); // an unfinished video is abandoned: ffmpeg is killed, the file removed
    VideoEncoder(const VideoEncoder&) = delete;
    VideoEncoder& operator=(const VideoEncoder&) = delete;

    int width() const noexcept { return m_width; }
    int height() const noexcept { return m_height; }
    int frames() const noexcept { return m_frames; } // written to ffmpeg
    double fps() const noexcept { return m_fps; }     // the file's frame rate (a GIF's: gifFrameRate)
    // One frame, rows top to bottom. A frame of another size is cropped or padded (black) to the
    // video's. Throws ks::Error (System) when ffmpeg has stopped reading (its messages included).
    void write(const io::Rgba8Image& frame);
    // Ends the input and waits for ffmpeg to write the file. Throws ks::Error (System) with its
    // last messages when it failed.
    void finish();

private:
    std::string ffmpegSays() const; // the end of ffmpeg's messages
    void sendAll(const void* data, std::size_t bytes);

    std::filesystem::path m_file;
    int m_width = 0, m_height = 0, m_frames = 0;
    double m_fps = 0;
    int m_input = -1; // our end of ffmpeg's standard input
    int m_log = -1;   // ffmpeg's messages: a temporary file, unlinked once both ends have it open
    proc::ChildProcess m_ffmpeg;
    bool m_finished = false;
};

} // namespace ks::app
