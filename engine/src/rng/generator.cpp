#include "ks/rng/generator.hpp"

#include "ks/core/error.hpp"
#include "ks/core/log.hpp"

#include "philox_fill.hpp"

#include <cuda_runtime_api.h>

namespace ks::rng {

std::string_view generatorName(GeneratorType type) noexcept
{
    switch (type) {
    case GeneratorType::Xorwow: return "XORWOW";
    case GeneratorType::Philox4x32_10: return "Philox4x32-10";
    case GeneratorType::Mrg32k3a: return "MRG32k3a";
    case GeneratorType::Mtgp32: return "MTGP32";
    case GeneratorType::Mt19937: return "MT19937";
    case GeneratorType::Sobol32: return "Sobol32";
    case GeneratorType::ScrambledSobol32: return "ScrambledSobol32";
    case GeneratorType::Sobol64: return "Sobol64";
    case GeneratorType::ScrambledSobol64: return "ScrambledSobol64";
    }
    return "unknown";
}

curandRngType_t curandType(GeneratorType type) noexcept
{
    switch (type) {
    case GeneratorType::Xorwow: return CURAND_RNG_PSEUDO_XORWOW;
    case GeneratorType::Philox4x32_10: return CURAND_RNG_PSEUDO_PHILOX4_32_10;
    case GeneratorType::Mrg32k3a: return CURAND_RNG_PSEUDO_MRG32K3A;
    case GeneratorType::Mtgp32: return CURAND_RNG_PSEUDO_MTGP32;
    case GeneratorType::Mt19937: return CURAND_RNG_PSEUDO_MT19937;
    case GeneratorType::Sobol32: return CURAND_RNG_QUASI_SOBOL32;
    case GeneratorType::ScrambledSobol32: return CURAND_RNG_QUASI_SCRAMBLED_SOBOL32;
    case GeneratorType::Sobol64: return CURAND_RNG_QUASI_SOBOL64;
    case GeneratorType::ScrambledSobol64: return CURAND_RNG_QUASI_SCRAMBLED_SOBOL64;
    }
    return CURAND_RNG_PSEUDO_DEFAULT;
}

bool isQuasiRandom(GeneratorType type) noexcept
{
    return type == GeneratorType::Sobol32 || type == GeneratorType::ScrambledSobol32 ||
           type == GeneratorType::Sobol64 || type == GeneratorType::ScrambledSobol64;
}

bool hasNativeBits64(GeneratorType type) noexcept
{
    return type == GeneratorType::Sobol64 || type == GeneratorType::ScrambledSobol64;
}

bool supportsOffset(GeneratorType type) noexcept
{
    return type != GeneratorType::Mtgp32 && type != GeneratorType::Mt19937;
}

bool seekingIsExact(GeneratorType type, bool pairwise) noexcept
{
    if (!supportsOffset(type))
        return false;
    return !(pairwise && (type == GeneratorType::Xorwow || type == GeneratorType::Mrg32k3a));
}

std::string_view curandStatusName(curandStatus_t status) noexcept
{
    switch (status) {
    case CURAND_STATUS_SUCCESS: return "CURAND_STATUS_SUCCESS";
    case CURAND_STATUS_VERSION_MISMATCH: return "CURAND_STATUS_VERSION_MISMATCH";
    case CURAND_STATUS_NOT_INITIALIZED: return "CURAND_STATUS_NOT_INITIALIZED";
    case CURAND_STATUS_ALLOCATION_FAILED: return "CURAND_STATUS_ALLOCATION_FAILED";
    case CURAND_STATUS_TYPE_ERROR: return "CURAND_STATUS_TYPE_ERROR";
    case CURAND_STATUS_OUT_OF_RANGE: return "CURAND_STATUS_OUT_OF_RANGE";
    case CURAND_STATUS_LENGTH_NOT_MULTIPLE: return "CURAND_STATUS_LENGTH_NOT_MULTIPLE";
    case CURAND_STATUS_DOUBLE_PRECISION_REQUIRED: return "CURAND_STATUS_DOUBLE_PRECISION_REQUIRED";
    case CURAND_STATUS_LAUNCH_FAILURE: return "CURAND_STATUS_LAUNCH_FAILURE";
    case CURAND_STATUS_PREEXISTING_FAILURE: return "CURAND_STATUS_PREEXISTING_FAILURE";
    case CURAND_STATUS_INITIALIZATION_FAILED: return "CURAND_STATUS_INITIALIZATION_FAILED";
    case CURAND_STATUS_ARCH_MISMATCH: return "CURAND_STATUS_ARCH_MISMATCH";
    case CURAND_STATUS_INTERNAL_ERROR: return "CURAND_STATUS_INTERNAL_ERROR";
    }
    return "CURAND_STATUS_UNKNOWN";
}

namespace {

std::string_view statusText(curandStatus_t status) noexcept
{
    switch (status) {
    case CURAND_STATUS_VERSION_MISMATCH: return "header and library versions do not match";
    case CURAND_STATUS_NOT_INITIALIZED: return "generator not initialized";
    case CURAND_STATUS_ALLOCATION_FAILED: return "memory allocation failed";
    case CURAND_STATUS_TYPE_ERROR: return "the generator does not make this type";
    case CURAND_STATUS_OUT_OF_RANGE: return "argument out of range";
    case CURAND_STATUS_LENGTH_NOT_MULTIPLE: return "length is not a multiple of what the generator needs";
    case CURAND_STATUS_DOUBLE_PRECISION_REQUIRED: return "the GPU lacks the double precision required";
    case CURAND_STATUS_LAUNCH_FAILURE: return "kernel launch failed";
    case CURAND_STATUS_PREEXISTING_FAILURE: return "an earlier failure was pending";
    case CURAND_STATUS_INITIALIZATION_FAILED: return "CUDA initialization failed";
    case CURAND_STATUS_ARCH_MISMATCH: return "the GPU architecture does not support this";
    default: return "internal cuRAND error";
    }
}

bool alignedTo(const void* p, std::size_t bytes)
{
    return reinterpret_cast<std::uintptr_t>(p) % bytes == 0;
}

} // namespace

void checkCurand(curandStatus_t status, const char* call, std::source_location where)
{
    if (status != CURAND_STATUS_SUCCESS)
        throwError(ErrorDomain::Curand, call, status, std::string(curandStatusName(status)),
                   std::string(statusText(status)), where);
}

void GeneratorTraits::destroy(curandGenerator_t h) noexcept
{
    const curandStatus_t s = curandDestroyGenerator(h);
    if (s != CURAND_STATUS_SUCCESS)
        log::error(std::string("curandDestroyGenerator failed: ") + std::string(curandStatusName(s)));
}

Generator::Generator(GeneratorType type, std::uint64_t seed, FillPath path) : m_type(type), m_path(path)
{
    curandGenerator_t g = nullptr;
    checkCurand(curandCreateGenerator(&g, curandType(type)), "curandCreateGenerator");
    m_handle.reset(g);
    reseed(seed);
    if (usesKernels()) {
        int device = 0, sms = 0;
        if (cudaGetDevice(&device) == cudaSuccess &&
            cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) == cudaSuccess)
            m_smCount = unsigned(sms);
    }
}

