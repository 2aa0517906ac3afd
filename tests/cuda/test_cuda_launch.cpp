// Live kernels on a device: NVRTC builds loaded and launched through the PyCUDA-like launch API
// (In/Out/InOut, vector arguments, prepared launches), the PyCUDA tutorial kernels with exact
// results, argument and limit refusals, hot-swap semantics, and the build's facts cross-checked
// against the driver (cuFuncGetParamInfo, attributes, occupancy).
#include "ks/core/error.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/launch.hpp"
#include "ks/cuda/memory.hpp"
#include "ks/rtc/cache.hpp"
#include "ks/rtc/kernel_checks.hpp"
#include "ks/rtc/kernel_facts.hpp"
#include "ks/rtc/live_module.hpp"

#include "live_kernels.hpp"
#include "test_support.hpp"

#include <cmath>
#include <limits>
#include <vector>

using ks::test::CudaTest;
using namespace ks;
using namespace ks::test::live_kernels;

namespace {

struct Built {
    std::shared_ptr<const rtc::CompileResult> result;
    std::vector<syntax::KernelSignature> kernels;
    std::vector<std::string> names;
    rtc::ModuleFacts facts;
    cuda::Module module;
    std::string arch;

    // The symbol for a kernel as the user names it (C++ kernels are mangled).
    std::string symbol(const std::string& name) const
    {
        for (const auto& k : facts.kernels)
            if (k.name == name)
                return k.symbol;
        throw std::runtime_error("no kernel " + name);
    }
    cuda::Function function(const std::string& name) const { return module.function(symbol(name)); }
    const rtc::KernelFacts& factsOf(const std::string& name) const
    {
        for (const auto& k : facts.kernels)
            if (k.name == name)
                return k;
        throw std::runtime_error("no facts for " + name);
    }
};

Built build(const std::string& source, rtc::FastCompile fastCompile = rtc::FastCompile::Off)
{
    Built b;
    b.arch = cuda::queryDevice(0).archName();
    b.kernels = syntax::findKernels(source);
    b.names = rtc::nameExpressionsFor(b.kernels);
    rtc::CompileOptions o;
    o.arch = b.arch;
    o.fastCompile = fastCompile;
    b.result = std::make_shared<const rtc::CompileResult>(rtc::compile(source, "live.cu", o, b.names));
    if (!b.result->ok)
        throw std::runtime_error(b.result->log);
    b.facts = rtc::collectFacts(b.kernels, b.names, *b.result, b.arch);
    b.module = cuda::Module(b.result->cubin.data());
    return b;
}

} // namespace

TEST_F(CudaTest, PyCudaTutorialDoublifyOnA4x4Block)
{
    const Built b = build(kDoublify);
    const cuda::Function f = b.function("doublify");
    std::vector<float> a = test::randomFloats(16, 4242, -10.f, 10.f);
    const std::vector<float> original = a;
    cuda::launch(f, {{1, 1, 1}, {4, 4, 1}, 0}, m_stream.get(), cuda::inOut(a));
    for (std::size_t i = 0; i < 16; ++i)
        EXPECT_EQ(a[i], original[i] * 2) << i;
}

TEST_F(CudaTest, PyCudaTutorialMultiplyThemOn400Elements)
{
    const Built b = build(kMultiplyThem);
    const cuda::Function f = b.function("multiply_them");
    const std::vector<float> a = test::randomFloats(400, 1, -1.f, 1.f);
    const std::vector<float> bv = test::randomFloats(400, 2, -1.f, 1.f);
    std::vector<float> dest(400, std::numeric_limits<float>::quiet_NaN()); // poisoned
    cuda::launch(f, {{1, 1, 1}, {400, 1, 1}, 0}, m_stream.get(), cuda::out(dest), cuda::in(a), cuda::in(bv));
    for (std::size_t i = 0; i < 400; ++i)
        ASSERT_EQ(dest[i], a[i] * bv[i]) << i; // one IEEE multiply each side: exact
}

