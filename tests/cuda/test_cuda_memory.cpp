// Memory on a device: managed memory written by a kernel and read on the host, registered and
// flagged page-locked host memory used by kernels through their device pointers, pitched 2-D
// allocations with copies and fills, the stream-ordered pool's statistics and freeHeld(), and
// PyCUDA's test_register_host_memory and test_mempool.
#include "ks/core/error.hpp"
#include "ks/cuda/launch.hpp"
#include "ks/cuda/memory.hpp"

#include "driver_test_support.hpp"

#include <bit>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <vector>

using ks::test::CudaTest;
using namespace ks;

namespace {

const char* kKernels = R"(
extern "C" __global__ void affine(int* p, int a, int b, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = a * p[i] + b;
}
extern "C" __global__ void sum_into(const int* in, int* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(out, in[i]);
}
)";

std::vector<int> randomInts(std::size_t n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> d(-1000, 1000);
    std::vector<int> v(n);
    for (int& x : v)
        x = d(rng);
    return v;
}

struct FreeDeleter {
    void operator()(void* p) const noexcept { std::free(p); }
};

} // namespace

TEST_F(CudaTest, ManagedMemoryWrittenByAKernelIsReadOnTheHost)
{
    cuda::Module module = test::loadForDevice(kKernels);
    const cuda::Function affine = module.function("affine");
    const int n = 100003;
    const std::vector<int> start = randomInts(n, 1);
    cuda::ManagedMemory managed(n * sizeof(int));
    std::memcpy(managed.as<int>(), start.data(), n * sizeof(int)); // written on the host
    int concurrent = 0;
    KS_CU(cuDeviceGetAttribute, &concurrent, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, m_context->device());
    if (concurrent)
        managed.prefetchToDevice(0, m_stream.get());
    else
        EXPECT_THROW(managed.prefetchToDevice(0, m_stream.get()), UsageError);
    cuda::launch(affine, {{unsigned(n + 255) / 256, 1, 1}, {256, 1, 1}, 0}, m_stream.get(), managed.get(), 3, -7, n);
    if (concurrent)
        managed.prefetchToHost(m_stream.get());
    m_stream.synchronize();
    for (int i = 0; i < n; ++i)
        ASSERT_EQ(managed.as<int>()[i], 3 * start[std::size_t(i)] - 7) << i;
}

TEST_F(CudaTest, RegisteredHostMemoryIsUsedByAKernelThroughItsDevicePointer)
{
    cuda::Module module = test::loadForDevice(kKernels);
    const cuda::Function affine = module.function("affine");
    const int n = 4096 * 3;
    std::unique_ptr<int, FreeDeleter> host(static_cast<int*>(std::aligned_alloc(4096, n * sizeof(int))));
    const std::vector<int> start = randomInts(n, 2);
    std::memcpy(host.get(), start.data(), n * sizeof(int));
    {
        cuda::RegisteredHostMemory registered(host.get(), n * sizeof(int),
                                              cuda::HostMemoryFlags::Portable | cuda::HostMemoryFlags::DeviceMapped);
        EXPECT_EQ(registered.get(), host.get());
        const CUdeviceptr device = registered.devicePointer();
        ASSERT_NE(device, 0u);
        cuda::launch(affine, {{unsigned(n + 255) / 256, 1, 1}, {256, 1, 1}, 0}, m_stream.get(), device, -2, 5, n);
        m_stream.synchronize();
    }
    for (int i = 0; i < n; ++i)
        ASSERT_EQ(host.get()[i], -2 * start[std::size_t(i)] + 5) << i;

    cuda::RegisteredHostMemory unmapped(host.get(), n * sizeof(int));
    try {
        (void)unmapped.devicePointer();
        FAIL() << "a device pointer of memory registered without DeviceMapped";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("HostMemoryFlags::DeviceMapped"), std::string::npos) << e.what();
    }
}

