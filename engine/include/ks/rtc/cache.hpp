#pragma once
// The compile cache: every NVRTC compile in Kernelscope goes through one of these, so the second
// request for the same source, includes, options, architecture and NVRTC version costs no compile.
//
// Thread-safe: compile() may be called from several threads at once.

#include "ks/rtc/compiler.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace ks::rtc {

struct CacheStats {
    std::uint64_t memoryHits = 0;
    std::uint64_t diskHits = 0;
    std::uint64_t misses = 0;
};

class CompileCache {
public:
    // `directory` empty: memory only. Otherwise entries persist there (see defaultDirectory()).
    explicit CompileCache(std::filesystem::path directory = {});

    // $XDG_CACHE_HOME/kernelscope, else ~/.cache/kernelscope.
    static std::filesystem::path defaultDirectory();

    // Same contract as rtc::compile(); results (failed compiles included) are cached.
    std::shared_ptr<const CompileResult> compile(const std::string& source, const std::string& fileName,
                                                  const CompileOptions& options,
                                                  const std::vector<std::string>& nameExpressions = {});

    // Empties memory and deletes the disk entries.
    void clear();
    CacheStats stats() const;
    const std::filesystem::path& directory() const noexcept { return m_directory; }

private:
    std::filesystem::path m_directory;
    mutable std::mutex m_mutex;
    std::unordered_map<std::string, std::shared_ptr<const CompileResult>> m_memory;
    CacheStats m_stats;
};

} // namespace ks::rtc
