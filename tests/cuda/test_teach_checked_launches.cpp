// The engine's own generated kernels through their checked variants (issue 16): a runtime whose
// every generated launch goes to ks::teach::CheckedLaunches runs a workload that takes each path
// (elementwise plain/range/vector; map vector/scalar/strided; reductions general and vector, one
// block and the last-block combine; scans general and vector, inclusive and exclusive, in place;
// the random flip). Passing means: the results are right (the checked variants did the work), no
// access was refused, and every kernel path ran. Then the checks themselves are checked: for each
// kernel and each of its checked pointer parameters, the workload runs again with that
// parameter's extent set to zero and must be refused on it (so no pointer's accesses escape the
// checks), and with the user arrays' extents one byte short it must be refused too (the kernels do
// reach the last element, and the checks see the very end).
#include "ks/array/elementwise_kernel.hpp"
#include "ks/array/ops.hpp"
#include "ks/array/reduction.hpp"
#include "ks/array/scan.hpp"
#include "ks/cuda/memory.hpp"
#include "ks/rng/fill.hpp"
#include "ks/rng/generator.hpp"
#include "ks/teach/checked_launches.hpp"

#include "array_test_support.hpp"
#include "kernel_options.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

namespace {

using ks::array::DeviceArray;
using ks::array::DType;
using ks::array::Slice;

class CheckedEngineKernels : public ks::test::CudaTest {
protected:
    void SetUp() override
    {
        CudaTest::SetUp();
        if (IsSkipped())
            return;
        m_checked.emplace(ks::test::kernelOptions("")); // the device's arch
        ks::array::RuntimeOptions options;
        options.stream = m_stream.get();
        options.interposer = &*m_checked;
        m_rt.emplace(options);
    }
    void TearDown() override
    {
        if (m_rt)
            m_rt->synchronize();
        m_rt.reset();
        m_checked.reset();
    }

    // What the workload computed, to compare with the host.
    struct Results {
        std::vector<float> axpby, axpbyRange, sumVec, sumStrided, sumTiled, flipped;
        double sumBig = 0, dotSmall = 0, minOdd = 0;
        std::vector<int> scanIncl, scanExclInPlace;
        std::vector<float> scanFloatMisaligned;
        std::vector<short> scanShort;
        std::vector<double> scanDouble;
        double sumTransposed = 0, dotStrided = 0, mirrorOut = 0, mirrorCopy = 0;
    };

