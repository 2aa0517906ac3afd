// Contexts on a device: a created context made current for a scope and the previous one restored,
// the primary context pushed again (PyCUDA's test_multi_context, test_additional_primary_context),
// and the context limits.
#include "ks/core/error.hpp"
#include "ks/cuda/context.hpp"
#include "ks/cuda/memory.hpp"

#include "test_support.hpp"

#include <vector>

using ks::test::CudaTest;
using namespace ks;

TEST_F(CudaTest, ScopedContextMakesACreatedContextCurrentThenRestores)
{
    const CUcontext primary = cuda::currentContext();
    ASSERT_EQ(primary, m_context->get());
    cuda::Context created(cuda::Context::Create{}, 0, cuda::ContextSchedule::BlockingSync);
    ASSERT_FALSE(created.empty());
    EXPECT_NE(created.get(), primary);
    EXPECT_EQ(cuda::currentContext(), primary) << "creating a context leaves the current one current";
    {
        cuda::ScopedContext scope(created.get());
        EXPECT_EQ(cuda::currentContext(), created.get());
        const std::vector<int> in = {1, 2, 3, 5, 8, 13};
        cuda::DeviceMemory memory(in.size() * sizeof(int));
        memory.upload(in.data(), in.size() * sizeof(int));
        std::vector<int> out(in.size(), -1);
        memory.download(out.data(), out.size() * sizeof(int));
        EXPECT_EQ(out, in);
        {
            cuda::ScopedContext inner(primary);
            EXPECT_EQ(cuda::currentContext(), primary);
        }
        EXPECT_EQ(cuda::currentContext(), created.get());
    }
    EXPECT_EQ(cuda::currentContext(), primary);
    created.synchronize();
    EXPECT_EQ(cuda::currentContext(), primary);
    m_stream.synchronize(); // the primary context's stream still works
}

TEST_F(CudaTest, ContextLimitsRoundTrip)
{
    using cuda::ContextLimit;
    for (const ContextLimit limit :
         {ContextLimit::PrintfFifoSize, ContextLimit::MallocHeapSize, ContextLimit::StackSize}) {
        const std::size_t before = cuda::contextLimit(limit);
        EXPECT_GT(before, 0u) << cuda::contextLimitName(limit);
        const std::size_t wanted = limit == ContextLimit::StackSize ? 4096 : std::size_t(8) << 20;
        try {
            cuda::setContextLimit(limit, wanted);
        } catch (const Error& e) {
            // The printf FIFO is fixed once a kernel that calls printf has run in the context
            // (PyCUDA's test_jit_link_module port does, in this process).
            if (limit == ContextLimit::PrintfFifoSize && e.codeName() == "CUDA_ERROR_INVALID_VALUE") {
                EXPECT_NE(std::string(e.what()).find("printf FIFO size"), std::string::npos) << e.what();
                continue;
            }
            throw;
        }
        EXPECT_GE(cuda::contextLimit(limit), wanted) << cuda::contextLimitName(limit);
        cuda::setContextLimit(limit, before);
        EXPECT_EQ(cuda::contextLimit(limit), before) << cuda::contextLimitName(limit);
    }
}

// PyCUDA test_driver.py: test_multi_context.
TEST_F(CudaTest, PyCudaDriver_test_multi_context)
{
    cuda::DeviceMemory memA(50);
    cuda::Context ctx2(cuda::Context::Create{}, 0);
    {
        cuda::ScopedContext current(ctx2.get()); // PyCUDA's make_context leaves ctx2 current
        cuda::DeviceMemory memB(60);
        EXPECT_FALSE(memB.empty());
    }
    memA = cuda::DeviceMemory();
    // ctx2.detach(): the Context dies at the end of the scope.
}

// PyCUDA test_driver.py: test_additional_primary_context.
TEST_F(CudaTest, PyCudaDriver_test_additional_primary_context)
{
    cuda::DeviceMemory memA(50);
    cuda::PrimaryContext pctx(0); // retained a second time
    cuda::ScopedContext pushed(pctx.get());
    cuda::DeviceMemory memB(60);
    EXPECT_FALSE(memB.empty());
    EXPECT_EQ(pctx.get(), m_context->get()) << "one primary context per device";
}
