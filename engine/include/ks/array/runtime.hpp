#pragma once
// The array runtime: what every device array operation runs with. It owns (or borrows) the stream
// the operations are queued on, the compile cache generated kernels go through, and the modules
// loaded from them, keyed so that the second use of the same generated kernel costs neither a
// compile nor a module load (a hash lookup).
//
// Contract: create and use it on the thread where the CUDA context it was created in is current; it
// is not thread-safe. It must outlive every DeviceArray made with it (arrays keep a plain pointer to
// it) and the context must outlive it. Moving a Runtime is not allowed (arrays point at it).

#include "ks/cuda/device_info.hpp"
#include "ks/cuda/memory.hpp"
#include "ks/cuda/module.hpp"
#include "ks/cuda/stream.hpp"
#include "ks/rtc/cache.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace ks::array {

// A generated kernel about to be launched: what it was compiled from.
struct GeneratedLaunch {
    const cuda::Function& function;
    const std::string& source;   // the generated source
    const std::string& fileName; // the name it was compiled under
    const std::string& name;     // the entry point
};

// Stands in for every launch of a generated kernel (RuntimeOptions::interposer): the checked re-run
// (ks::teach::CheckedLaunches) launches each kernel's bounds-checked variant instead. Called on the
// runtime's thread, with the launch's stream and the driver's parameter array.
class LaunchInterposer {
public:
    virtual ~LaunchInterposer() = default;
    virtual void launch(const GeneratedLaunch& kernel, const cuda::LaunchConfig& config, CUstream stream,
                        void** params) = 0;
};

struct RuntimeOptions {
    // Generated kernels compile through this cache; null: the runtime owns a memory-only cache.
    rtc::CompileCache* cache = nullptr;
    // Operations queue on this stream; null: the runtime creates its own non-blocking stream.
    CUstream stream = nullptr;
    // NVRTC target; empty: the current device's "sm_XY".
    std::string arch;
    // Extra NVRTC options for every generated kernel (for example fastMath; off by default so that
    // NaN and infinity behave as IEEE says).
    rtc::CompileOptions compileOptions = defaultCompileOptions();
    // Every launch of a generated kernel goes to it instead (not owned; outlives the runtime). With
    // one, memory comes from cuMemAlloc, never a pool, so that each array is an allocation of its
    // own, exactly as large as asked for (the checked re-run takes extents from the allocations).
    LaunchInterposer* interposer = nullptr;

    static rtc::CompileOptions defaultCompileOptions()
    {
        rtc::CompileOptions o;
        o.ptxasVerbose = false;
        o.cppStandard = "c++17";
        return o;
    }
};

struct RuntimeStats {
    std::uint64_t kernelLookups = 0;  // calls to kernel()
    std::uint64_t kernelHits = 0;     // ... answered from the loaded-kernel table
    std::uint64_t modulesLoaded = 0;  // NVRTC results loaded into the context (compile or cache hit)
    std::uint64_t launches = 0;
};

class Runtime {
public:
    // Needs a current CUDA context (a cuda::PrimaryContext made current on this thread).
    explicit Runtime(RuntimeOptions options = {});
    ~Runtime();
    Runtime(const Runtime&) = delete;
    Runtime& operator=(const Runtime&) = delete;

    // The stream array operations are queued on. setStream switches it (null: back to the runtime's
    // own stream); work already queued stays on the previous stream. For a stream per call or per
    // block of calls, use StreamScope (below), which puts the previous stream back.
    CUstream stream() const noexcept { return m_stream; }
    void setStream(CUstream stream) noexcept;
    void synchronize() const;

    const std::string& arch() const noexcept { return m_arch; }
    const rtc::CompileOptions& compileOptions() const noexcept { return m_options.compileOptions; }
    rtc::CompileCache& compileCache() noexcept { return *m_cache; }
    const cuda::DeviceLimits& limits() const noexcept { return m_limits; }
    int smCount() const noexcept { return m_smCount; }

    // Device memory for arrays and temporaries. Where the device supports memory pools it is
    // stream-ordered on stream() (cuMemAllocAsync/cuMemFreeAsync from the device's default pool, whose
    // release threshold the runtime raises so freed memory is reused, not returned each sync): per-frame
    // temporaries then cost no device-wide synchronisation. Contract: an array allocated while stream S
    // was current is freed in S's order, so S must outlive it and work on other streams that uses it
    // must be ordered before its last use on S (synchronise when switching streams).
    std::shared_ptr<cuda::DeviceMemory> allocate(std::size_t bytes);

    // Scratch for a one-pass algorithm on stream(): a device counter (unsigned, 0) that a kernel
    // counting its finished blocks in must leave at 0 when it completes, and at least
    // `partialBytes` of device memory for per-block partials. One pair per stream, so that
    // operations queued on different streams never share one, kept so that a call costs no
    // allocation: made on first use (the counter zeroed in stream order) and the partials grown
    // (never shrunk) when a call needs more; growing waits for the stream's queued work, which may
    // still read the old block. A kernel may use the partials only within its own launch (the next
    // operation on the stream reuses them).
    struct OnePassScratch {
        CUdeviceptr done = 0;
        CUdeviceptr partials = 0;
    };
    OnePassScratch onePassScratch(std::size_t partialBytes);

