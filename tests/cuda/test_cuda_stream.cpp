// Streams on a device: Stream::waitEvent orders work across two streams.
#include "ks/cuda/event.hpp"
#include "ks/cuda/launch.hpp"
#include "ks/cuda/memory.hpp"
#include "ks/cuda/stream.hpp"

#include "driver_test_support.hpp"

using ks::test::CudaTest;
using namespace ks;

namespace {

const char* kOrdering = R"(
extern "C" __global__ void slow_set(volatile int* flag, long long cycles)
{
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
    *flag = 1;
}
extern "C" __global__ void copy_flag(const volatile int* flag, int* out)
{
    *out = *flag;
}
)";

} // namespace

TEST_F(CudaTest, WaitEventOrdersWorkAcrossTwoStreams)
{
    cuda::Module module = test::loadForDevice(kOrdering);
    const cuda::Function slowSet = module.function("slow_set");
    const cuda::Function copyFlag = module.function("copy_flag");
    const int clockKHz = cuda::queryDevice(0).clockKHz;
    const long long cycles = 100LL * clockKHz; // about 100 ms at the SM clock

    for (int round = 0; round < 3; ++round) {
        cuda::DeviceMemory flag(sizeof(int)), out(sizeof(int));
        const int zero = 0, poison = -1;
        flag.upload(&zero, sizeof zero);
        out.upload(&poison, sizeof poison);
        const cuda::Stream other(cuda::Stream::Create{});
        const cuda::Event written(cuda::Event::Create{}, cuda::EventFlags::DisableTiming);

        cuda::launch(slowSet, {{1, 1, 1}, {1, 1, 1}, 0}, m_stream.get(), flag, cycles);
        written.record(m_stream.get());
        other.waitEvent(written);
        cuda::launch(copyFlag, {{1, 1, 1}, {1, 1, 1}, 0}, other.get(), flag, out);
        other.synchronize();
        // `other` finished, so the event it waited for had completed: the slow kernel was done.
        EXPECT_TRUE(written.done()) << "round " << round;
        int seen = -2;
        out.download(&seen, sizeof seen);
        EXPECT_EQ(seen, 1) << "the second stream read the flag before the first stream set it (round " << round << ")";
        m_stream.synchronize();
    }
}
