// The compile cache: keys (includes, options), memory and disk hits, corrupt and unwritable
// stores, failed compiles, clear(). Real NVRTC compiles for sm_90; no GPU needed.
//
// Also every input the fuzzers start from (tests/fuzz/corpus) and every input they ever found a bug
// with (tests/fuzz/regressions), run through the same target functions the libFuzzer executables
// run, here in the ordinary build: each must come back without an exception and without breaking a
// promise (under the asan preset, also without a sanitizer report); the cache entry target's
// promise is checked against decodeEntry. The shipped projects, kernels and test kernels are seeds
// too (.ci/fuzz.sh adds them to the fuzzers' corpora).
#include "ks/core/log.hpp"
#include "ks/core/paths.hpp"
#include "ks/rtc/cache.hpp"

#include "targets.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>

namespace fs = std::filesystem;
using namespace ks::rtc;
using ks::test::TempDir;

namespace {

const std::string kKernel = R"(#include "value.cuh"
extern "C" __global__ void fill(int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = VALUE + i;
}
)";

// Collects warnings logged while it lives.
class LogCapture {
public:
    LogCapture()
    {
        m_old = ks::log::setSink([this](ks::log::Level level, std::string_view text) {
            std::lock_guard lock(m_mutex);
            if (level == ks::log::Level::Warning)
                m_warnings.emplace_back(text);
        });
    }
    ~LogCapture() { ks::log::setSink(std::move(m_old)); }
    std::vector<std::string> warnings()
    {
        std::lock_guard lock(m_mutex);
        return m_warnings;
    }

private:
    std::mutex m_mutex;
    std::vector<std::string> m_warnings;
    ks::log::Sink m_old;
};

std::size_t countContaining(const std::vector<std::string>& lines, const std::string& what)
{
    std::size_t n = 0;
    for (const auto& l : lines)
        n += l.find(what) != std::string::npos;
    return n;
}

struct CacheFixture : ::testing::Test {
    TempDir dir;
    fs::path file() const { return dir.path() / "src" / "fill.cu"; }
    std::string fileName() const { return file().string(); }
    CompileOptions options() const
    {
        CompileOptions o;
        o.arch = "sm_90";
        return o;
    }
    void SetUp() override { dir.write("src/value.cuh", "#define VALUE 4242\n"); }
};

} // namespace

TEST_F(CacheFixture, SameBuildHitsMemoryThenDiskInANewProcessLikeCache)
{
    const fs::path store = dir.path() / "cache";
    {
        CompileCache cache(store);
        const CachedCompile first = cache.request(kKernel, fileName(), options());
        ASSERT_TRUE(first.result->ok) << first.result->log;
        EXPECT_EQ(first.source, CacheSource::Compiled);
        EXPECT_NE(first.result->ptx.find("4242"), std::string::npos);
        const CachedCompile second = cache.request(kKernel, fileName(), options());
        EXPECT_EQ(second.source, CacheSource::Memory);
        EXPECT_EQ(second.result.get(), first.result.get());
        EXPECT_EQ(cache.stats().misses, 1u);
        EXPECT_EQ(cache.stats().diskWrites, 1u);
        EXPECT_TRUE(fs::exists(cache.entryPath(CompileCache::key(kKernel, fileName(), options()))));
    }
    CompileCache fresh(store);
    const CachedCompile fromDisk = fresh.request(kKernel, fileName(), options());
    EXPECT_EQ(fromDisk.source, CacheSource::Disk);
    EXPECT_EQ(fresh.stats().misses, 0u);
    ASSERT_TRUE(fromDisk.result->ok);
    EXPECT_NE(fromDisk.result->ptx.find("4242"), std::string::npos);
    EXPECT_FALSE(fromDisk.result->cubin.empty());
    EXPECT_EQ(fresh.request(kKernel, fileName(), options()).source, CacheSource::Memory);
}

