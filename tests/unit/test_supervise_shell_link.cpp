// The window's supervision of its GPU worker (app/supervise/shell_link.hpp), without a GPU: the
// worker is this test executable as a fake (fake_worker.cpp) that misbehaves on cue. For each way
// a worker can end, the shell survives, says what happened, starts a new worker, and hands it the
// state it kept and the notice of what happened.
#include "supervise/shell_link.hpp"

#include "test_support.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>
#include <unistd.h>

using namespace ks::app;
using namespace std::chrono_literals;

namespace {



ShellLink::Config fake(const std::string& mode, int framesBeforeTrouble)
{
    ShellLink::Config c;
    c.executable = workerExecutable();
    c.args = {"--fake-worker", mode, std::to_string(framesBeforeTrouble)};
    c.frameLimitMs = 300;
    c.silenceLimitMs = 400;
    c.startLimitMs = 10000;
    return c;
}

// Requests and pumps frames until `done` or the time is up; returns the frames shown.
int drive(ShellLink& link, const std::function<bool()>& done, std::chrono::milliseconds limit = 10s)
{
    int frames = 0;
    const auto until = std::chrono::steady_clock::now() + limit;
    while (!done() && std::chrono::steady_clock::now() < until) {
        if (link.readyForFrame())
            link.requestFrame({64, 64, 0, 0, {}, std::nullopt});
        if (link.pump(20ms))
            ++frames;
    }
    return frames;
}

// What the worker says it heard (its clipboard message), pumping without asking for frames.
std::string workerSays(ShellLink& link)
{
    std::string said;
    for (const auto until = std::chrono::steady_clock::now() + 10s; said.empty() && std::chrono::steady_clock::now() < until;)
        if (!link.pump(20ms))
            said = link.takeClipboard();
    return said;
}

// The worker that replaced the first got the Restore: it says so through the clipboard message.
std::string restoreSeen(ShellLink& link)
{
    std::string seen;
    drive(link, [&] { return !(seen = link.takeClipboard()).empty(); }, 5s);
    return seen;
}

} // namespace

TEST(ShellLink, GoodWorkerShowsFramesFromSharedMemory)
{
    ShellLink link(fake("good", 0));
    int pixel = -1;
    std::int64_t appFrame = -1;
    int shown = 0;
    const auto until = std::chrono::steady_clock::now() + 10s;
    while (shown < 5 && std::chrono::steady_clock::now() < until) {
        if (link.readyForFrame())
            link.requestFrame({64, 64, 0, 0, {}, std::nullopt});
        if (auto f = link.pump(20ms)) {
            ASSERT_EQ(f->width, 16);
            pixel = static_cast<const unsigned char*>(f->pixels)[f->width * f->height * 4 - 1];
            appFrame = f->appFrame;
            ++shown;
        }
    }
    ASSERT_EQ(shown, 5);
    EXPECT_EQ(appFrame, 4);
    EXPECT_EQ(pixel, 4); // the fake paints frame n with the byte n
    EXPECT_EQ(link.restarts(), 0);
    EXPECT_EQ(link.dialog(), ShellLink::Dialog::None);
    EXPECT_NE(link.lastStatus().find("fake frame 4 of 64"), std::string::npos) << link.lastStatus();
}

struct Misbehaviour {
    const char* mode;
    const char* said; // in the notice's summary
    const char* kind;
};

class ShellLinkSurvives : public ::testing::TestWithParam<Misbehaviour> {};

