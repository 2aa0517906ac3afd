// The checked variant ("find the fault"): the rewrite makes every pointer and surface parameter a
// checked one and keeps the user's lines, the checked variants of small kernels and of every
// shipped kernel compile with NVRTC for sm_90, and the record of a refused access reads as one
// teaching sentence.
#include "ks/core/paths.hpp"
#include "ks/rtc/compiler.hpp"
#include "ks/syntax/kernel_signature.hpp"
#include "ks/teach/fault_report.hpp"
#include "ks/teach/instrument.hpp"

#include "kernel_options.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

namespace {

using ks::teach::CheckedFault;
using ks::syntax::KernelSignature;
using ks::syntax::ParamKind;
using ks::teach::VariantKind;

ks::rtc::CompileOptions hopper()
{
    return ks::test::kernelOptions("sm_90");
}

ks::teach::VariantBuild buildChecked(const std::string& source, const std::string& kernel,
                                     const std::string& templateArguments = {})
{
    return ks::teach::buildVariant({source, "user.cu", kernel, VariantKind::Checked, ""}, hopper(), templateArguments);
}

const char* const kMixed = R"(extern "C" __global__ void __launch_bounds__(256)
mixed(float* out, const float* __restrict__ in, int n, cudaSurfaceObject_t img, unsigned long long seed, int*)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] + float(seed);
}
)";

// What the GPU test launches, and more: 1-D buffers, const inputs, surfaces, pointer arithmetic,
// early returns, atomics, vector members, ->, comparisons and raw-pointer escapes.
const char* const kSmallKernels = R"(
struct Particle { float x, y; float mass; };
__device__ void helper(float* p, int i) { p[i] = 1.f; }

extern "C" __global__ void write_past(float* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i + 4] = float(i);
}

extern "C" __global__ void read_before(float* out, const float* in, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    out[i] = in[i - 1] * 2.f;
}

extern "C" __global__ void surface_2d(cudaSurfaceObject_t img, int width, int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (y >= height)
        return;
    uchar4 c = surf2Dread<uchar4>(img, x * 4, y);
    c.x = 255;
    surf2Dwrite(c, img, x * 4, y);
}

extern "C" __global__ void arithmetic(float4* v, const float* in, unsigned* bins, Particle* ps, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (v == nullptr || !in || i >= n)
        return;
    const float* p = in + i;
    float4* q = v;
    q += i;
    *(v + i) = make_float4(*p, 0.f, 0.f, 1.f);
    v[i].y += in[i];
    ++v[i].w;
    atomicAdd(&bins[i % 16], 1u);
    ps->mass = ps[i].x;
    ps[i].y = ps->mass;
    helper((float*)ps, 0);
    float* raw = (float*)v;
    raw[0] += float(v - v);
    for (const float* e = in; e < in + 2; ++e)
        v[0].z += *e;
    const float* second = 1 + in;
    v[0].x = second[0] + (in != second ? 1.f : 0.f);
}

extern "C" __global__ void untyped(void* raw, float** table, int n)
{
    ((float*)raw)[0] = float(n);
    table[0][1] = 2.f;
}
)";

// Calls fn(source, file name, kernel) for every kernel shipped under kernels/ (the projects' and the
// teaching ones) that takes a pointer or a cudaSurfaceObject_t.
template <class Fn>
void forEachShippedKernelWithAResource(Fn fn)
{
    for (const auto& entry : std::filesystem::recursive_directory_iterator(ks::test::sourceDir() / "kernels")) {
        if (entry.path().extension() != ".cu")
            continue;
        const std::string src = ks::paths::readTextFile(entry.path());
        const std::string file = entry.path().filename().string();
        for (const auto& k : ks::syntax::findKernels(src)) {
            const bool hasResource = std::any_of(k.params.begin(), k.params.end(), [](const auto& p) {
                return p.kind == ParamKind::Pointer || p.type.find("cudaSurfaceObject_t") != std::string::npos;
            });
            if (hasResource)
                fn(src, file, k);
        }
    }
}

std::vector<std::string> kernelNames(const std::string& src)
{
    std::vector<std::string> names;
    for (const auto& k : ks::syntax::findKernels(src))
        names.push_back(k.name);
    return names;
}

