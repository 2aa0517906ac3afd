// The CUDA layer on a real device: device information, memory, streams and events, NVRTC
// modules, launch validation, and the runtime sharing the engine's primary context; kernels with
// more than 48 KiB of dynamic shared memory, kernels found by C++ name expression, modules loaded
// from files and linked from relocatable pieces; PyCUDA's test_large_smem, test_prepared_with_vector,
// test_recursive_launch and test_jit_link_module.
#include "ks/core/error.hpp"
#include "ks/cuda/context.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/event.hpp"
#include "ks/cuda/launch.hpp"
#include "ks/cuda/memory.hpp"
#include "ks/cuda/module.hpp"
#include "ks/rtc/compiler.hpp"

#include "driver_test_support.hpp"

#include <cuda_runtime.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>
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

namespace {

const char* kReverseInShared = R"(
extern "C" __global__ void reverse_in_shared(const int* in, int* out, int n)
{
    extern __shared__ int s[];
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s[i] = in[i];
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        out[i] = s[n - 1 - i];
}
)";

// A folder of this test process under the system's temporary folder, removed when it dies.
struct TempFolder {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("ks-driver-test-" + std::to_string(::getpid()));
    TempFolder() { std::filesystem::create_directories(path); }
    ~TempFolder()
    {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
};

} // namespace

TEST_F(CudaTest, DynamicSharedMemoryAbove48KiBOnceTheAttributeIsSet)
{
    const ks::cuda::DeviceInfo d = ks::cuda::queryDevice(0);
    const int bytes = 64 * 1024, n = bytes / int(sizeof(int));
    if (d.limits.maxSharedMemoryPerBlockOptin < bytes)
        GTEST_SKIP() << "the device allows " << d.limits.maxSharedMemoryPerBlockOptin << " bytes per block";
    ks::cuda::Module module = ks::test::loadForDevice(kReverseInShared);
    ks::cuda::Function f = module.function("reverse_in_shared");
    std::vector<int> in(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n), -1);
    std::iota(in.begin(), in.end(), 7);
    const ks::cuda::LaunchConfig config{{1, 1, 1}, {256, 1, 1}, unsigned(bytes)};
    // Without the attribute the launch is refused before the driver sees it.
    try {
        ks::cuda::launch(f, config, m_stream.get(), ks::cuda::in(in), ks::cuda::out(out), n);
        FAIL() << "launched with 64 KiB of dynamic shared memory without opting in";
    } catch (const ks::UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("setMaxDynamicSharedBytes"), std::string::npos) << e.what();
    }
    EXPECT_EQ(out, std::vector<int>(std::size_t(n), -1)) << "nothing ran";
    // Above the device's opt-in maximum: refused, naming both numbers.
    try {
        f.setMaxDynamicSharedBytes(d.limits.maxSharedMemoryPerBlockOptin + 1024);
        FAIL() << "set more than the opt-in maximum";
    } catch (const ks::UsageError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(std::to_string(d.limits.maxSharedMemoryPerBlockOptin + 1024)), std::string::npos) << what;
        EXPECT_NE(what.find("opt-in maximum of " + std::to_string(d.limits.maxSharedMemoryPerBlockOptin)),
                  std::string::npos)
            << what;
    }
    f.setMaxDynamicSharedBytes(bytes);
    EXPECT_GE(f.attributes().maxDynamicSharedBytes, bytes);
    f.setPreferredSharedCarveout(100);
    f.setCacheConfig(ks::cuda::CacheConfig::PreferShared);
    ks::cuda::launch(f, config, m_stream.get(), ks::cuda::in(in), ks::cuda::out(out), n);
    for (int i = 0; i < n; ++i)
        ASSERT_EQ(out[std::size_t(i)], in[std::size_t(n - 1 - i)]) << i;
    // The setting belongs to the kernel: a Function obtained later sees it.
    EXPECT_GE(module.function("reverse_in_shared").attributes().maxDynamicSharedBytes, bytes);
}

