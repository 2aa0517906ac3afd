// PyCUDA's test_driver.py ported: memory round trips, hand-written kernels through the array
// runtime's module cache, streams with pinned memory, dynamic shared memory and pointer offsets,
// __constant__ memory, vector types, a raw-pointer (foreign memory) array, and the gpuarray smoke test;
// then StreamScope, PyCUDA's stream= for array operations.
#include "array_test_support.hpp"

#include "ks/cuda/memory.hpp"

#include <cstring>

using ks::array::DeviceArray;
using ks::array::DType;
using ks::test::ArrayTest;

namespace {

const char* kMultiplyThem = R"(
extern "C" __global__ void multiply_them(float *dest, float *a, float *b)
{
  const int i = threadIdx.x;
  dest[i] = a[i] * b[i];
}
)";

} // namespace

TEST_F(ArrayTest, DriverMemory)
{
    const std::vector<float> z = ks::test::normal<float>(400, 1);
    ks::cuda::DeviceMemory mem(z.size() * sizeof(float));
    mem.upload(z.data(), z.size() * sizeof(float));
    std::vector<float> back(z.size(), -999.f);
    mem.download(back.data(), back.size() * sizeof(float));
    EXPECT_EQ(ks::test::normDiff(back, z), 0.0);
}

TEST_F(ArrayTest, DriverSimpleKernel)
{
    const auto& f = rt().kernelFromSource(kMultiplyThem, "multiply_them");
    const std::vector<float> a = ks::test::normal<float>(400, 2), b = ks::test::normal<float>(400, 3);
    DeviceArray ga = toGpu(a), gb = toGpu(b), dest = ks::array::full(rt(), {400}, -1.f, DType::Float32);
    CUdeviceptr pd = dest.data(), pa = ga.data(), pb = gb.data();
    void* params[] = {&pd, &pa, &pb};
    rt().launch(f, {{1, 1, 1}, {400, 1, 1}, 0}, params);
    const auto out = dest.toHost<float>();
    for (std::size_t i = 0; i < a.size(); ++i)
        ASSERT_EQ(out[i], a[i] * b[i]) << i;
}

TEST_F(ArrayTest, DriverSimpleKernel2WithPointerOffsets)
{
    const auto& f = rt().kernelFromSource(kMultiplyThem, "multiply_them");
    const std::vector<float> a = ks::test::normal<float>(400, 4), b = ks::test::normal<float>(400, 5);
    DeviceArray ga = toGpu(a), gb = toGpu(b), dest = ks::array::full(rt(), {400}, -1.f, DType::Float32);
    CUdeviceptr pd = dest.data(), pa = ga.data(), pb = gb.data();
    void* params[] = {&pd, &pa, &pb};
    rt().launch(f, {{1, 1, 1}, {400, 1, 1}, 0}, params);
    auto out = dest.toHost<float>();
    for (std::size_t i = 0; i < a.size(); ++i)
        ASSERT_EQ(out[i], a[i] * b[i]) << i;
    // Now with an offset: a + 1 element, 399 threads.
    dest.fill(-1.f);
    pa = ga.data() + sizeof(float);
    rt().launch(f, {{1, 1, 1}, {399, 1, 1}, 0}, params);
    out = dest.toHost<float>();
    for (std::size_t i = 0; i + 1 < a.size(); ++i)
        ASSERT_EQ(out[i], a[i + 1] * b[i]) << i;
    EXPECT_EQ(out[399], -1.f) << "thread 399 did not run";
}