CheckedFault pointerFault(unsigned access, long long element, unsigned long long extentBytes, unsigned line)
{
    CheckedFault f{};
    f.access = access;
    f.problem = ks::teach::kCheckedOutOfRange;
    f.resource = ks::teach::kCheckedPointer;
    f.elementSize = 4;
    f.alignment = 4;
    f.element = element;
    f.byteOffset = element * 4;
    f.extent = extentBytes;
    f.line = line;
    return f;
}

} // namespace

TEST(Checked, RewritesEveryPointerAndSurfaceAndKeepsTheUsersLines)
{
    const auto v = ks::teach::instrument({kMixed, "mixed.cu", "mixed", VariantKind::Checked, ""});
    ASSERT_TRUE(v.ok) << v.error;
    EXPECT_EQ(v.entry, "ks_checked_mixed");
    const std::string preamble = "#include <ks_device/checked.cuh>\n#line 1 \"mixed.cu\"\n";
    ASSERT_EQ(v.source.rfind(preamble, 0), 0u) << v.source;
    const std::size_t generated = v.source.find("#line 1 \"ks_generated\"");
    ASSERT_NE(generated, std::string::npos);
    const std::string user = v.source.substr(preamble.size(), generated - preamble.size());
    const std::string original = kMixed;
    EXPECT_EQ(std::count(user.begin(), user.end(), '\n'), std::count(original.begin(), original.end(), '\n'));
    EXPECT_NE(user.find("__device__ void"), std::string::npos);
    EXPECT_NE(user.find("ks_user_mixed(ks::teach::CheckedPtr<float> out, ks::teach::CheckedPtr<const float> in, "
                        "int n, ks::teach::CheckedSurface img, unsigned long long seed, "
                        "ks::teach::CheckedPtr<int> ks_unnamed_5)"),
              std::string::npos)
        << user;
    EXPECT_EQ(user.find("__launch_bounds__"), std::string::npos) << "attributes move to the wrapper";

    const std::string wrapper = v.source.substr(generated);
    EXPECT_NE(wrapper.find("extern \"C\" __global__ void __launch_bounds__(256) ks_checked_mixed(float* ks_p0, "
                           "const float* __restrict__ ks_p1, int ks_p2, cudaSurfaceObject_t ks_p3, "
                           "unsigned long long ks_p4, int* ks_p5, const ks::teach::CheckedExtent* ks_extents, "
                           "ks::teach::CheckedRecord* ks_record)"),
              std::string::npos)
        << wrapper;
    EXPECT_NE(wrapper.find("ks::teach::CheckedPtr<const float>(ks_p1, ks::teach::CheckContext{ks_record, "
                           "ks_extents[1].size, ks_extents[1].height, 1u})"),
              std::string::npos)
        << wrapper;
    EXPECT_NE(wrapper.find("ks::teach::CheckedSurface{ks_p3, ks::teach::CheckContext{ks_record, ks_extents[3].size, "
                           "ks_extents[3].height, 3u}}"),
              std::string::npos)
        << wrapper;
    EXPECT_NE(wrapper.find(", ks_p2, "), std::string::npos) << "values pass through";
    EXPECT_NE(wrapper.find(", ks_p4, "), std::string::npos) << "an unsigned long long is not a surface here";
    EXPECT_EQ(v.checkedKinds, (std::vector<ParamKind>{ParamKind::Pointer, ParamKind::Pointer, ParamKind::Value,
                                                      ParamKind::Surface, ParamKind::Value, ParamKind::Pointer}));
}

TEST(Checked, UserErrorsStayAtTheUsersLine)
{
    const std::string src = "extern \"C\" __global__ void k(float* out, int n)\n{\n    out[0] = undefined_name;\n}\n";
    const auto b = ks::teach::buildVariant({src, "mine.cu", "k", VariantKind::Checked, ""}, hopper());
    ASSERT_FALSE(b.compile.ok);
    ASSERT_FALSE(b.compile.diagnostics.empty()) << b.compile.log;
    EXPECT_EQ(b.compile.diagnostics[0].file, "mine.cu");
    EXPECT_EQ(b.compile.diagnostics[0].line, 3);
}