TEST_F(CudaTest, InOutAndInOutArraysAreCopiedAroundTheLaunch)
{
    const Built b = build(kInOut);
    const cuda::Function f = b.function("combine");
    for (int n : {1, 31, 32, 33, 255, 256, 257, 10000}) {
        const std::vector<float> in = test::randomFloats(std::size_t(n), 10 + unsigned(n));
        std::vector<float> inout = test::randomFloats(std::size_t(n), 20 + unsigned(n));
        const std::vector<float> before = inout;
        std::vector<float> out(std::size_t(n), std::numeric_limits<float>::quiet_NaN());
        cuda::launch(f, {{unsigned(n + 255) / 256, 1, 1}, {256, 1, 1}, 0}, m_stream.get(), cuda::in(in),
                     cuda::inOut(inout), cuda::out(out), n);
        for (int i = 0; i < n; ++i) {
            ASSERT_EQ(out[std::size_t(i)], in[std::size_t(i)] * before[std::size_t(i)]) << n << " " << i;
            ASSERT_EQ(inout[std::size_t(i)], before[std::size_t(i)] + in[std::size_t(i)]) << n << " " << i;
        }
    }
}

TEST_F(CudaTest, VectorAndScalarArgumentsArriveIntact)
{
    const Built b = build(kVectors);
    const cuda::Function f = b.function("unpack");
    std::vector<float> out(12, std::numeric_limits<float>::quiet_NaN());
    const float3 f3{1.5f, -2.25f, 3.125f};
    const int2 i2{-7, 9};
    const double2 d2{0.5, -4.0};
    const double4_16a w{11.0, 12.0, 13.0, 14.0};
    cuda::launch(f, {{1, 1, 1}, {1, 1, 1}, 0}, m_stream.get(), f3, i2, d2, char(-3), (unsigned short)(60000),
                 (long long)(123456), w, cuda::out(out));
    const std::vector<float> expected = {1.5f, -2.25f, 3.125f, -7.f, 9.f, 0.5f, -4.f, -3.f, 60000.f, 123456.f, 11.f, 14.f};
    EXPECT_EQ(out, expected);
}

TEST_F(CudaTest, PreparedLaunchesFixTheTypesOnce)
{
    const Built b = build(kSaxpy);
    const cuda::Function f = b.function("saxpy");
    const int n = 1000;
    const std::vector<float> x = test::randomFloats(n, 3);
    const std::vector<float> y0 = test::randomFloats(n, 4);
    cuda::DeviceMemory dx(n * sizeof(float)), dy(n * sizeof(float));
    dx.upload(x.data(), x.size() * sizeof(float));
    dy.upload(y0.data(), y0.size() * sizeof(float));
    auto prepared = cuda::prepare<float, CUdeviceptr, CUdeviceptr, int>(f);
    std::vector<float> expected = y0;
    for (float a : {2.f, -0.5f, 3.f}) {
        prepared.launch({{(n + 127) / 128, 1, 1}, {128, 1, 1}, 0}, m_stream.get(), a, dx.get(), dy.get(), n);
        // NVRTC compiles with its default --fmad=true, so the device contracts a * x + y into one fused
        // multiply-add (a single rounding); the host reference does the same with std::fma, or the
        // exact comparison fails in the last bit.
        for (int i = 0; i < n; ++i)
            expected[std::size_t(i)] = std::fma(a, x[std::size_t(i)], expected[std::size_t(i)]);
    }
    m_stream.synchronize();
    std::vector<float> y(n);
    dy.download(y.data(), y.size() * sizeof(float));
    for (int i = 0; i < n; ++i)
        ASSERT_EQ(y[std::size_t(i)], expected[std::size_t(i)]) << i;

    if (!cuda::parameterLayout(f))
        GTEST_SKIP() << "the driver has no cuFuncGetParamInfo: wrong prepared types cannot be caught";
    EXPECT_THROW((cuda::prepare<double, CUdeviceptr, CUdeviceptr, int>(f)), ks::Error);
    EXPECT_THROW((cuda::prepare<float, CUdeviceptr, CUdeviceptr>(f)), ks::Error);
}

