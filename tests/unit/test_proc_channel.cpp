// ks::proc: the channel between the app's processes, child processes, shared memory. Each way a
// peer can misbehave (close, truncate, send garbage, announce too much) is a ChannelError of its
// kind, never a hang or a crash.
#include "ks/proc/channel.hpp"
#include "ks/proc/child_process.hpp"
#include "ks/proc/shared_memory.hpp"

#include "test_support.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace ks::proc;
using namespace std::chrono_literals;

namespace {


ChannelError::Kind receiveError(Channel& c)
{
    try {
        c.receive(1000ms);
    } catch (const ChannelError& e) {
        return e.kind();
    }
    ADD_FAILURE() << "receive() did not throw";
    return ChannelError::Kind::System;
}

} // namespace

TEST(ProcChannel, MessageRoundTripKeepsTheJson)
{
    auto [a, b] = Channel::pair();
    nlohmann::json sent = {{"type", "frame"}, {"width", 1920}, {"text", std::string(100000, 'x') + "ünïcode"}};
    a.send(sent);
    std::optional<Message> m = b.receive(1000ms);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->body, sent);
    EXPECT_EQ(m->type(), "frame");
    EXPECT_TRUE(m->fds.empty());
}

TEST(ProcChannel, ReceiveTimesOutWithNothing)
{
    auto [a, b] = Channel::pair();
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_FALSE(b.receive(30ms));
    EXPECT_GE(std::chrono::steady_clock::now() - t0, 25ms);
}

TEST(ProcChannel, DescriptorsTravelWithTheMessage)
{
    auto [a, b] = Channel::pair();
    SharedMemory mem = SharedMemory::create("ks-test", 4096);
    std::strcpy(static_cast<char*>(mem.data()), "written by the sender");
    a.send({{"type", "hello"}}, {mem.fd()});
    std::optional<Message> m = b.receive(1000ms);
    ASSERT_TRUE(m);
    ASSERT_EQ(m->fds.size(), 1u);
    EXPECT_NE(m->fds[0].get(), mem.fd()); // a new descriptor of the same file
    SharedMemory seen = SharedMemory::adopt(std::move(m->fds[0]), 4096);
    EXPECT_STREQ(static_cast<const char*>(seen.data()), "written by the sender");
    std::strcpy(static_cast<char*>(seen.data()), "and back");
    EXPECT_STREQ(static_cast<const char*>(mem.data()), "and back");
}

TEST(ProcChannel, AdoptRefusesARegionSmallerThanPromised)
{
    SharedMemory mem = SharedMemory::create("ks-test", 4096);
    UniqueFd copy(::dup(mem.fd()));
    try {
        SharedMemory::adopt(std::move(copy), 1 << 20);
        FAIL() << "adopted 4 KiB as 1 MiB";
    } catch (const ChannelError& e) {
        EXPECT_EQ(e.kind(), ChannelError::Kind::Malformed) << e.what();
    }
}

TEST(ProcChannel, ClosedPeerIsClosedNotAHang)
{
    auto [a, b] = Channel::pair();
    { Channel gone = std::move(a); }
    EXPECT_EQ(receiveError(b), ChannelError::Kind::Closed);
    try {
        b.send({{"type", "frame"}});
        FAIL() << "sent to a closed peer";
    } catch (const ChannelError& e) {
        EXPECT_EQ(e.kind(), ChannelError::Kind::Closed) << e.what();
    }
}

TEST(ProcChannel, TruncatedHeaderAndBodyAreTruncated)
{
    {
        auto [a, b] = Channel::pair();
        sendRaw(a.fd(), "KSM1\x10", 5);
        { Channel gone = std::move(a); }
        EXPECT_EQ(receiveError(b), ChannelError::Kind::Truncated);
    }
    {
        auto [a, b] = Channel::pair();
        const unsigned char header[12] = {'K', 'S', 'M', '1', 100, 0, 0, 0, 0, 0, 0, 0};
        sendRaw(a.fd(), header, sizeof header);
        sendRaw(a.fd(), "{\"type\":", 8);
        { Channel gone = std::move(a); }
        EXPECT_EQ(receiveError(b), ChannelError::Kind::Truncated);
    }
}

TEST(ProcChannel, GarbageIsMalformed)
{
    auto [a, b] = Channel::pair();
    sendRaw(a.fd(), "GET / HTTP/1.1\r\n", 16);
    EXPECT_EQ(receiveError(b), ChannelError::Kind::Malformed);
}