TEST(Checked, SmallKernelsCompileForHopper)
{
    const auto names = kernelNames(kSmallKernels);
    ASSERT_EQ(names.size(), 5u);
    for (const std::string& name : names) {
        SCOPED_TRACE(name);
        const auto b = buildChecked(kSmallKernels, name);
        ASSERT_TRUE(b.compile.ok) << b.compile.log << "\n--- variant ---\n" << b.variant.source;
        EXPECT_EQ(b.loweredEntry, "ks_checked_" + name);
        EXPECT_NE(b.compile.ptx.find(".entry ks_checked_" + name), std::string::npos);
        EXPECT_NE(b.compile.ptx.find(".cas.b32"), std::string::npos) << "the first fault is claimed\n" << b.compile.ptx;
        EXPECT_TRUE(b.compile.diagnostics.empty()) << b.compile.log;
    }
    const auto surface = buildChecked(kSmallKernels, "surface_2d");
    EXPECT_NE(surface.compile.ptx.find("sust."), std::string::npos) << "the checked write is still made";
    EXPECT_NE(surface.compile.ptx.find("suld."), std::string::npos) << "the checked read is still made";
}

// __builtin_LINE() works under NVRTC and gives the user's line: the line of the access (set here
// with #line to a number that stands out) is a constant in the code that fills the record.
TEST(Checked, RecordsTheUsersLineOfTheAccess)
{
    const std::string src = "extern \"C\" __global__ void k(float* out, cudaSurfaceObject_t img)\n{\n"
                            "#line 4321\n    out[threadIdx.x + 7] = 1.f;\n"
                            "#line 8765\n    surf2Dwrite(2.f, img, 4 * threadIdx.x, 0);\n}\n";
    const auto b = buildChecked(src, "k");
    ASSERT_TRUE(b.compile.ok) << b.compile.log;
    EXPECT_NE(b.compile.ptx.find(", 4321;"), std::string::npos) << b.compile.ptx;
    EXPECT_NE(b.compile.ptx.find(", 8765;"), std::string::npos) << b.compile.ptx;
}

TEST(Checked, TemplateKernelCompiles)
{
    const std::string src = ks::paths::readTextFile(ks::test::sourceDir() / "kernels" / "teaching" / "write_patterns.cu");
    for (const char* arguments : {"float", "int, 3"}) {
        const auto b = buildChecked(src, "scale_t", arguments);
        ASSERT_TRUE(b.compile.ok) << b.compile.log;
        EXPECT_NE(b.loweredEntry.find("ks_checked_scale_t"), std::string::npos) << b.loweredEntry;
    }
}

// Every kernel shipped under kernels/ (the projects' kernels and the teaching ones) that takes a
// pointer or a surface has a checked variant that compiles.
TEST(Checked, EveryShippedKernelCompilesChecked)
{
    int checked = 0;
    forEachShippedKernelWithAResource([&](const std::string& src, const std::string& file, const KernelSignature& k) {
        SCOPED_TRACE(file + ": " + k.name);
        const auto b = ks::teach::buildVariant({src, file, k.name, VariantKind::Checked, ""}, hopper(),
                                               k.isTemplate() ? "float" : "");
        ASSERT_TRUE(b.variant.ok) << b.variant.error;
        EXPECT_TRUE(b.compile.ok) << b.compile.log << "\n--- variant ---\n" << b.variant.source;
        EXPECT_TRUE(b.compile.diagnostics.empty()) << b.compile.log;
        EXPECT_TRUE(std::any_of(b.variant.checkedKinds.begin(), b.variant.checkedKinds.end(),
                                [](ParamKind kind) { return kind != ParamKind::Value; }));
        ++checked;
    });
    EXPECT_GE(checked, 20) << "the shipped kernels with pointer or surface parameters";
}

