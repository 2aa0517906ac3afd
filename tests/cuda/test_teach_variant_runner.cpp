// The teaching panels' instrumented variants ("who wrote it", the block timeline) through their
// checked teaching variants (InstrumentRequest::checked): with every access of the user's kernel and
// of the variant's own records and counters bounds-checked, they record exactly what the plain
// variants record and refuse nothing; and the checks are real: narrowing the records, the block
// records or the counters by one entry, or a kernel writing past its recorded output, is refused
// on the right parameter at the right element, and the refused access is not made.
#include "ks/cuda/memory.hpp"
#include "ks/cuda/surface.hpp"
#include "ks/teach/fault_report.hpp"
#include "ks/teach/instrument.hpp"
#include "ks/teach/launch_analysis.hpp"
#include "ks/teach/variant_runner.hpp"

#include "teach_test_support.hpp"
#include "test_support.hpp"

#include <cstring>

using ks::cuda::LaunchConfig;
using ks::teach::CheckedExtent;
using ks::teach::CheckedRecord;
using ks::teach::VariantChecks;
using ks::teach::VariantKind;
using ks::teach::WhoRecord;
using namespace ks::test; // Loaded, loadVariant, download, ... (teach_test_support.hpp)

namespace {

const char* const kKernels = R"(
extern "C" __global__ void guarded(float* out, const float* in, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * 3.f + 1.f;
}

extern "C" __global__ void grid3d(int* out, int nx, int ny, int nz)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    const int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz)
        return;
    out[(z * ny + y) * nx + x] = x + 100 * y + 10000 * z;
}

extern "C" __global__ void members(float4* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    out[i].x = float(i);
    out[i].y += 2.f;
    ++out[i].z;
    out[i].w = out[i].x * 0.5f;
}

extern "C" __global__ void histogram(unsigned* bins, const int* values, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[values[i]], 1u);
}

template <typename T>
__global__ void scale(T* out, const T* in, T s, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = in[i] * s;
}

extern "C" __global__ void paint(cudaSurfaceObject_t img, int width, int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height)
        surf2Dwrite(make_uchar4(x, y, 7, 255), img, x * 4, y);
}

extern "C" __global__ void overrun(float* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)
        out[i] = float(i);
}

extern "C" __global__ void paint_over(cudaSurfaceObject_t img, int width, int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (y < height)
        surf2Dwrite(make_uchar4(1, 2, 3, 4), img, x * 4, y);
}
)";

CheckedExtent bytes(std::size_t n)
{
    return {n, 0};
}
constexpr CheckedExtent kValue{ks::teach::kExtentUnchecked, ks::teach::kExtentUnchecked};

ks::syntax::KernelSignature kernel(const std::string& name)
{
    const auto k = ks::syntax::findKernel(kKernels, name);
    if (!k)
        throw std::runtime_error("no kernel " + name);
    return *k;
}

// One launch of a kernel: its arguments (the first is the recorded output, a buffer or a
// surface), the records' layout and the extents the checked variants get.
struct Case {
    std::string kernel, templateArgs;
    LaunchConfig launch;
    std::vector<void*> args;
    std::size_t recordCount = 0, rowWidth = 0;
    std::vector<CheckedExtent> extents;
    bool oneWriterPerElement = true;
};

// The fields of a record that do not depend on scheduling (not the SM, not the start order).
bool sameWriter(const WhoRecord& a, const WhoRecord& b)
{
    return a.blockX == b.blockX && a.blockY == b.blockY && a.blockZ == b.blockZ && a.threadX == b.threadX &&
           a.threadY == b.threadY && a.threadZ == b.threadZ && a.warp == b.warp && a.lane == b.lane &&
           a.writeCount == b.writeCount;
}

class CheckedTeachingVariants : public CudaTest {
protected:
    ks::teach::WhoRun who(const Case& c, bool checked, const VariantChecks* checks)
    {
        const Loaded v = loadVariant(kKernels, c.kernel, VariantKind::WhoWrote, {}, c.templateArgs, checked);
        return ks::teach::runWhoVariant(v.function, c.launch, c.args, c.recordCount, c.rowWidth, m_stream.get(),
                                        checks);
    }
    ks::teach::TimelineRun timeline(const Case& c, bool checked, const VariantChecks* checks)
    {
        const Loaded v = loadVariant(kKernels, c.kernel, VariantKind::BlockTimeline, {}, c.templateArgs, checked);
        return ks::teach::runTimelineVariant(v.function, c.launch, c.args, m_stream.get(), checks);
    }
};

} // namespace