TEST_F(CudaTest, WrongArgumentsAndConfigurationsAreRefusedWithTheReason)
{
    const Built b = build(kSaxpy);
    const cuda::Function f = b.function("saxpy");
    cuda::DeviceMemory d(1024 * sizeof(float));
    auto message = [&](auto&&... args) {
        try {
            cuda::launch(f, std::forward<decltype(args)>(args)...);
        } catch (const ks::Error& e) {
            EXPECT_EQ(e.domain(), ks::ErrorDomain::Usage) << e.what();
            return std::string(e.what());
        }
        return std::string();
    };
    const std::string tooBig = message(cuda::LaunchConfig{{1, 1, 1}, {2048, 1, 1}, 0}, m_stream.get(), 1.f, d, d, 1024);
    EXPECT_NE(tooBig.find("exceeds the device's maximum"), std::string::npos) << tooBig;
    const std::string badGrid = message(cuda::LaunchConfig{{1, 70000, 1}, {32, 1, 1}, 0}, m_stream.get(), 1.f, d, d, 1);
    EXPECT_NE(badGrid.find("gridDim.y"), std::string::npos) << badGrid;
    if (!cuda::parameterLayout(f))
        GTEST_SKIP() << "the driver has no cuFuncGetParamInfo";
    const std::string count = message(cuda::LaunchConfig{{1, 1, 1}, {32, 1, 1}, 0}, m_stream.get(), 1.f, d, d);
    EXPECT_NE(count.find("kernel 'saxpy' takes 4 parameters (4, 8, 8, 4 bytes), 3 arguments were given"),
              std::string::npos)
        << count;
    const std::string size = message(cuda::LaunchConfig{{1, 1, 1}, {32, 1, 1}, 0}, m_stream.get(), 1.0, d, d, 1);
    EXPECT_NE(size.find("argument 1 is 8 bytes (double) but parameter 1 is 4 bytes"), std::string::npos) << size;
}

TEST_F(CudaTest, AFailedBuildKeepsTheOldModuleRunning)
{
    rtc::CompileCache cache;
    rtc::CompileOptions o;
    o.arch = cuda::queryDevice(0).archName();
    const std::string v1 = "extern \"C\" __global__ void value(int* p) { p[threadIdx.x] = 111; }\n";
    const std::string broken = "extern \"C\" __global__ void value(int* p) { p[threadIdx.x] = 222 }\n";
    const std::string v2 = "extern \"C\" __global__ void value(int* p) { p[threadIdx.x] = 333; }\n";
    rtc::LiveModule live;
    auto run = [&] {
        std::vector<int> out(32, -1);
        cuda::launch(live.module().function("value"), {{1, 1, 1}, {32, 1, 1}, 0}, m_stream.get(), cuda::out(out));
        return out[31];
    };
    ASSERT_TRUE(live.offer(cache.compile(v1, "value.cu", o), {"value"}).swapped);
    EXPECT_EQ(run(), 111);
    const auto refused = live.offer(cache.compile(broken, "value.cu", o), {"value"});
    EXPECT_FALSE(refused.swapped);
    EXPECT_NE(refused.failure.find("value.cu:1:"), std::string::npos) << refused.failure;
    EXPECT_EQ(run(), 111) << "the old module keeps running";
    // A CUBIN for another major architecture compiles but does not load here.
    rtc::CompileOptions wrongArch = o;
    wrongArch.arch = cuda::queryDevice(0).ccMajor >= 10 ? "sm_90" : "sm_100";
    const auto otherArch = cache.compile(v2, "value.cu", wrongArch);
    ASSERT_TRUE(otherArch->ok) << otherArch->log;
    const auto unloadable = live.offer(otherArch, {"value"});
    EXPECT_FALSE(unloadable.swapped) << "a CUBIN for " << wrongArch.arch << " must not load";
    EXPECT_NE(unloadable.failure.find("could not be loaded"), std::string::npos) << unloadable.failure;
    EXPECT_EQ(run(), 111);
    EXPECT_TRUE(live.offer(cache.compile(v2, "value.cu", o), {"value"}).swapped);
    EXPECT_EQ(run(), 333);
    EXPECT_EQ(live.generation(), 2u);
}