    static constexpr std::int64_t kN = 1 << 20;   // many blocks: the last-block combine
    static constexpr std::int64_t kSmall = 1000;  // not a multiple of any vector width
    Results workload()
    {
        ks::array::Runtime& rt = *m_rt;
        Results r;
        const auto hx = ks::test::uniform<float>(std::size_t(kN), -1, 1, 1);
        const auto hy = ks::test::uniform<float>(std::size_t(kN), -1, 1, 2);
        const DeviceArray x = ks::array::fromHost(rt, std::span<const float>(hx), {kN});
        const DeviceArray y = ks::array::fromHost(rt, std::span<const float>(hy), {kN});

        // Elementwise: the vector entry (aligned, large), the plain one (odd size view) and range=.
        const ks::array::ElementwiseKernel axpby("float *z, float a, float *x, float b, float *y", "z[i] = a*x[i] + b*y[i]",
                                                 "checked_axpby");
        DeviceArray z = DeviceArray::empty(rt, {kN}, DType::Float32);
        axpby(rt, {z, 2.0f, x, 3.0f, y});
        r.axpby = z.toHost<float>();
        DeviceArray zs = DeviceArray::empty(rt, {kSmall}, DType::Float32);
        axpby(rt, {zs, 2.0f, x.slice(Slice::range(1, kSmall + 1)), 3.0f, y.slice(Slice::range(3, kSmall + 3))});
        DeviceArray zr = ks::array::zeros(rt, {kSmall}, DType::Float32);
        ks::array::ElementwiseCall range;
        range.range = Slice::range(kSmall - 1, -1, -3);
        axpby(rt, {zr, 2.0f, x.slice(Slice::to(kSmall)), 3.0f, y.slice(Slice::to(kSmall))}, range);
        r.axpbyRange = zr.toHost<float>();

        // Map kernels: contiguous aligned (vector), misaligned views (scalar), every second column
        // (strided), transposed (tiled).
        const DeviceArray sumV = x + y;
        r.sumVec = sumV.toHost<float>();
        (void)(x.slice(Slice::range(1, kSmall + 1)) + y.slice(Slice::range(2, kSmall + 2))).toHost<float>();
        const DeviceArray m = x.slice(Slice::to(1024 * 512)).reshape({1024, 512});
        r.sumStrided = (m.slice(1, Slice::from(0, 2)) + 1.0f).toHost<float>();
        r.sumTiled = (m.transpose() + 1.0f).toHost<float>();

        // Reductions: the vector kernel with many blocks, the general one (misaligned), one block.
        r.sumBig = ks::array::sum(x).toHost<float>()[0];
        r.dotSmall = ks::array::dot(x.slice(Slice::range(1, kSmall + 1)), y.slice(Slice::range(1, kSmall + 1)))
                         .toHost<float>()[0];
        r.minOdd = ks::array::min(x.slice(Slice::range(5, 5 + 37))).toHost<float>()[0];
        // Over strided views: the built-ins walk each element's offset from a layout (ks_at(p, i,
        // layout), checked at that offset). And a reduction with a mirror: the result written to a
        // second device array too.
        // (every second column: a transposed view with gaps; one without is read as its dense block)
        r.sumTransposed = ks::array::sum(m.slice(1, Slice::from(0, 2)).transpose()).toHost<float>()[0];
        r.dotStrided = ks::array::dot(x.slice(Slice::range(0, 3 * kSmall, 3)), y.slice(Slice::range(1, 3 * kSmall + 1, 3)))
                           .toHost<float>()[0];
        ks::array::ReductionSpec plainSum;
        plainSum.outType = "float";
        plainSum.neutral = "0";
        plainSum.reduceExpr = "a+b";
        plainSum.arguments = "const float* x";
        plainSum.name = "checked_mirror_sum";
        const ks::array::ReductionKernel mirrored(rt, plainSum);
        const DeviceArray mirrorOut = DeviceArray::empty(rt, {1}, DType::Float32);
        const DeviceArray mirrorCopy = DeviceArray::empty(rt, {1}, DType::Float32);
        const DeviceArray xm = x.slice(Slice::to(kSmall)).copy(); // an allocation of its own, read to its end
        const ks::array::MapArg mirrorArgs[] = {xm};
        mirrored.launch(mirrorOut.data(), kSmall, mirrorArgs, mirrorCopy.data());
        r.mirrorOut = mirrorOut.toHost<float>()[0];
        r.mirrorCopy = mirrorCopy.toHost<float>()[0];

        // Scans: int (vector kernel), exclusive in place, misaligned float view (general kernel),
        // short (2-byte values: the general kernel).
        std::vector<int> hi(static_cast<std::size_t>(kN));
        for (std::size_t i = 0; i < hi.size(); ++i)
            hi[i] = int(i % 7) - 3;
        const DeviceArray xi = ks::array::fromHost(rt, std::span<const int>(hi), {kN});
        const ks::array::InclusiveScanKernel incl(rt, "int", "a+b");
        DeviceArray si = DeviceArray::empty(rt, {kN}, DType::Int32);
        incl(xi, si);
        r.scanIncl = si.toHost<int>();
        const ks::array::ExclusiveScanKernel excl(rt, "int", "a+b", "0");
        DeviceArray sx = xi.copy();
        excl(sx);
        r.scanExclInPlace = sx.toHost<int>();
        const ks::array::InclusiveScanKernel inclF(rt, "float", "a+b");
        const DeviceArray xf = x.slice(Slice::range(1, kSmall + 1));
        DeviceArray sf = DeviceArray::empty(rt, {kSmall}, DType::Float32);
        inclF(xf, sf);
        r.scanFloatMisaligned = sf.toHost<float>();
        std::vector<short> hs(std::size_t(kSmall), short(1));
        const DeviceArray xs = ks::array::fromHost(rt, std::span<const short>(hs), {kSmall});
        const ks::array::InclusiveScanKernel inclS(rt, "short", "a+b");
        DeviceArray ss = DeviceArray::empty(rt, {kSmall}, DType::Int16);
        inclS(xs, ss);
        r.scanShort = ss.toHost<short>();
        // double (8-byte values: the states' flags and values apart, not packed in one word).
        std::vector<double> hd(static_cast<std::size_t>(kN));
        for (std::size_t i = 0; i < hd.size(); ++i)
            hd[i] = double(i % 5);
        const DeviceArray xd = ks::array::fromHost(rt, std::span<const double>(hd), {kN});
        const ks::array::InclusiveScanKernel inclD(rt, "double", "a+b");
        DeviceArray sd = DeviceArray::empty(rt, {kN}, DType::Float64);
        inclD(xd, sd);
        r.scanDouble = sd.toHost<double>();

        // Random numbers in (0, 1]: cuRAND's [0, 1) flipped by a generated kernel.
        ks::rng::Generator gen(ks::rng::GeneratorType::Philox4x32_10, 7);
        r.flipped = ks::rng::rand(gen, rt, {kSmall}, DType::Float32).toHost<float>();
        m_hx = hx;
        m_hy = hy;
        m_hi = hi;
        return r;
    }