TEST_F(CudaTest, KernelsAreFoundByNameExpression)
{
    const std::string source = R"(
namespace ns {
template <class T>
__global__ void scale(T* p, T factor, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] *= factor;
}
template __global__ void scale<float>(float*, float, int);
template __global__ void scale<int>(int*, int, int);
}
)";
    const std::vector<std::string> expressions = {"ns::scale<float>", "ns::scale<int>"};
    const ks::rtc::CompileResult r = ks::test::compileForDevice(source, false, expressions);
    ks::cuda::Module module(r.cubin.data());
    const ks::cuda::Function f = module.function("ns::scale<int>", expressions, r.loweredNames);
    EXPECT_EQ(f.name(), "ns::scale<int>");
    std::vector<int> values = {1, -2, 3, 40000};
    ks::cuda::launch(f, {{1, 1, 1}, {32, 1, 1}, 0}, m_stream.get(), ks::cuda::inOut(values), 3, 4);
    EXPECT_EQ(values, (std::vector<int>{3, -6, 9, 120000}));
    EXPECT_THROW(module.function("ns::scale<double>", expressions, r.loweredNames), ks::UsageError);
}

TEST_F(CudaTest, ModulesLoadFromCubinAndPtxFiles)
{
    const TempFolder dir;
    const ks::rtc::CompileResult cubin = ks::test::compileForDevice(kScale);
    const ks::rtc::CompileResult ptx = ks::test::compileForDevice(kScale, true);
    {
        std::ofstream(dir.path / "scale.cubin", std::ios::binary)
            .write(reinterpret_cast<const char*>(cubin.cubin.data()), std::streamsize(cubin.cubin.size()));
        std::ofstream(dir.path / "scale.ptx") << ptx.ptx;
    }
    for (const char* file : {"scale.cubin", "scale.ptx"}) {
        ks::cuda::Module module = ks::cuda::Module::fromFile(dir.path / file);
        const ks::cuda::Function scale = module.function("scale");
        std::vector<float> values = {1.f, 2.f, -4.f};
        ks::cuda::launch(scale, {{1, 1, 1}, {32, 1, 1}, 0}, m_stream.get(), ks::cuda::inOut(values), 0.5f, 3);
        EXPECT_EQ(values, (std::vector<float>{0.5f, 1.f, -2.f})) << file;
    }
    EXPECT_THROW(ks::cuda::Module::fromFile(dir.path / "missing.cubin"), ks::UsageError);
    std::ofstream(dir.path / "broken.ptx") << "this is no PTX";
    EXPECT_THROW(ks::cuda::Module::fromFile(dir.path / "broken.ptx"), ks::Error);
}

TEST_F(CudaTest, AModuleLinkedFromTwoRelocatablePiecesCallsAcross)
{
    const ks::rtc::CompileResult caller = ks::test::compileForDevice(R"(
__device__ int twice_plus(int x, int y);
extern "C" __global__ void apply(int* p, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = twice_plus(p[i], i);
}
)",
                                                                     true);
    const ks::rtc::CompileResult callee = ks::test::compileForDevice(R"(
__device__ int twice_plus(int x, int y)
{
    return 2 * x + y;
}
)",
                                                                     true);
    // Apart, the caller has an unresolved call: it does not load.
    EXPECT_THROW(ks::cuda::Linker(ks::cuda::Linker::Create{}).addPtx(caller.ptx, "caller.ptx").link(), ks::Error);
    ks::cuda::Linker linker(ks::cuda::Linker::Create{});
    linker.addPtx(caller.ptx, "caller.ptx").addPtx(callee.ptx, "callee.ptx");
    ks::cuda::Module module = linker.link();
    EXPECT_TRUE(linker.empty()) << "link() can be called once";
    const ks::cuda::Function apply = module.function("apply");
    const int n = 1000;
    std::vector<int> values(n);
    std::iota(values.begin(), values.end(), -300);
    const std::vector<int> before = values;
    ks::cuda::launch(apply, {{(n + 127) / 128, 1, 1}, {128, 1, 1}, 0}, m_stream.get(), ks::cuda::inOut(values), n);
    for (int i = 0; i < n; ++i)
        ASSERT_EQ(values[std::size_t(i)], 2 * before[std::size_t(i)] + i) << i;
}

