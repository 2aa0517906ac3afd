// The background compile service: tickets, poll/wait, supersession and cancellation of stale
// builds of a slot, busy state, shutdown.
#include "ks/rtc/service.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

using namespace ks::rtc;
using namespace std::chrono_literals;

namespace {

CompileRequest request(const std::string& slot, int value)
{
    CompileRequest r;
    r.slot = slot;
    r.fileName = slot + ".cu";
    r.source = "extern \"C\" __global__ void k(int* p) { p[threadIdx.x] = " + std::to_string(value) + "; }\n";
    r.options.arch = "sm_90";
    return r;
}

// A build that takes NVRTC well over a second without PCH (curand's headers).
CompileRequest slowRequest(const std::string& slot)
{
    CompileRequest r;
    r.slot = slot;
    r.fileName = slot + ".cu";
    r.source = "#include <curand_kernel.h>\n"
               "extern \"C\" __global__ void k(float* p) { curandState s; curand_init(1, threadIdx.x, 0, &s);"
               " p[threadIdx.x] = curand_uniform(&s); }\n";
    r.options.arch = "sm_90";
    r.options.precompiledHeaders = false;
    return r;
}

} // namespace

TEST(CompileService, CompilesOnTheWorkerAndReportsThroughWaitAndPoll)
{
    CompileCache cache;
    CompileService service(cache);
    const auto t1 = service.submit(request("a", 1357));
    const auto t2 = service.submit(request("b", 2468));
    EXPECT_NE(t1, t2);
    const auto done1 = service.wait(t1, 60s);
    ASSERT_TRUE(done1);
    EXPECT_EQ(done1->slot, "a");
    ASSERT_TRUE(done1->result->ok) << done1->result->log;
    EXPECT_NE(done1->result->ptx.find("1357"), std::string::npos);
    EXPECT_GE(done1->totalMs, done1->queuedMs);

    // Poll gets the other one (wait() took the first).
    std::vector<CompletedCompile> polled;
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (polled.empty() && std::chrono::steady_clock::now() < deadline) {
        polled = service.poll();
        std::this_thread::sleep_for(5ms);
    }
    ASSERT_EQ(polled.size(), 1u);
    EXPECT_EQ(polled[0].ticket, t2);
    EXPECT_NE(polled[0].result->ptx.find("2468"), std::string::npos);
    EXPECT_FALSE(service.busy());
    EXPECT_EQ(service.busySeconds(), 0.0);
    EXPECT_TRUE(service.poll().empty());

    // The same request again comes from the cache.
    const auto t3 = service.submit(request("a", 1357));
    const auto done3 = service.wait(t3, 60s);
    ASSERT_TRUE(done3);
    EXPECT_EQ(done3->cacheSource, CacheSource::Memory);
}

TEST(CompileService, ANewerRequestSupersedesQueuedOnesOfItsSlot)
{
    CompileCache cache;
    CompileService service(cache);
    service.submit(request("s", 31001));
    const auto second = service.submit(request("s", 31002)); // cannot start before the first is done
    const auto other = service.submit(request("other", 31009));
    const auto third = service.submit(request("s", 31003));
    EXPECT_FALSE(service.wait(second, 60s)) << "superseded before it ran";
    EXPECT_TRUE(service.superseded(second));
    const auto last = service.wait(third, 60s);
    ASSERT_TRUE(last);
    EXPECT_NE(last->result->ptx.find("31003"), std::string::npos);
    EXPECT_TRUE(service.wait(other, 60s)) << "other slots are not touched";
}

TEST(CompileService, ARunningBuildOfTheSameSlotIsCancelled)
{
    CompileCache cache;
    CompileService service(cache);
    const auto slow = service.submit(slowRequest("edit"));
    const auto deadline = std::chrono::steady_clock::now() + 30s;
    while (service.busySeconds() < 0.05 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(2ms);
    ASSERT_TRUE(service.busy());
    EXPECT_GT(service.busySeconds(), 0.0);
    const auto fresh = service.submit(request("edit", 4711));
    EXPECT_FALSE(service.wait(slow, 60s)) << "the stale build must not be delivered";
    EXPECT_TRUE(service.superseded(slow));
    const auto done = service.wait(fresh, 60s);
    ASSERT_TRUE(done);
    EXPECT_TRUE(done->result->ok);
    EXPECT_TRUE(service.poll().empty()) << "nothing stale left to poll";
    EXPECT_EQ(cache.stats().notCached, 1u) << "the cancelled build is not cached";
}

TEST(CompileService, ShutsDownWithWorkQueued)
{
    CompileCache cache;
    const auto start = std::chrono::steady_clock::now();
    {
        CompileService service(cache);
        service.submit(slowRequest("x"));
        for (int i = 0; i < 5; ++i)
            service.submit(request("y" + std::to_string(i), i));
    }
    // The running curand build is cancelled, not finished, and the queue is dropped.
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 20.0);
}
