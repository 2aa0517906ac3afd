// The checked variant ("find the fault") on a real GPU: an out-of-bounds write, a read before the
// start, a misaligned access and a surface write past its width are refused (nothing is written
// where they pointed) and the first is recorded with its thread, block, parameter, index and the
// user's line; atomics on a refused element go to the sink; in-bounds kernels compute exactly what
// the original computes and record nothing.
#include "ks/core/error.hpp"
#include "ks/cuda/memory.hpp"
#include "ks/cuda/surface.hpp"
#include "ks/teach/fault_report.hpp"
#include "ks/teach/instrument.hpp"
#include "ks/teach/launch_analysis.hpp"
#include "ks/teach/variant_runner.hpp"

#include "teach_test_support.hpp"
#include "test_support.hpp"

#include <cstdio>
#include <numeric>

using ks::cuda::LaunchConfig;
using ks::teach::CheckedExtent;
using ks::teach::CheckedRecord;
using ks::teach::VariantKind;
using namespace ks::test; // Loaded, loadVariant, download, ... (teach_test_support.hpp)

namespace {

// The tests find the lines of the statements with userLine.
const char* const kFaulty = R"(
extern "C" __global__ void scatter(float* out, const float* in, const int* idx, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    out[idx[i]] = in[i];
}

extern "C" __global__ void shift_right(float* out, const float* in, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i - 1] * 2.f;
}

extern "C" __global__ void fill_aligned(float* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 1.f;
}

extern "C" __global__ void paint(cudaSurfaceObject_t img, int width, int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (y >= height)
        return;
    surf2Dwrite(make_uchar4(x, y, 7, 255), img, x * 4, y);
}

extern "C" __global__ void count(unsigned* bins, const int* values, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[values[i]], 1u);
}
)";

unsigned userLine(const std::string& source, const std::string& text)
{
    const std::size_t at = source.find(text);
    EXPECT_NE(at, std::string::npos) << text;
    return static_cast<unsigned>(ks::syntax::lineOf(source, at));
}

ks::syntax::KernelSignature kernel(const std::string& source, const std::string& name)
{
    const auto k = ks::syntax::findKernel(source, name);
    if (!k)
        throw std::runtime_error("no kernel " + name);
    return *k;
}

std::string dim3Text(unsigned x, unsigned y, unsigned z)
{
    char b[40];
    std::snprintf(b, sizeof b, "(%u,%u,%u)", x, y, z);
    return b;
}

CheckedExtent bytes(std::size_t n)
{
    return {n, 0};
}
constexpr CheckedExtent kValue{ks::teach::kExtentUnchecked, ks::teach::kExtentUnchecked};

class CheckedGpu : public CudaTest {};

} // namespace

TEST_F(CheckedGpu, WritePastTheEndIsRefusedAndReported)
{
    const Loaded checked = loadVariant(kFaulty, "scatter", VariantKind::Checked);
    const int n = 1024, guard = 64;
    const auto in = ks::test::randomFloats(n, 21);
    const auto poison = ks::test::randomFloats(n + guard, 22, 100, 200);
    std::vector<int> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    const int bad = 3 * 256 + 5; // thread (5,0,0) of block (3,0,0)
    idx[bad] = n + 4;
    ks::cuda::DeviceMemory dout((n + guard) * 4), din(n * 4), didx(n * 4);
    dout.upload(poison.data(), dout.size());
    din.upload(in.data(), din.size());
    didx.upload(idx.data(), didx.size());
    CUdeviceptr po = dout.get(), pi = din.get(), px = didx.get();
    int count = n;
    std::vector<void*> args = {&po, &pi, &px, &count};
    const LaunchConfig l{{4, 1, 1}, {256, 1, 1}, 0};
    // out's extent is n elements; the guard behind it is real memory the refused write must not reach.
    const CheckedRecord r =
        ks::teach::runCheckedVariant(checked.function, l, args, {bytes(n * 4), bytes(n * 4), bytes(n * 4), kValue},
                                     m_stream.get());
    ASSERT_NE(r.claimed, 0u);
    EXPECT_EQ(r.failures, 1u);
    const auto& f = r.first;
    EXPECT_EQ(f.access, unsigned(ks::teach::kCheckedWrite));
    EXPECT_EQ(f.problem, unsigned(ks::teach::kCheckedOutOfRange));
    EXPECT_EQ(f.resource, unsigned(ks::teach::kCheckedPointer));
    EXPECT_EQ(f.param, 0u);
    EXPECT_EQ(f.element, n + 4);
    EXPECT_EQ(f.byteOffset, (n + 4) * 4);
    EXPECT_EQ(f.extent, unsigned(n * 4));
    EXPECT_EQ(f.elementSize, 4u);
    EXPECT_EQ(f.address, po + (n + 4) * 4);
    EXPECT_EQ(f.threadX, 5u);
    EXPECT_EQ(f.blockX, 3u);
    EXPECT_EQ(f.threadY + f.threadZ + f.blockY + f.blockZ, 0u);
    const unsigned line = userLine(kFaulty, "out[idx[i]] = in[i];");
    EXPECT_EQ(f.line, line) << "__builtin_LINE() gives the user's line";
    EXPECT_EQ(ks::teach::describeCheckedRun(r, kernel(kFaulty, "scatter")),
              "thread (5,0,0) of block (3,0,0) wrote out[1028], 4 elements past the end of out (1024 elements), "
              "at line " + std::to_string(line));

    const auto out = download<float>(dout);
    for (int i = 0; i < n; ++i) {
        if (i == bad) {
            EXPECT_EQ(out[i], poison[i]) << "nobody writes element " << bad;
        } else {
            ASSERT_EQ(out[i], in[i]) << i;
        }
    }
    for (int i = n; i < n + guard; ++i)
        ASSERT_EQ(out[i], poison[i]) << "the refused write reached the guard at " << i;
}

