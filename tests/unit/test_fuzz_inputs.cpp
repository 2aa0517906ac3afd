// Every input the fuzzers start from (tests/fuzz/corpus) and every input they ever found a bug with
// (tests/fuzz/regressions), run through the same target functions the libFuzzer executables run,
// here in the ordinary build: each must come back without an exception and without breaking a
// promise (under the asan preset, also without a sanitizer report). The shipped projects, kernels
// and test kernels are seeds too (.ci/fuzz.sh adds them to the fuzzers' corpora).
#include "targets.hpp"

#include "ks/core/paths.hpp"
#include "ks/rtc/cache.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

namespace fs = std::filesystem;

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