TEST_F(CheckedTeachingVariants, RecordWhatThePlainOnesRecordAndRefuseNothing)
{
    // Buffers the cases write; each is reset to the same contents before every run.
    const int n = 1000, nx = 37, ny = 5, nz = 3, bins = 16, w = 70, h = 33;
    const auto in = randomFloats(n, 31);
    std::vector<int> values(n);
    for (int i = 0; i < n; ++i)
        values[i] = (i * 7) % bins;
    const auto start = randomFloats(4 * n, 32);
    ks::cuda::DeviceMemory dout(4 * n * sizeof(float)), din(n * 4), dvalues(n * 4);
    din.upload(in.data(), din.size());
    dvalues.upload(values.data(), dvalues.size());
    SurfaceArray image(w, h);
    ks::cuda::SurfaceObject surface(image.array);
    CUdeviceptr po = dout.get(), pi = din.get(), pv = dvalues.get();
    CUsurfObject ps = surface.get();
    int count = n, cx = nx, cy = ny, cz = nz, cw = w, ch = h;
    float s = 2.5f;

    std::vector<Case> cases;
    cases.push_back({"guarded", "", {ks::teach::gridToCover({unsigned(n), 1, 1}, {128, 1, 1}), {128, 1, 1}, 0},
                     {&po, &pi, &count}, std::size_t(n), 0, {bytes(n * 4), bytes(n * 4), kValue}});
    cases.push_back({"grid3d", "", {ks::teach::gridToCover({unsigned(nx), unsigned(ny), unsigned(nz)}, {8, 4, 2}), {8, 4, 2}, 0},
                     {&po, &cx, &cy, &cz}, std::size_t(nx * ny * nz), 0, {bytes(nx * ny * nz * 4), kValue, kValue, kValue}});
    cases.push_back({"members", "", {ks::teach::gridToCover({unsigned(n), 1, 1}, {96, 1, 1}), {96, 1, 1}, 0},
                     {&po, &count}, std::size_t(n), 0, {bytes(n * 16), kValue}});
    // The histogram's launch covers the values, its records the bins (many writers each).
    cases.push_back({"histogram", "", {ks::teach::gridToCover({unsigned(n), 1, 1}, {256, 1, 1}), {256, 1, 1}, 0},
                     {&po, &pv, &count}, std::size_t(bins), 0, {bytes(bins * 4), bytes(n * 4), kValue}, false});
    cases.push_back({"scale", "float", {{3, 1, 1}, {64, 1, 1}, 0}, {&po, &pi, &s, &count}, std::size_t(n), 0,
                     {bytes(n * 4), bytes(n * 4), kValue, kValue}});
    cases.push_back({"paint", "", {ks::teach::gridToCover({unsigned(w), unsigned(h), 1}, {16, 16, 1}), {16, 16, 1}, 0}, {&ps, &cw, &ch},
                     std::size_t(w * h), std::size_t(w), {{unsigned(w), unsigned(h)}, kValue, kValue}});

    for (const Case& c : cases) {
        SCOPED_TRACE(c.kernel);
        const VariantChecks checks{c.extents, {}, {}};
        const auto reset = [&] {
            dout.upload(start.data(), dout.size());
            std::vector<unsigned char> zero(std::size_t(w) * h * 4, 0);
            image.copy(zero.data(), w, h, true);
        };
        const auto output = [&] {
            std::vector<unsigned char> pixels(std::size_t(w) * h * 4);
            image.copy(pixels.data(), w, h, false);
            std::vector<unsigned char> b = download<unsigned char>(dout);
            b.insert(b.end(), pixels.begin(), pixels.end());
            return b;
        };
        reset();
        const ks::teach::WhoRun plain = who(c, false, nullptr);
        const auto plainOut = output();
        reset();
        const ks::teach::WhoRun checked = who(c, true, &checks);
        EXPECT_FALSE(plain.checked.has_value());
        ASSERT_TRUE(checked.checked.has_value());
        EXPECT_EQ(checked.checked->claimed, 0u) << ks::teach::describeCheckedRun(*checked.checked, kernel(c.kernel),
                                                                                 VariantKind::WhoWrote);
        EXPECT_EQ(checked.checked->failures, 0u);
        expectBitwiseEqual(output(), plainOut);
        EXPECT_EQ(checked.blocksStarted, plain.blocksStarted);
        EXPECT_EQ(checked.blocksStarted, unsigned(c.launch.grid.count()));
        EXPECT_EQ(checked.droppedWrites, plain.droppedWrites);
        ASSERT_EQ(checked.records.size(), plain.records.size());
        std::size_t differing = 0, written = 0;
        for (std::size_t i = 0; i < plain.records.size(); ++i) {
            written += plain.records[i].writeCount != 0;
            differing += c.oneWriterPerElement ? !sameWriter(plain.records[i], checked.records[i])
                                               : plain.records[i].writeCount != checked.records[i].writeCount;
        }
        EXPECT_EQ(differing, 0u) << "records that differ between the plain and the checked variant";
        EXPECT_GT(written, 0u);

        reset();
        const auto plainTimeline = timeline(c, false, nullptr);
        const auto timelineOut = output();
        reset();
        const auto checkedTimeline = timeline(c, true, &checks);
        ASSERT_TRUE(checkedTimeline.checked.has_value());
        EXPECT_EQ(checkedTimeline.checked->claimed, 0u)
            << ks::teach::describeCheckedRun(*checkedTimeline.checked, kernel(c.kernel), VariantKind::BlockTimeline);
        expectBitwiseEqual(output(), timelineOut);
        EXPECT_EQ(checkedTimeline.blocksStarted, plainTimeline.blocksStarted);
        ASSERT_EQ(checkedTimeline.blocks.size(), c.launch.grid.count());
        std::vector<bool> order(checkedTimeline.blocks.size(), false);
        for (const auto& b : checkedTimeline.blocks) {
            EXPECT_GE(b.endNs, b.startNs);
            ASSERT_LT(b.order, order.size());
            EXPECT_FALSE(order[b.order]) << "start order " << b.order << " given twice";
            order[b.order] = true;
        }
    }
}