TEST_F(CheckedGpu, ReadBeforeTheStartGivesZero)
{
    const Loaded checked = loadVariant(kFaulty, "shift_right", VariantKind::Checked);
    const int n = 300;
    const auto in = ks::test::randomFloats(n + 4, 23, 1, 2);
    const auto poison = ks::test::randomFloats(n, 24, 100, 200);
    ks::cuda::DeviceMemory dout(n * 4), din((n + 4) * 4);
    din.upload(in.data(), din.size());
    dout.upload(poison.data(), dout.size());
    // `in` starts 4 elements into its allocation, so in[-1] is memory the unchecked kernel could read.
    CUdeviceptr po = dout.get(), pi = din.get() + 16;
    int count = n;
    std::vector<void*> args = {&po, &pi, &count};
    const LaunchConfig l{ks::teach::gridToCover({unsigned(n), 1, 1}, {128, 1, 1}), {128, 1, 1}, 0};
    const CheckedRecord r =
        ks::teach::runCheckedVariant(checked.function, l, args, {bytes(n * 4), bytes(n * 4), kValue}, m_stream.get());
    ASSERT_NE(r.claimed, 0u);
    EXPECT_EQ(r.failures, 1u);
    EXPECT_EQ(r.first.access, unsigned(ks::teach::kCheckedRead));
    EXPECT_EQ(r.first.param, 1u);
    EXPECT_EQ(r.first.element, -1);
    EXPECT_EQ(r.first.byteOffset, -4);
    EXPECT_EQ(r.first.threadX + r.first.blockX, 0u);
    const unsigned line = userLine(kFaulty, "out[i] = in[i - 1] * 2.f;");
    EXPECT_EQ(ks::teach::describeCheckedRun(r, kernel(kFaulty, "shift_right")),
              "thread (0,0,0) of block (0,0,0) read in[-1], 1 element before the start of in, at line " +
                  std::to_string(line));
    const auto out = download<float>(dout);
    EXPECT_EQ(out[0], 0.f) << "a refused read gives zero";
    for (int i = 1; i < n; ++i)
        ASSERT_EQ(out[i], in[4 + i - 1] * 2.f) << i;
}

TEST_F(CheckedGpu, MisalignedWritesAreRefused)
{
    const Loaded checked = loadVariant(kFaulty, "fill_aligned", VariantKind::Checked);
    const int n = 32;
    std::vector<unsigned char> poison(n * 4 + 8);
    for (std::size_t i = 0; i < poison.size(); ++i)
        poison[i] = static_cast<unsigned char>(i * 13 + 5);
    ks::cuda::DeviceMemory dout(poison.size());
    dout.upload(poison.data(), poison.size());
    CUdeviceptr po = dout.get() + 2; // a float* two bytes into an allocation: every access is misaligned
    int count = n;
    std::vector<void*> args = {&po, &count};
    const LaunchConfig l{{1, 1, 1}, {32, 1, 1}, 0};
    const CheckedRecord r = ks::teach::runCheckedVariant(checked.function, l, args, {bytes(n * 4), kValue}, m_stream.get());
    ASSERT_NE(r.claimed, 0u);
    EXPECT_EQ(r.failures, unsigned(n));
    const auto& f = r.first;
    EXPECT_EQ(f.access, unsigned(ks::teach::kCheckedWrite));
    EXPECT_EQ(f.problem, unsigned(ks::teach::kCheckedMisaligned));
    EXPECT_EQ(f.alignment, 4u);
    EXPECT_EQ(f.element, static_cast<long long>(f.threadX)) << "each thread writes its own element";
    EXPECT_EQ(f.address, po + 4 * f.threadX);
    EXPECT_EQ(f.line, userLine(kFaulty, "out[i] = 1.f;"));
    const std::string text = ks::teach::describeCheckedRun(r, kernel(kFaulty, "fill_aligned"));
    EXPECT_NE(text.find("made a misaligned write to out["), std::string::npos) << text;
    std::vector<unsigned char> after(poison.size());
    dout.download(after.data(), after.size());
    EXPECT_EQ(after, poison) << "no misaligned write was made";
}