TEST_F(ArrayTest, DriverStreamedKernelWithPinnedMemory)
{
    const auto& f = rt().kernelFromSource(R"(
extern "C" __global__ void multiply_them(float *dest, float *a, float *b)
{
  const int i = threadIdx.x*blockDim.y + threadIdx.y;
  dest[i] = a[i] * b[i];
}
)",
                                          "multiply_them");
    const std::size_t n = 32 * 8, bytes = n * sizeof(float);
    ks::cuda::PinnedHostMemory a(bytes), b(bytes), dest(bytes);
    const auto ra = ks::test::normal<float>(n, 6), rb = ks::test::normal<float>(n, 7);
    std::memcpy(a.get(), ra.data(), bytes);
    std::memcpy(b.get(), rb.data(), bytes);
    DeviceArray ga = ks::array::empty(rt(), {32, 8}), gb = ks::array::empty(rt(), {32, 8});
    DeviceArray gd = ks::array::full(rt(), {32, 8}, -1.f, DType::Float32);
    ga.copyFromHostAsync(a.get(), bytes);
    gb.copyFromHostAsync(b.get(), bytes);
    CUdeviceptr pd = gd.data(), pa = ga.data(), pb = gb.data();
    void* params[] = {&pd, &pa, &pb};
    rt().launch(f, {{1, 1, 1}, {32, 8, 1}, 0}, params);
    gd.copyToHostAsync(dest.get(), bytes);
    // Everything above is asynchronous: the results are defined only after the stream synchronises.
    m_stream.synchronize();
    for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(dest.as<float>()[i], ra[i] * rb[i]) << i;
}

TEST_F(ArrayTest, DriverPreparedInvocationWithSharedMemoryAndOffsets)
{
    // A plain launch (no prepared-call API here): block (4, 4), 20 bytes of dynamic shared memory.
    const auto& f = rt().kernelFromSource(R"(
extern "C" __global__ void doublify(float *a)
{
  int idx = threadIdx.x + threadIdx.y*blockDim.x;
  a[idx] *= 2;
}
)",
                                          "doublify");
    const auto a = ks::test::normal<float>(16, 8);
    DeviceArray g = toGpu(a, {4, 4});
    CUdeviceptr p = g.data();
    void* params[] = {&p};
    rt().launch(f, {{1, 1, 1}, {4, 4, 1}, 20}, params);
    auto doubled = g.toHost<float>();
    for (std::size_t i = 0; i < 16; ++i)
        ASSERT_EQ(doubled[i], 2 * a[i]) << i;
    // Now with an offset of one element and 15 threads: elements 1..15 doubled again.
    p = g.data() + sizeof(float);
    rt().launch(f, {{1, 1, 1}, {15, 1, 1}, 0}, params);
    const auto quadrupled = g.toHost<float>();
    EXPECT_EQ(quadrupled[0], 2 * a[0]);
    for (std::size_t i = 1; i < 16; ++i)
        ASSERT_EQ(quadrupled[i], 4 * a[i]) << i;
}

TEST_F(ArrayTest, DriverConstantMemory)
{
    const std::string source = R"(
__constant__ float const_array[32];
extern "C" __global__ void copy_constant_into_global(float* global_result_array)
{
    global_result_array[threadIdx.x] = const_array[threadIdx.x];
}
)";
    const auto& f = rt().kernelFromSource(source, "copy_constant_into_global");
    const ks::cuda::Module* module = rt().module(source);
    ASSERT_NE(module, nullptr);
    const auto [constArray, constBytes] = module->global("const_array");
    ASSERT_EQ(constBytes, 32 * sizeof(float));
    const auto host = ks::test::integers<float>(32, 0, 255, 9);
    KS_CU(cuMemcpyHtoD, constArray, host.data(), constBytes);
    DeviceArray result = ks::array::full(rt(), {32}, -1.f, DType::Float32);
    CUdeviceptr p = result.data();
    void* params[] = {&p};
    rt().launch(f, {{1, 1, 1}, {32, 1, 1}, 0}, params);
    // PyCUDA's version asserts `.all` (the method, always true); this asserts every element.
    const auto out = result.toHost<float>();
    for (std::size_t i = 0; i < 32; ++i)
        ASSERT_EQ(out[i], host[i]) << i;
}

TEST_F(ArrayTest, DriverVectorTypes)
{
    const auto& f = rt().kernelFromSource(R"(
extern "C" __global__ void set_them(float3 *dest, float3 x)
{
  const int i = threadIdx.x;
  dest[i] = x;
}
)",
                                          "set_them");
    struct Float3 {
        float x, y, z;
    };
    Float3 value{1, 2, 3};
    // 400 float3 = 1200 floats, poisoned.
    DeviceArray dest = ks::array::full(rt(), {400, 3}, -7.f, DType::Float32);
    CUdeviceptr p = dest.data();
    void* params[] = {&p, &value};
    rt().launch(f, {{1, 1, 1}, {400, 1, 1}, 0}, params);
    const auto out = dest.toHost<float>();
    for (std::size_t i = 0; i < 400; ++i) {
        ASSERT_EQ(out[3 * i + 0], 1.f) << i;
        ASSERT_EQ(out[3 * i + 1], 2.f) << i;
        ASSERT_EQ(out[3 * i + 2], 3.f) << i;
    }
}

