// Event flags and the refusals that come before any driver call: an interprocess event that would
// time, and the time between events made without timing.
#include "ks/core/error.hpp"
#include "ks/cuda/event.hpp"

#include <gtest/gtest.h>

using namespace ks::cuda;

TEST(EventFlags, NamesListEachFlag)
{
    EXPECT_EQ(eventFlagsName(EventFlags::Default), "default");
    EXPECT_EQ(eventFlagsName(EventFlags::DisableTiming), "disable timing");
    EXPECT_EQ(eventFlagsName(EventFlags::BlockingSync | EventFlags::DisableTiming | EventFlags::Interprocess),
              "blocking sync | disable timing | interprocess");
    EXPECT_EQ(unsigned(EventFlags::BlockingSync), unsigned(CU_EVENT_BLOCKING_SYNC));
    EXPECT_EQ(unsigned(EventFlags::DisableTiming), unsigned(CU_EVENT_DISABLE_TIMING));
    EXPECT_EQ(unsigned(EventFlags::Interprocess), unsigned(CU_EVENT_INTERPROCESS));
}

TEST(EventFlags, InterprocessWithoutDisableTimingIsRefusedBeforeTheDriver)
{
    EXPECT_FALSE(eventFlagsRefusal(EventFlags::Default));
    EXPECT_FALSE(eventFlagsRefusal(EventFlags::Interprocess | EventFlags::DisableTiming));
    const auto why = eventFlagsRefusal(EventFlags::Interprocess);
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("must also disable timing"), std::string::npos) << *why;
    // No driver here: the refusal is a UsageError, not the driver's "not found".
    EXPECT_THROW(Event(Event::Create{}, EventFlags::Interprocess), ks::UsageError);
}

TEST(EventFlags, ElapsedTimeOfANoTimingEventIsRefusedNamingIt)
{
    EXPECT_FALSE(elapsedTimeRefusal(EventFlags::Default, EventFlags::BlockingSync));
    const auto start = elapsedTimeRefusal(EventFlags::DisableTiming, EventFlags::Default);
    ASSERT_TRUE(start);
    EXPECT_NE(start->find("the start event was created with timing disabled (disable timing)"), std::string::npos)
        << *start;
    const auto end = elapsedTimeRefusal(EventFlags::Default, EventFlags::Interprocess | EventFlags::DisableTiming);
    ASSERT_TRUE(end);
    EXPECT_NE(end->find("this event was created with timing disabled (disable timing | interprocess)"),
              std::string::npos)
        << *end;
    const Event a, b;
    EXPECT_THROW(a.elapsedMsSince(b), ks::UsageError);
    EXPECT_THROW(a.ipcHandle(), ks::UsageError);
}