TEST_F(CheckedGpu, SurfaceWritePastItsWidthIsRefused)
{
    const Loaded checked = loadVariant(kFaulty, "paint", VariantKind::Checked);
    const unsigned w = 70, h = 20;
    ks::test::SurfaceArray array(w, h);
    ks::cuda::SurfaceObject surface(array.array);
    std::vector<unsigned char> poison(w * h * 4), actual(w * h * 4);
    for (std::size_t i = 0; i < poison.size(); ++i)
        poison[i] = static_cast<unsigned char>(i * 37 + 11);
    array.copy(poison.data(), w, h, true);
    CUsurfObject so = surface.get();
    int width = int(w), height = int(h);
    std::vector<void*> args = {&so, &width, &height};
    // 80 columns of threads for 70 columns of pixels: the kernel forgot its x guard.
    const LaunchConfig l{ks::teach::gridToCover({w, h, 1}, {16, 8, 1}), {16, 8, 1}, 0};
    ASSERT_EQ(l.grid.x * l.block.x, 80u);
    const CheckedRecord r =
        ks::teach::runCheckedVariant(checked.function, l, args, {{w, h}, kValue, kValue}, m_stream.get());
    ASSERT_NE(r.claimed, 0u);
    EXPECT_EQ(r.failures, 10u * h);
    const auto& f = r.first;
    EXPECT_EQ(f.resource, unsigned(ks::teach::kCheckedSurface));
    EXPECT_EQ(f.access, unsigned(ks::teach::kCheckedWrite));
    EXPECT_EQ(f.param, 0u);
    EXPECT_GE(f.element, 70);
    EXPECT_LT(f.element, 80);
    EXPECT_EQ(f.byteOffset, 4 * f.element);
    EXPECT_EQ(f.element, static_cast<long long>(f.blockX * 16 + f.threadX));
    EXPECT_EQ(f.y, static_cast<long long>(f.blockY * 8 + f.threadY));
    EXPECT_LT(f.y, 20);
    EXPECT_EQ(f.extent, w);
    EXPECT_EQ(f.height, h);
    const unsigned line = userLine(kFaulty, "surf2Dwrite(make_uchar4(x, y, 7, 255), img, x * 4, y);");
    EXPECT_EQ(f.line, line);
    EXPECT_EQ(ks::teach::describeCheckedRun(r, kernel(kFaulty, "paint")),
              "thread " + dim3Text(f.threadX, f.threadY, f.threadZ) + " of block " +
                  dim3Text(f.blockX, f.blockY, f.blockZ) + " wrote surface img at (" +
                  std::to_string(f.element) + ", " + std::to_string(f.y) + "), x past its width 70, at line " +
                  std::to_string(line) + " (and 199 more refused accesses in this launch)");
    array.copy(actual.data(), w, h, false);
    for (unsigned y = 0; y < h; ++y)
        for (unsigned x = 0; x < w; ++x) {
            const unsigned char* p = &actual[(y * w + x) * 4];
            ASSERT_EQ(p[0], static_cast<unsigned char>(x));
            ASSERT_EQ(p[1], static_cast<unsigned char>(y));
            ASSERT_EQ(p[2], 7);
            ASSERT_EQ(p[3], 255);
        }
}