TEST(ProcChannel, BodyThatIsNotAJsonObjectIsMalformed)
{
    for (const std::string& body : {std::string("{not json"), std::string("[1,2,3]"), std::string("")}) {
        auto [a, b] = Channel::pair();
        unsigned char header[12] = {'K', 'S', 'M', '1', static_cast<unsigned char>(body.size()), 0, 0, 0, 0, 0, 0, 0};
        sendRaw(a.fd(), header, sizeof header);
        sendRaw(a.fd(), body.data(), body.size());
        EXPECT_EQ(receiveError(b), ChannelError::Kind::Malformed) << "body: " << body;
    }
}

TEST(ProcChannel, AnnouncedSizeOverTheLimitIsRefusedBeforeReading)
{
    auto [a, b] = Channel::pair();
    const unsigned char header[12] = {'K', 'S', 'M', '1', 0, 0, 0, 0x40, 0, 0, 0, 0}; // 1 GiB
    sendRaw(a.fd(), header, sizeof header);
    EXPECT_EQ(receiveError(b), ChannelError::Kind::TooLarge);
}

TEST(ProcChannel, DescriptorCountMismatchIsMalformed)
{
    auto [a, b] = Channel::pair();
    const unsigned char header[12] = {'K', 'S', 'M', '1', 2, 0, 0, 0, 1, 0, 0, 0}; // says 1 fd, carries none
    sendRaw(a.fd(), header, sizeof header);
    sendRaw(a.fd(), "{}", 2);
    EXPECT_EQ(receiveError(b), ChannelError::Kind::Malformed);
}

TEST(ProcChannel, ReceivedDescriptorsAreClosedWithTheMessage)
{
    const int before = ks::test::openDescriptors();
    {
        auto [a, b] = Channel::pair();
        SharedMemory mem = SharedMemory::create("ks-test", 4096);
        for (int i = 0; i < 50; ++i) {
            a.send({{"type", "x"}}, {mem.fd(), mem.fd()});
            std::optional<Message> m = b.receive(1000ms);
            ASSERT_TRUE(m);
            ASSERT_EQ(m->fds.size(), 2u);
        }
    }
    EXPECT_EQ(ks::test::openDescriptors(), before);
}

TEST(ProcChild, ExitStatusAndSignalAreDescribed)
{
    ChildProcess c = ChildProcess::spawn({"/bin/sh", {"-c", "exit 3"}, {}, -1});
    std::optional<ExitStatus> s = c.wait(5000ms);
    ASSERT_TRUE(s);
    EXPECT_FALSE(s->signaled);
    EXPECT_EQ(s->code, 3);
    EXPECT_EQ(s->describe(), "exited with status 3");

    ChildProcess sleeper = ChildProcess::spawn({"/bin/sleep", {"30"}, {}, -1});
    EXPECT_FALSE(sleeper.poll());
    ExitStatus k = sleeper.kill();
    EXPECT_TRUE(k.signaled);
    EXPECT_EQ(k.code, 9);
    EXPECT_NE(k.describe().find("killed by signal 9"), std::string::npos) << k.describe();
}

TEST(ProcChild, MissingExecutableExits127)
{
    ChildProcess c = ChildProcess::spawn({"/nonexistent/kernelscope", {}, {}, -1});
    std::optional<ExitStatus> s = c.wait(5000ms);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->code, 127);
}

TEST(ProcChild, DestructorKillsAndReapsSoNothingIsLeft)
{
    pid_t pid;
    {
        ChildProcess c = ChildProcess::spawn({"/bin/sleep", {"30"}, {}, -1});
        pid = c.pid();
        ASSERT_GT(pid, 0);
        EXPECT_TRUE(std::filesystem::exists("/proc/" + std::to_string(pid)));
    }
    // Reaped, not a zombie: the pid no longer names a process of ours.
    EXPECT_FALSE(std::filesystem::exists("/proc/" + std::to_string(pid)));
}

TEST(ProcChild, ChannelIsDescriptor3InTheChild)
{
    auto [mine, theirs] = Channel::pair();
    // The child writes a well-formed message by hand on fd 3, named by KS_CHANNEL_FD.
    const char* script =
        "test \"$KS_CHANNEL_FD\" = 3 || exit 9; printf 'KSM1\\020\\000\\000\\000\\000\\000\\000\\000{\"type\":\"hello\"}' >&3";
    ChildProcess c = ChildProcess::spawn({"/bin/sh", {"-c", script}, {}, theirs.fd()});
    { Channel closeOurCopy = std::move(theirs); }
    std::optional<Message> m = mine.receive(5000ms);
    ASSERT_TRUE(m) << "nothing arrived on the child's descriptor 3";
    EXPECT_EQ(m->type(), "hello");
    std::optional<ExitStatus> s = c.wait(5000ms);
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->success()) << s->describe();
}
