#include "ks/rtc/cache.hpp"

#include "ks/core/error.hpp"
#include "ks/core/log.hpp"
#include "ks/core/paths.hpp"
#include "ks/core/sha256.hpp"
#include "ks/rtc/include_scanner.hpp"
#include "ks/rtc/minimal_mode.hpp"

#include <cuda.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

namespace ks::rtc {
namespace fs = std::filesystem;

namespace {

// Entry layout (integers little-endian):
//   magic "KSRTC\0\r\n" | u32 format | u32 reserved | key (32 bytes) | u64 payload length |
//   payload SHA-256 (32 bytes) | payload
constexpr char kMagic[8] = {'K', 'S', 'R', 'T', 'C', '\0', '\r', '\n'};
constexpr std::uint32_t kFormat = 3;
constexpr std::size_t kHeaderBytes = 8 + 4 + 4 + 32 + 8 + 32;
// A new format gets a new folder: entries of the old one are then plain misses, not warnings.
constexpr const char* kEntryFolder = "rtc-v4";
constexpr const char* kEntrySuffix = ".ksc";

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

class Writer {
public:
    void u8(std::uint8_t v) { m_out += char(v); }
    void u32(std::uint32_t v)
    {
        for (int i = 0; i < 4; ++i)
            m_out += char((v >> (8 * i)) & 0xff);
    }
    void u64(std::uint64_t v)
    {
        for (int i = 0; i < 8; ++i)
            m_out += char((v >> (8 * i)) & 0xff);
    }
    void i32(int v) { u32(std::uint32_t(v)); }
    void f64(double v)
    {
        std::uint64_t bits;
        std::memcpy(&bits, &v, 8);
        u64(bits);
    }
    void bytes(const void* p, std::size_t n)
    {
        u64(n);
        m_out.append(static_cast<const char*>(p), n);
    }
    void str(std::string_view s) { bytes(s.data(), s.size()); }
    void raw(const void* p, std::size_t n) { m_out.append(static_cast<const char*>(p), n); }
    std::string take() { return std::move(m_out); }

private:
    std::string m_out;
};

// Every read is bounds-checked; a failed read poisons the reader (ok() false) and returns zeros.
class Reader {
public:
    explicit Reader(std::string_view in) : m_in(in) {}
    bool ok() const { return m_ok; }
    bool atEnd() const { return m_pos == m_in.size(); }
    std::uint64_t uint(int bytes)
    {
        if (!need(std::size_t(bytes)))
            return 0;
        std::uint64_t v = 0;
        for (int i = 0; i < bytes; ++i)
            v |= std::uint64_t(static_cast<unsigned char>(m_in[m_pos + std::size_t(i)])) << (8 * i);
        m_pos += std::size_t(bytes);
        return v;
    }
    std::uint8_t u8() { return std::uint8_t(uint(1)); }
    // A bool is written as 0 or 1; any other byte is a malformed entry.
    bool flag()
    {
        const std::uint8_t v = u8();
        if (v > 1)
            m_ok = false;
        return v == 1;
    }
    std::uint32_t u32() { return std::uint32_t(uint(4)); }
    std::uint64_t u64() { return uint(8); }
    int i32() { return int(std::int32_t(u32())); }
    double f64()
    {
        const std::uint64_t bits = u64();
        double v;
        std::memcpy(&v, &bits, 8);
        return v;
    }
    std::string_view raw(std::size_t n)
    {
        if (!need(n))
            return {};
        std::string_view v = m_in.substr(m_pos, n);
        m_pos += n;
        return v;
    }
    std::string str() { return std::string(raw(std::size_t(u64()))); }

private:
    bool need(std::size_t n)
    {
        if (!m_ok || m_in.size() - m_pos < n)
            m_ok = false;
        return m_ok;
    }
    std::string_view m_in;
    std::size_t m_pos = 0;
    bool m_ok = true;
};

// What decides the meaning of toolkit headers without reading them: the NVRTC version, the
// toolkit's include folder, and the size and time of its cuda.h (a toolkit updated in place).
const std::string& toolkitFingerprint()
{
    static const std::string fingerprint = [] {
        std::string f = "nvrtc " + nvrtcVersionString() + "; cuda " + std::to_string(CUDA_VERSION);
        const std::string dir = cudaIncludeDir();
        f += "; " + dir;
        std::error_code ec;
        const fs::path cudaH = fs::path(dir) / "cuda.h";
        const auto size = fs::file_size(cudaH, ec);
        if (!ec)
            f += "; " + std::to_string(size);
        const auto time = fs::last_write_time(cudaH, ec);
        if (!ec)
            f += "; " + std::to_string(time.time_since_epoch().count());
        return f;
    }();
    return fingerprint;
}

std::string systemError(int err)
{
    return std::strerror(err);
}

} // namespace

std::string_view cacheSourceName(CacheSource source) noexcept
{
    switch (source) {
    case CacheSource::Compiled: return "compiled";
    case CacheSource::Memory: return "memory";
    case CacheSource::Disk: return "disk";
    }
    return "?";
}

std::string encodeResult(const CompileResult& r)
{
    Writer w;
    w.u8(r.ok ? 1 : 0);
    w.f64(r.compileMs);
    w.str(r.log);
    w.str(r.ptx);
    w.bytes(r.cubin.data(), r.cubin.size());
    w.u32(std::uint32_t(r.loweredNames.size()));
    for (const auto& n : r.loweredNames)
        w.str(n);
    w.u32(std::uint32_t(r.diagnostics.size()));
    for (const Diagnostic& d : r.diagnostics) {
        w.str(d.file);
        w.i32(d.line);
        w.i32(d.column);
        w.u8(std::uint8_t(d.severity));
        w.str(d.code);
        w.str(d.message);
        w.str(d.excerpt);
        w.u8(d.likelyCause ? 1 : 0);
    }
    w.u8(std::uint8_t(r.mode));
    w.str(r.fullReason);
    w.u8(r.curandTablesLeftOut ? 1 : 0);
    w.str(r.curandTablesReason);
    w.f64(r.nvrtcMs);
    w.u8(r.callsPrintf ? 1 : 0);
    return w.take();
}

std::shared_ptr<CompileResult> decodeResult(std::string_view payload)
{
    Reader r(payload);
    auto out = std::make_shared<CompileResult>();
    out->ok = r.flag();
    out->compileMs = r.f64();
    out->log = r.str();
    out->ptx = r.str();
    const std::string_view cubin = r.raw(std::size_t(r.u64()));
    out->cubin.assign(cubin.begin(), cubin.end());
    const std::uint32_t names = r.u32();
    for (std::uint32_t i = 0; i < names && r.ok(); ++i)
        out->loweredNames.push_back(r.str());
    const std::uint32_t diagnostics = r.u32();
    for (std::uint32_t i = 0; i < diagnostics && r.ok(); ++i) {
        Diagnostic d;
        d.file = r.str();
        d.line = r.i32();
        d.column = r.i32();
        const std::uint8_t severity = r.u8();
        if (severity > std::uint8_t(Severity::Note))
            return nullptr;
        d.severity = Severity(severity);
        d.code = r.str();
        d.message = r.str();
        d.excerpt = r.str();
        d.likelyCause = r.flag();
        out->diagnostics.push_back(std::move(d));
    }
    const std::uint8_t mode = r.u8();
    if (mode > std::uint8_t(CompileMode::FullAfterMinimal))
        return nullptr;
    out->mode = CompileMode(mode);
    out->fullReason = r.str();
    out->curandTablesLeftOut = r.flag();
    out->curandTablesReason = r.str();
    out->nvrtcMs = r.f64();
    out->callsPrintf = r.flag();
    if (!r.ok() || !r.atEnd())
        return nullptr;
    return out;
}

// A key's 32 bytes from its 64 hex digits; nullopt for anything else.
static std::optional<Sha256::Digest> keyDigest(std::string_view key)
{
    if (key.size() != 64)
        return std::nullopt;
    auto nibble = [](char c) -> int {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        return -1;
    };
    Sha256::Digest d{};
    for (std::size_t i = 0; i < 32; ++i) {
        const int hi = nibble(key[2 * i]), lo = nibble(key[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return std::nullopt;
        d[i] = std::uint8_t(hi * 16 + lo);
    }
    return d;
}

std::string encodeEntry(std::string_view key, const CompileResult& result)
{
    const auto digestOfKey = keyDigest(key);
    if (!digestOfKey)
        throwUsage("encodeEntry", "a compile cache key is 64 hex digits, not \"" + std::string(key) + "\"");
    const std::string payload = encodeResult(result);
    Writer w;
    w.raw(kMagic, sizeof kMagic);
    w.u32(kFormat);
    w.u32(0); // reserved
    w.raw(digestOfKey->data(), digestOfKey->size());
    w.u64(payload.size());
    const auto digest = Sha256::of(payload);
    w.raw(digest.data(), digest.size());
    w.raw(payload.data(), payload.size());
    return w.take();
}

std::shared_ptr<CompileResult> decodeEntry(std::string_view bytes, std::string_view key, std::string* why)
{
    auto refuse = [&](const char* reason) -> std::shared_ptr<CompileResult> {
        if (why)
            *why = reason;
        return nullptr;
    };
    const auto digestOfKey = keyDigest(key);
    if (!digestOfKey)
        return refuse("not a compile cache key");
    if (bytes.size() < kHeaderBytes)
        return refuse("truncated header");
    if (std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
        return refuse("not a Kernelscope cache entry");
    Reader r(bytes.substr(sizeof kMagic));
    const std::uint32_t format = r.u32();
    const std::uint32_t reserved = r.u32();
    const std::string_view storedKey = r.raw(32);
    const std::uint64_t length = r.u64();
    const std::string_view checksum = r.raw(32);
    const std::string_view payload = bytes.substr(kHeaderBytes);
    if (format != kFormat)
        return refuse("written by another version of Kernelscope");
    if (reserved != 0)
        return refuse("not a Kernelscope cache entry (reserved header bytes set)");
    if (std::memcmp(storedKey.data(), digestOfKey->data(), 32) != 0)
        return refuse("holds another key");
    if (payload.size() != length)
        return refuse(payload.size() < length ? "truncated payload" : "trailing bytes");
    if (const auto digest = Sha256::of(payload); std::memcmp(checksum.data(), digest.data(), 32) != 0)
        return refuse("checksum mismatch");
    auto result = decodeResult(payload);
    if (!result)
        return refuse("malformed payload");
    return result;
}

CompileCache::CompileCache(fs::path directory, std::size_t memoryEntries)
    : m_directory(std::move(directory)), m_memoryLimit(memoryEntries ? memoryEntries : 1)
{
}

fs::path CompileCache::defaultDirectory()
{
    const fs::path folder = paths::userFolder(paths::UserFolder::Cache);
    return folder.empty() ? fs::temp_directory_path() / "kernelscope-cache" : folder;
}

fs::path CompileCache::entryPath(const std::string& key) const
{
    if (m_directory.empty())
        return {};
    return m_directory / kEntryFolder / (key + kEntrySuffix);
}

std::string CompileCache::key(const std::string& source, const std::string& fileName, const CompileOptions& options,
                              const std::vector<std::string>& nameExpressions)
{
    Sha256 h;
    h.field("kernelscope compile cache key 1");
    h.field(toolkitFingerprint());
    h.field(fileName);
    h.field(source);
    h.field("options");
    for (const auto& o : buildOptionList(options))
        h.field(o);
    h.field("names");
    for (const auto& n : nameExpressions)
        h.field(n);
    const IncludeScan scan = scanIncludes(source, fileName, includeSearchPath(options), toolkitIncludeDirs());
    scan.hashInto(h);
    // Which mode compile() starts with (the result says which one produced it).
    h.field(kMinimalRulesVersion);
    h.field(options.minimal             ? "mode: -minimal only"
            : !options.autoMinimal       ? "mode: full"
            : minimalBlocker(source, scan).empty() ? "mode: -minimal first"
                                                   : "mode: full");
    h.field(options.leanCurand && curandTablesBlocker(source, scan).empty() ? "curand tables: left out first"
                                                                             : "curand tables: kept");
    return Sha256::hex(h.finish());
}

std::shared_ptr<const CompileResult> CompileCache::compile(const std::string& source, const std::string& fileName,
                                                           const CompileOptions& options,
                                                           const std::vector<std::string>& nameExpressions)
{
    return request(source, fileName, options, nameExpressions).result;
}

CachedCompile CompileCache::request(const std::string& source, const std::string& fileName,
                                    const CompileOptions& options, const std::vector<std::string>& nameExpressions,
                                    const std::atomic<bool>* cancel)
{
    const auto start = Clock::now();
    CachedCompile out;
    const std::string k = key(source, fileName, options, nameExpressions);
    out.keyMs = msSince(start);
    {
        std::lock_guard lock(m_mutex);
        if (auto it = m_memory.find(k); it != m_memory.end()) {
            ++m_stats.memoryHits;
            out.result = it->second;
            out.source = CacheSource::Memory;
            out.totalMs = msSince(start);
            return out;
        }
    }
    if (auto fromDisk = readEntry(k)) {
        remember(k, fromDisk);
        std::lock_guard lock(m_mutex);
        ++m_stats.diskHits;
        out.result = std::move(fromDisk);
        out.source = CacheSource::Disk;
        out.totalMs = msSince(start);
        return out;
    }
    auto result = std::make_shared<const CompileResult>(rtc::compile(source, fileName, options, nameExpressions, cancel));
    out.result = result;
    out.source = CacheSource::Compiled;
    {
        std::lock_guard lock(m_mutex);
        ++m_stats.misses;
        if (result->cancelled || result->toolFailure)
            ++m_stats.notCached;
    }
    if (!result->cancelled && !result->toolFailure) {
        remember(k, result);
        writeEntry(k, *result);
    }
    out.totalMs = msSince(start);
    return out;
}

void CompileCache::remember(const std::string& key, std::shared_ptr<const CompileResult> result)
{
    std::lock_guard lock(m_mutex);
    auto [it, inserted] = m_memory.insert_or_assign(key, std::move(result));
    if (inserted)
        m_order.push_back(key);
    while (m_memory.size() > m_memoryLimit && !m_order.empty()) {
        m_memory.erase(m_order.front());
        m_order.pop_front();
    }
    m_stats.memoryEntries = m_memory.size();
}

void CompileCache::warnOnce(const std::string& what, const std::string& message)
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_warned.insert(what).second)
            return;
    }
    log::warning(message);
}

std::shared_ptr<const CompileResult> CompileCache::readEntry(const std::string& key)
{
    const fs::path path = entryPath(key);
    if (path.empty())
        return nullptr;
    std::string bytes;
    try {
        bytes = paths::readFile(path, kMaxEntryBytes);
    } catch (const Error& e) {
        if (e.code() == ENOENT)
            return nullptr; // a plain miss
        {
            std::lock_guard lock(m_mutex);
            ++m_stats.corruptEntries;
        }
        warnOnce("read:" + key, "compile cache: cannot read " + e.text() + "; ignoring it and compiling");
        return nullptr;
    }
    std::string why;
    std::shared_ptr<CompileResult> result = decodeEntry(bytes, key, &why);
    if (!result) {
        {
            std::lock_guard lock(m_mutex);
            ++m_stats.corruptEntries;
        }
        warnOnce("corrupt:" + key, "compile cache: ignoring corrupt entry " + path.string() + " (" + why +
                                       "); it will be replaced");
        return nullptr;
    }
    return result;
}

void CompileCache::writeEntry(const std::string& key, const CompileResult& result)
{
    const fs::path path = entryPath(key);
    if (path.empty())
        return;
    auto fail = [&](const std::string& reason) {
        {
            std::lock_guard lock(m_mutex);
            ++m_stats.diskWriteFailures;
        }
        warnOnce("write", "compile cache: cannot store entries in " + path.parent_path().string() + " (" + reason +
                              "); compiling goes on, results are kept in memory only");
    };
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    if (ec)
        return fail(ec.message());

    const std::string entry = encodeEntry(key, result);
    // A name unique to this process and thread, renamed over the entry once complete.
    static std::atomic<std::uint64_t> counter{0};
    const fs::path temp = path.parent_path() / (key + ".tmp." + std::to_string(::getpid()) + "." +
                                                std::to_string(counter.fetch_add(1)));
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out)
            return fail(systemError(errno));
        out.write(entry.data(), std::streamsize(entry.size()));
        out.flush();
        if (!out) {
            const int err = errno;
            out.close();
            fs::remove(temp, ec);
            return fail(err ? systemError(err) : "write failed");
        }
    }
    fs::rename(temp, path, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(temp, ignored);
        return fail(ec.message());
    }
    std::lock_guard lock(m_mutex);
    ++m_stats.diskWrites;
}

bool CompileCache::clear()
{
    {
        std::lock_guard lock(m_mutex);
        m_memory.clear();
        m_order.clear();
        m_warned.clear();
        m_stats.memoryEntries = 0;
    }
    if (m_directory.empty())
        return true;
    std::error_code ec;
    const fs::path folder = m_directory / kEntryFolder;
    fs::remove_all(folder, ec);
    if (ec && fs::exists(folder)) {
        log::warning("compile cache: could not remove " + folder.string() + ": " + ec.message());
        return false;
    }
    return true;
}

CacheStats CompileCache::stats() const
{
    std::lock_guard lock(m_mutex);
    return m_stats;
}

} // namespace ks::rtc