// PyCUDA test_driver.py: test_large_smem (16000 bytes of static shared memory, one thread).
TEST_F(CudaTest, PyCudaDriver_test_large_smem)
{
    const int n = 4000;
    // PyCUDA's source includes <stdio.h>, which NVRTC has no copy of (and the kernel does not use).
    ks::cuda::Module module = ks::test::loadForDevice(R"(
extern "C" __global__ void kernel(int *d_data)
{
__shared__ int sdata[4000];
sdata[threadIdx.x] = threadIdx.x;
d_data[threadIdx.x] = sdata[threadIdx.x];
}
)");
    const ks::cuda::Function kernel = module.function("kernel");
    EXPECT_EQ(kernel.attributes().staticSharedBytes, n * int(sizeof(int)));
    std::vector<float> arg(n, 0.f); // gpuarray.zeros((n,), dtype=np.float32)
    ks::cuda::launch(kernel, {{1, 1, 1}, {1, 1, 1}, 0}, m_stream.get(), ks::cuda::inOut(arg));
    EXPECT_EQ(arg, std::vector<float>(n, 0.f)); // thread 0 wrote int 0, whose bits are 0.f
}

// PyCUDA test_driver.py: test_prepared_with_vector.
TEST_F(CudaTest, PyCudaDriver_test_prepared_with_vector)
{
    ks::cuda::Module module = ks::test::loadForDevice(R"(
extern "C" __global__ void cuda_function(float3 input)
{
float3 result = make_float3(input.x, input.y, input.z);
}
)");
    const ks::cuda::Function kernel = module.function("cuda_function");
    auto prepared = ks::cuda::prepare<float3>(kernel); // kernel.prepare([gpuarray.vec.float3])
    prepared.launch({{1, 1, 1}, {1, 1, 1}, 0}, m_stream.get(), float3{0.f, 1.f, 2.f});
    m_stream.synchronize();
}

namespace {

// PyCUDA's test_recursive_launch source, in extern "C" as its DynamicSourceModule compiles it.
const char* kRecursiveLaunch = R"(
extern "C" {
__device__ void  saxpy(double* s, float a, long* p, int b, long* q)
{
    int tx = threadIdx.x;
    s[tx] = a*p[tx]+b*q[tx];
}

__global__ void  sub(long* p, long* q, long* d)
{
    int tx = threadIdx.x;
    p[tx] = 2*p[tx];
    d[tx] = p[tx]-q[tx];
}

__device__ long add(long p, long q)
{
    p = p+1;
    return p+q;
}

__global__ void math(long* a, long* b, long* c, long* d, long* e, double* f)
{
    int tx = threadIdx.x;
    __shared__ long x[100];
    x[tx] = a[tx + 0];
    __shared__ long y[100];
    y[tx] = b[tx + 0];
    c[tx]=add(x[tx],y[tx]);
    dim3 dimGrid_sub(1,1,1);
    dim3 dimBlock_sub(100,1,1);
    sub<<<dimGrid_sub,dimBlock_sub>>>(a,b,d);
    saxpy(f,1.0345,x,-2,y);
}
}
)";

// Links relocatable PTX pieces with the device runtime, for launches from device code.
ks::cuda::Module linkWithDeviceRuntime(const std::vector<std::string>& sources)
{
    ks::cuda::Linker linker(ks::cuda::Linker::Create{});
    for (std::size_t i = 0; i < sources.size(); ++i)
        linker.addPtx(ks::test::compileForDevice(sources[i], true).ptx, "piece" + std::to_string(i) + ".ptx");
    linker.addFile(ks::cuda::LinkInput::Library, ks::test::deviceRuntimeLibrary());
    return linker.link();
}

} // namespace

