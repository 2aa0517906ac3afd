// Events on a device: flags (no timing, blocking sync, interprocess) and their refusals.
#include "ks/core/error.hpp"
#include "ks/cuda/event.hpp"

#include "test_support.hpp"

#include <algorithm>

using ks::test::CudaTest;
using namespace ks;

TEST_F(CudaTest, EventsWithEachFlagRecordAndSynchronize)
{
    using cuda::EventFlags;
    for (const EventFlags flags :
         {EventFlags::Default, EventFlags::BlockingSync, EventFlags::DisableTiming,
          EventFlags::BlockingSync | EventFlags::DisableTiming, EventFlags::Interprocess | EventFlags::DisableTiming}) {
        const cuda::Event e(cuda::Event::Create{}, flags);
        EXPECT_EQ(e.flags(), flags);
        e.record(m_stream.get());
        e.synchronize();
        EXPECT_TRUE(e.done()) << cuda::eventFlagsName(flags);
    }
}

TEST_F(CudaTest, ElapsedTimeNeedsTwoTimingEvents)
{
    const cuda::Event start(cuda::Event::Create{}, cuda::EventFlags::BlockingSync);
    const cuda::Event stop(cuda::Event::Create{});
    const cuda::Event untimed(cuda::Event::Create{}, cuda::EventFlags::DisableTiming);
    start.record(m_stream.get());
    untimed.record(m_stream.get());
    stop.record(m_stream.get());
    stop.synchronize();
    EXPECT_GE(stop.elapsedMsSince(start), 0.f);
    for (const auto& [from, to] : {std::pair{&start, &untimed}, std::pair{&untimed, &stop}}) {
        try {
            to->elapsedMsSince(*from);
            FAIL() << "timed an event without timing";
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find("created with timing disabled"), std::string::npos) << e.what();
        }
    }
    m_stream.synchronize(); // the refusals asked nothing of the driver: the context is healthy
}

TEST_F(CudaTest, InterprocessEventsGiveAHandle)
{
    const cuda::Event shared(cuda::Event::Create{}, cuda::EventFlags::Interprocess | cuda::EventFlags::DisableTiming);
    const CUipcEventHandle handle = shared.ipcHandle();
    EXPECT_TRUE(std::any_of(std::begin(handle.reserved), std::end(handle.reserved), [](char c) { return c != 0; }));
    const cuda::Event local(cuda::Event::Create{});
    EXPECT_THROW(local.ipcHandle(), UsageError);
    EXPECT_THROW(cuda::Event(cuda::Event::Create{}, cuda::EventFlags::Interprocess), UsageError);
}
