// Stream refusals that need no device.
#include "ks/core/error.hpp"
#include "ks/cuda/event.hpp"
#include "ks/cuda/stream.hpp"

#include <gtest/gtest.h>

TEST(Stream, WaitingForAnEmptyEventIsRefused)
{
    const ks::cuda::Stream stream;
    const ks::cuda::Event event;
    try {
        stream.waitEvent(event);
        FAIL() << "waited for an empty event";
    } catch (const ks::UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("an empty event cannot be waited for"), std::string::npos) << e.what();
    }
}