// PyCUDA test_driver.py: test_recursive_launch (dynamic parallelism).
TEST_F(CudaTest, PyCudaDriver_test_recursive_launch)
{
    if (ks::test::deviceRuntimeLibrary().empty())
        GTEST_SKIP() << "no libcudadevrt.a in the CUDA Toolkit here: launches from device code cannot be linked";
    ks::cuda::Module module = linkWithDeviceRuntime({kRecursiveLaunch});
    const ks::cuda::Function math = module.function("math");
    std::mt19937 rng(31);
    std::uniform_int_distribution<long> digit(0, 9); // np.random.randint(10, size=100)
    std::vector<long> a(100), b(100);
    for (std::size_t i = 0; i < 100; ++i) {
        a[i] = digit(rng);
        b[i] = digit(rng);
    }
    std::vector<long> c(100, -1), d(100, -1), e(100, -1);
    std::vector<double> f(a.begin(), a.end());
    std::vector<long> aAfter = a;
    ks::cuda::launch(math, {{1, 1, 1}, {100, 1, 1}, 0}, m_stream.get(), ks::cuda::inOut(aAfter), ks::cuda::in(b),
                     ks::cuda::out(c), ks::cuda::out(d), ks::cuda::out(e), ks::cuda::out(f));
    // PyCUDA only runs it. What is certain is checked here: the parent's own results, c from add()
    // and f from saxpy(). Not a and d: each of the 100 parent threads launches `sub` over all 100
    // elements, so every element is doubled by up to 100 racing child grids (seen on an H200: a
    // read back 0, as 2^100 * a wraps in 64 bits, and d = -b).
    for (std::size_t i = 0; i < 100; ++i) {
        ASSERT_EQ(c[i], a[i] + 1 + b[i]) << i;
        // float arithmetic, as the kernel's float a * long p + int b * long q is (a contracted FMA
        // may round differently in the last place)
        const float want = 1.0345f * float(a[i]) + float(-2 * b[i]);
        ASSERT_NEAR(f[i], double(want), 1e-5 * std::max(1.0, std::abs(double(want)))) << i;
    }
}

// PyCUDA test_driver.py: test_jit_link_module (two -rdc sources and cudadevrt linked into one module).
TEST_F(CudaTest, PyCudaDriver_test_jit_link_module)
{
    if (ks::test::deviceRuntimeLibrary().empty())
        GTEST_SKIP() << "no libcudadevrt.a in the CUDA Toolkit here: launches from device code cannot be linked";
    // PyCUDA's sources include <cstdio>; NVRTC declares printf itself and has no C library headers.
    const std::string outer = R"(
__global__ void test_kernel() {
    extern __global__ void test_kernel_inner();
    printf("Hello outer world!\n");
    test_kernel_inner<<<2, 1>>>();
})";
    const std::string inner = R"(
__global__ void test_kernel_inner() {
    printf("  Hello inner world!\n");
})";
    const std::vector<std::string> expressions = {"test_kernel"};
    ks::cuda::Linker linker(ks::cuda::Linker::Create{});
    const ks::rtc::CompileResult outerBuild = ks::test::compileForDevice(outer, true, expressions);
    linker.addPtx(outerBuild.ptx, "outer.ptx");
    linker.addPtx(ks::test::compileForDevice(inner, true).ptx, "inner.ptx");
    linker.addFile(ks::cuda::LinkInput::Library, ks::test::deviceRuntimeLibrary());
    ks::cuda::Module module = linker.link();
    // C++ linkage, as PyCUDA's DynamicModule compiles it: found by its name expression.
    const ks::cuda::Function testKernel = module.function("test_kernel", expressions, outerBuild.loweredNames);
    ks::cuda::launch(testKernel, {{2, 1, 1}, {1, 1, 1}, 0}, m_stream.get());
    m_stream.synchronize();
}
