// ks_bench_arrays: device arrays and algorithms against the memory system's limits and against CUB.
//
//   ks_bench_arrays [--json FILE] [--reps N] [--scan-shapes]
//
// Every number is a median over N repetitions timed with CUDA events on one stream, on buffers far
// larger than the L2 cache (256 MiB to 1 GiB against H100's 50 MB), filled with random data (never
// zeros). Each row prints GB/s, its ratio to its limit (copy, read or write bandwidth measured in the
// same run) and to its peer (CUB, or the hand-written kernel). See bench/README.md.
#include "ks/array/elementwise_kernel.hpp"
#include "ks/array/indexing.hpp"
#include "ks/array/ops.hpp"
#include "ks/array/reduction.hpp"
#include "ks/array/runtime.hpp"
#include "ks/array/scan.hpp"
#include "ks/core/error.hpp"
#include "ks/cuda/context.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/event.hpp"
#include "ks/rng/fill.hpp"
#include "ks/rng/generator.hpp"

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/execution_policy.h>
#include <thrust/gather.h>
#include <thrust/scatter.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace {

using ks::array::DeviceArray;
using ks::array::Dims;
using ks::array::DType;

void checkRuntime(cudaError_t e, const char* call)
{
    if (e != cudaSuccess)
        throw ks::Error(ks::ErrorDomain::CudaRuntime, call, e, cudaGetErrorName(e), cudaGetErrorString(e));
}

// ----- hand-written peers (nvcc)

__global__ void axpbyHand(float a, const float4* __restrict__ x, float b, const float4* __restrict__ y,
                          float4* __restrict__ z, long long n4)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n4; i += (long long)gridDim.x * blockDim.x) {
        const float4 u = x[i], v = y[i];
        z[i] = make_float4(a * u.x + b * v.x, a * u.y + b * v.y, a * u.z + b * v.z, a * u.w + b * v.w);
    }
}

__global__ void writeHand(float4* __restrict__ p, long long n4, float value)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n4; i += (long long)gridDim.x * blockDim.x)
        p[i] = make_float4(value, value, value, value);
}

struct DotTerm {
    const float* x;
    const float* y;
    __host__ __device__ float operator()(long long i) const { return x[i] * y[i]; }
};


struct Row {
    std::string name;
    double bytes = 0;    // bytes moved per run
    double ms = 0;       // median
    double gbs = 0;
    std::string limitName;
    double limitGbs = 0;
    std::string peerName;
    double peerGbs = 0;
    std::string goal;
    bool met = true;
    std::string note;
};

class Bench {
public:
    Bench(ks::array::Runtime& rt, int reps) : m_rt(rt), m_reps(reps), m_start(ks::cuda::Event::Create{}),
                                                m_stop(ks::cuda::Event::Create{})
    {
    }

    // Median milliseconds of `op` over the repetitions (after two warm-up runs).
    double time(const std::function<void()>& op)
    {
        op();
        op();
        std::vector<float> ms;
        for (int r = 0; r < m_reps; ++r) {
            m_start.record(m_rt.stream());
            op();
            m_stop.record(m_rt.stream());
            m_stop.synchronize();
            ms.push_back(m_stop.elapsedMsSince(m_start));
        }
        std::sort(ms.begin(), ms.end());
        return ms[ms.size() / 2];
    }

    // Median host microseconds one call of `op` takes to return (queueing its work), the stream idle
    // before each call. In time() the GPU waits for exactly this between the start event and the
    // first kernel, so a call's host cost is part of its event time when nothing is queued ahead.
    double hostUs(const std::function<void()>& op)
    {
        std::vector<double> us;
        for (int r = 0; r < m_reps; ++r) {
            m_rt.synchronize();
            const auto t = std::chrono::steady_clock::now();
            op();
            us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t).count());
        }
        m_rt.synchronize();
        std::sort(us.begin(), us.end());
        return us[us.size() / 2];
    }

    // Median milliseconds per call of `k` calls queued back to back between one pair of events: the
    // GPU's time per call with the host's cost hidden behind the work already queued.
    double queuedMs(const std::function<void()>& op, int k)
    {
        op();
        std::vector<float> ms;
        for (int r = 0; r < std::max(3, m_reps / 4); ++r) {
            m_start.record(m_rt.stream());
            for (int i = 0; i < k; ++i)
                op();
            m_stop.record(m_rt.stream());
            m_stop.synchronize();
            ms.push_back(m_stop.elapsedMsSince(m_start) / float(k));
        }
        std::sort(ms.begin(), ms.end());
        return ms[ms.size() / 2];
    }

    static double gbs(double bytes, double ms) { return bytes / (ms * 1e6); }

