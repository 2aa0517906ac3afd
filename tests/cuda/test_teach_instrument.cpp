// Instrumented variants on a real GPU: they compute exactly what the original kernel computes, the
// "who wrote it" records match the indexing of known launches (1-D, 2-D, 3-D, partial last
// blocks, buffers and surfaces), the block timeline has one plausible entry per block, the host
// occupancy calculator agrees with the driver, and the inspector reads resources back.
#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/memory.hpp"
#include "ks/cuda/module.hpp"
#include "ks/cuda/surface.hpp"
#include "ks/rtc/compiler.hpp"
#include "ks/teach/inspector.hpp"
#include "ks/teach/instrument.hpp"
#include "ks/teach/launch_analysis.hpp"
#include "ks/teach/timeline.hpp"
#include "ks/teach/variant_runner.hpp"

#include "teach_test_support.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <cstring>
#include <set>

using ks::cuda::Dim3;
using ks::cuda::LaunchConfig;
using ks::teach::VariantKind;
using ks::teach::WhoRecord;
using ks::test::CudaTest;
using ks::test::Loaded;
using ks::test::SurfaceArray;
using ks::test::download;
using ks::test::expectBitwiseEqual;
using ks::test::loadOriginal;
using ks::test::loadVariant;
using ks::test::teachingSource;

namespace {

// What the canonical mapping says about element (x, y, z) of a launch with `block`.
void expectWriter(const WhoRecord& r, unsigned x, unsigned y, unsigned z, Dim3 block, int smCount, const char* where)
{
    SCOPED_TRACE(std::string(where) + " element (" + std::to_string(x) + ", " + std::to_string(y) + ", " +
                 std::to_string(z) + ")");
    ASSERT_EQ(r.writeCount, 1u);
    EXPECT_EQ(r.blockX, x / block.x);
    EXPECT_EQ(r.blockY, y / block.y);
    EXPECT_EQ(r.blockZ, z / block.z);
    EXPECT_EQ(r.threadX, x % block.x);
    EXPECT_EQ(r.threadY, y % block.y);
    EXPECT_EQ(r.threadZ, z % block.z);
    const unsigned linear = x % block.x + block.x * (y % block.y + block.y * (z % block.z));
    EXPECT_EQ(r.warp, linear / 32);
    EXPECT_EQ(r.lane, linear % 32);
    EXPECT_LT(int(r.smid), smCount);
}

// Records of one block agree on SM and start order; the orders are a permutation of 0..blocks-1.
void expectConsistentBlocks(const std::vector<WhoRecord>& records, const LaunchConfig& l, unsigned blocksStarted)
{
    const unsigned long long blocks = l.grid.count();
    EXPECT_EQ(blocksStarted, blocks);
    std::vector<int> orderOf(blocks, -1), smOf(blocks, -1);
    for (const WhoRecord& r : records) {
        if (!r.writeCount)
            continue;
        const auto b = ks::teach::writerOf(r, l).linearBlock;
        ASSERT_LT(b, blocks);
        if (orderOf[b] < 0) {
            orderOf[b] = int(r.blockOrder);
            smOf[b] = r.smid;
        }
        EXPECT_EQ(orderOf[b], int(r.blockOrder));
        EXPECT_EQ(smOf[b], int(r.smid));
    }
    std::set<int> orders(orderOf.begin(), orderOf.end());
    orders.erase(-1);
    EXPECT_EQ(orders.size(), std::size_t(std::count_if(orderOf.begin(), orderOf.end(), [](int o) { return o >= 0; })));
    if (!orders.empty()) {
        EXPECT_LT(*orders.rbegin(), int(blocks));
    }
}

class TeachGpu : public CudaTest {
protected:
    void SetUp() override
    {
        CudaTest::SetUp();
        if (IsSkipped())
            return;
        m_device = ks::cuda::queryDevice(0);
    }
    ks::cuda::DeviceInfo m_device;
};

} // namespace