TEST_F(CacheFixture, AChangedIncludeOrOptionMisses)
{
    CompileCache cache(dir.path() / "cache");
    const std::string k0 = CompileCache::key(kKernel, fileName(), options());
    EXPECT_EQ(CompileCache::key(kKernel, fileName(), options()), k0) << "the key must be deterministic";
    ASSERT_TRUE(cache.compile(kKernel, fileName(), options())->ok);

    dir.write("src/value.cuh", "#define VALUE 777\n");
    EXPECT_NE(CompileCache::key(kKernel, fileName(), options()), k0);
    const CachedCompile edited = cache.request(kKernel, fileName(), options());
    EXPECT_EQ(edited.source, CacheSource::Compiled);
    EXPECT_NE(edited.result->ptx.find("777"), std::string::npos) << "a stale build was served";

    CompileOptions fast = options();
    fast.fastMath = true;
    EXPECT_EQ(cache.request(kKernel, fileName(), fast).source, CacheSource::Compiled);
    CompileOptions quick = options();
    quick.fastCompile = FastCompile::Min;
    EXPECT_EQ(cache.request(kKernel, fileName(), quick).source, CacheSource::Compiled);
    CompileOptions defined = options();
    defined.defines = {"EXTRA=1"};
    EXPECT_EQ(cache.request(kKernel, fileName(), defined).source, CacheSource::Compiled);
    CompileOptions otherArch = options();
    otherArch.arch = "sm_80";
    EXPECT_EQ(cache.request(kKernel, fileName(), otherArch).source, CacheSource::Compiled);
    EXPECT_NE(CompileCache::key(kKernel, fileName(), options(), {"fill"}),
              CompileCache::key(kKernel, fileName(), options()));
    EXPECT_NE(CompileCache::key(kKernel, fileName() + "x", options()), CompileCache::key(kKernel, fileName(), options()));
    EXPECT_NE(CompileCache::key(kKernel + " ", fileName(), options()), CompileCache::key(kKernel, fileName(), options()));
}

TEST_F(CacheFixture, AMissingIncludeThatAppearsLaterMisses)
{
    CompileCache cache;
    const std::string source = "#include \"later.cuh\"\nextern \"C\" __global__ void k(int* p) { p[0] = LATER; }\n";
    const auto missing = cache.compile(source, fileName(), options());
    EXPECT_FALSE(missing->ok);
    dir.write("src/later.cuh", "#define LATER 5150\n");
    const CachedCompile found = cache.request(source, fileName(), options());
    EXPECT_EQ(found.source, CacheSource::Compiled);
    ASSERT_TRUE(found.result->ok) << found.result->log;
}

TEST_F(CacheFixture, FailedCompilesAreCachedWithTheirDiagnostics)
{
    CompileCache cache(dir.path() / "cache");
    const std::string bad = "extern \"C\" __global__ void k(int* p) { p[0] = undefined_name; }\n";
    const auto first = cache.compile(bad, fileName(), options());
    ASSERT_FALSE(first->ok);
    ASSERT_FALSE(first->diagnostics.empty());
    CompileCache fresh(dir.path() / "cache");
    const CachedCompile again = fresh.request(bad, fileName(), options());
    EXPECT_EQ(again.source, CacheSource::Disk);
    EXPECT_FALSE(again.result->ok);
    ASSERT_EQ(again.result->diagnostics.size(), first->diagnostics.size());
    EXPECT_EQ(formatDiagnostic(again.result->diagnostics[0]), formatDiagnostic(first->diagnostics[0]));
    EXPECT_EQ(again.result->diagnostics[0].line, 1);
}