    std::optional<ks::teach::CheckedLaunches> m_checked;
    std::optional<ks::array::Runtime> m_rt;
    std::vector<float> m_hx, m_hy;
    std::vector<int> m_hi;
};

TEST_F(CheckedEngineKernels, EveryGeneratedKernelRunsCheckedWithNoFinding)
{
    const Results r = workload();
    for (const auto& f : m_checked->findings())
        ADD_FAILURE() << f.kernel << ": " << f.text;

    // The checked variants did the kernels' work.
    for (std::int64_t i = 0; i < kN; i += 4099) {
        ASSERT_NEAR(r.axpby[std::size_t(i)], 2 * m_hx[std::size_t(i)] + 3 * m_hy[std::size_t(i)], 1e-5) << i;
        ASSERT_NEAR(r.sumVec[std::size_t(i)], m_hx[std::size_t(i)] + m_hy[std::size_t(i)], 1e-6) << i;
    }
    for (std::int64_t i = 0; i < kSmall; ++i) {
        const float expected = (kSmall - 1 - i) % 3 == 0 ? 2 * m_hx[std::size_t(i)] + 3 * m_hy[std::size_t(i)] : 0.f;
        ASSERT_NEAR(r.axpbyRange[std::size_t(i)], expected, 1e-5) << i;
    }
    ASSERT_NEAR(r.sumStrided[1], m_hx[2] + 1.0f, 1e-6); // every second column: [0][1] is m[0][2]
    ASSERT_NEAR(r.sumTiled[1], m_hx[512] + 1.0f, 1e-6);  // transposed (512, 1024): [0][1] is m[1][0]
    double sum = 0, dot = 0;
    for (std::int64_t i = 0; i < kN; ++i)
        sum += m_hx[std::size_t(i)];
    for (std::int64_t i = 1; i <= kSmall; ++i)
        dot += double(m_hx[std::size_t(i)]) * m_hy[std::size_t(i)];
    EXPECT_NEAR(r.sumBig, sum, 1e-2);
    EXPECT_NEAR(r.dotSmall, dot, 1e-3);
    EXPECT_FLOAT_EQ(float(r.minOdd), *std::min_element(m_hx.begin() + 5, m_hx.begin() + 42));
    long long run = 0;
    for (std::int64_t i = 0; i < kN; ++i) {
        ASSERT_EQ(r.scanExclInPlace[std::size_t(i)], run) << i;
        run += m_hi[std::size_t(i)];
        ASSERT_EQ(r.scanIncl[std::size_t(i)], run) << i;
    }
    float runF = 0;
    for (std::int64_t i = 0; i < kSmall; ++i) {
        runF += m_hx[std::size_t(i + 1)];
        ASSERT_NEAR(r.scanFloatMisaligned[std::size_t(i)], runF, 1e-3) << i;
        ASSERT_EQ(r.scanShort[std::size_t(i)], short(i + 1)) << i;
    }
    for (float v : r.flipped)
        ASSERT_TRUE(v > 0.f && v <= 1.f) << v;
    double runD = 0;
    for (std::int64_t i = 0; i < kN; ++i) {
        runD += double(i % 5);
        ASSERT_EQ(r.scanDouble[std::size_t(i)], runD) << i;
    }
    double sumHalf = 0, dotEvery3 = 0, sumSmall = 0;
    for (std::int64_t i = 0; i < 1024 * 512; i += 2) // m's even columns
        sumHalf += m_hx[std::size_t(i)];
    for (std::int64_t k = 0; k < kSmall; ++k) {
        dotEvery3 += double(m_hx[std::size_t(3 * k)]) * m_hy[std::size_t(3 * k + 1)];
        sumSmall += m_hx[std::size_t(k)];
    }
    EXPECT_NEAR(r.sumTransposed, sumHalf, 1e-2);
    EXPECT_NEAR(r.dotStrided, dotEvery3, 1e-3);
    EXPECT_NEAR(r.mirrorOut, sumSmall, 1e-3);
    EXPECT_EQ(r.mirrorCopy, r.mirrorOut) << "the mirror holds the result too";

    // Every path ran, checked, and no pointer argument went unchecked.
    std::set<std::string> launched;
    for (const auto& [entry, count] : m_checked->counts()) {
        launched.insert(entry);
        EXPECT_EQ(count.unknownPointers, 0u) << entry;
    }
    for (const char* entry : {"checked_axpby", "checked_axpby_range", "checked_axpby_vec", "ks_map_vec", "ks_map_scalar",
                              "ks_map_strided", "ks_map_tiled", "ks_rng_flip_f32", "ks_sum_float32_float32_float32_s_reduce",
                              "ks_dot_float32_float32_float32_s_reduce", "checked_mirror_sum_reduce_vec"})
        EXPECT_TRUE(launched.count(entry)) << entry << " did not run";
    int reduceVec = 0, reduceGeneral = 0, scanVec = 0, scanGeneral = 0;
    for (const std::string& e : launched) {
        const bool reduce = e.find("_reduce") != std::string::npos;
        const bool vec = e.size() > 4 && e.compare(e.size() - 4, 4, "_vec") == 0;
        reduceVec += reduce && vec;
        reduceGeneral += reduce && !vec;
        scanVec += e.find("scan") != std::string::npos && vec;
        scanGeneral += e.find("scan") != std::string::npos && !vec && !reduce;
    }
    EXPECT_GT(reduceVec, 0);
    EXPECT_GT(reduceGeneral, 0);
    EXPECT_GT(scanVec, 0);
    EXPECT_GT(scanGeneral, 0);
    std::string listing;
    for (const auto& [entry, count] : m_checked->counts())
        listing += "  " + entry + ": " + std::to_string(count.launches) + " launches, " +
                   std::to_string(count.pointerArguments) + " pointer arguments checked\n";
    std::printf("checked launches:\n%s", listing.c_str());
}

TEST_F(CheckedEngineKernels, EveryPointerParameterIsCheckedToItsLastByte)
{
    (void)workload(); // builds every variant once; learns the entry points and their pointers
    ASSERT_TRUE(m_checked->findings().empty());
    std::vector<std::string> entries;
    for (const auto& [entry, count] : m_checked->counts())
        if (count.pointerArguments > 0)
            entries.push_back(entry);
    ASSERT_FALSE(entries.empty());

    // Which parameters each entry checked (an extent other than unchecked, in some launch).
    std::map<std::string, std::set<std::size_t>> pointers;
    m_checked->adjustExtents = [&](const std::string& entry, std::vector<ks::teach::CheckedExtent>& extents) {
        for (std::size_t i = 0; i < extents.size(); ++i)
            if (extents[i].size != ks::teach::kExtentUnchecked)
                pointers[entry].insert(i);
    };
    (void)workload();
    int controls = 0;
    for (const auto& [entry, params] : pointers) {
        for (const std::size_t param : params) {
            for (const bool oneByteShort : {false, true}) {
                const std::size_t before = m_checked->findings().size();
                bool narrowed = false;
                m_checked->adjustExtents = [&](const std::string& e, std::vector<ks::teach::CheckedExtent>& extents) {
                    if (e != entry || param >= extents.size() || extents[param].size == ks::teach::kExtentUnchecked)
                        return;
                    extents[param].size = oneByteShort && extents[param].size > 0 ? extents[param].size - 1 : 0;
                    narrowed = true;
                };
                try {
                    (void)workload();
                } catch (const ks::Error&) {
                    // a refused scratch stops a scan early; what it computed does not matter here
                }
                if (!narrowed)
                    continue;
                bool found = false;
                for (std::size_t k = before; k < m_checked->findings().size(); ++k)
                    found = found || (m_checked->findings()[k].kernel == entry && m_checked->findings()[k].record.first.param == param);
                // One byte short: the vector kernels run over whole allocations in the workload, so
                // each of their arrays is read or written to its last byte; scratch and partials are
                // larger than a launch uses (only the zero-extent control applies to them).
                const std::string& name = m_checked->counts().at(entry).parameterNames.at(param);
                const bool toTheEnd = entry.size() > 4 && entry.compare(entry.size() - 4, 4, "_vec") == 0 &&
                                      name != "ks_partials" && name != "ks_scratch";
                if (!oneByteShort || toTheEnd) {
                    EXPECT_TRUE(found) << entry << ": parameter " << param << " (" << name << ") "
                                       << (oneByteShort ? "one byte short" : "with extent 0") << " was not refused";
                }
                controls += found ? 1 : 0;
            }
        }
    }
    std::printf("%d controls refused as expected over %zu kernels\n", controls, pointers.size());
    EXPECT_GT(controls, 0);
}

// The scans' tile states are checked one by one, where each is read or written: with a scratch
// that holds the tile counter and the first 3 tiles' flag words only (40 bytes), the multi-tile
// scans (int: flag and value packed in one word; double: flags and values apart) are refused at a
// tile state past those, not at the scratch's start as one check of the whole layout would be, and
// the launch ends (a refused state never keeps a look-back waiting).
TEST_F(CheckedEngineKernels, ScanTileStatesAreCheckedOneByOne)
{
    (void)workload();
    ASSERT_TRUE(m_checked->findings().empty());
    const std::size_t before = m_checked->findings().size();
    m_checked->adjustExtents = [&](const std::string& entry, std::vector<ks::teach::CheckedExtent>& extents) {
        if (entry.find("scan") == std::string::npos)
            return;
        const auto& names = m_checked->counts().at(entry).parameterNames;
        for (std::size_t i = 0; i < extents.size() && i < names.size(); ++i)
            if (names[i] == "ks_scratch" && extents[i].size != ks::teach::kExtentUnchecked)
                extents[i].size = 16 + 3 * 8;
    };
    try {
        (void)workload();
    } catch (const ks::Error&) {
        // the refused scans' results do not matter here
    }
    int refused = 0;
    std::set<std::string> kinds;
    for (std::size_t k = before; k < m_checked->findings().size(); ++k) {
        const auto& f = m_checked->findings()[k];
        const auto& names = m_checked->counts().at(f.kernel).parameterNames;
        ASSERT_LT(f.record.first.param, names.size());
        EXPECT_EQ(names[f.record.first.param], "ks_scratch") << f.kernel << ": " << f.text;
        EXPECT_GE(f.record.first.byteOffset, 16 + 3 * 8) << f.kernel << ": refused at a tile state past the third";
        ++refused;
        kinds.insert(f.kernel);
    }
    std::string listing;
    for (const auto& k : kinds)
        listing += " " + k;
    std::printf("%d scan launches refused at a tile state (%s)\n", refused, listing.c_str());
    // The workload's scans of more than 3 tiles: the inclusive and the in-place exclusive int scans
    // (packed states) and the double scan (flags and values apart); the float and short scans of
    // 1,000 elements are one tile each and fit.
    EXPECT_EQ(refused, 3);
}

} // namespace