TEST_F(TeachGpu, OneDimensionalOneBlockOf400Threads)
{
    const std::string src = teachingSource("../pycuda_tutorial.cu");
    const Loaded original = loadOriginal(src, "multiply_them");
    const Loaded who = loadVariant(src, "multiply_them", VariantKind::WhoWrote, "dest");
    const int n = 400;
    const auto a = ks::test::randomFloats(n, 1), b = ks::test::randomFloats(n, 2), poison = ks::test::randomFloats(n, 3, 100, 200);
    ks::cuda::DeviceMemory da(n * 4), db(n * 4), dest(n * 4);
    da.upload(a.data(), n * 4);
    db.upload(b.data(), n * 4);
    CUdeviceptr pd = dest.get(), pa = da.get(), pb = db.get();
    std::vector<void*> args = {&pd, &pa, &pb};
    const LaunchConfig l{{1, 1, 1}, {400, 1, 1}, 0};

    dest.upload(poison.data(), n * 4);
    original.function.launch(l, m_stream.get(), args.data());
    m_stream.synchronize();
    const auto expected = download<float>(dest);
    for (int i = 0; i < n; ++i)
        ASSERT_EQ(expected[i], a[i] * b[i]);

    dest.upload(poison.data(), n * 4);
    const ks::teach::WhoRun run = ks::teach::runWhoVariant(who.function, l, args, n, 0, m_stream.get());
    expectBitwiseEqual(download<float>(dest), expected);
    EXPECT_EQ(run.droppedWrites, 0u);
    for (int i = 0; i < n; ++i)
        expectWriter(run.records[i], i, 0, 0, l.block, m_device.smCount, "multiply_them");
    expectConsistentBlocks(run.records, l, run.blocksStarted);
}

TEST_F(TeachGpu, PartialLastBlockAndTheGuard)
{
    const std::string src = teachingSource("pi.cu");
    const Loaded original = loadOriginal(src, "pi_map");
    const Loaded who = loadVariant(src, "pi_map", VariantKind::WhoWrote);
    const int n = 1000; // 4 blocks of 256: the last has 232 threads inside, 24 outside
    const auto poison = ks::test::randomFloats(n + 64, 4, -50, -10);
    ks::cuda::DeviceMemory dest((n + 64) * 4); // 64 guard elements after the data stay untouched
    CUdeviceptr pd = dest.get();
    int count = n;
    std::vector<void*> args = {&pd, &count};
    const LaunchConfig l{ks::teach::gridToCover({unsigned(n), 1, 1}, {256, 1, 1}), {256, 1, 1}, 0};
    ASSERT_EQ(l.grid.x, 4u);

    dest.upload(poison.data(), dest.size());
    original.function.launch(l, m_stream.get(), args.data());
    m_stream.synchronize();
    const auto expected = download<float>(dest);
    dest.upload(poison.data(), dest.size());
    const auto run = ks::teach::runWhoVariant(who.function, l, args, n + 64, 0, m_stream.get());
    expectBitwiseEqual(download<float>(dest), expected);
    for (int i = 0; i < n; ++i)
        expectWriter(run.records[i], i, 0, 0, l.block, m_device.smCount, "pi_map");
    for (int i = n; i < n + 64; ++i)
        EXPECT_EQ(run.records[i].writeCount, 0u) << "the guard kept thread " << i << " out";
    expectConsistentBlocks(run.records, l, run.blocksStarted);
    const auto c = ks::teach::coverage(l, {unsigned(n), 1, 1});
    EXPECT_EQ(c.threadsOutside, 24u);
}

TEST_F(TeachGpu, ReductionStepRecordsOnlyTheElementsWritten)
{
    const std::string src = teachingSource("pi.cu");
    const Loaded original = loadOriginal(src, "pi_reduce");
    const Loaded who = loadVariant(src, "pi_reduce", VariantKind::WhoWrote, "dest");
    const int n = 5000, stride = 4;
    const auto input = ks::test::randomFloats(n, 5, 0.5f, 4.f);
    ks::cuda::DeviceMemory dest(n * 4);
    CUdeviceptr pd = dest.get();
    int s = stride, count = n;
    std::vector<void*> args = {&pd, &s, &count};
    const LaunchConfig l{ks::teach::gridToCover({unsigned(n), 1, 1}, {512, 1, 1}), {512, 1, 1}, 0};
    dest.upload(input.data(), n * 4);
    original.function.launch(l, m_stream.get(), args.data());
    m_stream.synchronize();
    const auto expected = download<float>(dest);
    dest.upload(input.data(), n * 4);
    const auto run = ks::teach::runWhoVariant(who.function, l, args, n, 0, m_stream.get());
    expectBitwiseEqual(download<float>(dest), expected);
    for (int i = 0; i < n; ++i) {
        const bool writes = i % (2 * stride) == 0 && i + stride < n;
        if (writes) {
            expectWriter(run.records[i], i, 0, 0, l.block, m_device.smCount, "pi_reduce");
        } else {
            EXPECT_EQ(run.records[i].writeCount, 0u) << "element " << i << " is only read";
        }
    }
}

