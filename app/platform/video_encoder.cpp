#include "platform/video_encoder.hpp"

#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sstream>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace ks::app {

namespace fs = std::filesystem;

std::optional<VideoFormat> videoFormatOf(const fs::path& file)
{
    std::string ext = file.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (ext == ".mp4")
        return VideoFormat::Mp4;
    if (ext == ".gif")
        return VideoFormat::Gif;
    return std::nullopt;
}

fs::path findFfmpeg(std::string* why)
{
    if (const char* named = std::getenv("KS_FFMPEG"); named && *named) {
        if (::access(named, X_OK) == 0)
            return named;
        if (why)
            *why = std::string("KS_FFMPEG names ") + named + ", which is not an executable program";
        return {};
    }
    if (fs::path found = paths::findProgram("ffmpeg"); !found.empty())
        return found;
    if (why)
        *why = "videos are written by the ffmpeg program, which is not installed (Debian: apt install ffmpeg; "
               "or set KS_FFMPEG); a folder for --record writes PNG frames without it";
    return {};
}

double gifFrameRate(double fps)
{
    return std::min(fps, 50.0);
}

VideoEncoder::VideoEncoder(fs::path file, VideoFormat format, int width, int height, double fps)
    : m_file(std::move(file)), m_width(width), m_height(height)
{
    std::string why;
    const fs::path ffmpeg = findFfmpeg(&why);
    if (ffmpeg.empty())
        throw Error(ErrorDomain::Usage, "record", 0, "", why);
    if (width <= 0 || height <= 0 || !(fps > 0))
        throw Error(ErrorDomain::Usage, "record", 0, "", "a video needs a positive size and frame rate");
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
        throw Error(ErrorDomain::System, "socketpair", errno, "", std::strerror(errno));
    m_input = fds[0];
    // ffmpeg's messages go to a file beside nothing the user named: the temp folder, and only while
    // ffmpeg starts; once both ends have it open it is unlinked, so nothing is left behind however
    // this process ends (a supervised worker killed mid-recording leaves ffmpeg finishing alone).
    const fs::path log = fs::temp_directory_path() / ("kernelscope-ffmpeg-" + std::to_string(::getpid()) + "-" +
                                                      std::to_string(reinterpret_cast<std::uintptr_t>(this)) + ".log");
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.6g", fps);
    m_fps = fps;
    proc::SpawnSpec spec;
    spec.executable = ffmpeg;
    spec.args = {"-hide_banner", "-nostdin", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgba",
                 "-video_size", std::to_string(width) + "x" + std::to_string(height), "-framerate", rate, "-i",
                 "pipe:0"};
    if (format == VideoFormat::Mp4) {
        // H.264 in yuv420p (what every player takes) needs even sizes: padded by one black pixel.
        spec.args.insert(spec.args.end(), {"-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264", "-preset",
                                           "veryfast", "-crf", "16", "-pix_fmt", "yuv420p", "-movflags",
                                           "+faststart", "-f", "mp4"});
    } else {
        // Faster than a GIF can play: resampled to its rate. Left at 60, ffmpeg's GIF muxer wrote
        // delays of 2 and 10 hundredths (6 frames lasting 0.36 s instead of 0.1 s).
        std::string filter = "split[a][b];[a]palettegen=stats_mode=full[p];[b][p]paletteuse=dither=none";
        m_fps = gifFrameRate(fps);
        if (m_fps < fps) {
            char gifRate[32];
            std::snprintf(gifRate, sizeof gifRate, "%.6g", m_fps);
            filter = "fps=" + std::string(gifRate) + "," + filter;
        }
        spec.args.insert(spec.args.end(), {"-vf", filter, "-loop", "0", "-f", "gif"});
    }
    spec.args.push_back(m_file.string());
    spec.stdinFd = fds[1];
    spec.output = log;
    // When this process dies (a supervised worker killed or faulting mid-recording), ffmpeg sees its
    // input end and finishes the file with the frames it was given: what was recorded is kept.
    spec.outlivesParent = true;
    try {
        m_ffmpeg = proc::ChildProcess::spawn(spec); // opens (creates) the log for ffmpeg
    } catch (const std::exception& e) {
        ::close(fds[0]);
        ::close(fds[1]);
        m_input = -1;
        std::error_code ec;
        fs::remove(log, ec);
        throw Error(ErrorDomain::System, "record", 0, "", std::string("cannot start ffmpeg: ") + e.what());
    }
    ::close(fds[1]);
    m_log = ::open(log.c_str(), O_RDONLY | O_CLOEXEC);
    std::error_code ec;
    fs::remove(log, ec);
}

