// Lean cuRAND on a device: a curand kernel built with the tables left out (or, where it needs them,
// rebuilt with them after the lean build failed to link) draws exactly the numbers of a build that
// always kept them, for Philox, MRG32k3a (hidden from the scan) and XORWOW.
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/launch.hpp"
#include "ks/rtc/compiler.hpp"

#include "test_support.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using ks::test::CudaTest;
using namespace ks;

namespace {

std::string rngKernel(const std::string& state)
{
    return "#include <curand_kernel.h>\n"
           "#define GLUE(a, b) a##b\n"
           "extern \"C\" __global__ void rng(float* out, unsigned long long seed, int n)\n"
           "{\n"
           "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "    if (i >= n) return;\n"
           "    " + state + " s;\n"
           "    curand_init(seed, i, 5, &s);\n"
           "    out[i] = curand_normal(&s) + 4.0f * curand_uniform(&s);\n"
           "}\n";
}

std::vector<float> draw(const rtc::CompileResult& build, CUstream stream, int n)
{
    const cuda::Module module(build.cubin.data());
    const cuda::Function f = module.function("rng");
    std::vector<float> out(std::size_t(n), std::numeric_limits<float>::quiet_NaN());
    const unsigned long long seed = 0x5eed1234abcdULL;
    cuda::launch(f, {{unsigned((n + 127) / 128), 1, 1}, {128, 1, 1}, 0}, stream, cuda::out(out), seed, n);
    return out;
}

} // namespace

TEST_F(CudaTest, LeanCurandDrawsTheSameNumbersAsAFullBuild)
{
    rtc::CompileOptions lean;
    lean.arch = cuda::queryDevice(0).archName();
    rtc::CompileOptions full = lean;
    full.leanCurand = false;
    const int n = 1000;
    struct Case {
        std::string state;
        bool leftOut; // whether the default build leaves the tables out
    };
    for (const Case& c : {Case{"curandStatePhilox4_32_10_t", true}, Case{"GLUE(curandStateMRG, 32k3a_t)", false},
                          Case{"curandState", false}}) {
        const std::string source = rngKernel(c.state);
        const rtc::CompileResult a = rtc::compile(source, "rng.cu", lean);
        const rtc::CompileResult b = rtc::compile(source, "rng.cu", full);
        ASSERT_TRUE(a.ok) << c.state << "\n" << a.log;
        ASSERT_TRUE(b.ok) << c.state << "\n" << b.log;
        EXPECT_EQ(a.curandTablesLeftOut, c.leftOut) << c.state << ": " << a.curandTablesReason;
        const std::vector<float> x = draw(a, m_stream.get(), n);
        const std::vector<float> y = draw(b, m_stream.get(), n);
        double sum = 0, sumSq = 0;
        for (int i = 0; i < n; ++i) {
            ASSERT_FALSE(std::isnan(x[i])) << c.state << ": element " << i << " not written";
            EXPECT_EQ(std::memcmp(&x[i], &y[i], sizeof(float)), 0)
                << c.state << ": " << i << " " << x[i] << " " << y[i];
            sum += x[i];
            sumSq += double(x[i]) * x[i];
        }
        // normal + 4 * uniform(0, 1]: mean about 2, variance about 1 + 16/12.
        const double mean = sum / n, variance = sumSq / n - mean * mean;
        EXPECT_NEAR(mean, 2.0, 0.3) << c.state;
        EXPECT_NEAR(variance, 1.0 + 16.0 / 12.0, 0.5) << c.state;
    }
}
