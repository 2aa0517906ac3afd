// --record FILE.mp4 / FILE.gif: videos written by the ffmpeg program at a fixed frame rate. Each
// test decodes what was written with ffmpeg again and compares it with what went in: the frame
// count, the size, and frames against the frames recorded (a video is lossy: within a tolerance
// that frames of the same clip in the wrong order exceed). Skipped, with the reason, where ffmpeg
// is not installed (build.sh installs it).
#include "app.hpp"
#include "ks/core/error.hpp"
#include "ks/io/image.hpp"
#include "cli/options.hpp"
#include "platform/platforms.hpp"
#include "platform/recorder.hpp"
#include "platform/video_encoder.hpp"
#include "supervise/protocol.hpp"

#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace fs = std::filesystem;
using ks::io::Rgba8Image;

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
    const Rgba8Image shot = ks::io::readPng(options.screenshot);
    EXPECT_LT(meanDifference(frames.back(), shot, 321, 200), 6.0) << "the last frame is the run's screenshot";
}

namespace {

std::unique_ptr<ks::app::HeadlessSession> appSession(int width, int height)
{
    ks::app::AppOptions options;
    options.headless = true;
    options.dataDir = ks::test::sourceDir();
    options.width = width;
    options.height = height;
    try {
        return std::make_unique<ks::app::HeadlessSession>(options);
    } catch (const ks::Error& e) {
        if (e.domain() != ks::ErrorDomain::Egl)
            throw;
        return nullptr;
    }
}

} // namespace

// The app's Record window (File > Record...): Start, frames, Stop. The viewport only, as PNG frames
// (no ffmpeg needed): one every second frame, each the viewport's rectangle of the window as drawn.
TEST(AppRecording, TheViewportAsPngFramesFromStartToStop)
{
    ks::test::TempDir dir;
    auto session = appSession(1000, 600);
    if (!session)
        GTEST_SKIP() << "no headless GL";
    ks::app::App& app = session->app();
    session->renderFrame();
    const std::array<float, 4> r = app.state().record.viewportRect;
    ASSERT_GT(r[2] - r[0], 100.f) << "the viewport panel's rectangle is known";
    app.startRecording((dir.path() / "frames").string(), true, 2);
    for (int i = 0; i < 10; ++i)
        session->renderFrame();
    EXPECT_TRUE(app.state().record.running);
    EXPECT_EQ(app.state().record.written, 5);
    const ks::io::Rgba8Image whole = session->screenshot();
    app.stopRecording();
    session->renderFrame();
    EXPECT_FALSE(app.state().record.running);
    EXPECT_NE(app.state().record.message.find("recorded 5 frames"), std::string::npos) << app.state().record.message;
    std::vector<fs::path> pngs;
    for (const auto& e : fs::directory_iterator(dir.path() / "frames"))
        pngs.push_back(e.path());
    ASSERT_EQ(pngs.size(), 5u);
    std::sort(pngs.begin(), pngs.end());
    const ks::io::Rgba8Image last = ks::io::readPng(pngs.back());
    EXPECT_EQ(last.width, (int(r[2]) - int(r[0])) & ~1);
    EXPECT_EQ(last.height, (int(r[3]) - int(r[1])) & ~1);
    EXPECT_LT(last.width, whole.width);
    // It is that rectangle of the window (the last frame recorded is the one before the screenshot;
    // the demo's picture does not move without CUDA, the panels around it do not show).
    Rgba8Image corner{last.width, last.height, std::vector<std::uint8_t>(last.pixels.size())};
    for (int y = 0; y < last.height; ++y)
        std::copy_n(&whole.pixels[(std::size_t(int(r[1]) + y) * std::size_t(whole.width) + std::size_t(int(r[0]))) * 4],
                    std::size_t(last.width) * 4, &corner.pixels[std::size_t(y) * std::size_t(last.width) * 4]);
    EXPECT_LT(meanDifference(last, corner, last.width, last.height), 2.0);
}