TEST_F(CacheFixture, NvrtcFailuresAreNeitherKeptNorStored)
{
    CompileCache cache(dir.path() / "cache");
    CompileOptions broken = options();
    broken.extra = {"--this-option-does-not-exist"};
    const CachedCompile first = cache.request(kKernel, fileName(), broken);
    EXPECT_FALSE(first.result->ok);
    EXPECT_TRUE(first.result->toolFailure);
    EXPECT_EQ(cache.request(kKernel, fileName(), broken).source, CacheSource::Compiled);
    EXPECT_EQ(cache.stats().diskWrites, 0u);
    EXPECT_EQ(cache.stats().notCached, 2u);
}

TEST_F(CacheFixture, CorruptOrTruncatedEntriesAreReportedOnceAndReplaced)
{
    const fs::path store = dir.path() / "cache";
    const std::string key = CompileCache::key(kKernel, fileName(), options());
    { CompileCache(store).compile(kKernel, fileName(), options()); }
    const fs::path entry = CompileCache(store).entryPath(key);
    ASSERT_TRUE(fs::exists(entry));
    const auto size = fs::file_size(entry);

    struct Damage {
        const char* name;
        std::function<void()> apply;
    };
    const std::vector<Damage> damages = {
        {"flipped payload byte", [&] {
             std::fstream f(entry, std::ios::in | std::ios::out | std::ios::binary);
             f.seekg(std::streamoff(size - 10));
             char c = 0;
             f.read(&c, 1);
             c = char(c ^ 0x5a);
             f.seekp(std::streamoff(size - 10));
             f.write(&c, 1);
         }},
        {"truncated", [&] { fs::resize_file(entry, size / 2); }},
        {"truncated header", [&] { fs::resize_file(entry, 20); }},
        {"empty", [&] { fs::resize_file(entry, 0); }},
        {"garbage", [&] { std::ofstream(entry, std::ios::binary | std::ios::trunc) << std::string(4096, 'x'); }},
    };
    for (const Damage& damage : damages) {
        SCOPED_TRACE(damage.name);
        damage.apply();
        LogCapture log;
        CompileCache cache(store);
        const CachedCompile r = cache.request(kKernel, fileName(), options());
        EXPECT_EQ(r.source, CacheSource::Compiled);
        ASSERT_TRUE(r.result->ok);
        EXPECT_EQ(cache.stats().corruptEntries, 1u);
        EXPECT_EQ(countContaining(log.warnings(), "corrupt entry"), 1u);
        // Replaced: a new cache instance reads it back.
        CompileCache again(store);
        EXPECT_EQ(again.request(kKernel, fileName(), options()).source, CacheSource::Disk);
        EXPECT_GT(fs::file_size(entry), size / 2); // (sizes vary: the log holds ptxas' timing)
    }
}

TEST_F(CacheFixture, AnUnwritableOrUnreadableStoreNeverStopsCompiling)
{
    // The cache folder's parent is a file: nothing can be created there (this also holds for root,
    // whom permission bits would not stop).
    const fs::path blocker = dir.write("not-a-folder", "x");
    LogCapture log;
    CompileCache cache(blocker / "cache");
    const auto a = cache.compile(kKernel, fileName(), options());
    ASSERT_TRUE(a->ok);
    CompileOptions other = options();
    other.lineInfo = true;
    ASSERT_TRUE(cache.compile(kKernel, fileName(), other)->ok);
    EXPECT_EQ(cache.stats().diskWriteFailures, 2u);
    EXPECT_EQ(countContaining(log.warnings(), "cannot store entries"), 1u) << "reported once";
    EXPECT_EQ(cache.request(kKernel, fileName(), options()).source, CacheSource::Memory);

    // An entry that is a folder cannot be read nor replaced: still compiles.
    const fs::path store = dir.path() / "store";
    CompileCache blocked(store);
    fs::create_directories(blocked.entryPath(CompileCache::key(kKernel, fileName(), options())));
    const CachedCompile r = blocked.request(kKernel, fileName(), options());
    EXPECT_EQ(r.source, CacheSource::Compiled);
    EXPECT_TRUE(r.result->ok);
}