TEST_F(CudaTest, PinnedMemoryWithFlagsIsUsedByAKernel)
{
    cuda::Module module = test::loadForDevice(kKernels);
    const cuda::Function sumInto = module.function("sum_into");
    const int n = 5000;
    const std::vector<int> values = randomInts(n, 3);
    cuda::PinnedHostMemory in(n * sizeof(int), cuda::HostMemoryFlags::Portable | cuda::HostMemoryFlags::DeviceMapped);
    cuda::PinnedHostMemory out(sizeof(int), cuda::HostMemoryFlags::DeviceMapped);
    cuda::PinnedHostMemory plain(64); // the constructor without flags still works
    EXPECT_EQ(plain.flags(), cuda::HostMemoryFlags::None);
    EXPECT_NE(plain.devicePointer(), 0u);
    std::memcpy(in.get(), values.data(), n * sizeof(int));
    *out.as<int>() = 0;
    cuda::launch(sumInto, {{unsigned(n + 127) / 128, 1, 1}, {128, 1, 1}, 0}, m_stream.get(), in.devicePointer(),
                 out.devicePointer(), n);
    m_stream.synchronize();
    long long expected = 0;
    for (int v : values)
        expected += v;
    EXPECT_EQ(*out.as<int>(), int(expected));
}

TEST_F(CudaTest, PitchedRoundTripWithFilledRegions)
{
    const std::size_t columns = 37, rows = 19, widthBytes = columns * sizeof(std::uint32_t);
    cuda::PitchedDeviceMemory pitched(widthBytes, rows, 4);
    ASSERT_FALSE(pitched.empty());
    EXPECT_GE(pitched.pitch(), widthBytes);
    // Host rows padded to a pitch of their own, so both pitches are exercised.
    const std::size_t hostColumns = columns + 3;
    std::vector<std::uint32_t> host(hostColumns * rows);
    std::mt19937 rng(4);
    for (auto& v : host)
        v = rng();
    pitched.upload(host.data(), hostColumns * sizeof(std::uint32_t));

    std::vector<std::uint32_t> expected = host;
    auto at = [&](std::size_t x, std::size_t y) -> std::uint32_t& { return expected[y * hostColumns + x]; };
    // 32-bit fill: columns 3..12 of rows 2..6.
    pitched.fill(std::uint32_t(0xDEADBEEF), 3, 2, 10, 5);
    for (std::size_t y = 2; y < 7; ++y)
        for (std::size_t x = 3; x < 13; ++x)
            at(x, y) = 0xDEADBEEF;
    // 16-bit fill: 16-bit elements 40..49 (32-bit columns 20..24) of rows 10..11.
    pitched.fill(std::uint16_t(0xABCD), 40, 10, 10, 2);
    for (std::size_t y = 10; y < 12; ++y)
        for (std::size_t x = 20; x < 25; ++x)
            at(x, y) = 0xABCDABCD;
    // 8-bit fill: bytes 4 * 30 .. 4 * 33 - 1 (columns 30..32) of the last row.
    pitched.fill(std::uint8_t(0x5A), 4 * 30, rows - 1, 12, 1);
    for (std::size_t x = 30; x < 33; ++x)
        at(x, rows - 1) = 0x5A5A5A5A;
    EXPECT_THROW(pitched.fill(std::uint32_t(0), 30, 0, 8, 1), UsageError) << "columns 30..37 pass the width";

    std::vector<std::uint32_t> back(hostColumns * rows, 0x11111111);
    pitched.download(back.data(), hostColumns * sizeof(std::uint32_t));
    for (std::size_t y = 0; y < rows; ++y)
        for (std::size_t x = 0; x < hostColumns; ++x) {
            const std::uint32_t want = x < columns ? expected[y * hostColumns + x] : 0x11111111;
            ASSERT_EQ(back[y * hostColumns + x], want) << "column " << x << " row " << y;
        }
    // Packed host rows (hostPitch 0) read the same.
    std::vector<std::uint32_t> packed(columns * rows);
    pitched.download(packed.data());
    for (std::size_t y = 0; y < rows; ++y)
        for (std::size_t x = 0; x < columns; ++x)
            ASSERT_EQ(packed[y * columns + x], expected[y * hostColumns + x]) << x << " " << y;
}