// The checked teaching variants: "who wrote it" checks every parameter but its output as the
// checked variant does, the output through its checked context, and its own records and counters
// at the extents after the user's; the plain variants check nothing.
TEST(CheckedTeaching, WhoWroteChecksEveryParameterAndItsOwnPointers)
{
    ks::teach::InstrumentRequest request{kMixed, "mixed.cu", "mixed", VariantKind::WhoWrote, "out"};
    request.checked = true;
    const auto v = ks::teach::instrument(request);
    ASSERT_TRUE(v.ok) << v.error;
    EXPECT_EQ(v.entry, "ks_who_mixed");
    ASSERT_EQ(v.source.rfind("#include <ks_device/checked.cuh>\n", 0), 0u);
    const std::size_t generated = v.source.find("#line 1 \"ks_generated\"");
    ASSERT_NE(generated, std::string::npos);
    const std::string user = v.source.substr(0, generated);
    EXPECT_NE(user.find("ks_user_mixed(ks::teach::RecordingPtr<float, ks::teach::CheckedWhoContext> out, "
                        "ks::teach::CheckedPtr<const float> in, int n, ks::teach::CheckedSurface img, "
                        "unsigned long long seed, ks::teach::CheckedPtr<int> ks_unnamed_5)"),
              std::string::npos)
        << user;
    const std::string wrapper = v.source.substr(generated);
    EXPECT_NE(wrapper.find("unsigned* ks_counters, const ks::teach::CheckedExtent* ks_extents, "
                           "ks::teach::CheckedRecord* ks_record)"),
              std::string::npos)
        << wrapper;
    EXPECT_NE(wrapper.find("ks::teach::CheckedPtr<ks::teach::WhoRecord> ks_recordsChecked(ks_records, "
                           "ks::teach::CheckContext{ks_record, ks_extents[6].size, ks_extents[6].height, 6u})"),
              std::string::npos)
        << wrapper;
    EXPECT_NE(wrapper.find("ks::teach::CheckedPtr<unsigned> ks_countersChecked(ks_counters, "
                           "ks::teach::CheckContext{ks_record, ks_extents[7].size, ks_extents[7].height, 7u})"),
              std::string::npos)
        << wrapper;
    EXPECT_NE(wrapper.find("atomicAdd(&ks_countersChecked[ks::teach::kCounterBlockOrder], 1u)"), std::string::npos);
    EXPECT_NE(wrapper.find("(const char*)ks_p0, ks::teach::CheckContext{ks_record, ks_extents[0].size, "
                           "ks_extents[0].height, 0u}}"),
              std::string::npos)
        << "the output is checked against its own extent: " << wrapper;
    EXPECT_EQ(v.checkedKinds, (std::vector<ParamKind>{ParamKind::Pointer, ParamKind::Pointer, ParamKind::Value,
                                                      ParamKind::Surface, ParamKind::Value, ParamKind::Pointer}));
    EXPECT_EQ(ks::teach::ownCheckedParameters(VariantKind::WhoWrote),
              (std::vector<std::string>{"ks_records", "ks_counters"}));

    request.checked = false;
    const auto plain = ks::teach::instrument(request);
    ASSERT_TRUE(plain.ok);
    EXPECT_EQ(plain.source.find("Checked"), std::string::npos) << plain.source;
    EXPECT_EQ(plain.source.find("ks_extents"), std::string::npos);
    EXPECT_TRUE(plain.checkedKinds.empty());
    EXPECT_NE(plain.source.find("ks::teach::RecordingPtr<float> out"), std::string::npos);
}

TEST(CheckedTeaching, TimelineChecksItsBlockRecords)
{
    ks::teach::InstrumentRequest request{kMixed, "mixed.cu", "mixed", VariantKind::BlockTimeline, ""};
    request.checked = true;
    const auto v = ks::teach::instrument(request);
    ASSERT_TRUE(v.ok) << v.error;
    const std::string wrapper = v.source.substr(v.source.find("#line 1 \"ks_generated\""));
    EXPECT_NE(wrapper.find("ks_blocksChecked[ks::teach::linearBlockIndex()] = ks::teach::BlockRecord{"),
              std::string::npos)
        << wrapper;
    EXPECT_NE(wrapper.find("ks::teach::CheckedPtr<float>(ks_p0, "), std::string::npos) << "every pointer is checked";
    EXPECT_EQ(v.checkedKinds.size(), 6u);
    EXPECT_EQ(ks::teach::ownCheckedParameters(VariantKind::BlockTimeline),
              (std::vector<std::string>{"ks_blocks", "ks_counters"}));
    EXPECT_TRUE(ks::teach::ownCheckedParameters(VariantKind::Checked).empty());
}