TEST_P(ShellLinkSurvives, ReplacesTheWorkerSaysWhatHappenedAndRestores)
{
    const Misbehaviour m = GetParam();
    ShellLink link(fake(m.mode, 2));
    const pid_t first = link.workerPid();
    const int framesBefore = drive(link, [&] { return link.restarts() > 0; });
    EXPECT_EQ(framesBefore, 2);
    ASSERT_EQ(link.restarts(), 1) << "the worker was not replaced";
    EXPECT_NE(link.workerPid(), first);
    EXPECT_FALSE(std::filesystem::exists("/proc/" + std::to_string(first))) << "the old worker was not reaped";
    ASSERT_EQ(link.history().size(), 1u);
    const auto& notice = link.history().back();
    EXPECT_EQ(notice.kind, m.kind);
    EXPECT_NE(notice.summary.find(m.said), std::string::npos) << notice.summary;
    // The new worker is told what happened, then shows frames again.
    const std::string seen = restoreSeen(link);
    EXPECT_EQ(seen.rfind("restored " + std::string(m.kind) + "|", 0), 0u) << seen;
    EXPECT_NE(seen.find(notice.summary), std::string::npos) << seen;
    EXPECT_GE(drive(link, [] { return false; }, 300ms), 1) << "no frame from the new worker";
}

INSTANTIATE_TEST_SUITE_P(
    Each, ShellLinkSurvives,
    ::testing::Values(Misbehaviour{"exit", "exited with status 5", "crash"},
                      Misbehaviour{"kill", "killed by signal 9", "crash"},
                      Misbehaviour{"silent", "stopped answering for 0.4 s", "not answering"},
                      Misbehaviour{"truncated", "in the middle of a message", "crash"},
                      Misbehaviour{"garbage", "magic bytes", "crash"},
                      Misbehaviour{"notjson", "not a JSON object", "crash"},
                      Misbehaviour{"badfield", "\"frame-done\" message is malformed", "crash"},
                      Misbehaviour{"keptbad", "carries 1 descriptors where it needs 2", "crash"},
                      Misbehaviour{"fault", "stage \"scatter\" faulted", "fault"}),
    [](const auto& info) { return std::string(info.param.mode); });

// The memory a worker keeps its resources' contents in outlives it: the shell holds the
// descriptors and hands them, with the layout, to the worker that replaces it.
TEST(ShellLink, KeptMemoryOutlivesTheWorkerAndReachesTheNextOne)
{
    ShellLink link(fake("kept", 2));
    const pid_t first = link.workerPid();
    drive(link, [&] { return link.restarts() > 0; });
    ASSERT_EQ(link.restarts(), 1);
    EXPECT_FALSE(std::filesystem::exists("/proc/" + std::to_string(first))) << "the old worker was not reaped";
    const std::string seen = restoreSeen(link);
    const std::string pid = std::to_string(first);
    EXPECT_NE(seen.find("|kept 4096 positions image|slot 0 of " + pid + ";slot 1 of " + pid + ";"), std::string::npos)
        << seen;
}