namespace {

class CheckedPhiloxFills : public ks::test::CudaTest {};

// A fill of each of the seven Philox kernels, T its element type.
struct PhiloxKernel {
    const char* name;
    std::function<void(ks::rng::Generator&, void*, std::size_t, CUstream)> fill;
    std::size_t size;
};

std::vector<PhiloxKernel> philoxKernels()
{
    using G = ks::rng::Generator;
    return {
        {"philox uniform float32", [](G& g, void* p, std::size_t n, CUstream s) { g.uniform(static_cast<float*>(p), n, s); }, 4},
        {"philox uniform float64", [](G& g, void* p, std::size_t n, CUstream s) { g.uniform(static_cast<double*>(p), n, s); }, 8},
        {"philox bits uint32", [](G& g, void* p, std::size_t n, CUstream s) { g.bits(static_cast<std::uint32_t*>(p), n, s); }, 4},
        {"philox normal float32", [](G& g, void* p, std::size_t n, CUstream s) { g.normal(static_cast<float*>(p), n, 1.f, 2.f, s); }, 4},
        {"philox normal float64", [](G& g, void* p, std::size_t n, CUstream s) { g.normal(static_cast<double*>(p), n, 1.0, 2.0, s); }, 8},
        {"philox log-normal float32", [](G& g, void* p, std::size_t n, CUstream s) { g.logNormal(static_cast<float*>(p), n, 0.f, 0.5f, s); }, 4},
        {"philox log-normal float64", [](G& g, void* p, std::size_t n, CUstream s) { g.logNormal(static_cast<double*>(p), n, 0.0, 0.5, s); }, 8},
    };
}

} // namespace

