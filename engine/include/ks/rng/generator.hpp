#pragma once
// Random numbers from cuRAND, straight into device memory.
//
// A Generator owns one curandGenerator_t. Create it once (it allocates and seeds its state on the
// device, which costs milliseconds) and keep it: every fill takes the stream to run on and only
// re-binds the generator when the stream changes, so a fill per frame costs a kernel launch and no
// set-up. The same type, seed and sequence of calls gives the same numbers, bit for bit.
//
// Philox4x32-10 fills (uniform, normal and log-normal float32/float64, raw uint32) run the engine's
// own kernels by default (FillPath::Kernels), built on cuRAND's device API: one Philox call per 16
// bytes, 16-byte stores, no generator state on the device. Their numbers are those of cuRAND's
// device API, not of curandGenerate* (the host API lays Philox's output out differently): a fill of
// n values that starts at Philox block C (C = 0 after construction or reseed) gives element i the
// component i % V of curand_uniform4 / curand_normal4 (float; V = 4), curand_uniform2_double /
// curand_normal2_double (double; V = 2) or curand4 (uint32; V = 4) on a state made with
// curand_init(seed, 0, 4 * (C + i / V)); normals are mean + stddev * z, log-normals exp of that.
// The fill then advances C by ceil(n / V) blocks, so successive fills continue the sequence and
// never reuse a word. Poisson stays on cuRAND's host generator (its own sequence).
// FillPath::CurandHost sends every fill to curandGenerate* instead (cuRAND's own Philox sequence).
// Every other generator type always uses cuRAND's host API.
//
// Contexts and threads: construct, use and destroy with the CUDA context current in which the
// memory lives (the primary context; the runtime that cuRAND uses shares it). A Generator is not
// thread-safe: one thread at a time. Fills are asynchronous on the given stream.
//
// Errors: a failed cuRAND call throws ks::Error (ErrorDomain::Curand) naming the call and status
// ("curandGenerateNormal CURAND_STATUS_LENGTH_NOT_MULTIPLE (105): ..."); a request cuRAND does not
// define (Poisson into floats, 64-bit bits from a 32-bit generator) throws a Usage error; a failed
// launch of a fill kernel throws ks::Error (CudaRuntime) naming the kernel.

#include "ks/core/unique_handle.hpp"
#include "ks/cuda/driver.hpp"
#include "ks/cuda/memory.hpp"

#include <curand.h>
#include <ks_device/records.cuh>

#include <cstddef>
#include <cstdint>
#include <source_location>
#include <string>
#include <string_view>
#include <vector>

namespace ks::rng {

enum class GeneratorType {
    Xorwow,
    Philox4x32_10,
    Mrg32k3a,
    Mtgp32,
    Mt19937,
    Sobol32,
    ScrambledSobol32,
    Sobol64,
    ScrambledSobol64,
};

// Every type, in declaration order (for tests and pickers).
inline constexpr GeneratorType kAllGeneratorTypes[] = {
    GeneratorType::Xorwow,  GeneratorType::Philox4x32_10,    GeneratorType::Mrg32k3a,
    GeneratorType::Mtgp32,  GeneratorType::Mt19937,          GeneratorType::Sobol32,
    GeneratorType::ScrambledSobol32, GeneratorType::Sobol64, GeneratorType::ScrambledSobol64,
};

std::string_view generatorName(GeneratorType type) noexcept; // "Philox4x32-10"
curandRngType_t curandType(GeneratorType type) noexcept;
bool isQuasiRandom(GeneratorType type) noexcept;   // the Sobol family
bool hasNativeBits64(GeneratorType type) noexcept; // Sobol64 variants: bits come as 64-bit words
// Whether curandSetGeneratorOffset accepts the type: every type except the Mersenne twisters
// (MTGP32, MT19937), which answer CURAND_STATUS_TYPE_ERROR; their seed alone restarts them.
bool supportsOffset(GeneratorType type) noexcept;

// Whether seeking a host generator of `type` to what earlier fills drew (Generator::seekDrawn)
// continues exactly as those fills would have. Measured on an H100 (CUDA 13.0, driver 580): exact
// for uniform and poisson fills of every type with an offset and for Philox's and Sobol32's normal
// and log-normal fills; not for XORWOW's and MRG32k3a's normal and log-normal fills (`pairwise`),
// whose numbers after a seek differ from an uninterrupted run's.
bool seekingIsExact(GeneratorType type, bool pairwise) noexcept;

// "CURAND_STATUS_LENGTH_NOT_MULTIPLE"
std::string_view curandStatusName(curandStatus_t status) noexcept;
// Throws ks::Error (Curand) naming `call` when `status` is not success.
void checkCurand(curandStatus_t status, const char* call, std::source_location where = std::source_location::current());

// Who makes a Philox generator's uniform, normal, log-normal and bit fills (see the top of this file).
enum class FillPath {
    Kernels,    // the engine's Philox kernels (Philox4x32-10 only; other types ignore it)
    CurandHost, // curandGenerate* for every fill
};

struct GeneratorTraits {
    using Handle = curandGenerator_t;
    static constexpr Handle empty() { return nullptr; }
    static void destroy(Handle h) noexcept;
};

class Generator {
public:
    Generator() noexcept = default; // empty
    // Creates a generator of `type`. Pseudo-random types take `seed`; quasi-random (Sobol) types
    // have no seed and start their sequence at `seed` instead (an offset), so a seed still selects
    // a reproducible stretch of numbers.
    explicit Generator(GeneratorType type, std::uint64_t seed = 0, FillPath path = FillPath::Kernels);