// A shell whose GL can import the worker's GPU memory says so after the hello; frames then come
// through that memory, two in flight, until the shell refuses it: CPU memory again, same worker.
TEST(ShellLink, FramesThroughGpuMemoryTwoInFlightUntilRefused)
{
    ShellLink::Config config = fake("gpuframes", 0);
    config.framesInFlight = 2;
    config.shellGl = supervise::ShellGl{{"d0", "d1"}, "drv"};
    ShellLink link(config);
    auto heard = [&] { return workerSays(link); };
    EXPECT_EQ(heard(), "shell-gl drv|"); // the worker heard what the shell's GL is
    ASSERT_TRUE(link.running());

    ASSERT_TRUE(link.readyForFrame());
    link.requestFrame({64, 64, 0, 0, {}, std::nullopt});
    ASSERT_TRUE(link.readyForFrame()) << "a second frame may be asked for while the first is on its way";
    link.requestFrame({64, 64, 0, 0, {}, std::nullopt});
    EXPECT_FALSE(link.readyForFrame()) << "two frames in flight at most";

    int gpuFrames = 0;
    for (const auto until = std::chrono::steady_clock::now() + 10s; gpuFrames < 6 && std::chrono::steady_clock::now() < until;) {
        if (link.readyForFrame())
            link.requestFrame({64, 64, 0, 0, {}, std::nullopt});
        const std::optional<ShellLink::Frame> f = link.pump(20ms);
        if (!f)
            continue;
        ASSERT_TRUE(link.gpuFrameMemory().has_value());
        const ShellLink::GpuFrameMemory& memory = *link.gpuFrameMemory();
        EXPECT_EQ(f->pixels, nullptr);
        EXPECT_EQ(f->gpuMemory, memory.serial);
        EXPECT_EQ(f->slot, int(f->appFrame % 3));
        ASSERT_EQ(memory.fds.size(), 3u);
        // Frame n is in slot n % 3 of the memory the shell holds (the fake paints it with the byte n).
        const ks::proc::SharedMemory slot =
            ks::proc::SharedMemory::adopt(ks::proc::UniqueFd(::dup(memory.fds[std::size_t(f->slot)].get())), memory.slotBytes);
        EXPECT_EQ(static_cast<const unsigned char*>(slot.data())[memory.slotBytes - 1], f->appFrame & 0xff);
        ++gpuFrames;
    }
    ASSERT_EQ(gpuFrames, 6);

    link.refuseGpuFrames("this GL cannot import it (test)");
    EXPECT_FALSE(link.gpuFrameMemory().has_value());
    // Frames already on their way in GPU memory are dropped, not shown from memory the shell let go.
    EXPECT_EQ(heard(), "shell-gl |this GL cannot import it (test)");
    int cpuFrames = 0;
    for (const auto until = std::chrono::steady_clock::now() + 10s; cpuFrames < 3 && std::chrono::steady_clock::now() < until;) {
        if (link.readyForFrame())
            link.requestFrame({64, 64, 0, 0, {}, std::nullopt});
        if (const std::optional<ShellLink::Frame> f = link.pump(20ms)) {
            ASSERT_NE(f->pixels, nullptr);
            EXPECT_EQ(f->gpuMemory, 0u);
            EXPECT_EQ(static_cast<const unsigned char*>(f->pixels)[0], f->appFrame & 0xff);
            ++cpuFrames;
        }
    }
    EXPECT_EQ(cpuFrames, 3);
    EXPECT_EQ(link.restarts(), 0);
}

// A shell that takes frames rendered in place gets frame memory of the frames' size; when it cannot
// read such frames (the layout probe differs), it refuses them and the same worker reads its frames
// into GPU memory buffers instead, for good.
TEST(ShellLink, FramesRenderedInPlaceUntilRefusedThenReadIntoBuffers)
{
    ShellLink::Config config = fake("inplace", 0);
    config.framesInFlight = 2;
    config.shellGl = supervise::ShellGl{{"d0"}, "drv", true};
    ShellLink link(config);
    auto heard = [&] { return workerSays(link); };
    EXPECT_EQ(heard(), "shell-gl drv||1|");
    // Frames until `n` have come, each checked by `check`.
    auto frames = [&](int n, const std::function<void(const ShellLink::Frame&)>& check) {
        int seen = 0;
        for (const auto until = std::chrono::steady_clock::now() + 10s; seen < n && std::chrono::steady_clock::now() < until;) {
            if (link.readyForFrame())
                link.requestFrame({16, 16, 0, 0, {}, std::nullopt});
            if (const std::optional<ShellLink::Frame> f = link.pump(20ms)) {
                check(*f);
                ++seen;
            }
        }
        return seen;
    };
    std::uint64_t inPlaceSerial = 0;
    EXPECT_EQ(frames(4,
                     [&](const ShellLink::Frame& f) {
                         ASSERT_TRUE(link.gpuFrameMemory().has_value());
                         EXPECT_EQ(link.gpuFrameMemory()->width, 16);
                         EXPECT_EQ(link.gpuFrameMemory()->height, 16);
                         EXPECT_EQ(f.gpuMemory, link.gpuFrameMemory()->serial);
                         inPlaceSerial = f.gpuMemory;
                     }),
              4);
    link.refuseGpuTextures("3 of 65536 probe pixels differ (test)");
    EXPECT_FALSE(link.gpuFrameMemory().has_value());
    EXPECT_EQ(heard(), "shell-gl drv||0|3 of 65536 probe pixels differ (test)");
    EXPECT_EQ(frames(4,
                     [&](const ShellLink::Frame& f) {
                         ASSERT_TRUE(link.gpuFrameMemory().has_value());
                         EXPECT_EQ(link.gpuFrameMemory()->width, 0) << "frames read into buffers now";
                         EXPECT_NE(f.gpuMemory, 0u);
                         EXPECT_NE(f.gpuMemory, inPlaceSerial);
                     }),
              4);
    EXPECT_EQ(link.restarts(), 0);
}