TEST_F(CacheFixture, ClearRemovesMemoryAndDiskEntries)
{
    const fs::path store = dir.path() / "cache";
    CompileCache cache(store);
    ASSERT_TRUE(cache.compile(kKernel, fileName(), options())->ok);
    const fs::path entry = cache.entryPath(CompileCache::key(kKernel, fileName(), options()));
    ASSERT_TRUE(fs::exists(entry));
    EXPECT_TRUE(cache.clear());
    EXPECT_FALSE(fs::exists(entry));
    EXPECT_EQ(cache.stats().memoryEntries, 0u);
    EXPECT_EQ(cache.request(kKernel, fileName(), options()).source, CacheSource::Compiled);
}

TEST_F(CacheFixture, MemoryKeepsTheNewestEntriesOnly)
{
    CompileCache cache({}, 2);
    for (int v = 0; v < 3; ++v)
        cache.compile(kKernel + "// " + std::to_string(v) + "\n", fileName(), options());
    EXPECT_EQ(cache.stats().memoryEntries, 2u);
    EXPECT_EQ(cache.request(kKernel + "// 2\n", fileName(), options()).source, CacheSource::Memory);
    EXPECT_EQ(cache.request(kKernel + "// 0\n", fileName(), options()).source, CacheSource::Compiled);
}

TEST(CacheEncoding, RoundTripsAndRejectsMalformedPayloads)
{
    CompileResult r;
    r.ok = true;
    r.log = "ptxas info : Used 8 registers";
    r.ptx = ".version 9.0";
    r.cubin = {1, 2, 3, 0, 255};
    r.loweredNames = {"_Z1kPf", ""};
    r.compileMs = 12.5;
    r.callsPrintf = true;
    Diagnostic d;
    d.file = "a.cu";
    d.line = 3;
    d.column = 7;
    d.severity = Severity::Warning;
    d.code = "#177-D";
    d.message = "variable \"x\" was declared but never referenced";
    d.excerpt = "int x;";
    d.likelyCause = true;
    r.diagnostics = {d};
    const std::string payload = encodeResult(r);
    const auto back = decodeResult(payload);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->ok, r.ok);
    EXPECT_EQ(back->log, r.log);
    EXPECT_EQ(back->ptx, r.ptx);
    EXPECT_EQ(back->cubin, r.cubin);
    EXPECT_EQ(back->loweredNames, r.loweredNames);
    EXPECT_EQ(back->compileMs, r.compileMs);
    EXPECT_TRUE(back->callsPrintf) << "kept, so that a cached build need not search its PTX again";
    ASSERT_EQ(back->diagnostics.size(), 1u);
    EXPECT_EQ(back->diagnostics[0].code, d.code);
    EXPECT_EQ(back->diagnostics[0].column, 7);
    EXPECT_EQ(back->diagnostics[0].severity, Severity::Warning);
    EXPECT_TRUE(back->diagnostics[0].likelyCause);
    for (std::size_t cut = 0; cut < payload.size(); ++cut)
        EXPECT_FALSE(decodeResult(std::string_view(payload).substr(0, cut))) << "cut at " << cut;
    EXPECT_FALSE(decodeResult(payload + "x"));
}

TEST(CacheDirectory, FollowsXdgCacheHomeThenHome)
{
    const char* oldXdg = std::getenv("XDG_CACHE_HOME");
    const std::string savedXdg = oldXdg ? oldXdg : "";
    setenv("XDG_CACHE_HOME", "/tmp/xdg-test", 1);
    EXPECT_EQ(CompileCache::defaultDirectory(), fs::path("/tmp/xdg-test/kernelscope"));
    unsetenv("XDG_CACHE_HOME");
    if (const char* home = std::getenv("HOME"); home && *home) {
        EXPECT_EQ(CompileCache::defaultDirectory(), fs::path(home) / ".cache" / "kernelscope");
    }
    if (oldXdg)
        setenv("XDG_CACHE_HOME", savedXdg.c_str(), 1);
}

