// The CUDA layer on a real device: device information, memory, streams and events, NVRTC
// modules, launch validation, and the runtime sharing the engine's primary context.
#include "ks/core/error.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/event.hpp"
#include "ks/cuda/memory.hpp"
#include "ks/cuda/module.hpp"
#include "ks/rtc/compiler.hpp"

#include "test_support.hpp"

#include <cuda_runtime.h>

#include <vector>

cudaError_t launchAddOne(float* p, int n, cudaStream_t stream);

using ks::test::CudaTest;

namespace {

ks::cuda::Module compileModule(const std::string& source, const std::string& arch)
{
    ks::rtc::CompileOptions options;
    options.arch = arch;
    const auto r = ks::rtc::compile(source, "test.cu", options);
    if (!r.ok)
        throw std::runtime_error(r.log);
    return ks::cuda::Module(r.cubin.data());
}

const char* kScale = R"(
extern "C" __global__ void scale(float* p, float factor, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] *= factor;
}
)";

} // namespace

TEST_F(CudaTest, DeviceInfoIsComplete)
{
    const ks::cuda::SystemInfo sys = ks::cuda::querySystem();
    ASSERT_TRUE(sys.cudaAvailable) << sys.unavailableReason;
    ASSERT_FALSE(sys.devices.empty());
    const ks::cuda::DeviceInfo& d = sys.devices[0];
    std::printf("device 0: %s, cc %s, %d SMs, %s, L2 %d B, driver %s\n", d.name.c_str(), d.computeCapability().c_str(),
                d.smCount, ks::cuda::formatBytes(d.totalMemory).c_str(), d.l2CacheBytes,
                ks::cuda::versionString(sys.driverVersion).c_str());
    EXPECT_FALSE(d.name.empty());
    EXPECT_GE(d.ccMajor * 10 + d.ccMinor, 50);
    EXPECT_GT(d.smCount, 0);
    EXPECT_GT(d.totalMemory, std::size_t(1) << 30);
    EXPECT_TRUE(d.freeMemoryKnown) << "a context is current on device 0";
    EXPECT_GT(d.freeMemory, 0u);
    EXPECT_LE(d.freeMemory, d.totalMemory);
    EXPECT_EQ(d.limits.warpSize, 32);
    EXPECT_GE(d.limits.maxThreadsPerBlock, 512);
    EXPECT_GT(d.limits.maxGridDim[0], 65535);
    EXPECT_GT(d.l2CacheBytes, 0);
    EXPECT_GT(d.clockKHz, 0);
    EXPECT_FALSE(d.pciBusId.empty());
    EXPECT_GT(sys.driverVersion, 0);
}

TEST_F(CudaTest, MemoryRoundTripAndOutOfMemoryMessage)
{
    const std::vector<float> in = ks::test::randomFloats(1 << 16, 7);
    ks::cuda::DeviceMemory mem(in.size() * sizeof(float));
    mem.upload(in.data(), in.size() * sizeof(float));
    std::vector<float> out(in.size(), -12345.f);
    mem.download(out.data(), out.size() * sizeof(float));
    EXPECT_EQ(in, out);
    EXPECT_THROW(mem.download(out.data(), out.size() * sizeof(float), 4), ks::Error);

    try {
        ks::cuda::DeviceMemory huge(std::size_t(1) << 50); // 1 PiB
        FAIL() << "a 1 PiB allocation succeeded";
    } catch (const ks::Error& e) {
        const std::string what = e.what();
        EXPECT_EQ(e.codeName(), "CUDA_ERROR_OUT_OF_MEMORY") << what;
        EXPECT_NE(what.find("cannot allocate 1024.00 TiB on the device"), std::string::npos) << what;
        EXPECT_NE(what.find("free of"), std::string::npos) << what;
    }
    // The failed allocation lost nothing: the old one is intact.
    mem.download(out.data(), out.size() * sizeof(float));
    EXPECT_EQ(in, out);
}

TEST_F(CudaTest, NvrtcModuleLaunchesAndEventsTime)
{
    const ks::cuda::DeviceInfo d = ks::cuda::queryDevice(0);
    ks::cuda::Module module = compileModule(kScale, d.archName());
    ks::cuda::Function scale = module.function("scale");
    EXPECT_GT(scale.attributes().numRegs, 0);

    const int n = 1000003; // not a multiple of the block
    std::vector<float> host = ks::test::randomFloats(std::size_t(n), 11);
    ks::cuda::DeviceMemory mem(host.size() * sizeof(float));
    mem.upload(host.data(), host.size() * sizeof(float));
    CUdeviceptr p = mem.get();
    float factor = 2.5f;
    int count = n;
    void* params[] = {&p, &factor, &count};
    ks::cuda::Event start(ks::cuda::Event::Create{}), stop(ks::cuda::Event::Create{});
    start.record(m_stream.get());
    scale.launch({{unsigned((n + 255) / 256), 1, 1}, {256, 1, 1}, 0}, m_stream.get(), params);
    stop.record(m_stream.get());
    m_stream.synchronize();
    EXPECT_TRUE(stop.done());
    EXPECT_GT(stop.elapsedMsSince(start), 0.f);
    std::vector<float> out(host.size());
    mem.download(out.data(), out.size() * sizeof(float));
    for (int i = 0; i < n; ++i)
        ASSERT_EQ(out[std::size_t(i)], host[std::size_t(i)] * 2.5f) << "at " << i;

    EXPECT_THROW(module.function("no_such_kernel"), ks::Error);
}

TEST_F(CudaTest, LaunchBeyondLimitsIsRefusedBeforeLaunching)
{
    ks::cuda::Module module = compileModule(kScale, ks::cuda::queryDevice(0).archName());
    ks::cuda::Function scale = module.function("scale");
    CUdeviceptr p = 0;
    float f = 1.f;
    int n = 0;
    void* params[] = {&p, &f, &n};
    try {
        scale.launch({{1, 1, 1}, {2048, 1, 1}, 0}, m_stream.get(), params);
        FAIL() << "launched 2048 threads per block";
    } catch (const ks::Error& e) {
        EXPECT_EQ(e.domain(), ks::ErrorDomain::Usage);
        EXPECT_NE(std::string(e.what()).find("maximum block dimension x of 1024"), std::string::npos) << e.what();
    }
    m_stream.synchronize(); // the context is still healthy
}

TEST_F(CudaTest, RuntimeKernelsShareThePrimaryContext)
{
    std::vector<float> host = ks::test::randomFloats(5000, 3);
    ks::cuda::DeviceMemory mem(host.size() * sizeof(float));
    mem.upload(host.data(), host.size() * sizeof(float));
    ASSERT_EQ(launchAddOne(mem.as<float>(), int(host.size()), reinterpret_cast<cudaStream_t>(m_stream.get())), cudaSuccess);
    std::vector<float> out(host.size());
    mem.download(out.data(), out.size() * sizeof(float));
    for (std::size_t i = 0; i < host.size(); ++i)
        ASSERT_EQ(out[i], host[i] + 1.f);
}

TEST_F(CudaTest, DriverErrorsNameTheCall)
{
    try {
        KS_CU(cuMemcpyHtoD, CUdeviceptr(16), nullptr, 64); // no such device address
        FAIL() << "no exception";
    } catch (const ks::Error& e) {
        EXPECT_EQ(e.call(), "cuMemcpyHtoD");
        EXPECT_EQ(e.codeName().rfind("CUDA_ERROR_", 0), 0u) << e.codeName();
        EXPECT_EQ(e.file(), "tests/cuda/test_cuda_module.cpp");
    }
}