TEST_F(CheckedTeachingVariants, TheirOwnRecordsAndCountersAreChecked)
{
    const int n = 1000;
    const auto in = randomFloats(n, 33);
    ks::cuda::DeviceMemory dout(n * 4), din(n * 4);
    din.upload(in.data(), din.size());
    CUdeviceptr po = dout.get(), pi = din.get();
    int count = n;
    const Case c{"guarded", "", {ks::teach::gridToCover({unsigned(n), 1, 1}, {128, 1, 1}), {128, 1, 1}, 0},
                 {&po, &pi, &count}, std::size_t(n), 0, {bytes(n * 4), bytes(n * 4), kValue}};
    const unsigned records = 3, counters = 4; // the variant's own pointers follow the kernel's 3 parameters

    { // One record short: the last element's record is refused (the write itself is the user's, and made).
        VariantChecks checks{c.extents, (n - 1) * sizeof(WhoRecord), {}};
        const auto run = who(c, true, &checks);
        ASSERT_TRUE(run.checked && run.checked->claimed);
        EXPECT_EQ(run.checked->failures, 1u);
        EXPECT_EQ(run.checked->first.param, records);
        EXPECT_EQ(run.checked->first.element, n - 1);
        EXPECT_EQ(run.checked->first.threadX, unsigned((n - 1) % 128));
        EXPECT_EQ(run.checked->first.blockX, unsigned((n - 1) / 128));
        EXPECT_EQ(run.records[n - 1].writeCount, 0u) << "the refused record went to the sink";
        EXPECT_EQ(run.records[n - 2].writeCount, 1u);
        const std::string said = ks::teach::describeCheckedRun(*run.checked, kernel("guarded"), VariantKind::WhoWrote);
        EXPECT_NE(said.find("ks_records[999]"), std::string::npos) << said;
        EXPECT_NE(said.find("Kernelscope's instrumentation"), std::string::npos) << said;
        EXPECT_EQ(said.find("at line"), std::string::npos) << "a generated line is not the user's: " << said;
        const auto out = download<float>(dout);
        EXPECT_EQ(out[n - 1], in[n - 1] * 3.f + 1.f);
    }
    { // No room for the counters: the first block-order count is refused.
        VariantChecks checks{c.extents, {}, 0};
        const auto run = who(c, true, &checks);
        ASSERT_TRUE(run.checked && run.checked->claimed);
        EXPECT_EQ(run.checked->first.param, counters);
        EXPECT_EQ(run.checked->first.element, 0);
        EXPECT_EQ(run.checked->failures, c.launch.grid.count()) << "one block-order count per block";
        EXPECT_EQ(run.blocksStarted, 0u);
    }
    { // The timeline's block records one short: the last block's record is refused.
        const std::size_t blocks = c.launch.grid.count();
        VariantChecks checks{c.extents, (blocks - 1) * sizeof(ks::teach::BlockRecord), {}};
        const auto run = timeline(c, true, &checks);
        ASSERT_TRUE(run.checked && run.checked->claimed);
        EXPECT_EQ(run.checked->failures, 1u);
        EXPECT_EQ(run.checked->first.param, records);
        EXPECT_EQ(run.checked->first.access, unsigned(ks::teach::kCheckedWrite));
        EXPECT_EQ(run.checked->first.element, static_cast<long long>(blocks - 1));
        EXPECT_EQ(run.blocks.back().endNs, 0u) << "the refused block record was not written";
        EXPECT_NE(run.blocks.front().endNs, 0u);
        const std::string said =
            ks::teach::describeCheckedRun(*run.checked, kernel("guarded"), VariantKind::BlockTimeline);
        EXPECT_NE(said.find("ks_blocks["), std::string::npos) << said;
    }
}

