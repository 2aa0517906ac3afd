// Instrumented kernel variants: the source scanner finds kernels and parameters, the rewrite keeps
// the user's lines, and every variant of every sample kernel compiles with NVRTC for sm_90.
#include "ks/core/paths.hpp"
#include "ks/rtc/compiler.hpp"
#include "ks/syntax/kernel_signature.hpp"
#include "ks/teach/instrument.hpp"

#include "kernel_options.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

namespace {

using ks::syntax::ParamKind;
using ks::teach::VariantKind;

ks::rtc::CompileOptions hopper()
{
    return ks::test::kernelOptions("sm_90");
}

std::string teachingSource(const std::string& file)
{
    return ks::paths::readTextFile(ks::test::sourceDir() / "kernels" / "teaching" / file);
}

// Passing the recorded output on as a raw pointer, comparing it, and pointer arithmetic compile.
const char* const kRawPointerEscape = R"(
__device__ void helper(float* p, int i) { p[i] = 1.f; }
extern "C" __global__ void escape(float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (out == nullptr || i >= n) return;
    helper(out, i);
    float* q = out + 1;
    *(out + i) = q[0];
    out += 0;
    out[i] -= 1.f;
    out[i]++;
}
)";

} // namespace

TEST(Instrument, KeepsTheUsersLinesAndPrefixesGeneratedNames)
{
    const std::string src = teachingSource("index_2d.cu");
    ks::teach::InstrumentRequest r{src, "index_2d.cu", "gradient_2d", VariantKind::WhoWrote, "out"};
    const auto v = ks::teach::instrument(r);
    ASSERT_TRUE(v.ok) << v.error;
    EXPECT_EQ(v.entry, "ks_who_gradient_2d");
    EXPECT_EQ(v.outputKind, ParamKind::Pointer);
    // The user's part: same line count after the two-line preamble, each line where it was.
    const std::string preamble = "#include <ks_device/instrument.cuh>\n#line 1 \"index_2d.cu\"\n";
    ASSERT_EQ(v.source.rfind(preamble, 0), 0u);
    const std::string user = v.source.substr(preamble.size(), v.source.find("#line 1 \"ks_generated\"") - preamble.size());
    EXPECT_EQ(std::count(user.begin(), user.end(), '\n'), std::count(src.begin(), src.end(), '\n'));
    EXPECT_NE(user.find("__device__ void ks_user_gradient_2d(ks::teach::RecordingPtr<float> out"), std::string::npos)
        << user;
    EXPECT_NE(user.find("extern \"C\" __global__ void gradient_2d_surface"), std::string::npos)
        << "other kernels stay as they are";
}

TEST(Instrument, RefusesWithAClearMessage)
{
    const std::string src = teachingSource("../pycuda_tutorial.cu");
    auto v = ks::teach::instrument({src, "m.cu", "nope", VariantKind::WhoWrote, ""});
    EXPECT_FALSE(v.ok);
    EXPECT_NE(v.error.find("no __global__ kernel named 'nope'"), std::string::npos);
    v = ks::teach::instrument({src, "m.cu", "multiply_them", VariantKind::WhoWrote, "a"});
    EXPECT_FALSE(v.ok);
    EXPECT_NE(v.error.find("cannot be an output"), std::string::npos) << v.error;
    v = ks::teach::instrument({src, "m.cu", "multiply_them", VariantKind::WhoWrote, "zzz"});
    EXPECT_NE(v.error.find("no parameter named 'zzz'"), std::string::npos) << v.error;
    v = ks::teach::instrument({src, "m.cu", "multiply_them", VariantKind::WhoWrote, ""});
    ASSERT_TRUE(v.ok);
    EXPECT_EQ(v.kernel.params[v.outputIndex].name, "dest");
}

TEST(Instrument, UserErrorsStayAtTheUsersLine)
{
    const std::string src = "extern \"C\" __global__ void k(float* out, int n)\n{\n    out[0] = undefined_name;\n}\n";
    for (VariantKind kind : {VariantKind::WhoWrote, VariantKind::BlockTimeline}) {
        const auto b = ks::teach::buildVariant({src, "mine.cu", "k", kind, ""}, hopper());
        ASSERT_FALSE(b.compile.ok);
        ASSERT_FALSE(b.compile.diagnostics.empty()) << b.compile.log;
        EXPECT_EQ(b.compile.diagnostics[0].file, "mine.cu");
        EXPECT_EQ(b.compile.diagnostics[0].line, 3);
    }
}

struct Sample {
    std::string file;   // under kernels/teaching, or "" for inline source
    std::string source; // when file is ""
    std::string kernel;
    std::string output; // "" = first candidate
    std::string templateArguments;
};

class InstrumentSamples : public ::testing::TestWithParam<Sample> {};