TEST_F(TeachGpu, TwoDimensionalBufferWithPartialBlocks)
{
    const std::string src = teachingSource("index_2d.cu");
    const Loaded original = loadOriginal(src, "gradient_2d");
    const Loaded who = loadVariant(src, "gradient_2d", VariantKind::WhoWrote, "out");
    const int w = 70, h = 20;
    const auto poison = ks::test::randomFloats(w * h, 6, -9, -8);
    ks::cuda::DeviceMemory out(w * h * 4);
    CUdeviceptr po = out.get();
    int width = w, height = h;
    std::vector<void*> args = {&po, &width, &height};
    const LaunchConfig l{ks::teach::gridToCover({unsigned(w), unsigned(h), 1}, {16, 8, 1}), {16, 8, 1}, 0};
    ASSERT_EQ(l.grid, (Dim3{5, 3, 1}));
    out.upload(poison.data(), out.size());
    original.function.launch(l, m_stream.get(), args.data());
    m_stream.synchronize();
    const auto expected = download<float>(out);
    out.upload(poison.data(), out.size());
    const auto run = ks::teach::runWhoVariant(who.function, l, args, w * h, w, m_stream.get());
    expectBitwiseEqual(download<float>(out), expected);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            expectWriter(run.records[y * w + x], x, y, 0, l.block, m_device.smCount, "gradient_2d");
    expectConsistentBlocks(run.records, l, run.blocksStarted);
    const auto inspected = ks::teach::inspectElement(run.records, 9 * w + 17, l, w);
    ASSERT_TRUE(inspected.writer);
    EXPECT_EQ(inspected.writer->blockIdx, (Dim3{1, 1, 0}));
    EXPECT_EQ(inspected.writer->threadIdx, (Dim3{1, 1, 0}));
}

TEST_F(TeachGpu, ThreeDimensionalLaunch)
{
    const Loaded original = loadOriginal(teachingSource("write_patterns.cu"), "fill_3d");
    const Loaded who = loadVariant(teachingSource("write_patterns.cu"), "fill_3d", VariantKind::WhoWrote);
    int nx = 10, ny = 9, nz = 7;
    const std::size_t n = std::size_t(nx) * ny * nz;
    std::vector<int> poison(n, -77);
    ks::cuda::DeviceMemory out(n * 4);
    CUdeviceptr po = out.get();
    std::vector<void*> args = {&po, &nx, &ny, &nz};
    const LaunchConfig l{ks::teach::gridToCover({10, 9, 7}, {4, 4, 4}), {4, 4, 4}, 0};
    ASSERT_EQ(l.grid, (Dim3{3, 3, 2}));
    out.upload(poison.data(), n * 4);
    original.function.launch(l, m_stream.get(), args.data());
    m_stream.synchronize();
    const auto expected = download<int>(out);
    for (int z = 0; z < nz; ++z)
        for (int y = 0; y < ny; ++y)
            for (int x = 0; x < nx; ++x)
                ASSERT_EQ(expected[(z * ny + y) * nx + x], x + 1000 * y + 1000000 * z);
    out.upload(poison.data(), n * 4);
    const auto run = ks::teach::runWhoVariant(who.function, l, args, n, 0, m_stream.get());
    expectBitwiseEqual(download<int>(out), expected);
    for (int z = 0; z < nz; ++z)
        for (int y = 0; y < ny; ++y)
            for (int x = 0; x < nx; ++x)
                expectWriter(run.records[(z * ny + y) * nx + x], x, y, z, l.block, m_device.smCount, "fill_3d");
    expectConsistentBlocks(run.records, l, run.blocksStarted);
}

