#include "ks/rng/fill.hpp"

#include "ks/array/runtime.hpp"
#include "ks/core/error.hpp"

namespace ks::rng {
namespace {

using array::DeviceArray;
using array::DType;

void requireContiguous(const DeviceArray& a, const char* function)
{
    if (!a.isCContiguous())
        throwUsage(function, "strided views are not supported yet: fill a contiguous array, got a " + a.describe());
}

[[noreturn]] void badType(const DeviceArray& a, const char* function, const char* what)
{
    throwUsage(function, std::string("cuRAND makes ") + what + ", not " + std::string(array::dtypeName(a.dtype())));
}


} // namespace

void fillUniform(Generator& gen, const DeviceArray& a)
{
    const char* fn = "ks::rng::fillUniform";
    requireContiguous(a, fn);
    const CUstream s = a.runtime().stream();
    const std::size_t n = std::size_t(a.size());
    switch (a.dtype()) {
    case DType::Float32: gen.uniform(a.ptr<float>(), n, s); break;
    case DType::Float64: gen.uniform(a.ptr<double>(), n, s); break;
    case DType::UInt32: gen.bits(a.ptr<std::uint32_t>(), n, s); break;
    case DType::UInt64: gen.bits(a.ptr<std::uint64_t>(), n, s); break;
    default: badType(a, fn, "uniform float32, float64 and raw uint32/uint64 words");
    }
}

void fillNormal(Generator& gen, const DeviceArray& a, double mean, double stddev)
{
    const char* fn = "ks::rng::fillNormal";
    requireContiguous(a, fn);
    const CUstream s = a.runtime().stream();
    const std::size_t n = std::size_t(a.size());
    if (a.dtype() == DType::Float32)
        gen.normal(a.ptr<float>(), n, float(mean), float(stddev), s);
    else if (a.dtype() == DType::Float64)
        gen.normal(a.ptr<double>(), n, mean, stddev, s);
    else
        badType(a, fn, "normal float32 and float64");
}

void fillLogNormal(Generator& gen, const DeviceArray& a, double mean, double stddev)
{
    const char* fn = "ks::rng::fillLogNormal";
    requireContiguous(a, fn);
    const CUstream s = a.runtime().stream();
    const std::size_t n = std::size_t(a.size());
    if (a.dtype() == DType::Float32)
        gen.logNormal(a.ptr<float>(), n, float(mean), float(stddev), s);
    else if (a.dtype() == DType::Float64)
        gen.logNormal(a.ptr<double>(), n, mean, stddev, s);
    else
        badType(a, fn, "log-normal float32 and float64");
}

void fillPoisson(Generator& gen, const DeviceArray& a, double lambda)
{
    const char* fn = "ks::rng::fillPoisson";
    requireContiguous(a, fn);
    if (a.dtype() != DType::UInt32)
        badType(a, fn, "Poisson counts as uint32");
    gen.poisson(a.ptr<std::uint32_t>(), std::size_t(a.size()), lambda, a.runtime().stream());
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