void Generator::seekPhiloxBlock(std::uint64_t block)
{
    if (!usesKernels())
        throwUsage("ks::rng::Generator::seekPhiloxBlock", "only the Philox kernel path has a block position");
    m_block = block;
}

std::uint64_t Generator::philoxBlocks(std::size_t n, bool doubles) noexcept
{
    const std::uint64_t v = doubles ? 2 : 4;
    return (std::uint64_t(n) + v - 1) / v;
}

void Generator::seekDrawn(std::uint64_t values)
{
    if (!supportsOffset(m_type))
        throwUsage("ks::rng::Generator::seekDrawn", std::string(generatorName(m_type)) + " has no offset to seek");
    checkCurand(curandSetGeneratorOffset(get(), (isQuasiRandom(m_type) ? m_seed : 0) + values),
                "curandSetGeneratorOffset");
    m_drawn = values;
}

void Generator::reseed(std::uint64_t seed)
{
    m_seed = seed;
    m_block = 0;
    m_drawn = 0;
    if (isQuasiRandom(m_type)) {
        checkCurand(curandSetGeneratorOffset(get(), seed), "curandSetGeneratorOffset");
    } else {
        // The Mersenne twisters have no offset (cuRAND answers TYPE_ERROR), and seeding one again
        // does not restart its sequence (seen on an H200: the same seed gave different numbers).
        // A fresh generator does: recreate it. Reseeding is a restart, not a per-frame cost.
        if (!supportsOffset(m_type) && m_seeded) {
            curandGenerator_t g = nullptr;
            checkCurand(curandCreateGenerator(&g, curandType(m_type)), "curandCreateGenerator");
            m_handle.reset(g);
            m_streamBound = false;
        }
        checkCurand(curandSetPseudoRandomGeneratorSeed(get(), seed), "curandSetPseudoRandomGeneratorSeed");
        // Setting the seed alone keeps the current offset, so offset generators also go back to 0.
        if (supportsOffset(m_type))
            checkCurand(curandSetGeneratorOffset(get(), 0), "curandSetGeneratorOffset");
        m_seeded = true;
    }
}

