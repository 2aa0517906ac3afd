#include "ks/rng/fill.hpp"

#include "ks/array/runtime.hpp"
#include "ks/core/error.hpp"

namespace ks::rng {
namespace {

using array::DeviceArray;
using array::DType;

// Runs `fill` on `a` directly when it is contiguous, else on a contiguous temporary copied into
// the view afterwards (one extra pass over the data).
template <class Fill>
void fillAny(const DeviceArray& a, const char* function, Fill fill)
{
    a.requireWritable(function);
    if (a.isCContiguous()) {
        fill(a);
        return;
    }
    const DeviceArray temp = DeviceArray::empty(a.runtime(), a.shape(), a.dtype());
    fill(temp);
    DeviceArray target = a;
    target.assign(temp);
}

[[noreturn]] void badType(const DeviceArray& a, const char* function, const char* what)
{
    throwUsage(function, std::string("cuRAND makes ") + what + ", not " + std::string(array::dtypeName(a.dtype())));
}


} // namespace

void fillUniform(Generator& gen, const DeviceArray& a)
{
    const DType t = a.dtype();
    if (t != DType::Float32 && t != DType::Float64 && t != DType::UInt32 && t != DType::UInt64)
        badType(a, "ks::rng::fillUniform", "uniform float32, float64 and raw uint32/uint64 words");
    fillAny(a, "ks::rng::fillUniform", [&](const DeviceArray& c) {
        const CUstream s = c.runtime().stream();
        const std::size_t n = std::size_t(c.size());
        switch (t) {
        case DType::Float32: gen.uniform(c.ptr<float>(), n, s); break;
        case DType::Float64: gen.uniform(c.ptr<double>(), n, s); break;
        case DType::UInt32: gen.bits(c.ptr<std::uint32_t>(), n, s); break;
        default: gen.bits(c.ptr<std::uint64_t>(), n, s); break;
        }
    });
}

void fillNormal(Generator& gen, const DeviceArray& a, double mean, double stddev)
{
    if (a.dtype() != DType::Float32 && a.dtype() != DType::Float64)
        badType(a, "ks::rng::fillNormal", "normal float32 and float64");
    fillAny(a, "ks::rng::fillNormal", [&](const DeviceArray& c) {
        const std::size_t n = std::size_t(c.size());
        if (c.dtype() == DType::Float32)
            gen.normal(c.ptr<float>(), n, float(mean), float(stddev), c.runtime().stream());
        else
            gen.normal(c.ptr<double>(), n, mean, stddev, c.runtime().stream());
    });
}

void fillLogNormal(Generator& gen, const DeviceArray& a, double mean, double stddev)
{
    if (a.dtype() != DType::Float32 && a.dtype() != DType::Float64)
        badType(a, "ks::rng::fillLogNormal", "log-normal float32 and float64");
    fillAny(a, "ks::rng::fillLogNormal", [&](const DeviceArray& c) {
        const std::size_t n = std::size_t(c.size());
        if (c.dtype() == DType::Float32)
            gen.logNormal(c.ptr<float>(), n, float(mean), float(stddev), c.runtime().stream());
        else
            gen.logNormal(c.ptr<double>(), n, mean, stddev, c.runtime().stream());
    });
}

void fillPoisson(Generator& gen, const DeviceArray& a, double lambda)
{
    if (a.dtype() != DType::UInt32)
        badType(a, "ks::rng::fillPoisson", "Poisson counts as uint32");
    fillAny(a, "ks::rng::fillPoisson", [&](const DeviceArray& c) {
        gen.poisson(c.ptr<std::uint32_t>(), std::size_t(c.size()), lambda, c.runtime().stream());
    });
}

DeviceArray rand(Generator& gen, array::Runtime& rt, const array::Dims& shape, DType dtype)
{
    if (dtype != DType::Float32 && dtype != DType::Float64)
        throwUsage("ks::rng::rand", "rand makes float32 or float64, not " + std::string(array::dtypeName(dtype)));
    DeviceArray a = DeviceArray::empty(rt, shape, dtype);
    fillUniform(gen, a);
    const cuda::Function& flip =
        rt.kernelFromSource(randFlipSource(), dtype == DType::Float32 ? "ks_rng_flip_f32" : "ks_rng_flip_f64", "ks_rng_flip.cu");
    CUdeviceptr p = a.data();
    long long n = a.size();
    void* params[] = {&p, &n};
    if (n > 0)
        rt.launch(flip, rt.gridStrideConfig(std::uint64_t(n)), params);
    return a;
}

} // namespace ks::rng