// Every shipped kernel with a recordable output compiles in both checked teaching variants (and
// every one with a pointer or surface in the checked timeline).
TEST(CheckedTeaching, EveryShippedKernelCompilesInBothCheckedTeachingVariants)
{
    int who = 0, timeline = 0;
    forEachShippedKernelWithAResource([&](const std::string& src, const std::string& file, const KernelSignature& k) {
        for (VariantKind kind : {VariantKind::WhoWrote, VariantKind::BlockTimeline}) {
            if (kind == VariantKind::WhoWrote && ks::teach::outputCandidates(k).empty())
                continue;
            SCOPED_TRACE(file + ": " + k.name + (kind == VariantKind::WhoWrote ? " (who)" : " (timeline)"));
            ks::teach::InstrumentRequest request{src, file, k.name, kind, ""};
            request.checked = true;
            const auto b = ks::teach::buildVariant(request, hopper(), k.isTemplate() ? "float" : "");
            ASSERT_TRUE(b.variant.ok) << b.variant.error;
            EXPECT_TRUE(b.compile.ok) << b.compile.log << "\n--- variant ---\n" << b.variant.source;
            EXPECT_TRUE(b.compile.diagnostics.empty()) << b.compile.log;
            ++(kind == VariantKind::WhoWrote ? who : timeline);
        }
    });
    EXPECT_GE(who, 15) << "the shipped kernels with a recordable output";
    EXPECT_GE(timeline, 20) << "the shipped kernels with pointer or surface parameters";
}

// A refused access of the variant's own records is the instrumentation's: named, and given no line
// (the line would be the generated wrapper's, not the user's).
TEST(FaultReport, TheInstrumentationsOwnPointersAreNamedAndNotBlamedOnTheKernel)
{
    const auto k = ks::syntax::findKernel(kMixed, "mixed");
    ASSERT_TRUE(k);
    ks::teach::CheckedRecord r{};
    r.claimed = 1;
    r.failures = 1;
    r.first.access = ks::teach::kCheckedUpdate;
    r.first.problem = ks::teach::kCheckedOutOfRange;
    r.first.resource = ks::teach::kCheckedPointer;
    r.first.param = 6; // after the kernel's six parameters: the records
    r.first.element = 999;
    r.first.byteOffset = 999 * 28;
    r.first.extent = 999 * 28;
    r.first.elementSize = 28;
    r.first.alignment = 4;
    r.first.line = 9;
    const std::string said = ks::teach::describeCheckedRun(r, *k, VariantKind::WhoWrote);
    EXPECT_NE(said.find("ks_records[999], just past the end of ks_records (999 elements)"), std::string::npos)
        << said;
    EXPECT_NE(said.find(", in Kernelscope's instrumentation of the kernel, not in its code"), std::string::npos)
        << said;
    EXPECT_EQ(said.find("line"), std::string::npos) << said;
    r.first.param = 7;
    EXPECT_NE(ks::teach::describeCheckedRun(r, *k, VariantKind::BlockTimeline).find("ks_counters["),
              std::string::npos);
    // The find-the-fault variant has no pointers of its own: past the kernel's parameters is unknown.
    EXPECT_NE(ks::teach::describeCheckedRun(r, *k).find("parameter 8"), std::string::npos);
    r.first.param = 0;
    EXPECT_NE(ks::teach::describeCheckedRun(r, *k, VariantKind::WhoWrote).find("at line 9"), std::string::npos)
        << "the user's own parameter keeps the user's line";
}

TEST(FaultReport, WritePastTheEnd)
{
    CheckedFault f = pointerFault(ks::teach::kCheckedWrite, 1028, 1024 * 4, 12);
    f.threadX = 5;
    f.blockX = 3;
    EXPECT_EQ(ks::teach::describeFault(f, "out"),
              "thread (5,0,0) of block (3,0,0) wrote out[1028], 4 elements past the end of out (1024 elements), "
              "at line 12");
    f.element = 1024;
    EXPECT_EQ(ks::teach::describeFault(f, "out"),
              "thread (5,0,0) of block (3,0,0) wrote out[1024], just past the end of out (1024 elements), at line 12");
    f.element = 1025;
    f.line = 0;
    EXPECT_EQ(ks::teach::describeFault(f, "out"),
              "thread (5,0,0) of block (3,0,0) wrote out[1025], 1 element past the end of out (1024 elements)");
}