    // How many blocks of `blockSize` threads of `f` fit on one multiprocessor at once
    // (cuOccupancyMaxActiveBlocksPerMultiprocessor, no dynamic shared memory), at least 1; asked of
    // the driver once per function and block size, then remembered. `f` must come from kernel()
    // (its module lives as long as the runtime, so its handle is never reused for another).
    int residentBlocks(const cuda::Function& f, unsigned blockSize);

    // The kernel `name` of the module built from `generate()`'s source, loaded once per runtime.
    // `key` identifies the source: callers make compact keys ("ew:add:f4,f4:f4:contig") so that a hit
    // never builds the source. On a miss the source is compiled through the compile cache (file name
    // `fileName`) and loaded. A failed compile throws ks::Error (domain Nvrtc) carrying the
    // diagnostics and the numbered source. The reference stays valid while the runtime lives.
    const cuda::Function& kernel(const std::string& key, const std::string& name,
                                 const std::function<std::string()>& generate,
                                 const std::string& fileName = "ks_generated.cu");
    // The same, but a module without a kernel `name` gives null instead of an error (remembered, so
    // asking again costs a lookup, not a driver call).
    const cuda::Function* findKernel(const std::string& key, const std::string& name,
                                     const std::function<std::string()>& generate,
                                     const std::string& fileName = "ks_generated.cu");
    // The source is its own key.
    const cuda::Function& kernelFromSource(const std::string& source, const std::string& name,
                                           const std::string& fileName = "ks_generated.cu");
    // The module loaded for `key` (after kernel() loaded it), for __constant__/__device__ globals.
    const cuda::Module* module(const std::string& key) const;

    // A 1-D launch for a grid-stride kernel over `n` work items with `blockSize` threads: enough
    // blocks to fill the device (a few waves), never more than needed, at least one.
    cuda::LaunchConfig gridStrideConfig(std::uint64_t n, unsigned blockSize = 256) const;
    // Launches on stream() and counts it.
    void launch(const cuda::Function& f, const cuda::LaunchConfig& config, void** params);

    RuntimeStats stats() const noexcept { return m_stats; }

private:
    struct Loaded {
        std::string source, fileName; // kept only with an interposer
        cuda::Module module;
        std::unordered_map<std::string, cuda::Function> functions;
        std::unordered_set<std::string> absent; // names findKernel looked for and did not find
    };
    Loaded& load(const std::string& key, const std::function<std::string()>& generate, const std::string& fileName);

    RuntimeOptions m_options;
    std::unique_ptr<rtc::CompileCache> m_ownCache;
    rtc::CompileCache* m_cache = nullptr;
    cuda::Stream m_ownStream;
    CUstream m_stream = nullptr;
    std::string m_arch;
    cuda::DeviceLimits m_limits;
    int m_smCount = 0;
    int m_maxThreadsPerSM = 0;
    bool m_memoryPools = false;
    std::size_t m_totalMemory = 0;
    std::unordered_map<std::string, std::unique_ptr<Loaded>> m_loaded;
    // With an interposer: each function handed out, by handle, with its module and entry name.
    struct Origin {
        const Loaded* loaded;
        std::string name;
    };
    std::unordered_map<CUfunction, Origin> m_origins;
    const cuda::Function& remember(const Loaded& l, const std::string& name, const cuda::Function& f);
    struct StreamScratch {
        cuda::DeviceMemory done;     // the counter
        cuda::DeviceMemory partials; // grown on demand
    };
    std::unordered_map<CUstream, StreamScratch> m_scratch;
    std::map<std::pair<CUfunction, unsigned>, int> m_residentBlocks;
    RuntimeStats m_stats;
};

// Queues every array operation made while it lives on `stream` (null: the runtime's own stream),
// then puts back the stream that was current: PyCUDA's `stream=` argument, for one call or a block of
// calls, without a stream parameter on every operator and function.
//
//     { ks::array::StreamScope on(rt, copyStream); b.assign(a); }  // queued on copyStream
//
// Contract: as Runtime::setStream. The scope does not synchronise or order anything: work queued
// before it stays on the previous stream, and results it queued are ready on `stream` only. An
// array allocated inside the scope is freed in `stream`'s order (Runtime::allocate), so `stream`
// must outlive it, and work on another stream that uses it must be ordered after the work that
// made it (synchronise or wait on an event). Scopes nest (each restores what it found); destroy
// them in reverse order of creation, on the runtime's thread. Neither copyable nor movable.
class StreamScope {
public:
    StreamScope(Runtime& rt, CUstream stream) noexcept : m_rt(rt), m_previous(rt.stream()) { rt.setStream(stream); }
    ~StreamScope() { m_rt.setStream(m_previous); }
    StreamScope(const StreamScope&) = delete;
    StreamScope& operator=(const StreamScope&) = delete;

private:
    Runtime& m_rt;
    CUstream m_previous;
};

} // namespace ks::array
