// --record FILE.mp4 / FILE.gif: videos written by the ffmpeg program at a fixed frame rate. Each
// test decodes what was written with ffmpeg again and compares it with what went in: the frame
// count, the size, and frames against the frames recorded (a video is lossy: within a tolerance
// that frames of the same clip in the wrong order exceed). Skipped, with the reason, where ffmpeg
// is not installed (build.sh installs it).
#include "ks/core/error.hpp"
#include "ks/image/png.hpp"
#include "options.hpp"
#include "platform/platforms.hpp"
#include "platform/recorder.hpp"
#include "platform/video_encoder.hpp"

#include "test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace fs = std::filesystem;
using ks::image::Rgba8Image;

namespace {

// The video's frames as ffmpeg decodes them (RGBA, rows top to bottom), each `width` x `height`.
std::vector<Rgba8Image> decode(const fs::path& video, int width, int height)
{
    const fs::path raw = video.string() + ".rgba";
    const std::string command = "'" + ks::app::findFfmpeg().string() + "' -v error -y -i '" + video.string() +
                                "' -f rawvideo -pix_fmt rgba '" + raw.string() + "'";
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    std::ifstream in(raw, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::size_t frameBytes = std::size_t(width) * std::size_t(height) * 4;
    EXPECT_EQ(bytes.size() % frameBytes, 0u) << "decoded frames are " << width << "x" << height;
    std::vector<Rgba8Image> frames;
    for (std::size_t at = 0; at + frameBytes <= bytes.size(); at += frameBytes)
        frames.push_back({width, height, std::vector<std::uint8_t>(bytes.begin() + long(at), bytes.begin() + long(at + frameBytes))});
    return frames;
}

// Mean absolute difference over R, G and B of the `width` x `height` corner both images share.
double meanDifference(const Rgba8Image& a, const Rgba8Image& b, int width, int height)
{
    double sum = 0;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            for (int c = 0; c < 3; ++c)
                sum += std::abs(int(a.pixels[(std::size_t(y) * std::size_t(a.width) + std::size_t(x)) * 4 + std::size_t(c)]) -
                                int(b.pixels[(std::size_t(y) * std::size_t(b.width) + std::size_t(x)) * 4 + std::size_t(c)]));
    return sum / (double(width) * height * 3);
}

// Frame k of a synthetic clip: soft gradients and a bright bar that moves, so frames differ.
Rgba8Image synthetic(int k, int width, int height)
{
    Rgba8Image f{width, height, std::vector<std::uint8_t>(std::size_t(width) * std::size_t(height) * 4)};
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            std::uint8_t* p = &f.pixels[(std::size_t(y) * std::size_t(width) + std::size_t(x)) * 4];
            const bool bar = std::abs(x - (k * 23) % width) < 12;
            p[0] = bar ? 250 : std::uint8_t(x * 200 / width);
            p[1] = bar ? 240 : std::uint8_t(y * 200 / height);
            p[2] = std::uint8_t(20 + k * 17);
            p[3] = 255;
        }
    return f;
}

class RecordVideo : public ::testing::Test {
protected:
    void SetUp() override
    {
        std::string why;
        if (ks::app::findFfmpeg(&why).empty())
            GTEST_SKIP() << why;
    }
    ks::test::TempDir m_dir;
};

} // namespace

// Frames piped through the recorder come back in order, at the size and count written, within a
// lossy codec's tolerance: MP4 (H.264) and GIF (a palette of 256 colours).
TEST_F(RecordVideo, FramesComeBackInOrder)
{
    const int width = 160, height = 96, count = 12;
    // H.264 at the quality used loses about 2 levels of 255 on these frames; a GIF's one palette of
    // 256 colours for the whole clip about 8. Frames three apart differ by 40 or more.
    for (const auto& [name, tolerance] : {std::pair<const char*, double>{"clip.mp4", 5.0}, {"clip.gif", 14.0}}) {
        SCOPED_TRACE(name);
        const fs::path file = m_dir.path() / name;
        ks::app::FrameRecorder recorder(file, 1, 1.0 / 30);
        for (int k = 1; k <= count; ++k)
            recorder.frameDone(k, [&] { return synthetic(k - 1, width, height); });
        recorder.finish();
        EXPECT_EQ(recorder.written(), count);
        const std::vector<Rgba8Image> frames = decode(file, width, height);
        ASSERT_EQ(int(frames.size()), count);
        for (const int k : {0, count / 2, count - 1}) {
            const double same = meanDifference(frames[std::size_t(k)], synthetic(k, width, height), width, height);
            const double other = meanDifference(frames[std::size_t(k)], synthetic((k + 3) % count, width, height), width, height);
            std::printf("[ video ] %s frame %d: mean difference %.2f to its own frame, %.2f to frame %d\n", name, k,
                        same, other, (k + 3) % count);
            EXPECT_LT(same, tolerance) << "frame " << k;
            EXPECT_GT(other, same + 20.0) << "frame " << k << " is not told apart from frame " << (k + 3) % count;
        }
    }
}

// A headless run of the whole app recorded as an MP4: one video frame per recorded frame at the
// run's size (an odd size is padded by a pixel for H.264), the last one the run's screenshot.
TEST_F(RecordVideo, AHeadlessRunAsAnMp4)
{
    ks::app::AppOptions options;
    options.headless = true;
    options.dataDir = ks::test::sourceDir();
    options.frames = 10;
    options.width = 321;
    options.height = 200;
    options.record = m_dir.path() / "run.mp4";
    options.recordEvery = 2;
    options.screenshot = m_dir.path() / "shot.png";
    try {
        ASSERT_EQ(ks::app::runHeadless(options), 0);
    } catch (const ks::Error& e) {
        if (e.domain() != ks::ErrorDomain::Egl)
            throw;
        GTEST_SKIP() << "no headless GL: " << e.what();
    }
    const std::vector<Rgba8Image> frames = decode(options.record, 322, 200);
    ASSERT_EQ(frames.size(), 5u);
    const Rgba8Image shot = ks::image::readPng(options.screenshot);
    EXPECT_LT(meanDifference(frames.back(), shot, 321, 200), 6.0) << "the last frame is the run's screenshot";
}