TEST_F(TeachGpu, SurfaceWriterWithEarlyReturn)
{
    const std::string src = teachingSource("index_2d.cu");
    const Loaded original = loadOriginal(src, "gradient_2d_surface");
    const Loaded who = loadVariant(src, "gradient_2d_surface", VariantKind::WhoWrote, "out");
    const unsigned w = 70, h = 20;
    SurfaceArray array(w, h);
    ks::cuda::SurfaceObject surface(array.array);
    std::vector<unsigned char> poison(w * h * 4), expected(w * h * 4), actual(w * h * 4);
    for (std::size_t i = 0; i < poison.size(); ++i)
        poison[i] = static_cast<unsigned char>(i * 37 + 11);
    CUsurfObject so = surface.get();
    int width = int(w), height = int(h);
    std::vector<void*> args = {&so, &width, &height};
    const LaunchConfig l{ks::teach::gridToCover({w, h, 1}, {16, 8, 1}), {16, 8, 1}, 0};

    array.copy(poison.data(), w, h, true);
    original.function.launch(l, m_stream.get(), args.data());
    m_stream.synchronize();
    array.copy(expected.data(), w, h, false);
    EXPECT_EQ(expected[(5 * w + 69) * 4 + 0], 255) << "the right edge is red 255";
    array.copy(poison.data(), w, h, true);
    const auto run = ks::teach::runWhoVariant(who.function, l, args, w * h, w, m_stream.get());
    array.copy(actual.data(), w, h, false);
    expectBitwiseEqual(actual, expected);
    EXPECT_EQ(run.droppedWrites, 0u);
    for (unsigned y = 0; y < h; ++y)
        for (unsigned x = 0; x < w; ++x)
            expectWriter(run.records[y * w + x], x, y, 0, l.block, m_device.smCount, "gradient_2d_surface");
    expectConsistentBlocks(run.records, l, run.blocksStarted);

    // The inspector reads the same element from the array and from a buffer.
    ks::cuda::DeviceMemory buffer(16);
    const float values[4] = {1.5f, -2.f, 3.25f, 0.f};
    buffer.upload(values, 16);
    const ks::teach::ResourceView views[] = {
        {"image", 0, array.array, w * h, w, ks::teach::ScalarKind::U8, 4},
        {"buffer", buffer.get(), nullptr, 4, 0, ks::teach::ScalarKind::F32, 1},
    };
    const auto read = ks::teach::readElement(views, 2, m_stream.get());
    ASSERT_EQ(read.size(), 2u);
    ASSERT_TRUE(read[0].ok);
    EXPECT_EQ(read[0].components, (std::vector<double>{double(expected[8]), double(expected[9]), 128, 255}));
    ASSERT_TRUE(read[1].ok);
    EXPECT_EQ(read[1].text, "3.25");
    const auto outside = ks::teach::readElement(views, 4, m_stream.get());
    EXPECT_TRUE(outside[0].ok);
    EXPECT_FALSE(outside[1].ok) << outside[1].text;
}

TEST_F(TeachGpu, VectorMembersAndTemplates)
{
    const int n = 777;
    const auto in = ks::test::randomFloats(n, 8);
    const auto poison = ks::test::randomFloats(n * 4, 9, 500, 600);
    ks::cuda::DeviceMemory din(n * 4), out(n * 16);
    din.upload(in.data(), n * 4);
    CUdeviceptr po = out.get(), pi = din.get();
    int count = n;
    std::vector<void*> args = {&po, &pi, &count};
    const LaunchConfig l{ks::teach::gridToCover({unsigned(n), 1, 1}, {128, 1, 1}), {128, 1, 1}, 0};
    const std::string patterns = teachingSource("write_patterns.cu");
    {
        const Loaded original = loadOriginal(patterns, "write_vec");
        const Loaded who = loadVariant(patterns, "write_vec", VariantKind::WhoWrote);
        out.upload(poison.data(), out.size());
        original.function.launch(l, m_stream.get(), args.data());
        m_stream.synchronize();
        const auto expected = download<float>(out);
        EXPECT_EQ(expected[4 * 5 + 1], 2.f * in[5] + 1.f);
        EXPECT_EQ(expected[4 * 5 + 3], 5.f);
        out.upload(poison.data(), out.size());
        const auto run = ks::teach::runWhoVariant(who.function, l, args, n, 0, m_stream.get());
        expectBitwiseEqual(download<float>(out), expected);
        for (int i = 0; i < n; ++i) {
            ASSERT_EQ(run.records[i].writeCount, 3u) << "assignment, .y +=, ++.w";
            EXPECT_EQ(run.records[i].blockX * 128u + run.records[i].threadX, unsigned(i));
        }
    }
    {
        const Loaded original = loadOriginal(patterns, "demo::scale_t", "float");
        const Loaded who = loadVariant(patterns, "scale_t", VariantKind::WhoWrote, "out", "float");
        out.upload(poison.data(), out.size());
        original.function.launch(l, m_stream.get(), args.data());
        m_stream.synchronize();
        const auto expected = download<float>(out);
        EXPECT_EQ(expected[3], 2.f * in[3]);
        out.upload(poison.data(), out.size());
        const auto run = ks::teach::runWhoVariant(who.function, l, args, n, 0, m_stream.get());
        expectBitwiseEqual(download<float>(out), expected);
        for (int i = 0; i < n; ++i)
            expectWriter(run.records[i], i, 0, 0, l.block, m_device.smCount, "scale_t<float>");
        const Loaded timeline = loadVariant(patterns, "scale_t", VariantKind::BlockTimeline, "", "float");
        out.upload(poison.data(), out.size());
        const auto t = ks::teach::runTimelineVariant(timeline.function, l, args, m_stream.get());
        expectBitwiseEqual(download<float>(out), expected);
        EXPECT_EQ(t.blocksStarted, l.grid.count());
    }
}

