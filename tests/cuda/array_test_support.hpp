#pragma once
// Fixture and helpers for the device-array GPU tests: a Runtime on the fixture's stream, seeded
// random host data, and host references.
#include "ks/array/device_array.hpp"
#include "ks/array/elementwise_kernel.hpp"
#include "ks/array/ops.hpp"
#include "ks/array/runtime.hpp"
#include "ks/core/error.hpp"

#include "test_support.hpp"

#include <cmath>
#include <complex>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace ks::test {

class ArrayTest : public CudaTest {
protected:
    void SetUp() override
    {
        CudaTest::SetUp();
        if (IsSkipped())
            return;
        array::RuntimeOptions options;
        options.stream = m_stream.get();
        m_rt.emplace(options);
    }
    void TearDown() override
    {
        if (m_rt)
            m_rt->synchronize();
        m_rt.reset();
    }
    array::Runtime& rt() { return *m_rt; }
    // Options for a runtime of a test's own on the test's stream, its launches through `interposer`.
    array::RuntimeOptions optionsWith(array::LaunchInterposer& interposer)
    {
        array::RuntimeOptions options;
        options.stream = m_stream.get();
        options.interposer = &interposer;
        return options;
    }

    template <class T>
    array::DeviceArray toGpu(const std::vector<T>& v)
    {
        return array::fromHost(rt(), v); // 1-D
    }
    // Dims{} makes a 0-d array of the one value (np.array(2)).
    template <class T>
    array::DeviceArray toGpu(const std::vector<T>& v, const array::Dims& shape)
    {
        return array::fromHost(rt(), v, shape);
    }

    std::optional<array::Runtime> m_rt;
};

// An array of `n` elements poisoned with NaN (floats) or 0xAB bytes (everything else), so that
// unwritten elements show.
inline array::DeviceArray poisonedArray(array::Runtime& rt, std::int64_t n, array::DType dtype)
{
    array::DeviceArray a = array::DeviceArray::empty(rt, array::Dims{n}, dtype);
    if (dtype == array::DType::Float32)
        a.copyFromHost(std::vector<float>(std::size_t(n), std::nanf("")).data(), std::size_t(n) * 4);
    else if (dtype == array::DType::Float64)
        a.copyFromHost(std::vector<double>(std::size_t(n), std::nan("")).data(), std::size_t(n) * 8);
    else
        KS_CU(cuMemsetD8, a.data(), 0xAB, std::size_t(a.nbytes()));
    return a;
}

// Uniform values in [lo, hi) from a fixed seed (numpy's random((n,)) * (hi - lo) + lo).
template <class T>
std::vector<T> uniform(std::size_t n, double lo, double hi, unsigned seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> d(lo, hi);
    std::vector<T> v(n);
    for (auto& x : v)
        x = T(d(rng));
    return v;
}

template <class T>
std::vector<T> normal(std::size_t n, unsigned seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> d(0, 1);
    std::vector<T> v(n);
    for (auto& x : v)
        x = T(d(rng));
    return v;
}

// Integers in [lo, hi) (numpy's rng.integers).
template <class T>
std::vector<T> integers(std::size_t n, long long lo, long long hi, unsigned seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<long long> d(lo, hi - 1);
    std::vector<T> v(n);
    for (auto& x : v)
        x = T(d(rng));
    return v;
}

template <class T>
std::vector<T> arangeHost(std::size_t n, T start = T(0))
{
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = T(start + T(i));
    return v;
}

// Records every generated launch (its entry point and stream), then launches it as asked
// (RuntimeOptions::interposer).
class LaunchRecorder : public array::LaunchInterposer {
public:
    std::vector<std::string> entries;
    std::vector<CUstream> streams;
    void launch(const array::GeneratedLaunch& kernel, const cuda::LaunchConfig& config, CUstream stream,
                void** params) override
    {
        entries.push_back(kernel.name);
        streams.push_back(stream);
        kernel.function.launch(config, stream, params);
    }
    std::string last() const { return entries.empty() ? "" : entries.back(); }
    void clear()
    {
        entries.clear();
        streams.clear();
    }
};

// numpy.linalg.norm(a - b) for real vectors.
template <class A, class B>
double normDiff(const std::vector<A>& a, const std::vector<B>& b)
{
    EXPECT_EQ(a.size(), b.size());
    double s = 0;
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
        const double d = double(a[i]) - double(b[i]);
        s += d * d;
    }
    return std::sqrt(s);
}

// Elements of a host array laid out as `shape`/`strides` (in elements) gathered in C order.
template <class T>
std::vector<T> gather(const std::vector<T>& base, const array::Dims& shape, const array::Dims& strides,
                      std::int64_t offset)
{
    std::vector<T> out;
    const std::int64_t n = shape.product();
    out.reserve(std::size_t(n));
    for (std::int64_t i = 0; i < n; ++i) {
        std::int64_t rem = i, off = offset;
        for (int d = shape.size() - 1; d >= 0; --d) {
            off += (rem % shape[d]) * strides[d];
            rem /= shape[d];
        }
        out.push_back(base[std::size_t(off)]);
    }
    return out;
}

// What a view of a C-contiguous host array holds: its layout divided into elements.
template <class T>
std::vector<T> hostView(const std::vector<T>& base, const array::DeviceArray& whole, const array::DeviceArray& view)
{
    array::Dims strides;
    for (std::int64_t s : view.strides())
        strides.push_back(s / std::int64_t(sizeof(T)));
    return gather(base, view.shape(), strides, (std::int64_t(view.data()) - std::int64_t(whole.data())) /
                                                   std::int64_t(sizeof(T)));
}

} // namespace ks::test