void Generator::bindStream(CUstream stream)
{
    if (m_streamBound && stream == m_stream)
        return;
    // CUstream and cudaStream_t name the same object; the runtime shares the primary context.
    checkCurand(curandSetStream(get(), reinterpret_cast<cudaStream_t>(stream)), "curandSetStream");
    m_stream = stream;
    m_streamBound = true;
}

template <class Fill>
void Generator::philox(const void* out, std::size_t n, CUstream stream, const char* kernel, Fill fill)
{
    detail::PhiloxLaunch launch{m_seed, m_block, stream, m_smCount};
    if (m_checkFills && n > 0) {
        if (m_record.empty())
            m_record = cuda::DeviceMemory(sizeof(teach::CheckedRecord));
        KS_CU(cuMemsetD8Async, m_record.get(), 0, sizeof(teach::CheckedRecord), stream);
        CUdeviceptr base = 0;
        std::size_t size = 0;
        const auto at = reinterpret_cast<CUdeviceptr>(out);
        launch.extentBytes = cuda::driver().cuMemGetAddressRange(&base, &size, at) == CUDA_SUCCESS
                                 ? base + size - at
                                 : teach::kExtentUnchecked;
        launch.record = m_record.as<teach::CheckedRecord>();
    }
    m_block += fill(launch);
    if (launch.record) {
        KS_CU(cuStreamSynchronize, stream);
        CheckedFill f{kernel, n, launch.extentBytes, {}};
        m_record.download(&f.record, sizeof f.record);
        m_checkedFills.push_back(f);
    }
}

void Generator::uniform(float* out, std::size_t n, CUstream stream)
{
    if (n == 0)
        return;
    if (usesKernels()) {
        philox(out, n, stream, "philox uniform float32", [&](const detail::PhiloxLaunch& l) {
            return detail::philoxFill(out, n, detail::PhiloxDistribution::Uniform, 0.f, 1.f, l);
        });
        return;
    }
    bindStream(stream);
    checkCurand(curandGenerateUniform(get(), out, n), "curandGenerateUniform");
    m_drawn += n;
}

void Generator::uniform(double* out, std::size_t n, CUstream stream)
{
    if (n == 0)
        return;
    if (usesKernels()) {
        philox(out, n, stream, "philox uniform float64", [&](const detail::PhiloxLaunch& l) {
            return detail::philoxFill(out, n, detail::PhiloxDistribution::Uniform, 0.0, 1.0, l);
        });
        return;
    }
    bindStream(stream);
    checkCurand(curandGenerateUniformDouble(get(), out, n), "curandGenerateUniformDouble");
    m_drawn += n;
}

void Generator::bits(std::uint32_t* out, std::size_t n, CUstream stream)
{
    if (hasNativeBits64(m_type))
        throwUsage("ks::rng::Generator::bits", std::string(generatorName(m_type)) +
                                                   " makes 64-bit words: fill a uint64 array instead");
    if (n == 0)
        return;
    if (usesKernels()) {
        philox(out, n, stream, "philox bits uint32", [&](const detail::PhiloxLaunch& l) {
            return detail::philoxBits(out, n, l);
        });
        return;
    }
    bindStream(stream);
    checkCurand(curandGenerate(get(), reinterpret_cast<unsigned int*>(out), n), "curandGenerate");
    m_drawn += n;
}

void Generator::bits(std::uint64_t* out, std::size_t n, CUstream stream)
{
    if (!hasNativeBits64(m_type))
        throwUsage("ks::rng::Generator::bits", std::string(generatorName(m_type)) +
                                                   " makes 32-bit words: fill a uint32 array instead");
    if (n == 0)
        return;
    bindStream(stream);
    checkCurand(curandGenerateLongLong(get(), reinterpret_cast<unsigned long long*>(out), n),
                "curandGenerateLongLong");
    m_drawn += n;
}