namespace {

// The tree the inputs are read from: KS_SOURCE_DIR when set (built tests run from another folder).
const fs::path kSource = ks::test::sourceDir();

std::vector<fs::path> filesUnder(const fs::path& dir, std::string_view extension = {})
{
    std::vector<fs::path> out;
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return out;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file() && (extension.empty() || e.path().extension() == extension))
            out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

// The inputs of one target: its committed seeds and regressions, and the tree's files of its kind.
std::vector<fs::path> inputsOf(std::string_view name)
{
    std::vector<fs::path> out = filesUnder(kSource / "tests/fuzz/corpus" / name);
    for (const fs::path& p : filesUnder(kSource / "tests/fuzz/regressions" / name))
        out.push_back(p);
    auto add = [&](const fs::path& dir, std::string_view ext) {
        for (const fs::path& p : filesUnder(dir, ext))
            out.push_back(p);
    };
    if (name == "project" || name == "json")
        add(kSource / "projects", ".json");
    if (name == "signatures" || name == "includes" || name == "highlight") {
        add(kSource / "kernels", ".cu");
        add(kSource / "kernels", ".cuh");
    }
    return out;
}

void runAll(const ks::fuzz::Target& t)
{
    const auto inputs = inputsOf(t.name);
    ASSERT_FALSE(inputs.empty()) << "no seed inputs for fuzz target " << t.name;
    for (const fs::path& p : inputs) {
        SCOPED_TRACE(p.string());
        const std::string bytes = ks::paths::readFile(p, std::size_t(16) << 20);
        EXPECT_NO_THROW(t.run(bytes)) << t.name << " on " << p;
    }
}

} // namespace

TEST(FuzzInputs, EveryTargetHasSeedsAndEveryFolderATarget)
{
    std::set<std::string> names;
    for (const auto& t : ks::fuzz::targets()) {
        names.insert(t.name);
        EXPECT_FALSE(inputsOf(t.name).empty()) << t.name;
    }
    for (const char* folder : {"corpus", "regressions"})
        for (const auto& e : fs::directory_iterator(kSource / "tests/fuzz" / folder))
            if (e.is_directory()) {
                EXPECT_TRUE(names.count(e.path().filename().string()))
                    << "tests/fuzz/" << folder << "/" << e.path().filename().string() << " names no fuzz target";
            }
}

TEST(FuzzInputs, SeedsAndFoundInputsRunClean)
{
    for (const auto& t : ks::fuzz::targets()) {
        SCOPED_TRACE(t.name);
        runAll(t);
    }
}

// The promises the targets check are real checks: an input that breaks one is reported.
TEST(FuzzInputs, ABrokenCacheEntryIsRefusedAndSaysWhy)
{
    const auto* t = ks::fuzz::findTarget("cache_entry");
    ASSERT_NE(t, nullptr);
    std::string entry = ks::paths::readFile(kSource / "tests/fuzz/corpus/cache_entry/entry-ok", 1 << 20);
    entry.back() ^= 0x55; // the payload no longer matches its checksum
    EXPECT_NO_THROW(t->run(entry));
    std::string why;
    EXPECT_EQ(ks::rtc::decodeEntry(entry, std::string(64, 'a'), &why), nullptr);
    EXPECT_EQ(why, "checksum mismatch");
    EXPECT_EQ(ks::rtc::decodeEntry(ks::paths::readFile(kSource / "tests/fuzz/corpus/cache_entry/entry-ok", 1 << 20),
                                   std::string(64, 'b'), &why),
              nullptr);
    EXPECT_EQ(why, "holds another key");
    EXPECT_NE(ks::rtc::decodeEntry(ks::paths::readFile(kSource / "tests/fuzz/corpus/cache_entry/entry-ok", 1 << 20),
                                   std::string(64, 'a')),
              nullptr);
}
