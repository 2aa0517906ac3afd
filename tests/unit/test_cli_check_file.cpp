// `kernelscope --check`: the app's checkFile/formatCheckReport and the app's flag parsing.
// Real NVRTC compiles for sm_90; no GPU, no GL.
#include "cli/check_file.hpp"

#include "parse_options.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

using namespace ks::rtc;
using namespace ks::app;

namespace {

struct CheckFixture : ::testing::Test {
    ks::test::TempDir dir;
    CheckRequest request(const std::string& file)
    {
        CheckRequest r;
        r.file = file;
        r.options.arch = "sm_90";
        r.cacheDirectory = dir.path() / "cache";
        return r;
    }
};

ks::app::ParseOutcome parse(std::vector<std::string> args)
{
    return ks::test::parseOptions(std::move(args));
}

} // namespace

TEST_F(CheckFixture, ASuccessfulCheckListsEveryKernelWithItsFacts)
{
    const auto file = dir.write("k.cu", "extern \"C\" __global__ void saxpy(float a, const float* x, float* y, int n)\n"
                                        "{\n"
                                        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                        "    if (i < n) y[i] = a * x[i] + y[i];\n"
                                        "}\n"
                                        "__global__ void tile(float* p)\n"
                                        "{\n"
                                        "    __shared__ float t[256];\n"
                                        "    t[threadIdx.x] = p[threadIdx.x];\n"
                                        "    __syncthreads();\n"
                                        "    p[threadIdx.x] = t[255 - threadIdx.x];\n"
                                        "}\n");
    const CheckReport report = checkFile(request(file.string()));
    ASSERT_TRUE(report.ok()) << formatCheckReport(report);
    EXPECT_EQ(report.exitCode(), 0);
    EXPECT_EQ(report.source, CacheSource::Compiled);
    const std::string text = formatCheckReport(report);
    EXPECT_NE(text.find(file.string() + ": ok for sm_90"), std::string::npos) << text;
    EXPECT_NE(text.find("kernel saxpy(float a, const float* x, float* y, int n)"), std::string::npos) << text;
    EXPECT_NE(text.find("kernel tile(float* p)"), std::string::npos) << text;
    EXPECT_NE(text.find("shared memory   1.0 KiB static"), std::string::npos) << text;
    EXPECT_NE(text.find("registers"), std::string::npos);
    EXPECT_NE(text.find("CUBIN"), std::string::npos);
    EXPECT_EQ(text.find("note:"), std::string::npos) << "no mismatches expected:\n" << text;

    // The second check comes from the disk cache; --no-cache compiles again.
    const CheckReport again = checkFile(request(file.string()));
    EXPECT_EQ(again.source, CacheSource::Disk);
    EXPECT_NE(formatCheckReport(again).find("from the disk cache"), std::string::npos);
    // Which NVRTC mode produced the result: the -minimal fast path is opt-in, so full headers.
    EXPECT_NE(text.find("(cache miss, full headers: the -minimal fast path is off)"), std::string::npos) << text;
    EXPECT_NE(formatCheckReport(again).find("originally, full headers"), std::string::npos) << formatCheckReport(again);
    CheckRequest noCache = request(file.string());
    noCache.useCache = false;
    EXPECT_EQ(checkFile(noCache).source, CacheSource::Compiled);
}