    curandGenerator_t get() const noexcept { return m_handle.get(); }
    bool empty() const noexcept { return m_handle.empty(); }
    GeneratorType type() const noexcept { return m_type; }
    std::uint64_t seed() const noexcept { return m_seed; }
    FillPath fillPath() const noexcept { return m_path; }
    // Whether fills run the engine's Philox kernels (Philox4x32-10 with FillPath::Kernels).
    bool usesKernels() const noexcept { return m_type == GeneratorType::Philox4x32_10 && m_path == FillPath::Kernels; }
    // The kernel path's position: the Philox block the next fill starts at (0 after (re)seeding).
    std::uint64_t philoxBlock() const noexcept { return m_block; }

    // Restarts the sequence of `seed` (for Sobol: at offset `seed`): the next fills repeat the
    // numbers the generator gave after construction with this seed.
    void reseed(std::uint64_t seed);
    // Kernel path only (usesKernels()): the next fill starts at Philox block `block`, as if fills
    // had taken blocks 0 to block - 1 since the seed. Throws ks::Error (Usage) on another path.
    void seekPhiloxBlock(std::uint64_t block);
    // The Philox blocks one kernel-path uniform, normal or log-normal fill of `n` elements takes
    // (ceil(n / 4) for floats, ceil(n / 2) for doubles).
    static std::uint64_t philoxBlocks(std::size_t n, bool doubles) noexcept;
    // cuRAND's host generator (every fill but the kernel path's uniform, normal, log-normal and
    // bits; poisson always): how many values the fills asked cuRAND for since the last (re)seed,
    // and a jump to the position those many values leave (curandSetGeneratorOffset; the Sobol
    // family counts from its seed). A resumed run seeks to what F fills drew to draw what the
    // (F+1)-th fill of an uninterrupted run draws. seekDrawn throws ks::Error (Usage) for the
    // Mersenne twisters (no offset) and leaves the kernel path's block position alone.
    std::uint64_t drawn() const noexcept { return m_drawn; }
    void seekDrawn(std::uint64_t values);

    // Uniform in (0, 1] (cuRAND's convention; see rand() in ks/rng/fill.hpp for [0, 1)).
    void uniform(float* out, std::size_t n, CUstream stream);
    void uniform(double* out, std::size_t n, CUstream stream);
    // Raw 32-bit words (every type but the Sobol64 family), or 64-bit words (Sobol64 family only).
    void bits(std::uint32_t* out, std::size_t n, CUstream stream);
    void bits(std::uint64_t* out, std::size_t n, CUstream stream);
    // Normal and log-normal (exp of a normal with `mean` and `stddev`). Any length and any element
    // alignment: cuRAND's host pseudo-random generators make pairs (Box-Muller) and need an even
    // count at an address aligned to a pair, so an odd head or tail element is drawn through a small
    // scratch buffer and copied in (the kernel path needs none of that).
    void normal(float* out, std::size_t n, float mean, float stddev, CUstream stream);
    void normal(double* out, std::size_t n, double mean, double stddev, CUstream stream);
    void logNormal(float* out, std::size_t n, float mean, float stddev, CUstream stream);
    void logNormal(double* out, std::size_t n, double mean, double stddev, CUstream stream);
    // Poisson counts with mean `lambda` (> 0); cuRAND defines them for 32-bit unsigned only.
    void poisson(std::uint32_t* out, std::size_t n, double lambda, CUstream stream);

    // Checked fills, for tests of the engine's own kernels (docs/hardening.md): while on, every
    // Philox fill of the kernel path runs its bounds-checked variant (ks_device/checked.cuh) with
    // the same numbers, each store checked against the device allocation the output lies in
    // (cuMemGetAddressRange; unchecked where it lies in none). A refused store is not made. Each
    // fill then waits for its launch and keeps its record (slow: not for timing).
    void setCheckedFills(bool on) { m_checkFills = on; }
    struct CheckedFill {
        std::string kernel;          // "philox uniform float32", ...
        std::size_t elements = 0;
        unsigned long long extent = 0; // bytes from the output to its allocation's end (kExtentUnchecked: none)
        ks::teach::CheckedRecord record;
    };
    const std::vector<CheckedFill>& checkedFills() const noexcept { return m_checkedFills; }

private:
    void bindStream(CUstream stream);
    template <class T, class Generate>
    void pairwise(T* out, std::size_t n, CUstream stream, Generate generate);
    // Runs `fill(launch)` (a detail::philoxFill call) from Philox block m_block on, advancing it;
    // checked (setCheckedFills) with its record kept as `kernel`.
    template <class Fill>
    void philox(const void* out, std::size_t n, CUstream stream, const char* kernel, Fill fill);

    UniqueHandle<GeneratorTraits> m_handle;
    bool m_seeded = false; // a seed was set at least once (the Mersenne twisters are recreated on reseed)
    GeneratorType m_type = GeneratorType::Xorwow;
    FillPath m_path = FillPath::Kernels;
    std::uint64_t m_seed = 0;
    std::uint64_t m_block = 0; // kernel path: next Philox block
    std::uint64_t m_drawn = 0; // host path: values asked of cuRAND since the last (re)seed
    unsigned m_smCount = 0;    // kernel path: the SM count of the device it was made on (sizes the fills' grids)
    CUstream m_stream = nullptr;
    bool m_streamBound = false;
    cuda::DeviceMemory m_scratch; // 4 doubles: odd heads and tails of pairwise distributions
    bool m_checkFills = false;
    cuda::DeviceMemory m_record; // checked fills: the launch's CheckedRecord
    std::vector<CheckedFill> m_checkedFills;
};

} // namespace ks::rng