TEST_F(CudaTest, PoolStatisticsAndFreeHeld)
{
    const cuda::MemoryPool pool = cuda::MemoryPool::current();
    pool.setReleaseThreshold(~std::uint64_t(0)); // keep freed memory, as the array runtime does
    const std::size_t bytes = std::size_t(64) << 20;
    pool.resetHighWater();
    const cuda::MemoryPoolStats before = pool.stats();
    {
        std::vector<cuda::DeviceMemory> blocks;
        for (int i = 0; i < 4; ++i)
            blocks.emplace_back(bytes, m_stream.get());
        m_stream.synchronize();
        const cuda::MemoryPoolStats during = pool.stats();
        EXPECT_GE(during.usedBytes, before.usedBytes + 4 * bytes);
        EXPECT_GE(during.reservedBytes, during.usedBytes);
        EXPECT_GE(during.usedHighBytes, during.usedBytes);
    }
    m_stream.synchronize(); // the frees ran: the pool holds the memory
    const cuda::MemoryPoolStats held = pool.stats();
    EXPECT_EQ(held.usedBytes, before.usedBytes);
    EXPECT_GE(held.reservedBytes, 4 * bytes) << "freed memory stays reserved";
    EXPECT_GE(held.usedHighBytes, before.usedBytes + 4 * bytes);
    pool.freeHeld();
    const cuda::MemoryPoolStats trimmed = pool.stats();
    EXPECT_LT(trimmed.reservedBytes, held.reservedBytes) << "freeHeld returned held memory to the device";
    EXPECT_GE(trimmed.reservedBytes, trimmed.usedBytes);
}

// PyCUDA test_driver.py: test_register_host_memory.
TEST_F(CudaTest, PyCudaDriver_test_register_host_memory)
{
    const std::size_t n = std::size_t(1) << 20;
    std::unique_ptr<double, FreeDeleter> a(static_cast<double*>(std::aligned_alloc(4096, n * sizeof(double))));
    for (std::size_t i = 0; i < n; ++i)
        a.get()[i] = double(i) * 0.5;
    const cuda::RegisteredHostMemory aPin(a.get(), n * sizeof(double));
    cuda::DeviceMemory gpuAry(n * sizeof(double));
    const cuda::Stream stream(cuda::Stream::Create{});
    KS_CU(cuMemcpyHtoDAsync, gpuAry.get(), aPin.get(), n * sizeof(double), stream.get());
    KS_CU(cuCtxSynchronize);
    // PyCUDA stops here; the copy is checked too.
    std::vector<double> back(n);
    gpuAry.download(back.data(), n * sizeof(double));
    EXPECT_EQ(std::memcmp(back.data(), a.get(), n * sizeof(double)), 0);
}

// PyCUDA test_driver.py: test_mempool. PyCUDA's DeviceMemoryPool bins allocations itself; here the
// driver's stream-ordered pool holds freed memory, and stop_holding() is freeHeld().
TEST_F(CudaTest, PyCudaDriver_test_mempool)
{
    const cuda::MemoryPool pool = cuda::MemoryPool::current();
    std::deque<cuda::DeviceMemory> queue;
    const std::uint64_t usedBefore = pool.stats().usedBytes;
    const cuda::MemoryInfo info = cuda::memoryInfo();
    const int e0 = std::bit_width(info.freeBytes) - 1; // PyCUDA's bitlog2(free)
    for (int e = e0 - 6; e < e0 - 4; ++e)
        for (int i = 0; i < 100; ++i) {
            queue.emplace_back(std::size_t(1) << e, m_stream.get());
            if (queue.size() > 10)
                queue.pop_front();
        }
    queue.clear();
    m_stream.synchronize();
    pool.freeHeld(); // pool.stop_holding()
    EXPECT_EQ(pool.stats().usedBytes, usedBefore) << "every allocation went back to the pool";
}