TEST_F(CheckFixture, CompileErrorsPrintAsFileLineColumnAndExitOne)
{
    const auto file = dir.write("bad.cu", "extern \"C\" __global__ void k(float* p)\n"
                                          "{\n"
                                          "    int unused;\n"
                                          "    p[0] = nope;\n"
                                          "}\n");
    // The file as the user typed it: a relative path from the current folder would print as is.
    const CheckReport report = checkFile(request(file.string()));
    EXPECT_EQ(report.exitCode(), 1);
    const std::string text = formatCheckReport(report);
    EXPECT_NE(text.find(file.string() + ":4:12: error: identifier \"nope\" is undefined\n"), std::string::npos) << text;
    EXPECT_NE(text.find(file.string() + ":3:9: warning: variable \"unused\" was declared but never referenced"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("1 error, 1 warning"), std::string::npos) << text;
    // A broken file is reported from a full-header compile.
    EXPECT_NE(text.find("full headers"), std::string::npos) << text;
}

TEST_F(CheckFixture, BadUsageExitsTwo)
{
    EXPECT_EQ(checkFile(request((dir.path() / "missing.cu").string())).exitCode(), 2);
    EXPECT_EQ(checkFile(request(dir.path().string())).exitCode(), 2) << "a folder";
    const auto file = dir.write("k.cu", "extern \"C\" __global__ void k() {}\n");
    CheckRequest badArch = request(file.string());
    badArch.options.arch = "gfx90a";
    const CheckReport r = checkFile(badArch);
    EXPECT_EQ(r.exitCode(), 2);
    EXPECT_NE(formatCheckReport(r).find("not a GPU architecture"), std::string::npos);
}

TEST_F(CheckFixture, AFastCompileBuildSaysSoAndDebugOverridesIt)
{
    const auto file = dir.write("k.cu", "extern \"C\" __global__ void k(float* p) { p[threadIdx.x] = sinf(p[0]); }\n");
    CheckRequest fast = request(file.string());
    fast.options.fastCompile = FastCompile::Max;
    const CheckReport r = checkFile(fast);
    ASSERT_TRUE(r.ok()) << formatCheckReport(r);
    const std::string text = formatCheckReport(r);
    EXPECT_NE(text.find(": ok for sm_90 (--Ofast-compile=max: less optimized code), 0 warnings"), std::string::npos)
        << text;
    EXPECT_NE(text.find(" with the functions it calls)"), std::string::npos) << "sinf stays a call, with its stack: " << text;
    fast.options.debug = true;
    const CheckReport debug = checkFile(fast);
    ASSERT_TRUE(debug.ok()) << formatCheckReport(debug);
    EXPECT_EQ(formatCheckReport(debug).find("Ofast"), std::string::npos) << "-G compiles without it";
}

TEST(CheckOptions, FlagsMapToCompileOptionsAndUsageErrorsExitTwo)
{
    const auto ok = parse({"--check", "k.cu", "--arch", "sm_80", "-DSCALE=2", "-D", "FLAG", "-I", "inc", "--fast-math",
                           "--lineinfo", "-G", "--std", "c++20", "--no-cache", "--fast-compile", "mid"});
    ASSERT_TRUE(ok.options);
    const auto& c = ok.options->check;
    EXPECT_TRUE(c.requested());
    EXPECT_EQ(c.file, "k.cu");
    EXPECT_EQ(c.arch, "sm_80");
    EXPECT_EQ(c.defines, (std::vector<std::string>{"SCALE=2", "FLAG"}));
    EXPECT_EQ(c.includes, std::vector<std::string>{"inc"});
    EXPECT_TRUE(c.fastMath && c.lineInfo && c.debug && c.noCache);
    EXPECT_EQ(c.cppStandard, "c++20");
    EXPECT_EQ(c.fastCompile, "mid");
    EXPECT_EQ(parse({"--check", "k.cu"}).options->check.fastCompile, "off");
    EXPECT_TRUE(parse({"--clear-cache"}).options->check.clearCache);
    EXPECT_FALSE(parse({}).options->check.requested());

    testing::internal::CaptureStderr();
    testing::internal::CaptureStdout();
    const auto badStd = parse({"--check", "k.cu", "--std", "c++99"});
    const auto badArch = parse({"--check", "k.cu", "--arch", "banana"});
    const auto badFast = parse({"--check", "k.cu", "--fast-compile", "fast"});
    const auto unknown = parse({"--check", "k.cu", "--frobnicate"});
    testing::internal::GetCapturedStdout();
    testing::internal::GetCapturedStderr();
    EXPECT_FALSE(badStd.options);
    EXPECT_EQ(badStd.exitCode, 2);
    EXPECT_EQ(badArch.exitCode, 2);
    EXPECT_EQ(badFast.exitCode, 2);
    EXPECT_EQ(unknown.exitCode, 2);
}

// --ptx: NVRTC's PTX with the source line over each run of instructions from it (-lineinfo).
TEST_F(CheckFixture, PtxListingNamesTheSourceLineOverItsInstructions)
{
    const std::string text = "extern \"C\" __global__ void twice(float* p, int n)\n"
                             "{\n"
                             "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                             "    if (i < n) p[i] = 2.f * p[i];\n"
                             "}\n";
    const auto file = dir.write("twice.cu", text);
    CheckRequest r = request(file.string());
    r.options.lineInfo = true;
    const CheckReport report = checkFile(r);
    ASSERT_TRUE(report.ok()) << formatCheckReport(report);
    const std::string listing = ptxListing(report, text);
    EXPECT_NE(listing.find(".visible .entry twice("), std::string::npos) << "the PTX itself";
    EXPECT_NE(listing.find("// twice.cu:3: int i = blockIdx.x * blockDim.x + threadIdx.x;"), std::string::npos) << listing;
    const std::size_t marker = listing.find("// twice.cu:4: if (i < n) p[i] = 2.f * p[i];");
    ASSERT_NE(marker, std::string::npos) << listing;
    EXPECT_NE(listing.find("st.global.f32", marker), std::string::npos) << "the store comes under its line";
    EXPECT_TRUE(ptxListing(checkFile(request(dir.write("bad.cu", "__global__ void k( {}\n").string())), "").empty())
        << "no listing for a failed build";
}

// --sass needs nvdisasm: where the toolkit has none, the listing is empty and says how to get one;
// where it has one, each run of SASS comes under its source line.
TEST_F(CheckFixture, SassListingComesFromNvdisasmOrSaysHowToGetIt)
{
    const std::string text = "extern \"C\" __global__ void twice(float* p, int n)\n"
                             "{\n"
                             "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                             "    if (i < n) p[i] = 2.f * p[i];\n"
                             "}\n";
    CheckRequest r = request(dir.write("twice.cu", text).string());
    r.options.lineInfo = true;
    const CheckReport report = checkFile(r);
    ASSERT_TRUE(report.ok()) << formatCheckReport(report);
    std::string why;
    const std::string listing = sassListing(report, text, why);
    if (listing.empty()) {
        EXPECT_NE(why.find("nvdisasm"), std::string::npos) << why;
        EXPECT_NE(why.find("install"), std::string::npos) << why;
        GTEST_SKIP() << "no nvdisasm here: " << why;
    }
    EXPECT_NE(listing.find("STG"), std::string::npos) << listing;
    EXPECT_NE(listing.find("// twice.cu:4: if (i < n) p[i] = 2.f * p[i];"), std::string::npos) << listing;
}

TEST(CheckFlags, PtxAndSassGoWithCheck)
{
    EXPECT_EQ(parse({"--ptx"}).exitCode, 2);
    const ParseOutcome ok = parse({"--check", "k.cu", "--ptx", "--sass"});
    ASSERT_TRUE(ok.options);
    EXPECT_TRUE(ok.options->check.ptx);
    EXPECT_TRUE(ok.options->check.sass);
}