// The whole window as an MP4, and a recording that cannot start (a folder that is not there) says
// why and stops; the app goes on.
TEST_F(RecordVideo, TheAppsWholeWindowAsAnMp4AndAFailureThatSaysWhy)
{
    auto session = appSession(640, 360);
    if (!session)
        GTEST_SKIP() << "no headless GL";
    ks::app::App& app = session->app();
    session->renderFrame();
    const fs::path video = m_dir.path() / "window.mp4";
    app.startRecording(video.string(), false, 1);
    for (int i = 0; i < 6; ++i)
        session->renderFrame();
    app.stopRecording();
    session->renderFrame();
    EXPECT_FALSE(app.state().record.running);
    const std::vector<Rgba8Image> frames = decode(video, 640, 360);
    EXPECT_EQ(frames.size(), 6u);

    app.startRecording((m_dir.path() / "missing" / "x.mp4").string(), false, 1);
    session->renderFrame();
    session->renderFrame();
    EXPECT_FALSE(app.state().record.wanted);
    EXPECT_FALSE(app.state().record.running);
    EXPECT_NE(app.state().record.message.find("recording stopped"), std::string::npos) << app.state().record.message;
}

// A window closed (or a worker told to quit) while it records: the recording is finished with the
// frames it had, not thrown away with the encoder.
TEST_F(RecordVideo, ARecordingStillRunningWhenTheWindowGoesIsKept)
{
    auto session = appSession(320, 240);
    if (!session)
        GTEST_SKIP() << "no headless GL";
    const fs::path video = m_dir.path() / "closed.mp4";
    session->app().startRecording(video.string(), false, 1);
    for (int i = 0; i < 5; ++i)
        session->renderFrame();
    ASSERT_TRUE(session->app().state().record.running);
    session.reset(); // no Stop
    EXPECT_EQ(decode(video, 320, 240).size(), 5u);
}

// The snapshot a supervised window keeps says what was being recorded; the process that replaces
// the one that recorded does not record over that file: it says where the frames are and offers
// the next free name.
TEST_F(RecordVideo, ARecordingCutByANewGpuProcessIsNotWrittenOver)
{
    auto session = appSession(320, 240);
    if (!session)
        GTEST_SKIP() << "no headless GL";
    const fs::path video = m_dir.path() / "cut.mp4";
    session->app().startRecording(video.string(), false, 1);
    for (int i = 0; i < 3; ++i)
        session->renderFrame();
    ks::app::supervise::Restore restore;
    restore.state = nlohmann::json::parse(nlohmann::json(session->app().snapshot()).dump())
                        .get<ks::app::supervise::AppSnapshot>();
    EXPECT_EQ(restore.state.recording, video.string());
    session.reset();
    ASSERT_EQ(decode(video, 320, 240).size(), 3u);

    session = appSession(320, 240);
    ASSERT_TRUE(session);
    session->app().restore(restore);
    for (int i = 0; i < 3; ++i)
        session->renderFrame();
    const ks::app::RecordState& r = session->app().state().record;
    EXPECT_FALSE(r.wanted);
    EXPECT_FALSE(r.running);
    EXPECT_TRUE(r.showWindow);
    EXPECT_EQ(fs::path(r.target), m_dir.path() / "cut-2.mp4");
    EXPECT_EQ(r.message, "The recording stopped when the GPU process was replaced: what it recorded until then is in " +
                             video.string() + ". Start recording again to go on (into " +
                             (m_dir.path() / "cut-2.mp4").string() + ").");
    EXPECT_EQ(decode(video, 320, 240).size(), 3u) << "the file is as the first process left it";
    EXPECT_TRUE(session->app().snapshot().recording.empty());
}