// A frame whose size is not the size its frame memory was made for cannot be in it: a crash.
TEST(ShellLink, FrameRenderedInPlaceOfAnotherSizeIsACrash)
{
    ShellLink::Config config = fake("inplacebadsize", 0);
    config.shellGl = supervise::ShellGl{{"d0"}, "drv", true};
    ShellLink link(config);
    drive(link, [&] { return link.restarts() > 0; });
    ASSERT_GE(link.restarts(), 1);
    EXPECT_EQ(link.history().front().kind, "crash");
    EXPECT_NE(link.history().front().summary.find("a frame outside its frame memory"), std::string::npos)
        << link.history().front().summary;
}

TEST(ShellLink, FrameMemoryWithoutBothDescriptorsIsACrash)
{
    ShellLink::Config config = fake("badframemem", 0);
    config.shellGl = supervise::ShellGl{{"d0"}, "drv"};
    ShellLink link(config);
    drive(link, [&] { return link.restarts() > 0; });
    ASSERT_GE(link.restarts(), 1);
    EXPECT_EQ(link.history().front().kind, "crash");
    EXPECT_NE(link.history().front().summary.find("\"frame-memory\" message with 2 descriptors"), std::string::npos)
        << link.history().front().summary;
}

// A worker that asks to be replaced (a printf buffer only a new CUDA context takes): the shell
// starts the next one with the state it sent last, the new size in it, and says why, not "crash".
TEST(ShellLink, RestartRequestStartsTheNextWorkerWithTheStateItSent)
{
    ShellLink link(fake("restart", 2));
    const pid_t first = link.workerPid();
    EXPECT_EQ(drive(link, [&] { return link.restarts() > 0; }), 2);
    ASSERT_EQ(link.restarts(), 1);
    EXPECT_NE(link.workerPid(), first);
    ASSERT_EQ(link.history().size(), 1u);
    EXPECT_EQ(link.history().back().kind, "restart");
    EXPECT_EQ(link.keptState().ui.editor.printfBuffer, std::uint64_t(8) << 20);
    const std::string seen = restoreSeen(link);
    EXPECT_EQ(seen, "restored restart|a printf buffer of 8.00 MiB takes a new GPU process|printing.json|printf 8388608");
    EXPECT_GE(drive(link, [] { return false; }, 300ms), 1) << "no frame from the new worker";
    EXPECT_EQ(link.restarts(), 1) << "the new worker, with the size set, asked again";
    EXPECT_EQ(link.dialog(), ShellLink::Dialog::None);
}

TEST(ShellLink, FaultNoticeKeepsWhereAndWhat)
{
    ShellLink link(fake("fault", 3));
    drive(link, [&] { return link.restarts() > 0; });
    ASSERT_EQ(link.history().size(), 1u);
    const auto& n = link.history().back();
    EXPECT_EQ(n.frame, 3);
    EXPECT_EQ(n.stage, "scatter");
    EXPECT_EQ(n.kernel, "scatter_points");
    EXPECT_NE(n.error.find("CUDA_ERROR_ILLEGAL_ADDRESS (700)"), std::string::npos);
}