// The Philox fills (nvcc-compiled, ks::rng) through their checked variant: each of the seven
// kernels over an allocation of exactly the elements it fills, at its start (16-byte stores, a
// tail of single stores) and one element in (single stores only), with counts up to one that takes
// the capped grids round their loop (18M): the same numbers as the plain fill (bit for bit) and no
// refused store. Then the controls: the same fills told to write 3 elements more than the
// allocation holds are refused, at the allocation's end, and only there.
TEST_F(CheckedPhiloxFills, EveryFillRunsCheckedWithTheSameNumbersAndNoFinding)
{
    const CUstream stream = m_stream.get();
    int launches = 0;
    for (const PhiloxKernel& k : philoxKernels()) {
        for (std::size_t offset : {std::size_t(0), std::size_t(1)}) {
            for (std::size_t n : {std::size_t(1), std::size_t(1001), std::size_t(3'000'017), std::size_t(18'000'001)}) {
                SCOPED_TRACE(std::string(k.name) + ", offset " + std::to_string(offset) + ", n " + std::to_string(n));
                ks::rng::Generator plain(ks::rng::GeneratorType::Philox4x32_10, 1234), checked(ks::rng::GeneratorType::Philox4x32_10, 1234);
                checked.setCheckedFills(true);
                // Compare bytes: the same bits, whatever the type.
                auto bytes = [&](ks::rng::Generator& g) {
                    ks::cuda::DeviceMemory memory((offset + n) * k.size);
                    k.fill(g, memory.as<char>() + offset * k.size, n, stream);
                    KS_CU(cuStreamSynchronize, stream);
                    std::vector<unsigned char> host(n * k.size);
                    memory.download(host.data(), host.size(), offset * k.size);
                    return host;
                };
                EXPECT_EQ(bytes(checked), bytes(plain)) << "the checked variant gives the same numbers";
                ASSERT_EQ(checked.checkedFills().size(), 1u);
                const auto& f = checked.checkedFills().back();
                EXPECT_EQ(f.kernel, k.name);
                EXPECT_EQ(f.extent, n * k.size) << "checked against its allocation's end";
                EXPECT_EQ(f.record.failures, 0u) << "refused " << f.record.failures << " stores, the first at byte "
                                                 << f.record.first.byteOffset;
                ++launches;
            }
        }
        // Control: 3 elements more than the allocation holds.
        for (std::size_t offset : {std::size_t(0), std::size_t(1)}) {
            SCOPED_TRACE(std::string(k.name) + " told to write past its allocation, offset " + std::to_string(offset));
            const std::size_t room = 4096 + 1, n = room + 3;
            ks::rng::Generator checked(ks::rng::GeneratorType::Philox4x32_10, 1234);
            checked.setCheckedFills(true);
            ks::cuda::DeviceMemory memory((offset + room) * k.size);
            k.fill(checked, memory.as<char>() + offset * k.size, n, stream);
            KS_CU(cuStreamSynchronize, stream);
            ASSERT_EQ(checked.checkedFills().size(), 1u);
            const auto& f = checked.checkedFills().back();
            EXPECT_EQ(f.extent, room * k.size);
            ASSERT_GT(f.record.failures, 0u) << "the stores past the end were not refused";
            ASSERT_NE(f.record.claimed, 0u);
            const ks::teach::CheckedFault& first = f.record.first;
            EXPECT_TRUE(first.problem & ks::teach::kCheckedOutOfRange);
            EXPECT_EQ(first.access, unsigned(ks::teach::kCheckedWrite));
            // The refused store reaches past the end and starts within the 16 bytes before it or after it.
            EXPECT_GT(first.byteOffset + (long long)first.elementSize, (long long)f.extent);
            EXPECT_LT(first.byteOffset, (long long)(f.extent + 3 * k.size));
            EXPECT_LE(f.record.failures, 3u) << "only the stores past the end";
        }
    }
    EXPECT_EQ(launches, 7 * 2 * 4);
    std::printf("[ checked ] 7 Philox kernels: %d fills checked with no finding; 14 controls refused\n", launches);
}