// Pseudo-random normals come in pairs at pair-aligned addresses. The pair-aligned even body goes
// straight into `out`; a misaligned first element and an odd last element are taken from four
// values generated into the scratch buffer and copied in.
template <class T, class Generate>
void Generator::pairwise(T* out, std::size_t n, CUstream stream, Generate generate)
{
    if (n == 0)
        return;
    bindStream(stream);
    if (isQuasiRandom(m_type)) {
        generate(out, n); // inverse-CDF: no pairing
        m_drawn += n;
        return;
    }
    const std::size_t head = alignedTo(out, 2 * sizeof(T)) ? 0 : 1;
    const std::size_t body = (n - head) & ~std::size_t(1);
    const std::size_t tail = n - head - body;
    if (body) {
        generate(out + head, body);
        m_drawn += body;
    }
    if (head || tail) {
        if (m_scratch.empty())
            m_scratch = cuda::DeviceMemory(4 * sizeof(double));
        T* scratch = m_scratch.as<T>();
        generate(scratch, 4);
        m_drawn += 4;
        if (head)
            KS_CU(cuMemcpyDtoDAsync, reinterpret_cast<CUdeviceptr>(out), m_scratch.get(), sizeof(T), stream);
        if (tail)
            KS_CU(cuMemcpyDtoDAsync, reinterpret_cast<CUdeviceptr>(out + n - 1), m_scratch.get() + 2 * sizeof(T),
                  sizeof(T), stream);
    }
}

void Generator::normal(float* out, std::size_t n, float mean, float stddev, CUstream stream)
{
    if (usesKernels()) {
        philox(out, n, stream, "philox normal float32", [&](const detail::PhiloxLaunch& l) {
            return detail::philoxFill(out, n, detail::PhiloxDistribution::Normal, mean, stddev, l);
        });
        return;
    }
    pairwise(out, n, stream, [&](float* p, std::size_t k) {
        checkCurand(curandGenerateNormal(get(), p, k, mean, stddev), "curandGenerateNormal");
    });
}

void Generator::normal(double* out, std::size_t n, double mean, double stddev, CUstream stream)
{
    if (usesKernels()) {
        philox(out, n, stream, "philox normal float64", [&](const detail::PhiloxLaunch& l) {
            return detail::philoxFill(out, n, detail::PhiloxDistribution::Normal, mean, stddev, l);
        });
        return;
    }
    pairwise(out, n, stream, [&](double* p, std::size_t k) {
        checkCurand(curandGenerateNormalDouble(get(), p, k, mean, stddev), "curandGenerateNormalDouble");
    });
}

void Generator::logNormal(float* out, std::size_t n, float mean, float stddev, CUstream stream)
{
    if (usesKernels()) {
        philox(out, n, stream, "philox log-normal float32", [&](const detail::PhiloxLaunch& l) {
            return detail::philoxFill(out, n, detail::PhiloxDistribution::LogNormal, mean, stddev, l);
        });
        return;
    }
    pairwise(out, n, stream, [&](float* p, std::size_t k) {
        checkCurand(curandGenerateLogNormal(get(), p, k, mean, stddev), "curandGenerateLogNormal");
    });
}

void Generator::logNormal(double* out, std::size_t n, double mean, double stddev, CUstream stream)
{
    if (usesKernels()) {
        philox(out, n, stream, "philox log-normal float64", [&](const detail::PhiloxLaunch& l) {
            return detail::philoxFill(out, n, detail::PhiloxDistribution::LogNormal, mean, stddev, l);
        });
        return;
    }
    pairwise(out, n, stream, [&](double* p, std::size_t k) {
        checkCurand(curandGenerateLogNormalDouble(get(), p, k, mean, stddev), "curandGenerateLogNormalDouble");
    });
}

void Generator::poisson(std::uint32_t* out, std::size_t n, double lambda, CUstream stream)
{
    if (!(lambda > 0))
        throwUsage("ks::rng::Generator::poisson", "lambda must be positive, got " + std::to_string(lambda));
    if (n == 0)
        return;
    bindStream(stream);
    checkCurand(curandGeneratePoisson(get(), reinterpret_cast<unsigned int*>(out), n, lambda),
                "curandGeneratePoisson");
    m_drawn += n;
}

} // namespace ks::rng
