// OutputCapture (engine/src/proc/output_capture.cpp) on a file descriptor of the test's own: what
// is written to it comes out of drain() in order and still reaches the file it pointed to; a
// write far larger than a pipe holds does not block (the reader empties it), and what is kept
// past the limit is counted as dropped; the descriptor points back at the file afterwards.
#include "ks/core/paths.hpp"
#include "ks/proc/output_capture.hpp"

#include "test_support.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <string>

namespace {

void writeText(int fd, const std::string& text)
{
    ASSERT_EQ(::write(fd, text.data(), text.size()), ssize_t(text.size()));
}

} // namespace

TEST(OutputCapture, DrainsWhatWasWrittenAndPassesItOn)
{
    ks::test::TempDir dir;
    const std::string file = (dir.path() / "out.txt").string();
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    ASSERT_GE(fd, 0);
    {
        ks::proc::OutputCapture capture(fd);
        writeText(fd, "thread 0 of block 0\n");
        writeText(fd, "thread 1 of block 0\npartial");
        const auto d = capture.drain();
        EXPECT_EQ(d.text, "thread 0 of block 0\nthread 1 of block 0\npartial");
        EXPECT_EQ(d.droppedBytes, 0u);
        EXPECT_EQ(capture.drain().text, "") << "nothing twice";
        writeText(fd, " line\n");
        EXPECT_EQ(capture.drain().text, " line\n");
    }
    writeText(fd, "after\n");
    ::close(fd);
    EXPECT_EQ(ks::paths::readTextFile(file), "thread 0 of block 0\nthread 1 of block 0\npartial line\nafter\n")
        << "the file got everything, and the descriptor points at it again";
}

TEST(OutputCapture, AFlushLargerThanAPipeDoesNotBlockAndTheExcessIsCounted)
{
    const int fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    {
        ks::proc::OutputCapture capture(fd, 1 << 20);
        const std::string line = std::string(63, 'x') + "\n";
        std::string big;
        for (int i = 0; i < (8 << 20) / 64; ++i)
            big += line;
        writeText(fd, big); // 8 MiB in one write: blocks for good unless the reader keeps up
        const auto d = capture.drain();
        EXPECT_EQ(d.text.size(), std::size_t(1) << 20) << "the newest 1 MiB is kept";
        EXPECT_EQ(d.droppedBytes, (std::size_t(8) << 20) - (std::size_t(1) << 20));
        EXPECT_EQ(d.text.back(), '\n');
    }
    ::close(fd);
}