// ffmpeg's messages go to a temporary file that is unlinked as soon as ffmpeg has it: nothing is
// left in the temp folder while recording or after (a supervised worker killed mid-recording used
// to leave one), and a failing ffmpeg's words still reach the error.
TEST(VideoEncoderLog, FfmpegsWordsComeBackAndNoFileIsLeft)
{
    ks::test::TempDir dir;
    const fs::path temp = dir.path() / "tmp";
    fs::create_directories(temp);
    const fs::path fake = dir.write("fake-ffmpeg", "#!/bin/sh\necho 'fake ffmpeg: cannot encode today' >&2\n"
                                                   "cat > /dev/null\nexit 3\n");
    fs::permissions(fake, fs::perms::owner_all);
    const ks::test::ScopedEnv tmpdir("TMPDIR", temp.string());
    const ks::test::ScopedEnv ffmpeg("KS_FFMPEG", fake.string());
    const auto leftovers = [&] { return std::distance(fs::directory_iterator(temp), fs::directory_iterator()); };
    std::string said;
    {
        ks::app::VideoEncoder encoder(dir.path() / "x.mp4", ks::app::VideoFormat::Mp4, 16, 16, 30.0);
        EXPECT_EQ(leftovers(), 0) << "the log is unlinked once ffmpeg has it";
        encoder.write(Rgba8Image{16, 16, std::vector<std::uint8_t>(16 * 16 * 4, 128)});
        try {
            encoder.finish();
        } catch (const ks::Error& e) {
            said = e.what();
        }
    }
    EXPECT_NE(said.find("fake ffmpeg: cannot encode today"), std::string::npos) << said;
    EXPECT_EQ(leftovers(), 0);
}

// The app's own recording (File > Record...), as an MP4 and as a GIF: every frame comes back in
// order, the first and the last against the screenshots taken as they were drawn. The layout
// switches from standard to classroom halfway, so the first and last frames differ everywhere and
// a frame out of place would be told apart. The app records 60 frames a second of video; a GIF
// plays at most 50 (delays are whole hundredths), so its 6 frames of 0.1 s come back as 5 frames of
// 0.02 s: before, ffmpeg wrote delays of 0.02 and 0.1 s and the clip lasted 0.36 s (18 frames).
TEST_F(RecordVideo, TheAppsFramesComeBackInOrderAsMp4AndGif)
{
    const int width = 480, height = 270, count = 6;
    for (const auto& [name, tolerance, decoded] :
         {std::tuple<const char*, double, int>{"app.mp4", 5.0, count}, {"app.gif", 14.0, 5}}) {
        SCOPED_TRACE(name);
        auto session = appSession(width, height);
        if (!session)
            GTEST_SKIP() << "no headless GL";
        ks::app::App& app = session->app();
        for (int i = 0; i < 3; ++i)
            session->renderFrame();
        const fs::path video = m_dir.path() / name;
        app.startRecording(video.string(), false, 1);
        std::vector<Rgba8Image> shots;
        for (int k = 0; k < count; ++k) {
            if (k == count / 2)
                app.teachCommands().layout = ks::app::Layout::Classroom;
            session->renderFrame();
            shots.push_back(session->screenshot());
        }
        app.stopRecording();
        session->renderFrame();
        ASSERT_FALSE(app.state().record.running);
        if (decoded < count) {
            EXPECT_NE(app.state().record.message.find("the most a GIF plays"), std::string::npos)
                << app.state().record.message;
        }
        const std::vector<Rgba8Image> frames = decode(video, width, height);
        ASSERT_EQ(int(frames.size()), decoded);
        const double apart = meanDifference(shots.front(), shots.back(), width, height);
        ASSERT_GT(apart, 2 * tolerance) << "the standard and the classroom layout differ";
        // The first frame is the first drawn; the last, the last drawn (its screenshot).
        for (const bool first : {true, false}) {
            const Rgba8Image& frame = first ? frames.front() : frames.back();
            const std::size_t k = first ? 0 : std::size_t(count - 1), other = first ? std::size_t(count - 1) : 0;
            const double same = meanDifference(frame, shots[k], width, height);
            const double wrong = meanDifference(frame, shots[other], width, height);
            std::printf("[ video ] %s frame %zu: mean difference %.2f to its screenshot, %.2f to frame %zu's\n", name,
                        k, same, wrong, other);
            EXPECT_LT(same, tolerance) << "frame " << k;
            EXPECT_GT(wrong, same + tolerance) << "frame " << k << " is not told apart from frame " << other;
        }
    }
}