TEST(FaultReport, ReadBeforeTheStartAndUpdates)
{
    CheckedFault f = pointerFault(ks::teach::kCheckedRead, -1, 400, 7);
    f.threadY = 2;
    f.blockZ = 1;
    EXPECT_EQ(ks::teach::describeFault(f, "in"),
              "thread (0,2,0) of block (0,0,1) read in[-1], 1 element before the start of in, at line 7");
    f = pointerFault(ks::teach::kCheckedUpdate, -3, 400, 9);
    EXPECT_EQ(ks::teach::describeFault(f, "bins"),
              "thread (0,0,0) of block (0,0,0) updated bins[-3], 3 elements before the start of bins, at line 9");
    f = pointerFault(ks::teach::kCheckedAccessed, 1, 4, 2);
    EXPECT_EQ(ks::teach::describeFault(f, "p"),
              "thread (0,0,0) of block (0,0,0) accessed p[1], just past the end of p (1 element), at line 2");
    f = pointerFault(ks::teach::kCheckedRead, 2, 10, 3); // 10 bytes: two whole floats and a half
    EXPECT_EQ(ks::teach::describeFault(f, "a"),
              "thread (0,0,0) of block (0,0,0) read a[2], just past the end of a (10 bytes, 2 whole elements), at "
              "line 3");
}

TEST(FaultReport, Misaligned)
{
    CheckedFault f = pointerFault(ks::teach::kCheckedWrite, 3, 4096, 5);
    f.problem = ks::teach::kCheckedMisaligned;
    f.address = 0x7f0000000002ull + 12;
    f.threadX = 3;
    EXPECT_EQ(ks::teach::describeFault(f, "out"),
              "thread (3,0,0) of block (0,0,0) made a misaligned write to out[3] (address 0x7f000000000e, not a "
              "multiple of 4, the alignment of its 4-byte elements), at line 5");
    f.access = ks::teach::kCheckedRead;
    EXPECT_EQ(ks::teach::describeFault(f, "out").rfind("thread (3,0,0) of block (0,0,0) made a misaligned read of out[3]", 0),
              0u);
}

TEST(FaultReport, Surfaces)
{
    CheckedFault f{.element = 640, .byteOffset = 2560, .y = 3, .extent = 640, .height = 480, .address = 0,
                   .access = ks::teach::kCheckedWrite, .problem = ks::teach::kCheckedOutOfRange,
                   .resource = ks::teach::kCheckedSurface, .param = 0, .elementSize = 4, .alignment = 4, .line = 21};
    f.threadX = 1;
    f.blockX = 40;
    EXPECT_EQ(ks::teach::describeFault(f, "img"),
              "thread (1,0,0) of block (40,0,0) wrote surface img at (640, 3), x past its width 640, at line 21");
    f.access = ks::teach::kCheckedRead;
    f.element = -1;
    f.byteOffset = -4;
    f.y = 480;
    EXPECT_EQ(ks::teach::describeFault(f, "img"),
              "thread (1,0,0) of block (40,0,0) read surface img at (-1, 480), x before its first column and y past "
              "its height 480, at line 21");
}

TEST(FaultReport, CheckedRunNamesTheParameterAndCountsTheRest)
{
    const auto k = ks::syntax::findKernel(kMixed, "mixed");
    ASSERT_TRUE(k);
    ks::teach::CheckedRecord r{};
    EXPECT_EQ(ks::teach::describeCheckedRun(r, *k), "no access was out of bounds or misaligned");
    r.claimed = 1;
    r.failures = 3;
    r.first = pointerFault(ks::teach::kCheckedRead, 100, 400, 5);
    r.first.param = 1;
    EXPECT_EQ(ks::teach::describeCheckedRun(r, *k),
              "thread (0,0,0) of block (0,0,0) read in[100], just past the end of in (100 elements), at line 5 (and 2 "
              "more refused accesses in this launch)");
    r.failures = 2;
    r.first.param = 5;
    EXPECT_EQ(ks::teach::describeCheckedRun(r, *k),
              "thread (0,0,0) of block (0,0,0) read parameter 6[100], just past the end of parameter 6 (100 "
              "elements), at line 5 (and 1 more refused access in this launch)");
}
