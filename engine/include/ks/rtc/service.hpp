#pragma once
// The background compile service: NVRTC compiles run on a worker thread so the UI never blocks.
// The UI thread submits requests and polls for finished ones once per frame; loading the CUBIN
// into a CUDA module (and swapping it in) is the caller's job, at a frame boundary, on the thread
// that owns the CUDA context.
//
// Requests carry a `slot` (usually the kernel file's path): a newer request for the same slot
// supersedes an older one that has not started, so typing fast never queues stale builds; a
// running build of that slot is cancelled too (NVRTC stops at its next check point), so the new
// one starts sooner. Requests run one at a time, oldest first, through the CompileCache.

#include "ks/rtc/cache.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace ks::rtc {

struct CompileRequest {
    std::string slot;     // which build this is (a file path); newer requests supersede older
    std::string source;
    std::string fileName; // as the user knows it (diagnostics use it)
    CompileOptions options;
    std::vector<std::string> nameExpressions;
};

struct CompletedCompile {
    std::uint64_t ticket = 0;
    std::string slot;
    std::shared_ptr<const CompileResult> result;
    double queuedMs = 0;  // from submit to start
    double totalMs = 0;   // from submit to completion
    CacheSource cacheSource = CacheSource::Compiled; // where the result came from
};

class CompileService {
public:
    explicit CompileService(CompileCache& cache);
    ~CompileService(); // cancels the running compile, drops queued ones, joins the worker
    CompileService(const CompileService&) = delete;
    CompileService& operator=(const CompileService&) = delete;

    // Queues a build; returns its ticket. Thread-safe.
    std::uint64_t submit(CompileRequest request);

    // Finished builds since the last call, oldest first. Non-blocking. Thread-safe.
    std::vector<CompletedCompile> poll();

    // Blocks until the build with `ticket` finished (or was superseded: then nullopt), at most
    // `timeout` (then nullopt too). For tests, the headless runner and --check. A build that
    // wait() returned is not returned by poll() again, and vice versa; finished builds that
    // nobody collects are kept (the newest 256) until then.
    std::optional<CompletedCompile> wait(std::uint64_t ticket, std::chrono::milliseconds timeout);

    // Whether a build is running or queued, and for how long the current one has run (0 when
    // none runs).
    bool busy() const;
    double busySeconds() const;
    // Whether `ticket` was superseded (dropped before it ran, or cancelled while running).
    bool superseded(std::uint64_t ticket) const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace ks::rtc