TEST(ShellLink, FrameOverTheLimitAsksThenStopRestores)
{
    ShellLink link(fake("slow", 1));
    drive(link, [&] { return link.dialog() == ShellLink::Dialog::FrameTooLong; });
    ASSERT_EQ(link.dialog(), ShellLink::Dialog::FrameTooLong);
    const std::string text = link.dialogText();
    EXPECT_NE(text.find("past the frame limit of 0.3 s"), std::string::npos) << text;
    EXPECT_NE(text.find("stage \"spin\" (kernel spin_forever in spin.cu) in frame 1"), std::string::npos) << text;
    EXPECT_EQ(link.restarts(), 0) << "a slow frame is the user's call, not a crash";

    // Wait: asked again only after another limit.
    link.wait();
    EXPECT_EQ(link.dialog(), ShellLink::Dialog::None);
    const auto t0 = std::chrono::steady_clock::now();
    drive(link, [&] { return link.dialog() == ShellLink::Dialog::FrameTooLong; });
    EXPECT_GE(std::chrono::steady_clock::now() - t0, 250ms);
    ASSERT_EQ(link.dialog(), ShellLink::Dialog::FrameTooLong);

    // Stop: a new worker, told why.
    link.stopAndRestore();
    EXPECT_EQ(link.restarts(), 1);
    EXPECT_EQ(link.history().back().kind, "time limit");
    EXPECT_NE(link.history().back().summary.find("ran past the frame limit and was stopped"), std::string::npos);
    EXPECT_EQ(restoreSeen(link).rfind("restored time limit|", 0), 0u);
}

TEST(ShellLink, FrameLimitSetInTheAppReachesTheShell)
{
    // The worker's state says the user set the limit to 0 (off): a frame that never ends is then
    // the user's to stop, and no dialog comes however long it runs.
    ShellLink link(fake("limitoff", 1));
    drive(link, [&] { return link.dialog() == ShellLink::Dialog::FrameTooLong; }, 1500ms);
    EXPECT_EQ(link.keptState().frameLimit, 0);
    EXPECT_NE(link.dialog(), ShellLink::Dialog::FrameTooLong) << link.dialogText();
    ASSERT_TRUE(link.heartbeat());
    EXPECT_GT(link.heartbeat()->gpuFrameMs, 1000) << "the frame was not running past the configured 0.3 s";
}

TEST(ShellLink, GivesUpAfterWorkersThatNeverStartAndSaysHowToGoOn)
{
    ShellLink link(fake("nohello", 0));
    drive(link, [&] { return link.dialog() == ShellLink::Dialog::GaveUp; });
    ASSERT_EQ(link.dialog(), ShellLink::Dialog::GaveUp);
    EXPECT_NE(link.dialogText().find("3 times in a row"), std::string::npos) << link.dialogText();
    EXPECT_NE(link.dialogText().find("exited with status 7"), std::string::npos) << link.dialogText();
    EXPECT_NE(link.dialogText().find("--no-supervise"), std::string::npos);
    EXPECT_FALSE(link.readyForFrame());
}

TEST(ShellLink, MissingWorkerExecutableIsReported)
{
    ShellLink::Config c = fake("good", 0);
    c.executable = "/nonexistent/kernelscope";
    ShellLink link(c);
    drive(link, [&] { return link.dialog() == ShellLink::Dialog::GaveUp; });
    ASSERT_EQ(link.dialog(), ShellLink::Dialog::GaveUp);
    EXPECT_NE(link.dialogText().find("exited with status 127"), std::string::npos) << link.dialogText();
}

TEST(ShellLink, ManyCrashesLeaveNoProcessAndNoDescriptorBehind)
{
    const int fdsBefore = ks::test::openDescriptors();
    const int childrenBefore = ks::test::childProcesses();
    {
        ShellLink link(fake("kill", 1));
        drive(link, [&] { return link.restarts() >= 20; }, 60s);
        EXPECT_EQ(link.restarts(), 20);
        EXPECT_EQ(ks::test::childProcesses(), childrenBefore + 1); // the current worker only
    }
    EXPECT_EQ(ks::test::childProcesses(), childrenBefore);
    EXPECT_EQ(ks::test::openDescriptors(), fdsBefore);
}

TEST(ShellLink, QuitEndsTheWorker)
{
    pid_t pid;
    {
        ShellLink link(fake("good", 0));
        drive(link, [&] { return link.running(); });
        pid = link.workerPid();
        ASSERT_TRUE(std::filesystem::exists("/proc/" + std::to_string(pid)));
    }
    EXPECT_FALSE(std::filesystem::exists("/proc/" + std::to_string(pid)));
}