VideoEncoder::~VideoEncoder()
{
    if (m_input >= 0)
        ::close(m_input);
    if (!m_finished && m_ffmpeg.started()) {
        m_ffmpeg.kill();
        std::error_code ec;
        fs::remove(m_file, ec);
    }
    if (m_log >= 0)
        ::close(m_log);
}

std::string VideoEncoder::ffmpegSays() const
{
    std::string text;
    char buffer[4096];
    for (off_t at = 0; m_log >= 0;) {
        const ssize_t n = ::pread(m_log, buffer, sizeof buffer, at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        text.append(buffer, std::size_t(n));
        at += n;
    }
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
        text.pop_back();
    if (text.size() > 600)
        text = "..." + text.substr(text.size() - 600);
    return text.empty() ? "(ffmpeg said nothing)" : text;
}

void VideoEncoder::sendAll(const void* data, std::size_t bytes)
{
    const char* p = static_cast<const char*>(data);
    while (bytes > 0) {
        const ssize_t n = ::send(m_input, p, bytes, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            m_ffmpeg.wait(std::chrono::milliseconds(2000));
            throw Error(ErrorDomain::System, "record", errno, "",
                        "ffmpeg stopped taking frames for " + m_file.string() + ": " + ffmpegSays());
        }
        p += n;
        bytes -= std::size_t(n);
    }
}

void VideoEncoder::write(const io::Rgba8Image& frame)
{
    if (m_input < 0)
        throw Error(ErrorDomain::Usage, "record", 0, "", "the video " + m_file.string() + " is finished");
    const std::size_t row = std::size_t(m_width) * 4;
    if (frame.width == m_width && frame.height == m_height) {
        sendAll(frame.pixels.data(), row * std::size_t(m_height));
    } else {
        std::vector<std::uint8_t> fitted(row * std::size_t(m_height), 0);
        for (int y = 0; y < std::min(m_height, frame.height); ++y)
            std::memcpy(&fitted[std::size_t(y) * row], &frame.pixels[std::size_t(y) * std::size_t(frame.width) * 4],
                        std::size_t(std::min(m_width, frame.width)) * 4);
        for (std::size_t i = 3; i < fitted.size(); i += 4)
            fitted[i] = 255;
        sendAll(fitted.data(), fitted.size());
    }
    ++m_frames;
}

void VideoEncoder::finish()
{
    if (m_finished)
        return;
    if (m_input >= 0) {
        ::close(m_input);
        m_input = -1;
    }
    const std::optional<proc::ExitStatus> status = m_ffmpeg.wait(std::chrono::seconds(120));
    m_finished = true;
    if (!status) {
        m_ffmpeg.kill();
        throw Error(ErrorDomain::System, "record", 0, "", "ffmpeg did not finish " + m_file.string() + " within 120 s");
    }
    if (!status->success()) {
        const std::string says = ffmpegSays();
        std::error_code ec;
        fs::remove(m_file, ec); // half a video is no video
        throw Error(ErrorDomain::System, "record", status->code, "",
                    "ffmpeg " + status->describe() + " writing " + m_file.string() + ": " + says);
    }
}

} // namespace ks::app