TEST_F(CheckedGpu, AtomicsOnARefusedElementGoToTheSink)
{
    const Loaded checked = loadVariant(kFaulty, "count", VariantKind::Checked);
    const int n = 1000, binCount = 16;
    std::vector<int> values(n);
    for (int i = 0; i < n; ++i)
        values[i] = i == 777 ? binCount + 3 : i % binCount;
    ks::cuda::DeviceMemory dbins((binCount + 8) * 4), dvalues(n * 4);
    const std::vector<unsigned> zero(binCount + 8, 0u);
    dbins.upload(zero.data(), dbins.size());
    dvalues.upload(values.data(), dvalues.size());
    CUdeviceptr pb = dbins.get(), pv = dvalues.get();
    int count = n;
    std::vector<void*> args = {&pb, &pv, &count};
    const LaunchConfig l{ks::teach::gridToCover({unsigned(n), 1, 1}, {128, 1, 1}), {128, 1, 1}, 0};
    const CheckedRecord r = ks::teach::runCheckedVariant(checked.function, l, args,
                                                         {bytes(binCount * 4), bytes(n * 4), kValue}, m_stream.get());
    ASSERT_NE(r.claimed, 0u);
    EXPECT_EQ(r.failures, 1u);
    EXPECT_EQ(r.first.access, unsigned(ks::teach::kCheckedUpdate));
    EXPECT_EQ(r.first.element, binCount + 3);
    EXPECT_EQ(r.first.blockX * 128 + r.first.threadX, 777u);
    EXPECT_EQ(r.sink[0] & 0xffffffffu, 1u) << "the atomic went to the sink";
    const auto bins = download<unsigned>(dbins);
    for (int b = 0; b < binCount; ++b) {
        unsigned expected = 0;
        for (int i = 0; i < n; ++i)
            expected += i != 777 && values[i] == b;
        EXPECT_EQ(bins[b], expected) << b;
    }
    for (int b = binCount; b < binCount + 8; ++b)
        EXPECT_EQ(bins[b], 0u) << "the refused atomic reached bin " << b;
}

TEST_F(CheckedGpu, InBoundsKernelsComputeTheSameAndRecordNothing)
{
    // heat_step: 2-D, a const input and an output.
    const std::string heat = ks::paths::readTextFile(ks::test::sourceDir() / "kernels" / "heat.cu");
    const Loaded original = loadOriginal(heat, "heat_step");
    const Loaded checked = loadVariant(heat, "heat_step", VariantKind::Checked);
    const int w = 70, h = 45;
    const auto u = ks::test::randomFloats(w * h, 25, 0, 1);
    const auto poison = ks::test::randomFloats(w * h, 26, -9, -8);
    ks::cuda::DeviceMemory du(w * h * 4), dnext(w * h * 4);
    du.upload(u.data(), du.size());
    CUdeviceptr pu = du.get(), pn = dnext.get();
    int width = w, height = h;
    float alpha = 0.2f;
    std::vector<void*> args = {&pu, &pn, &width, &height, &alpha};
    const LaunchConfig l{ks::teach::gridToCover({unsigned(w), unsigned(h), 1}, {16, 16, 1}), {16, 16, 1}, 0};
    dnext.upload(poison.data(), dnext.size());
    original.function.launch(l, m_stream.get(), args.data());
    m_stream.synchronize();
    const auto expected = download<float>(dnext);
    dnext.upload(poison.data(), dnext.size());
    const CheckedRecord r = ks::teach::runCheckedVariant(
        checked.function, l, args, {bytes(w * h * 4), bytes(w * h * 4), kValue, kValue, kValue}, m_stream.get());
    EXPECT_EQ(r.claimed, 0u) << ks::teach::describeCheckedRun(r, kernel(heat, "heat_step"));
    EXPECT_EQ(r.failures, 0u);
    expectBitwiseEqual(download<float>(dnext), expected);
    EXPECT_NE(expected, poison) << "the kernel wrote its output";

    // write_vec: vector members, compound assignment and ++ through checked references.
    const std::string patterns = ks::test::teachingSource("write_patterns.cu");
    const Loaded vecOriginal = loadOriginal(patterns, "write_vec");
    const Loaded vecChecked = loadVariant(patterns, "write_vec", VariantKind::Checked);
    const int n = 777;
    const auto in = ks::test::randomFloats(n, 27);
    const auto vecPoison = ks::test::randomFloats(n * 4, 28, 500, 600);
    ks::cuda::DeviceMemory din(n * 4), dvec(n * 16);
    din.upload(in.data(), din.size());
    CUdeviceptr pv = dvec.get(), pi = din.get();
    int count = n;
    std::vector<void*> vecArgs = {&pv, &pi, &count};
    const LaunchConfig vl{ks::teach::gridToCover({unsigned(n), 1, 1}, {128, 1, 1}), {128, 1, 1}, 0};
    dvec.upload(vecPoison.data(), dvec.size());
    vecOriginal.function.launch(vl, m_stream.get(), vecArgs.data());
    m_stream.synchronize();
    const auto vecExpected = download<float>(dvec);
    dvec.upload(vecPoison.data(), dvec.size());
    const CheckedRecord vr = ks::teach::runCheckedVariant(vecChecked.function, vl, vecArgs,
                                                          {bytes(n * 16), bytes(n * 4), kValue}, m_stream.get());
    EXPECT_EQ(vr.claimed, 0u) << ks::teach::describeCheckedRun(vr, kernel(patterns, "write_vec"));
    expectBitwiseEqual(download<float>(dvec), vecExpected);
}
