#pragma once
// The compile cache: every NVRTC compile in Kernelscope goes through one of these, so the second
// request for the same build costs no compile, in this process (memory) or a later one (disk).
//
// Key: SHA-256 over the source, the file name, the content of every file it includes (found by
// the textual scanner in include_scanner.hpp; toolkit headers by the toolkit's folder and version),
// the full NVRTC option list (the target architecture included), the name expressions and the
// NVRTC version. Computing the key reads the user's include files; a hit runs neither NVRTC nor
// its preprocessor.
//
// Disk: one file per key under directory()/rtc-v4/, written to a temporary name and renamed into
// place, so that readers never see half an entry. Each entry has a header (magic, format version,
// key, payload length, payload SHA-256): a corrupt, truncated or unreadable entry is ignored,
// reported once through ks::log::warning and replaced by the fresh result. A directory that cannot
// be created or written (read-only, full disk) never stops compiling: the cache logs it once and
// goes on in memory.
//
// What is cached: successful and failed compiles alike (diagnostics are deterministic). Never a
// cancelled compile, and never a result where NVRTC itself failed for a reason other than the
// user's code (CompileResult::toolFailure): those are returned but not kept.
//
// Thread-safe: any thread may call any member; compiles run outside the lock, so two threads may
// compile the same key at once (both results are equal; the last one stays).

#include "ks/rtc/compiler.hpp"

#include <atomic>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ks::rtc {

struct CacheStats {
    std::uint64_t memoryHits = 0;
    std::uint64_t diskHits = 0;
    std::uint64_t misses = 0;            // compiles run
    std::uint64_t diskWrites = 0;        // entries stored
    std::uint64_t diskWriteFailures = 0; // entries that could not be stored
    std::uint64_t corruptEntries = 0;    // entries found corrupt, truncated or unreadable
    std::uint64_t notCached = 0;         // cancelled compiles and NVRTC failures
    std::uint64_t memoryEntries = 0;     // entries held in memory now
};

enum class CacheSource { Compiled, Memory, Disk };
std::string_view cacheSourceName(CacheSource source) noexcept; // "compiled", "memory", "disk"

struct CachedCompile {
    std::shared_ptr<const CompileResult> result;
    CacheSource source = CacheSource::Compiled;
    double keyMs = 0;    // computing the key (reading the include files)
    double totalMs = 0;  // the whole request: key, lookup and, on a miss, the compile and the store
};

class CompileCache {
public:
    static constexpr std::size_t kDefaultMemoryEntries = 256;

    // `directory` empty: memory only. Otherwise entries persist there (see defaultDirectory());
    // the folder is created on the first store. `memoryEntries`: the oldest entries beyond this
    // count leave memory (they stay on disk).
    explicit CompileCache(std::filesystem::path directory = {}, std::size_t memoryEntries = kDefaultMemoryEntries);

    // $XDG_CACHE_HOME/kernelscope, else ~/.cache/kernelscope.
    static std::filesystem::path defaultDirectory();

    // Same contract as rtc::compile(); cached as described above.
    std::shared_ptr<const CompileResult> compile(const std::string& source, const std::string& fileName,
                                                  const CompileOptions& options,
                                                  const std::vector<std::string>& nameExpressions = {});

    // compile() with where the result came from and what it cost. `cancel` is handed to
    // rtc::compile on a miss.
    CachedCompile request(const std::string& source, const std::string& fileName, const CompileOptions& options,
                          const std::vector<std::string>& nameExpressions = {},
                          const std::atomic<bool>* cancel = nullptr);

    // The key of a build: 64 hex digits. Reads the include files.
    static std::string key(const std::string& source, const std::string& fileName, const CompileOptions& options,
                           const std::vector<std::string>& nameExpressions = {});

    // Empties memory and deletes the disk entries (only Kernelscope's own entry folder). Returns
    // false with a warning logged when some disk entry could not be removed.
    bool clear();
    CacheStats stats() const;
    const std::filesystem::path& directory() const noexcept { return m_directory; }
    // Where the entry for `key` lives on disk (empty for a memory-only cache).
    std::filesystem::path entryPath(const std::string& key) const;

private:
    std::shared_ptr<const CompileResult> readEntry(const std::string& key);
    void writeEntry(const std::string& key, const CompileResult& result);
    void remember(const std::string& key, std::shared_ptr<const CompileResult> result);
    void warnOnce(const std::string& what, const std::string& message);

    std::filesystem::path m_directory;
    std::size_t m_memoryLimit;
    mutable std::mutex m_mutex;
    std::unordered_map<std::string, std::shared_ptr<const CompileResult>> m_memory;
    std::deque<std::string> m_order; // insertion order, for eviction
    std::set<std::string> m_warned;   // what has been reported already
    CacheStats m_stats;
};

// The serialized form of a result (the disk entry's payload) and back. decode() returns nullptr
// on anything malformed. Exposed for tests.
std::string encodeResult(const CompileResult& result);
std::shared_ptr<CompileResult> decodeResult(std::string_view payload);

// A whole disk entry for `key` (64 hex digits): a header (magic, format, the key, the payload's
// length and SHA-256) and the payload. decodeEntry returns nullptr for anything but an entry of
// this format for this very key whose payload is intact and well formed, with `why` ("truncated
// header", "holds another key", "checksum mismatch", ...) set when given.
std::string encodeEntry(std::string_view key, const CompileResult& result);
std::shared_ptr<CompileResult> decodeEntry(std::string_view bytes, std::string_view key, std::string* why = nullptr);

// The largest disk entry read (cubin, PTX and log of one build): 256 MiB.
inline constexpr std::size_t kMaxEntryBytes = std::size_t(256) << 20;

} // namespace ks::rtc