// --Ofast-compile keeps device functions as calls (at "max" even sinf): the kernels compute what
// the fully optimized ones do, and their facts (stack with callees included) agree with the driver.
TEST_F(CudaTest, FastCompileBuildsComputeTheSameAndTheirFactsAgreeWithTheDriver)
{
    const std::string source = "__device__ __noinline__ float wave(float x, int k) { return sinf(x * k) + cosf(x); }\n"
                               "extern \"C\" __global__ void waves(const float* in, float* out, int n)\n"
                               "{\n"
                               "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                               "    if (i >= n) return;\n"
                               "    float acc = 0.f;\n"
                               "    for (int k = 1; k <= 8; ++k) acc += wave(in[i], k) / k;\n"
                               "    out[i] = acc;\n"
                               "}\n";
    const int n = 10000;
    const std::vector<float> in = test::randomFloats(std::size_t(n), 7, -100.f, 100.f);
    std::vector<float> reference;
    const cuda::DeviceInfo device = cuda::queryDevice(0);
    for (rtc::FastCompile level : rtc::kFastCompileLevels) {
        SCOPED_TRACE(std::string(rtc::fastCompileName(level)));
        const Built b = build(source, level);
        const rtc::KernelFacts& k = b.factsOf("waves");
        EXPECT_TRUE(k.problems.empty()) << k.problems.front();
        const rtc::DriverKernelCheck c = rtc::checkAgainstDriver(k, b.function("waves"), device, 256, 0);
        for (const std::string& m : c.mismatches)
            ADD_FAILURE() << m;
        std::vector<float> out(std::size_t(n), std::numeric_limits<float>::quiet_NaN());
        cuda::launch(b.function("waves"), {{unsigned(n + 255) / 256, 1, 1}, {256, 1, 1}, 0}, m_stream.get(),
                     cuda::in(in), cuda::out(out), n);
        if (level == rtc::FastCompile::Off) {
            reference = out;
            continue;
        }
        // Same operations in the same order; only contraction into FMAs may differ: a few ulp.
        for (int i = 0; i < n; ++i)
            ASSERT_NEAR(out[std::size_t(i)], reference[std::size_t(i)], 1e-5f * (1.f + std::fabs(reference[std::size_t(i)])))
                << i;
    }
}

TEST_F(CudaTest, BuildFactsAgreeWithTheDriver)
{
    const Built b = build(std::string(kVectors) + kSaxpy + kMultiplyThem + kTransposeAndHeavy);
    const cuda::DeviceInfo device = cuda::queryDevice(0);
    ASSERT_GE(b.facts.kernels.size(), 5u);
    for (const rtc::KernelFacts& k : b.facts.kernels) {
        SCOPED_TRACE(k.name);
        EXPECT_TRUE(k.problems.empty()) << k.problems.front();
        const cuda::Function f = b.module.function(k.symbol);
        for (int block : {32, 96, 128, 256, 1024}) {
            if (block > k.maxThreadsPerBlock)
                continue;
            for (int dynamicShared : {0, 4096, 40000}) {
                const rtc::DriverKernelCheck c = rtc::checkAgainstDriver(k, f, device, block, dynamicShared);
                for (const std::string& m : c.mismatches)
                    ADD_FAILURE() << "block " << block << ", dynamic shared " << dynamicShared << ": " << m;
                EXPECT_EQ(c.model.blocksPerSM, c.driverBlocks);
            }
        }
        // The suggestion reaches the same occupancy as the host model's best.
        const cuda::PotentialBlockSize driver = f.maxPotentialBlockSize();
        const auto limits = cuda::OccupancyLimits::fromDevice(device);
        cuda::OccupancyInput in = cuda::OccupancyInput::of(f.attributes(), limits, 0, 0);
        const auto model = cuda::suggestBlockSize(limits, in);
        in.blockSize = driver.blockSize;
        EXPECT_EQ(cuda::theoreticalOccupancy(limits, in).warpsPerSM, model.occupancy.warpsPerSM)
            << "driver suggests " << driver.blockSize << ", the model " << model.blockSize;
        EXPECT_GT(driver.minGridSize, 0);
    }
    if (!cuda::parameterLayout(b.function("unpack")))
        GTEST_SKIP() << "the driver has no cuFuncGetParamInfo: parameter layouts were not cross-checked";
    const auto layout = *cuda::parameterLayout(b.function("unpack"));
    ASSERT_EQ(layout.size(), 8u);
    EXPECT_EQ(layout[0].size, 12u); // float3
    EXPECT_EQ(layout[6].size, 32u); // double4_16a
    EXPECT_EQ(layout[6].offset % 16, 0u);
}