private:
    ks::array::Runtime& m_rt;
    int m_reps;
    ks::cuda::Event m_start, m_stop;
};

std::string fmt(double v, const char* f = "%.1f")
{
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

void printTable(const std::vector<Row>& rows)
{
    std::printf("\n%-34s %9s %9s %-12s %7s %-26s %7s  %s\n", "benchmark", "ms", "GB/s", "limit", "of lim", "peer",
                "of peer", "goal");
    for (const Row& r : rows) {
        std::printf("%-34s %9.3f %9.1f %-12s %7s %-26s %7s  %s %s\n", r.name.c_str(), r.ms, r.gbs, r.limitName.c_str(),
                    r.limitGbs > 0 ? fmt(r.gbs / r.limitGbs, "%.3f").c_str() : "-", r.peerName.c_str(),
                    r.peerGbs > 0 ? fmt(r.gbs / r.peerGbs, "%.3f").c_str() : "-", r.goal.c_str(),
                    r.goal.empty() ? "" : (r.met ? "[met]" : "[MISSED]"));
        if (!r.note.empty())
            std::printf("    %s\n", r.note.c_str());
    }
}

int run(int argc, char** argv)
{
    std::string jsonPath;
    int reps = 30;
    bool scanShapes = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--json" && i + 1 < argc)
            jsonPath = argv[++i];
        else if (a == "--reps" && i + 1 < argc)
            reps = std::max(3, std::atoi(argv[++i]));
        else if (a == "--scan-shapes")
            scanShapes = true;
        else {
            std::printf("usage: ks_bench_arrays [--json FILE] [--reps N] [--scan-shapes]\n");
            return a == "--help" || a == "-h" ? 0 : 2;
        }
    }
    const ks::cuda::DriverStatus& status = ks::cuda::driverStatus();
    if (!status.available || status.deviceCount == 0) {
        std::printf("ks_bench_arrays: no CUDA device (%s); nothing to measure.\n",
                    status.reason.empty() ? "no devices" : status.reason.c_str());
        return 0;
    }

    ks::cuda::PrimaryContext context(0);
    const ks::cuda::DeviceInfo dev = ks::cuda::queryDevice(0);
    ks::array::Runtime rt;
    Bench bench(rt, reps);
    const cudaStream_t stream = reinterpret_cast<cudaStream_t>(rt.stream());
    std::printf("%s (%s), %d SMs, L2 %.0f MB, %s, theoretical %.0f GB/s; %d reps, medians\n", dev.name.c_str(),
                dev.computeCapability().c_str(), dev.smCount, dev.l2CacheBytes / 1e6,
                ks::cuda::formatBytes(dev.totalMemory).c_str(), dev.peakBandwidthGBs(), reps);

    const std::int64_t big = std::int64_t(1) << 28;   // 256M elements: 1 GiB of float32
    const std::int64_t small = std::int64_t(1) << 26; // 64M elements
    ks::rng::Generator gen(ks::rng::GeneratorType::Philox4x32_10, 2024);
    DeviceArray x = DeviceArray::empty(rt, Dims{big}, DType::Float32);
    DeviceArray y = DeviceArray::empty(rt, Dims{big}, DType::Float32);
    ks::rng::fillUniform(gen, x);
    ks::rng::fillNormal(gen, y);
    DeviceArray scanIn = DeviceArray::empty(rt, Dims{big}, DType::UInt32);
    ks::rng::fillUniform(gen, scanIn);
    const DeviceArray scanIn32 = scanIn.viewAs(DType::Int32);
    DeviceArray scanOut = DeviceArray::empty(rt, Dims{big}, DType::Int32);
    DeviceArray scanRef = DeviceArray::empty(rt, Dims{big}, DType::Int32);
    rt.synchronize();

    std::vector<Row> rows;
    const double gib = double(big) * 4;

    // ----- limits: copy (read + write), write-only, read-only
    Row copy{"copy D2D 1 GiB (read+write)", 2 * gib};
    copy.ms = bench.time([&] { KS_CU(cuMemcpyDtoDAsync, scanRef.data(), scanIn.data(), std::size_t(gib), rt.stream()); });
    copy.gbs = Bench::gbs(copy.bytes, copy.ms);
    copy.limitName = "theoretical";
    copy.limitGbs = dev.peakBandwidthGBs();
    rows.push_back(copy);

    Row memsetRow{"write-only: memset 1 GiB", gib};
    memsetRow.ms = bench.time([&] { KS_CU(cuMemsetD32Async, scanRef.data(), 0x3f800000u, std::size_t(big), rt.stream()); });
    memsetRow.gbs = Bench::gbs(memsetRow.bytes, memsetRow.ms);
    Row writeKernel{"write-only: store kernel 1 GiB", gib};
    writeKernel.ms = bench.time([&] {
        writeHand<<<dev.smCount * 8, 256, 0, stream>>>(reinterpret_cast<float4*>(scanRef.data()), big / 4, 1.5f);
    });
    writeKernel.gbs = Bench::gbs(writeKernel.bytes, writeKernel.ms);
    const double writeBw = std::max(memsetRow.gbs, writeKernel.gbs);
    for (Row* r : {&memsetRow, &writeKernel}) {
        r->limitName = "theoretical";
        r->limitGbs = dev.peakBandwidthGBs();
        rows.push_back(*r);
    }

    // Sums: ours and CUB's; the faster sets the read bandwidth.
    DeviceArray result = DeviceArray::empty(rt, Dims{}, DType::Float32);
    DeviceArray cubResult = DeviceArray::empty(rt, Dims{}, DType::Float32);
    std::size_t tempBytes = 0;
    checkRuntime(cub::DeviceReduce::Sum(nullptr, tempBytes, x.ptr<float>(), cubResult.ptr<float>(), big, stream),
                 "cub::DeviceReduce::Sum");
    std::size_t scanTemp = 0;
    checkRuntime(cub::DeviceScan::InclusiveSum(nullptr, scanTemp, scanIn32.ptr<int>(), scanRef.ptr<int>(), big, stream),
                 "cub::DeviceScan::InclusiveSum");
    auto dotIt = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), DotTerm{x.ptr<float>(), y.ptr<float>()});
    std::size_t dotTemp = 0;
    checkRuntime(cub::DeviceReduce::Sum(nullptr, dotTemp, dotIt, cubResult.ptr<float>(), big, stream), "cub dot");
    DeviceArray temp = DeviceArray::empty(rt, Dims{std::int64_t(std::max({tempBytes, scanTemp, dotTemp}) + 16)}, DType::UInt8);
    void* tempPtr = temp.ptr<void>();

    auto cubSum = [&] {
        checkRuntime(cub::DeviceReduce::Sum(tempPtr, tempBytes, x.ptr<float>(), cubResult.ptr<float>(), big, stream), "cub sum");
    };
    const double cubSumMs = bench.time(cubSum);
    const double ourSumMs = bench.time([&] { ks::array::sum(x, result); });
    const double readBw = std::max(Bench::gbs(gib, cubSumMs), Bench::gbs(gib, ourSumMs));
    Row readRow{"read-only: fastest 1 GiB sum", gib, std::min(cubSumMs, ourSumMs), readBw, "theoretical", dev.peakBandwidthGBs()};
    readRow.note = cubSumMs < ourSumMs ? "set by CUB DeviceReduce::Sum" : "set by ks::array::sum";
    rows.push_back(readRow);

    // ----- elementwise z = a*x + b*y on 64M float32
    const DeviceArray xs = x.slice(ks::array::Slice::to(small)), ys = y.slice(ks::array::Slice::to(small));
    DeviceArray zs = scanOut.viewAs(DType::Float32).slice(ks::array::Slice::to(small));
    const double axBytes = 3.0 * double(small) * 4;
    Row hand{"axpby 64M f32 hand-written", axBytes};
    hand.ms = bench.time([&] {
        axpbyHand<<<dev.smCount * 8, 256, 0, stream>>>(2.f, xs.ptr<float4>(), 3.f, ys.ptr<float4>(), zs.ptr<float4>(),
                                                       small / 4);
    });
    hand.gbs = Bench::gbs(axBytes, hand.ms);
    hand.limitName = "copy";
    hand.limitGbs = copy.gbs;
    hand.goal = ">=0.90 copy";
    hand.met = hand.gbs >= 0.9 * copy.gbs;
    rows.push_back(hand);

    // Generated from expressions: PyCUDA's ElementwiseKernel (a grid-stride loop over i) and the array
    // layer's mul_add (a map kernel with vector loads).
    const ks::array::ElementwiseKernel linComb("float a, float *x, float b, float *y, float *z", "z[i] = a*x[i] + b*y[i]",
                                               "linear_combination");
    auto generatedRow = [&](const std::string& name, const std::function<void()>& op) {
        Row r{name, axBytes};
        r.ms = bench.time(op);
        r.gbs = Bench::gbs(axBytes, r.ms);
        r.limitName = "copy";
        r.limitGbs = copy.gbs;
        r.peerName = "hand-written";
        r.peerGbs = hand.gbs;
        r.goal = ">=0.90 copy, >=0.95 hand";
        r.met = r.gbs >= 0.9 * copy.gbs && r.gbs >= 0.95 * hand.gbs;
        rows.push_back(r);
    };
    generatedRow("axpby 64M f32 ElementwiseKernel", [&] { linComb(rt, {2.f, xs, 3.f, ys, zs}); });
    generatedRow("axpby 64M f32 mulAddInto", [&] { ks::array::mulAddInto(2.f, xs, 3.f, ys, zs); });

    // ----- reductions of 256M float32
    auto reductionRow = [&](const std::string& name, double bytes, const std::function<void()>& ours,
                            const std::string& peerName, const std::function<void()>& peer) {
        Row r{name, bytes};
        r.ms = bench.time(ours);
        r.gbs = Bench::gbs(bytes, r.ms);
        r.limitName = "read";
        r.limitGbs = readBw;
        r.peerName = peerName;
        r.peerGbs = Bench::gbs(bytes, bench.time(peer));
        r.goal = ">=0.90 read, >=1.00 CUB";
        // The issue's words, "at least as fast as CUB": no slack (two medians of the same memory
        // system differ by about 1% from run to run; the ratio is printed so a reader can see it).
        r.met = r.gbs >= 0.9 * readBw && r.gbs >= r.peerGbs;
        rows.push_back(r);
    };
    reductionRow("sum 256M f32", gib, [&] { ks::array::sum(x, result); }, "CUB DeviceReduce::Sum", cubSum);
    reductionRow("dot 256M f32", 2 * gib, [&] { ks::array::dot(x, y, result); }, "CUB Sum(transform x*y)", [&] {
        checkRuntime(cub::DeviceReduce::Sum(tempPtr, dotTemp, dotIt, cubResult.ptr<float>(), big, stream), "cub dot");
    });
    reductionRow("min 256M f32", gib, [&] { ks::array::min(y, result); }, "CUB DeviceReduce::Min", [&] {
        checkRuntime(cub::DeviceReduce::Min(tempPtr, tempBytes, y.ptr<float>(), cubResult.ptr<float>(), big, stream), "cub min");
    });
    reductionRow("max 256M f32", gib, [&] { ks::array::max(y, result); }, "CUB DeviceReduce::Max", [&] {
        checkRuntime(cub::DeviceReduce::Max(tempPtr, tempBytes, y.ptr<float>(), cubResult.ptr<float>(), big, stream), "cub max");
    });
    // Where a call's time goes: its host cost (part of each event time above, the GPU idle until the
    // first kernel is queued) and its time per call with 10 calls queued back to back (the host's
    // cost hidden). Diagnostics, not goals.
    struct CallCost {
        std::string name;
        double hostUs, queuedMs;
        double bytes = 0; // moved per call, where a bandwidth means something
    };
    std::vector<CallCost> callCosts;
    for (const auto& [name, op] : std::vector<std::pair<std::string, std::function<void()>>>{
             {"ks::array::sum", [&] { ks::array::sum(x, result); }},
             {"CUB DeviceReduce::Sum", cubSum},
             {"ks::array::max", [&] { ks::array::max(y, result); }},
             {"CUB DeviceReduce::Max", [&] {
                  checkRuntime(cub::DeviceReduce::Max(tempPtr, tempBytes, y.ptr<float>(), cubResult.ptr<float>(), big, stream),
                               "cub max");
              }}})
        callCosts.push_back({name, bench.hostUs(op), bench.queuedMs(op, 10), gib});
    // Agreement with CUB (the bench must not time wrong answers).
    {
        ks::array::max(y, result);
        checkRuntime(cub::DeviceReduce::Max(tempPtr, tempBytes, y.ptr<float>(), cubResult.ptr<float>(), big, stream), "cub max");
        const float ours = result.toHost<float>()[0], theirs = cubResult.toHost<float>()[0];
        if (ours != theirs)
            rows.back().note = "MISMATCH: max " + fmt(ours, "%g") + " vs CUB " + fmt(theirs, "%g");
        ks::array::sum(x, result);
        cubSum();
        const float s1 = result.toHost<float>()[0], s2 = cubResult.toHost<float>()[0];
        if (std::abs(s1 - s2) > 1e-4 * std::abs(s2))
            rows[rows.size() - 4].note = "MISMATCH: sum " + fmt(s1, "%g") + " vs CUB " + fmt(s2, "%g");
    }

    // ----- inclusive scan of 256M int32: the vector kernel (default for aligned 4-byte values) and
    // the general kernel (element loads through shared memory), each against CUB in the same run.
    ks::array::InclusiveScanKernel scan(rt, "int", "a+b");
    {
        const double cubScanGbs = Bench::gbs(2 * gib, bench.time([&] {
            checkRuntime(cub::DeviceScan::InclusiveSum(tempPtr, scanTemp, scanIn32.ptr<int>(), scanRef.ptr<int>(), big, stream),
                         "cub scan");
        }));
        const ks::array::ReductionKernel mismatches(rt, {"long long", "0", "a+b", "(long long)(p[i] != q[i])",
                                                         "const int *p, const int *q", "", "ks_bench_mismatch"});
        for (const bool vector : {true, false}) {
            scan.setVectorPath(vector);
            Row r{vector ? "inclusive scan 256M i32" : "inclusive scan 256M i32 general", 2 * gib};
            r.ms = bench.time([&] { scan(scanIn32, scanOut); });
            r.gbs = Bench::gbs(r.bytes, r.ms);
            r.limitName = "copy";
            r.limitGbs = copy.gbs;
            r.peerName = "CUB DeviceScan::InclusiveSum";
            r.peerGbs = cubScanGbs;
            r.goal = ">=0.90 CUB";
            r.met = r.gbs >= 0.9 * r.peerGbs;
            r.note = vector ? "vector kernel (16-byte loads/stores)" : "general kernel (shared-memory tile), before the vector kernel";
            // Every element must equal CUB's (poison the output first so a stale result cannot pass).
            KS_CU(cuMemsetD32Async, scanOut.data(), 0x7eadbeefu, std::size_t(big), rt.stream());
            scan(scanIn32, scanOut);
            const long long bad = mismatches({scanOut, scanRef}).toHost<std::int64_t>()[0];
            if (bad != 0)
                r.note += "; MISMATCH: " + std::to_string(bad) + " elements differ from CUB";
            rows.push_back(r);
        }
        scan.setVectorPath(true);

        // --scan-shapes: the vector kernel's block, chunks and look-back pauses against CUB, each
        // variant checked element by element and timed next to a fresh CUB timing (the tuning
        // behind ScanTuning's defaults).
        if (scanShapes) {
            std::printf("\nvector scan shapes, 256M int32 (block x chunks, first pause / poll pause ns):\n");
            std::printf("%-34s %9s %9s %8s %s\n", "shape", "ms", "CUB ms", "of CUB", "check");
            const int shapes[][2] = {{256, 4}, {128, 8}, {128, 6}};
            const int pauses[][2] = {{0, 0}, {1893, 648}, {2500, 648}, {3500, 300}, {5000, 1000}};
            for (const auto& shape : shapes) {
                for (const auto& pause : pauses) {
                    ks::array::ScanSpec spec{"int", "a+b", "", false, "", "ks_bench_scan_shape"};
                    spec.tuning = {shape[0], shape[1], pause[0], pause[1]};
                    const ks::array::ScanKernel variant(rt, spec);
                    const double cubMs = bench.time([&] {
                        checkRuntime(cub::DeviceScan::InclusiveSum(tempPtr, scanTemp, scanIn32.ptr<int>(),
                                                                   scanRef.ptr<int>(), big, stream),
                                     "cub scan");
                    });
                    const double ms = bench.time([&] { variant(scanIn32, scanOut); });
                    KS_CU(cuMemsetD32Async, scanOut.data(), 0x7eadbeefu, std::size_t(big), rt.stream());
                    variant(scanIn32, scanOut);
                    const long long bad = mismatches({scanOut, scanRef}).toHost<std::int64_t>()[0];
                    const std::string name = std::to_string(shape[0]) + " x " + std::to_string(shape[1]) + ", " +
                                             std::to_string(pause[0]) + " / " + std::to_string(pause[1]);
                    std::printf("%-34s %9.3f %9.3f %8.3f %s\n", name.c_str(), ms, cubMs, cubMs / ms,
                                bad ? ("MISMATCH " + std::to_string(bad)).c_str() : "ok");
                }
            }
        }
    }

    // ----- Philox fills of 64M float32 (write-only): the engine's kernels (default) and cuRAND's host
    // API (FillPath::CurandHost, the previous implementation) in the same run.
    DeviceArray fillTarget = scanOut.viewAs(DType::Float32).slice(ks::array::Slice::to(small));
    ks::rng::Generator hostGen(ks::rng::GeneratorType::Philox4x32_10, 2024, ks::rng::FillPath::CurandHost);
    for (const bool normal : {false, true}) {
        double hostGbs = 0;
        for (const bool kernels : {false, true}) {
            ks::rng::Generator& g = kernels ? gen : hostGen;
            std::string name = normal ? "Philox normal 64M f32" : "Philox uniform 64M f32";
            Row r{name + (kernels ? "" : " cuRAND host"), double(small) * 4};
            r.ms = bench.time([&] {
                if (normal)
                    ks::rng::fillNormal(g, fillTarget);
                else
                    ks::rng::fillUniform(g, fillTarget);
            });
            r.gbs = Bench::gbs(r.bytes, r.ms);
            r.limitName = "write";
            r.limitGbs = writeBw;
            r.goal = ">=0.85 write";
            r.met = r.gbs >= 0.85 * writeBw;
            if (kernels) {
                r.peerName = "cuRAND host API";
                r.peerGbs = hostGbs;
                r.note = "ks::rng kernels (cuRAND device API, 16-byte stores)";
            } else {
                hostGbs = r.gbs;
                r.note = "curandGenerate" + std::string(normal ? "Normal" : "Uniform") + " (FillPath::CurandHost)";
            }
            rows.push_back(r);
        }
    }
    // Double fills (kernels only): 64M float64 = 512 MiB.
    {
        DeviceArray fill64 = scanOut.viewAs(DType::Float64).slice(ks::array::Slice::to(small));
        for (const bool normal : {false, true}) {
            Row r{normal ? "Philox normal 64M f64" : "Philox uniform 64M f64", double(small) * 8};
            r.ms = bench.time([&] {
                if (normal)
                    ks::rng::fillNormal(gen, fill64);
                else
                    ks::rng::fillUniform(gen, fill64);
            });
            r.gbs = Bench::gbs(r.bytes, r.ms);
            r.limitName = "write";
            r.limitGbs = writeBw;
            r.note = "ks::rng kernels; no goal (the issue's goal is for float32)";
            rows.push_back(r);
        }
    }

    // ----- take / put over 64M float32 against Thrust's gather and scatter (the bound for the same
    // access pattern). The indices are a permutation of 0..64M-1 made by bijective mixing steps on 26
    // bits, so that both sides read and write every element once, and put's result is determined.
    {
        const ks::array::ElementwiseKernel permute(
            "int *idx", "unsigned v = (unsigned)i; v = (v * 0x9E3779B1u) & " + std::to_string(small - 1) +
                            "u; v ^= v >> 13; v = (v * 0x85EBCA6Bu) & " + std::to_string(small - 1) +
                            "u; v ^= v >> 11; idx[i] = (int)v;",
            "ks_bench_permutation");
        DeviceArray idx = DeviceArray::empty(rt, Dims{small}, DType::Int32);
        permute(rt, {idx});
        DeviceArray gathered = DeviceArray::empty(rt, Dims{small}, DType::Float32);
        DeviceArray putDst = DeviceArray::empty(rt, Dims{small}, DType::Float32);
        DeviceArray scattered = DeviceArray::empty(rt, Dims{small}, DType::Float32);
        const ks::array::ReductionKernel differ(rt, {"long long", "0", "a+b", "(long long)(p[i] != q[i])",
                                                     "const int *p, const int *q", "", "ks_bench_differ"});
        auto count = [&](const DeviceArray& a, const DeviceArray& b) {
            return differ({a.viewAs(DType::Int32), b.viewAs(DType::Int32)}).toHost<std::int64_t>()[0];
        };
        const auto policy = thrust::cuda::par.on(stream);
        const int* ip = idx.ptr<int>();
        auto indexRow = [&](const std::string& name, const std::function<void()>& ours, const std::string& peerName,
                            const std::function<void()>& peer) {
            Row r{name, double(small) * 12}; // 4-byte index, element read, element written
            r.ms = bench.time(ours);
            r.gbs = Bench::gbs(r.bytes, r.ms);
            r.limitName = "copy";
            r.limitGbs = copy.gbs;
            r.peerName = peerName;
            r.peerGbs = Bench::gbs(r.bytes, bench.time(peer));
            r.goal = ">=0.90 Thrust";
            r.met = r.gbs >= 0.9 * r.peerGbs;
            r.note = "bytes counted: index + element read + element written; the random side moves 32-byte sectors";
            rows.push_back(r);
        };
        indexRow("take 64M f32, permuted indices", [&] { gathered = ks::array::take(xs, idx); }, "thrust::gather",
                 [&] { thrust::gather(policy, ip, ip + small, xs.ptr<float>(), scattered.ptr<float>()); });
        thrust::gather(policy, ip, ip + small, xs.ptr<float>(), scattered.ptr<float>());
        if (const long long bad = count(gathered, scattered))
            rows.back().note += "; MISMATCH: " + std::to_string(bad) + " elements differ from Thrust";
        indexRow("put 64M f32, permuted indices", [&] { ks::array::put(putDst, idx, ys); }, "thrust::scatter",
                 [&] { thrust::scatter(policy, ys.ptr<float>(), ys.ptr<float>() + small, ip, scattered.ptr<float>()); });
        if (const long long bad = count(putDst, scattered))
            rows.back().note += "; MISMATCH: " + std::to_string(bad) + " elements differ from Thrust";
    }

    // ----- the layout matrix's strided paths (step 2, reversed, transposed) against the contiguous
    // alternative a user has: copy() to a contiguous array, then the contiguous operation. No goal:
    // paths that read through a copy internally should come out even, direct strided kernels ahead.
    {
        auto layoutRow = [&](const std::string& name, double bytes, const std::function<void()>& ours,
                             const std::function<void()>& viaCopy) {
            Row r{name, bytes};
            r.ms = bench.time(ours);
            r.gbs = Bench::gbs(bytes, r.ms);
            r.limitName = "copy";
            r.limitGbs = copy.gbs;
            r.peerName = "copy() + contiguous";
            r.peerGbs = Bench::gbs(bytes, bench.time(viaCopy));
            r.note = "bytes counted: the view's elements once (and the output)";
            rows.push_back(r);
        };
        const std::int64_t half = big / 2, side = std::int64_t(1) << 14, sideSmall = std::int64_t(1) << 13;
        const DeviceArray step2 = x.slice(ks::array::Slice::from(0, 2));
        const DeviceArray reversed = x.slice(ks::array::Slice::reversed());
        const DeviceArray transposed = x.reshapeView(Dims{side, side}).transpose();
        layoutRow("sum 128M f32, step-2 view", double(half) * 4, [&] { ks::array::sum(step2, result); },
                  [&] { ks::array::sum(step2.copy(), result); });
        layoutRow("sum 256M f32, reversed view", gib, [&] { ks::array::sum(reversed, result); },
                  [&] { ks::array::sum(reversed.copy(), result); });
        layoutRow("sum 16Kx16K f32, transposed", gib, [&] { ks::array::sum(transposed, result); },
                  [&] { ks::array::sum(transposed.copy(), result); });
        const DeviceArray xs2 = x.slice(ks::array::Slice::range(0, 2 * small, 2));
        const DeviceArray ys2 = y.slice(ks::array::Slice::range(0, 2 * small, 2));
        layoutRow("add 64M f32, step-2 views", axBytes,
                  [&] { ks::array::binaryInto(ks::array::BinaryOp::Add, xs2, ys2, zs); },
                  [&] { ks::array::binaryInto(ks::array::BinaryOp::Add, xs2.copy(), ys2.copy(), zs); });
        const DeviceArray xt = xs.reshapeView(Dims{sideSmall, sideSmall}).transpose();
        const DeviceArray yt = ys.reshapeView(Dims{sideSmall, sideSmall}).transpose();
        const DeviceArray zt = zs.reshapeView(Dims{sideSmall, sideSmall});
        layoutRow("add 8Kx8K f32, transposed", axBytes,
                  [&] { ks::array::binaryInto(ks::array::BinaryOp::Add, xt, yt, zt); },
                  [&] { ks::array::binaryInto(ks::array::BinaryOp::Add, xt.copy(), yt.copy(), zt); });
        // copy() of a transposed view into C order (what .copy(), astype and assign run): the tiled
        // kernel reads and writes along rows of memory; the strided kernel read one element per
        // 32-byte sector and ran at about 0.11 of copy.
        {
            DeviceArray into = DeviceArray::empty(rt, Dims{side, side}, DType::Float32);
            Row r{"copy 16Kx16K f32 transposed -> C (read+write)", 2 * gib};
            r.ms = bench.time([&] { into.assign(transposed); });
            r.gbs = Bench::gbs(r.bytes, r.ms);
            r.limitName = "copy";
            r.limitGbs = copy.gbs;
            r.goal = ">=0.80 copy";
            r.met = r.gbs >= 0.8 * copy.gbs;
            r.note = "32x32 tiles through shared memory";
            rows.push_back(r);
        }
        const DeviceArray scan2 = scanIn32.slice(ks::array::Slice::from(0, 2));
        const DeviceArray scanOutHalf = scanOut.slice(ks::array::Slice::to(half));
        layoutRow("inclusive scan 128M i32, step-2", double(half) * 8, [&] { scan(scan2, scanOutHalf); },
                  [&] { scan(scan2.copy(), scanOutHalf); });
    }

    // ----- the host cost of one small call (1K float32): what a loop of small array operations pays
    // per call. bench/cupy_call_costs.py measures CuPy's same calls the same way.
    {
        const std::int64_t k = 1024;
        const DeviceArray x1 = xs.slice(ks::array::Slice::to(k)), y1 = ys.slice(ks::array::Slice::to(k));
        DeviceArray z1 = zs.slice(ks::array::Slice::to(k));
        for (const auto& [name, op] : std::vector<std::pair<std::string, std::function<void()>>>{
                 {"1K f32: z = x + y (new array)", [&] { DeviceArray r = x1 + y1; }},
                 {"1K f32: add into z", [&] { ks::array::binaryInto(ks::array::BinaryOp::Add, x1, y1, z1); }},
                 {"1K f32: ElementwiseKernel axpby", [&] { linComb(rt, {2.f, x1, 3.f, y1, z1}); }},
                 {"1K f32: sum", [&] { ks::array::sum(x1, result); }}})
            callCosts.push_back({name, bench.hostUs(op), bench.queuedMs(op, 10)});
    }

    printTable(rows);
    std::printf("\ncall costs (host: one call's host time, stream idle before it; queued: per call, 10 calls "
                "between one pair of events):\n");
    for (const CallCost& c : callCosts)
        std::printf("  %-34s host %7.1f us   queued %8.4f ms%s\n", c.name.c_str(), c.hostUs, c.queuedMs,
                    c.bytes > 0 ? (" (" + fmt(Bench::gbs(c.bytes, c.queuedMs)) + " GB/s)").c_str() : "");
    if (!jsonPath.empty()) {
        nlohmann::json j;
        j["device"] = dev.name;
        j["compute_capability"] = dev.computeCapability();
        j["reps"] = reps;
        j["theoretical_gbs"] = dev.peakBandwidthGBs();
        j["copy_gbs"] = copy.gbs;
        j["read_gbs"] = readBw;
        j["write_gbs"] = writeBw;
        for (const Row& r : rows) {
            nlohmann::json e;
            e["name"] = r.name;
            e["bytes"] = r.bytes;
            e["median_ms"] = r.ms;
            e["gbs"] = r.gbs;
            e["limit"] = r.limitName;
            e["limit_gbs"] = r.limitGbs;
            e["ratio_to_limit"] = r.limitGbs > 0 ? r.gbs / r.limitGbs : 0.0;
            e["peer"] = r.peerName;
            e["peer_gbs"] = r.peerGbs;
            e["ratio_to_peer"] = r.peerGbs > 0 ? r.gbs / r.peerGbs : 0.0;
            e["goal"] = r.goal;
            e["goal_met"] = r.met;
            e["note"] = r.note;
            j["results"].push_back(e);
        }
        for (const CallCost& c : callCosts)
            j["call_costs"].push_back({{"name", c.name}, {"host_us", c.hostUs}, {"queued_ms_per_call", c.queuedMs}});
        std::ofstream(jsonPath) << j.dump(2) << '\n';
        std::printf("\nwrote %s\n", jsonPath.c_str());
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ks_bench_arrays: %s\n", e.what());
        return 1;
    }
}