TEST_F(CheckedTeachingVariants, TheRecordedOutputIsCheckedLikeAnyPointer)
{
    const int n = 1000, guard = 32;
    const auto poison = randomFloats(n + guard, 34, 100, 200);
    ks::cuda::DeviceMemory dout((n + guard) * 4);
    dout.upload(poison.data(), dout.size());
    CUdeviceptr po = dout.get();
    int count = n;
    // overrun writes out[n] (i <= n): the output's extent is n elements, the guard behind it is real.
    const Case c{"overrun", "", {ks::teach::gridToCover({unsigned(n) + 1, 1, 1}, {128, 1, 1}), {128, 1, 1}, 0},
                 {&po, &count}, std::size_t(n), 0, {bytes(n * 4), kValue}};
    const VariantChecks checks{c.extents, {}, {}};
    const auto run = who(c, true, &checks);
    ASSERT_TRUE(run.checked && run.checked->claimed);
    EXPECT_EQ(run.checked->failures, 1u);
    EXPECT_EQ(run.checked->first.param, 0u);
    EXPECT_EQ(run.checked->first.access, unsigned(ks::teach::kCheckedWrite));
    EXPECT_EQ(run.checked->first.element, n);
    EXPECT_EQ(run.droppedWrites, 0u) << "a refused write is not recorded either";
    const auto out = download<float>(dout);
    for (int i = 0; i < n; ++i)
        ASSERT_EQ(out[i], float(i)) << i;
    for (int i = n; i < n + guard; ++i)
        ASSERT_EQ(out[i], poison[i]) << "the refused write reached the guard at " << i;
    const std::string said = ks::teach::describeCheckedRun(*run.checked, kernel("overrun"), VariantKind::WhoWrote);
    EXPECT_NE(said.find("wrote out[1000]"), std::string::npos) << said;

    const auto t = timeline(c, true, &checks);
    ASSERT_TRUE(t.checked && t.checked->claimed);
    EXPECT_EQ(t.checked->first.param, 0u);
    EXPECT_EQ(t.checked->first.element, n);

    // A surface written past its width: refused on the surface, nothing recorded past the row.
    const int w = 40, h = 8;
    SurfaceArray image(w, h);
    ks::cuda::SurfaceObject surface(image.array);
    CUsurfObject ps = surface.get();
    int cw = w, ch = h;
    const Case sc{"paint_over", "", {{3, unsigned(h), 1}, {16, 1, 1}, 0}, {&ps, &cw, &ch}, std::size_t(w * h), std::size_t(w),
                  {{unsigned(w), unsigned(h)}, kValue, kValue}};
    const VariantChecks surfaceChecks{sc.extents, {}, {}};
    const auto srun = who(sc, true, &surfaceChecks);
    ASSERT_TRUE(srun.checked && srun.checked->claimed);
    EXPECT_EQ(srun.checked->first.resource, unsigned(ks::teach::kCheckedSurface));
    EXPECT_EQ(srun.checked->first.param, 0u);
    EXPECT_EQ(srun.checked->failures, unsigned((48 - w) * h)) << "8 columns past the width, every row";
    EXPECT_EQ(srun.droppedWrites, 0u);
    for (const WhoRecord& r : srun.records)
        ASSERT_EQ(r.writeCount, 1u);
}