TEST_P(InstrumentSamples, EveryVariantCompilesForHopper)
{
    const Sample& s = GetParam();
    const std::string src = s.file.empty() ? s.source : teachingSource(s.file);
    const std::string name = s.file.empty() ? "inline.cu" : s.file;
    for (VariantKind kind : {VariantKind::WhoWrote, VariantKind::BlockTimeline}) {
        const auto b = ks::teach::buildVariant({src, name, s.kernel, kind, s.output}, hopper(), s.templateArguments);
        ASSERT_TRUE(b.variant.ok) << b.variant.error;
        ASSERT_TRUE(b.compile.ok) << b.compile.log << "\n--- variant ---\n" << b.variant.source;
        ASSERT_FALSE(b.loweredEntry.empty());
        const std::string prefix = kind == VariantKind::WhoWrote ? "ks_who_" : "ks_timeline_";
        EXPECT_NE(b.loweredEntry.find(prefix + s.kernel), std::string::npos) << b.loweredEntry;
        EXPECT_NE(b.compile.ptx.find(".entry " + b.loweredEntry), std::string::npos);
        EXPECT_NE(b.compile.ptx.find(kind == VariantKind::WhoWrote ? "%smid" : "%globaltimer"), std::string::npos);
        for (const auto& d : b.compile.diagnostics)
            EXPECT_NE(d.file, std::string(ks::teach::kGeneratedFileName)) << ks::rtc::formatDiagnostic(d);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Teaching, InstrumentSamples,
    ::testing::Values(Sample{"../pycuda_tutorial.cu", "", "doublify", "", ""}, Sample{"../pycuda_tutorial.cu", "", "multiply_them", "", ""},
                      Sample{"pi.cu", "", "pi_map", "", ""}, Sample{"pi.cu", "", "pi_reduce", "dest", ""},
                      Sample{"index_2d.cu", "", "gradient_2d", "", ""},
                      Sample{"index_2d.cu", "", "gradient_2d_surface", "out", ""},
                      Sample{"too_few_blocks.cu", "", "scale_once", "", ""},
                      Sample{"too_few_blocks.cu", "", "scale_grid_stride", "", ""},
                      Sample{"divergence.cu", "", "diverge_by_lane", "", ""},
                      Sample{"occupancy.cu", "", "block_sum", "blockSums", ""},
                      Sample{"write_patterns.cu", "", "scale_t", "out", "float"},
                      Sample{"write_patterns.cu", "", "scale_t", "out", "int, 3"},
                      Sample{"write_patterns.cu", "", "write_vec", "", ""},
                      Sample{"write_patterns.cu", "", "histogram", "bins", ""},
                      Sample{"write_patterns.cu", "", "fill_3d", "", ""},
                      Sample{"", kRawPointerEscape, "escape", "", ""}),
    [](const ::testing::TestParamInfo<Sample>& info) {
        std::string n = info.param.kernel + "_" + std::to_string(info.index);
        std::replace_if(n.begin(), n.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
        return n;
    });

TEST(Instrument, DemoSurfaceKernelWithEarlyReturnCompiles)
{
    const std::string src = ks::paths::readTextFile(ks::test::sourceDir() / "kernels" / "thread_colors.cu");
    for (VariantKind kind : {VariantKind::WhoWrote, VariantKind::BlockTimeline}) {
        const auto b = ks::teach::buildVariant({src, "thread_colors.cu", "thread_colors_surface", kind, ""}, hopper());
        ASSERT_TRUE(b.compile.ok) << b.compile.log;
        EXPECT_EQ(b.variant.outputKind, kind == VariantKind::WhoWrote ? ParamKind::Surface : ParamKind::Value);
        EXPECT_NE(b.compile.ptx.find("sust."), std::string::npos) << "the user's surface write is still made";
    }
}

TEST(TeachingKernels, EveryFileCompilesAsShippedForHopper)
{
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(ks::test::sourceDir() / "kernels" / "teaching")) {
        if (entry.path().extension() != ".cu")
            continue;
        ++files;
        const std::string src = ks::paths::readTextFile(entry.path());
        std::vector<std::string> instantiate; // templates are compiled by instantiating them
        for (const auto& k : ks::syntax::findKernels(src))
            if (k.isTemplate())
                instantiate.push_back(k.qualifiedName() + "<float>");
        const auto plain = ks::rtc::compile(src, entry.path().filename().string(), hopper(), instantiate);
        EXPECT_TRUE(plain.ok) << entry.path() << "\n" << plain.log;
        for (const auto& k : ks::syntax::findKernels(src))
            if (!k.isTemplate()) {
                EXPECT_NE(plain.ptx.find(".entry " + k.name), std::string::npos) << k.name;
            }
        EXPECT_TRUE(plain.diagnostics.empty()) << entry.path() << ": warnings\n" << plain.log;
    }
    EXPECT_GE(files, 6);
}