TEST_F(ArrayTest, DriverPassRawPointerArray)
{
    // PyCUDA's test_pass_cai_array: memory owned elsewhere, seen through a raw-pointer array.
    const int size = 1024;
    ks::cuda::DeviceMemory foreign(size * sizeof(int));
    const std::vector<int> poison(size, -5);
    foreign.upload(poison.data(), poison.size() * sizeof(int));
    DeviceArray view = DeviceArray::view(rt(), foreign.get(), DType::Int32, {size});
    EXPECT_FALSE(view.ownsStorage());
    const auto& f = rt().kernelFromSource(R"(
extern "C" __global__ void gpu_arange(int *x)
{
  const int i = threadIdx.x;
  x[i] = i;
}
)",
                                          "gpu_arange");
    CUdeviceptr p = view.data();
    void* params[] = {&p};
    rt().launch(f, {{1, 1, 1}, {unsigned(size), 1, 1}, 0}, params);
    rt().synchronize();
    std::vector<int> host(size);
    foreign.download(host.data(), host.size() * sizeof(int));
    EXPECT_EQ(host, ks::test::arangeHost<int>(size));
    EXPECT_EQ(view.toHost<int>(), ks::test::arangeHost<int>(size));
}

TEST_F(ArrayTest, DriverGpuArray)
{
    const auto a = ks::test::arangeHost<float>(200000);
    std::vector<float> b(a.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        b[i] = a[i] + 17;
    DeviceArray ag = toGpu(a), bg = toGpu(b);
    auto diff = (ag - 3 * bg + (-ag)).toHost<float>();
    for (std::size_t i = 0; i < a.size(); ++i)
        ASSERT_EQ(diff[i], a[i] - 3 * b[i] + (-a[i])) << i;
    diff = (ag * bg).toHost<float>();
    for (std::size_t i = 0; i < a.size(); ++i)
        ASSERT_EQ(diff[i], a[i] * b[i]) << i;
}

TEST_F(ArrayTest, StreamScopeQueuesOnItsStreamThenRestores)
{
    ks::test::LaunchRecorder recorder;
    ks::array::Runtime r(optionsWith(recorder));
    const ks::cuda::Stream other(ks::cuda::Stream::Create{});
    const auto a = ks::test::arangeHost<float>(1000);
    const DeviceArray ag = ks::array::fromHost(r, a);
    r.synchronize();
    recorder.clear();
    {
        ks::array::StreamScope on(r, other.get());
        EXPECT_EQ(r.stream(), other.get());
        const DeviceArray twice = ag * 2.f;
        CUstream own = nullptr;
        {
            ks::array::StreamScope ownStream(r, nullptr); // nested: the runtime's own stream
            own = r.stream();
            EXPECT_NE(own, other.get());
            EXPECT_NE(own, m_stream.get());
            const DeviceArray plusOne = ag + 1.f;
            const std::vector<float> host = plusOne.toHost<float>(); // synchronises the own stream
            for (std::size_t i = 0; i < a.size(); ++i)
                ASSERT_EQ(host[i], a[i] + 1) << i;
        }
        EXPECT_EQ(r.stream(), other.get());
        const std::vector<float> host = twice.toHost<float>(); // synchronises `other`
        for (std::size_t i = 0; i < a.size(); ++i)
            ASSERT_EQ(host[i], a[i] * 2) << i;
        ASSERT_EQ(recorder.streams.size(), 2u);
        EXPECT_EQ(recorder.streams[0], other.get());
        EXPECT_EQ(recorder.streams[1], own);
    }
    EXPECT_EQ(r.stream(), m_stream.get());
    const DeviceArray back = ag - 1.f;
    ASSERT_EQ(recorder.streams.size(), 3u);
    EXPECT_EQ(recorder.streams[2], m_stream.get());
    const std::vector<float> host = back.toHost<float>();
    for (std::size_t i = 0; i < a.size(); ++i)
        ASSERT_EQ(host[i], a[i] - 1) << i;
}