TEST_F(TeachGpu, TimelineHasOnePlausibleRecordPerBlock)
{
    const std::string src = teachingSource("pi.cu");
    const Loaded original = loadOriginal(src, "pi_map");
    const Loaded timeline = loadVariant(src, "pi_map", VariantKind::BlockTimeline);
    const int n = 1000000;
    ks::cuda::DeviceMemory dest(n * 4);
    const auto poison = ks::test::randomFloats(n, 10, -3, -2);
    CUdeviceptr pd = dest.get();
    int count = n;
    std::vector<void*> args = {&pd, &count};
    const LaunchConfig l{ks::teach::gridToCover({unsigned(n), 1, 1}, {256, 1, 1}), {256, 1, 1}, 0};
    dest.upload(poison.data(), dest.size());
    original.function.launch(l, m_stream.get(), args.data());
    m_stream.synchronize();
    const auto expected = download<float>(dest);
    dest.upload(poison.data(), dest.size());
    const auto run = ks::teach::runTimelineVariant(timeline.function, l, args, m_stream.get());
    expectBitwiseEqual(download<float>(dest), expected);

    ASSERT_EQ(run.blocks.size(), l.grid.count());
    EXPECT_EQ(run.blocksStarted, l.grid.count());
    std::set<unsigned> orders, sms;
    for (const auto& b : run.blocks) {
        EXPECT_NE(b.startNs, 0u);
        EXPECT_GE(b.endNs, b.startNs);
        EXPECT_GE(b.endClock, b.startClock);
        EXPECT_LT(int(b.smid), m_device.smCount);
        orders.insert(b.order);
        sms.insert(b.smid);
    }
    EXPECT_EQ(orders.size(), run.blocks.size()) << "every block took its own start order";
    EXPECT_GT(sms.size(), std::size_t(m_device.smCount) / 2) << "3907 blocks spread over most SMs";

    const int resident = timeline.function.maxActiveBlocksPerSM(256);
    ASSERT_GT(resident, 0);
    const auto model = ks::teach::analyzeTimeline(run.blocks, unsigned(m_device.smCount), unsigned(resident));
    EXPECT_TRUE(model.problems.empty()) << model.problems.front();
    EXPECT_EQ(model.blocks.size(), run.blocks.size());
    EXPECT_GT(model.makespanUs, 0.0);
    EXPECT_GT(model.utilisation, 0.0);
    EXPECT_LE(model.maxConcurrentPerSm, unsigned(resident)) << "an SM never holds more blocks than fit";
    std::printf("timeline: %s\n", ks::teach::describeTimeline(model).c_str());
}

TEST_F(TeachGpu, HostOccupancyCalculatorAgreesWithTheDriver)
{
    const auto sm = ks::cuda::OccupancyLimits::fromDevice(m_device);
    for (const auto& [file, kernel] : {std::pair<std::string, std::string>{"occupancy.cu", "block_sum"},
                                       {"pi.cu", "pi_map"},
                                       {"divergence.cu", "diverge_by_lane"}}) {
        const Loaded k = loadOriginal(teachingSource(file), kernel);
        for (int block : {32, 64, 96, 128, 256, 384, 512, 1024}) {
            if (block > k.function.attributes().maxThreadsPerBlock)
                continue;
            for (int shared : {0, 4096, 20000, 40000}) {
                const auto host = ks::cuda::theoreticalOccupancy(
                    sm, ks::cuda::OccupancyInput::of(k.function.attributes(), sm, block, shared));
                EXPECT_EQ(host.blocksPerSM, k.function.maxActiveBlocksPerSM(block, std::size_t(shared)))
                    << kernel << " block " << block << " shared " << shared << ": " << host.summary();
            }
        }
        const auto device = ks::teach::suggestBlockSizeOnDevice(k.function, 0);
        const auto host = ks::cuda::suggestBlockSize(sm, ks::cuda::OccupancyInput::of(k.function.attributes(), sm, 0, 0));
        EXPECT_EQ(host.blockSize, device.blockSize) << kernel;
        EXPECT_EQ(host.minGridSize, device.minGridSize) << kernel;
    }
}
