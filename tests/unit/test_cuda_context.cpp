// Context limits' names and values, and the refusals of ScopedContext; no device needed.
#include "ks/core/error.hpp"
#include "ks/cuda/context.hpp"

#include <gtest/gtest.h>

using namespace ks::cuda;

TEST(ContextLimits, EachLimitHasItsNameAndDriverValue)
{
    EXPECT_EQ(contextLimitName(ContextLimit::PrintfFifoSize), "printf FIFO size");
    EXPECT_EQ(contextLimitName(ContextLimit::MallocHeapSize), "malloc heap size");
    EXPECT_EQ(contextLimitName(ContextLimit::StackSize), "stack size");
    EXPECT_EQ(int(ContextLimit::PrintfFifoSize), int(CU_LIMIT_PRINTF_FIFO_SIZE));
    EXPECT_EQ(int(ContextLimit::MallocHeapSize), int(CU_LIMIT_MALLOC_HEAP_SIZE));
    EXPECT_EQ(int(ContextLimit::StackSize), int(CU_LIMIT_STACK_SIZE));
}

TEST(ContextLimits, WithoutADriverSettingOneThrowsTheDriversReason)
{
    try {
        setContextLimit(ContextLimit::PrintfFifoSize, 1 << 20);
        FAIL() << "set a limit without a driver";
    } catch (const ks::Error& e) {
        EXPECT_EQ(e.domain(), ks::ErrorDomain::Cuda) << e.what();
    }
}

TEST(ScopedContext, ANullContextIsRefused)
{
    EXPECT_THROW(ScopedContext scope(nullptr), ks::UsageError);
    const Context none;
    EXPECT_TRUE(none.empty());
    EXPECT_THROW(none.synchronize(), ks::UsageError);
}
