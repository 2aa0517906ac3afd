// Generated reduction and scan kernels compile with NVRTC for sm_90 on any machine (no GPU), and the
// host-side pieces around them (argument lists, packing, scratch sizes) do what they say.
#include "ks/array/algorithm_source.hpp"
#include "ks/array/kernel_args.hpp"
#include "ks/array/reduction.hpp"
#include "ks/rng/fill.hpp"
#include "ks/rng/generator.hpp"
#include "ks/core/error.hpp"
#include "ks/rtc/compiler.hpp"

#include "algorithm_test.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <regex>
#include <string>

namespace {

using ks::array::GeneratedReduction;
using ks::array::GeneratedScan;
using ks::array::ReductionSpec;
using ks::array::ScanSpec;

ks::rtc::CompileResult compileForHopper(const std::string& source, const std::string& name)
{
    ks::rtc::CompileOptions options;
    options.arch = "sm_90";
    options.ptxasVerbose = true;
    return ks::rtc::compile(source, name + ".cu", options);
}

// ptxas -v reports "N bytes stack frame, M bytes spill stores" per kernel. Built-in types must keep
// everything in registers; user structs with their own copy constructors may use a small frame.
bool spills(const std::string& log, bool allowFrame = false)
{
    return std::regex_search(log, std::regex(allowFrame ? "[1-9][0-9]* bytes spill stores"
                                                        : "[1-9][0-9]* bytes (spill stores|stack frame)"));
}

void expectReductionCompiles(const ReductionSpec& spec, bool vectorizable, bool allowFrame = false)
{
    const GeneratedReduction g = ks::array::generateReduction(spec);
    EXPECT_EQ(g.vectorizable, vectorizable) << spec.mapExpr;
    const ks::rtc::CompileResult r = compileForHopper(g.source, spec.name);
    ASSERT_TRUE(r.ok) << r.log << "\n" << g.source;
    EXPECT_NE(r.ptx.find(".entry " + g.kernel + "("), std::string::npos);
    if (vectorizable) {
        EXPECT_NE(r.ptx.find(".entry " + g.vectorKernel + "("), std::string::npos);
    }
    EXPECT_NE(r.ptx.find(g.sizeSymbol), std::string::npos);
    EXPECT_FALSE(spills(r.log, allowFrame)) << r.log;
    EXPECT_FALSE(r.cubin.empty());
}


} // namespace

TEST(KernelArgs, PacksValuesInOrder)
{
    ks::array::KernelArgs args;
    const double d = 2.5;
    args.add(std::int32_t(7)).add(d).add(static_cast<unsigned char>(3));
    ASSERT_EQ(args.count(), 3u);
    void** p = args.params();
    EXPECT_EQ(*static_cast<std::int32_t*>(p[0]), 7);
    EXPECT_EQ(*static_cast<double*>(p[1]), 2.5);
    EXPECT_EQ(*static_cast<unsigned char*>(p[2]), 3);
}

TEST(ReductionSource, SumAndDotCompileWithVectorLoads)
{
    expectReductionCompiles({"float", "0", "a+b", "x[i]", "const float *x", "", "ks_sum_f32"}, true);
    expectReductionCompiles({"float", "0", "a+b", "x[i]*y[i]", "const float *x, const float *y", "", "ks_dot"}, true);
    expectReductionCompiles({"double", "0", "a+b", "(double)x[i]*y[i]", "const float *x, const double *y", "", "ks_mixed"},
                            true);
    expectReductionCompiles({"long long", "0", "a+b", "x[i]", "const signed char *x", "", "ks_sum_i8"}, true);
}

TEST(ReductionSource, IndexUsesFallBackToScalarLoads)
{
    expectReductionCompiles({"float", "0", "a+b", "x[i]*i", "const float *x", "", "ks_weighted"}, false);
    expectReductionCompiles({"float", "0", "a+b", "x[i+1]-x[i]", "const float *x", "", "ks_diff"}, false);
    expectReductionCompiles({"float", "0", "a+b", "x[idx[i]]", "const int *idx, const float *x", "", "ks_subset"},
                            false);
    expectReductionCompiles({"float", "0", "a+b", "x[i]*s", "const float *x, float s", "", "ks_scaled"}, true);
}

TEST(ReductionSource, PyCudaStructReductionCompiles)
{
    // test_struct_reduce's collector, neutral and expressions.
    expectReductionCompiles({"minmax_collector", "minmax_collector(10000, -10000)", "agg_mmc(a, b)",
                             "minmax_collector(x[i], x[i])", "float *x", ks::test::kMinMaxCollectorPreamble, "ks_minmax"},
                            true, true);
}

TEST(ReductionSource, DefaultMapIsTheFirstArgument)
{
    // test_reduce_out: ReductionKernel(np.float32, neutral=0, reduce_expr="max(a,b)", arguments="float *in").
    const GeneratedReduction g = ks::array::generateReduction({"float", "0", "max(a,b)", "", "float *in", "", "ks_max_in"});
    EXPECT_NE(g.source.find("in[i]"), std::string::npos);
    EXPECT_TRUE(g.vectorizable);
    const auto r = compileForHopper(g.source, "ks_max_in");
    EXPECT_TRUE(r.ok) << r.log;
    EXPECT_THROW(ks::array::generateReduction({"float", "0", "a+b", "", "float s", "", "k"}), ks::Error);
    EXPECT_THROW(ks::array::generateReduction({"float", "0", "a+b", "x[i]", "float *x", "", "not a name"}), ks::Error);
}

TEST(ReductionSource, UserTextIsNotRescanned)
{
    // Text that looks like the generator's placeholders survives verbatim.
    const GeneratedReduction g = ks::array::generateReduction(
        {"float", "0", "a+b", "x[i] * NAME_SCALE", "const float *x", "#define NAME_SCALE 2.0f // @NAME@ PARAMS", "ks_lit"});
    EXPECT_NE(g.source.find("// @NAME@ PARAMS"), std::string::npos);
    const auto r = compileForHopper(g.source, "ks_lit");
    EXPECT_TRUE(r.ok) << r.log;
}

TEST(ReductionSource, CompileErrorInUserExpressionIsAValueOnThePreambleLine)
{
    const GeneratedReduction g =
        ks::array::generateReduction({"float", "0", "a+b", "x[i]", "const float *x", "int f() { return undefined_thing; }", "ks_bad"});
    const auto r = compileForHopper(g.source, "ks_bad");
    EXPECT_FALSE(r.ok);
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_EQ(r.diagnostics[0].file, "preamble");
    EXPECT_EQ(r.diagnostics[0].line, 1);
}

TEST(ScanSource, PackedAndWideScansCompile)
{
    for (const bool exclusive : {false, true}) {
        for (const char* type : {"int", "float", "double", "long long", "unsigned char"}) {
            ScanSpec spec{type, "a+b", "0", exclusive, "", std::string("ks_scan_") + (exclusive ? "ex_" : "in_") +
                                                                (std::strchr(type, ' ') ? "ll" : type)};
            const GeneratedScan g = ks::array::generateScan(spec);
            const auto r = compileForHopper(g.source, spec.name);
            ASSERT_TRUE(r.ok) << type << "\n" << r.log;
            EXPECT_NE(r.ptx.find(".entry " + g.kernel + "("), std::string::npos);
            EXPECT_NE(r.ptx.find(".entry " + g.vectorKernel + "("), std::string::npos);
            EXPECT_NE(r.ptx.find(g.tileSymbol), std::string::npos);
            EXPECT_FALSE(spills(r.log)) << type << r.log;
            // 4- and 8-byte values get the vector kernel's 16-byte loads and stores; the general
            // kernel has none, and the stub of other sizes none either.
            const std::size_t size = std::string(type) == "unsigned char" ? 1 : std::strchr(type, ' ') || std::string(type) == "double" ? 8 : 4;
            EXPECT_EQ(ks::array::scanHasVectorKernel(size), size == 4 || size == 8);
            const std::regex load16(R"(ld\.global\.(v4\.[bfsu]32|v2\.[bfsu]64))");
            const std::regex store16(R"(st\.global\.(v4\.[bfsu]32|v2\.[bfsu]64))");
            EXPECT_EQ(std::regex_search(r.ptx, load16), ks::array::scanHasVectorKernel(size)) << type;
            EXPECT_EQ(std::regex_search(r.ptx, store16), ks::array::scanHasVectorKernel(size)) << type;
        }
    }
}

TEST(ScanSource, InclusiveWithoutNeutralAndStructScansCompile)
{
    const GeneratedScan g = ks::array::generateScan({"int", "a > b ? a : b", "", false, "", "ks_running_max"});
    EXPECT_TRUE(compileForHopper(g.source, "ks_running_max").ok);
    const GeneratedScan s = ks::array::generateScan(
        {"minmax_collector", "agg_mmc(a, b)", "minmax_collector(1e30f, -1e30f)", true, ks::test::kMinMaxCollectorPreamble, "ks_mm_scan"});
    const auto r = compileForHopper(s.source, "ks_mm_scan");
    EXPECT_TRUE(r.ok) << r.log;
    EXPECT_THROW(ks::array::generateScan({"int", "a+b", "", true, "", "ks_ex"}), ks::Error);
    // 8- and 4-byte structs take the vector kernel (the GPU tests' non-commutative operators).
    const char* affine = ks::test::kAffinePreamble;
    const GeneratedScan a8 = ks::array::generateScan({"affine", "compose(a, b)", "", false, affine, "ks_affine_scan"});
    const auto r8 = compileForHopper(a8.source, "ks_affine_scan");
    EXPECT_TRUE(r8.ok) << r8.log;
    EXPECT_NE(r8.ptx.find(".entry " + a8.vectorKernel + "("), std::string::npos);
    const GeneratedScan a4 =
        ks::array::generateScan({"affine16", "compose16(a, b)", "affine16{1, 0}", true, affine, "ks_affine16_scan"});
    const auto r4 = compileForHopper(a4.source, "ks_affine16_scan");
    EXPECT_TRUE(r4.ok) << r4.log;
    EXPECT_FALSE(spills(r4.log)) << r4.log;
}

TEST(ScanSource, ScratchLayoutMatchesTheKernel)
{
    const auto packed = ks::array::scanScratchSize(10000, 4096, 4, true);
    EXPECT_EQ(packed.tiles, 3u);
    EXPECT_EQ(packed.zeroBytes, 16u + 3 * 8);
    EXPECT_EQ(packed.bytes, packed.zeroBytes);
    const auto wide = ks::array::scanScratchSize(1ull << 33, 2048, 8, false);
    EXPECT_EQ(wide.tiles, (1ull << 33) / 2048);
    EXPECT_EQ(wide.bytes, (wide.zeroBytes + 15) / 16 * 16 + 2 * wide.tiles * 8);
    EXPECT_EQ(ks::array::scanScratchSize(0, 4096, 4, true).tiles, 0u);
}

TEST(ReductionSource, EveryBuiltInCompilesForHopper)
{
    using ks::array::DType;
    struct Case {
        const char* kind;
        DType in, in2, out;
        bool vectorizable;
    };
    const Case cases[] = {
        {"sum", DType::Float32, DType::Float32, DType::Float32, true},
        {"sum", DType::Int32, DType::Int32, DType::Int64, true},
        {"sum", DType::UInt8, DType::UInt8, DType::UInt64, true},
        {"sum", DType::Float64, DType::Float64, DType::Float64, true},
        {"dot", DType::Float32, DType::Float32, DType::Float32, true},
        {"dot", DType::Int32, DType::Float32, DType::Float64, true},
        {"min", DType::Float32, DType::Float32, DType::Float32, true},
        {"max", DType::Float64, DType::Float64, DType::Float64, true},
        {"min", DType::Int32, DType::Int32, DType::Int32, true},
        {"max", DType::UInt64, DType::UInt64, DType::UInt64, true},
        {"min", DType::Bool, DType::Bool, DType::Bool, true},
        {"any", DType::Float32, DType::Float32, DType::Bool, true},
        {"all", DType::Int16, DType::Int16, DType::Bool, true},
        {"any", DType::Bool, DType::Bool, DType::Bool, true},
        {"subset_sum", DType::Float32, DType::Int32, DType::Float32, false},
        {"subset_min", DType::Float64, DType::Int64, DType::Float64, false},
        {"subset_max", DType::Int32, DType::UInt32, DType::Int32, false},
        {"sum", DType::Complex64, DType::Complex64, DType::Complex64, true},
        {"dot", DType::Complex128, DType::Float64, DType::Complex128, true},
        {"any", DType::Complex64, DType::Complex64, DType::Bool, true},
        {"subset_sum", DType::Complex64, DType::Int32, DType::Complex64, false},
        // float16 inputs: the results accumulate in float32 (reduction.cpp converts them at the end).
        {"sum", DType::Float16, DType::Float16, DType::Float32, true},
        {"dot", DType::Float16, DType::Float16, DType::Float32, true},
        {"min", DType::Float16, DType::Float16, DType::Float32, true},
        {"all", DType::Float16, DType::Float16, DType::Bool, true},
        {"subset_max", DType::Float16, DType::Int32, DType::Float32, false},
    };
    for (const Case& c : cases) {
        for (const bool strided : {false, true}) {
            if (strided && std::string(c.kind).rfind("subset", 0) == 0)
                continue;
            SCOPED_TRACE(std::string(c.kind) + (strided ? " strided" : ""));
            const ReductionSpec spec = ks::array::builtinReductionSpec(c.kind, c.in, c.in2, c.out, strided);
            expectReductionCompiles(spec, c.vectorizable && !strided);
        }
    }
    EXPECT_THROW(ks::array::builtinReductionSpec("min", DType::Complex64, DType::Complex64, DType::Complex64, false),
                 ks::Error);
    EXPECT_THROW(ks::array::builtinReductionSpec("median", DType::Float32, DType::Float32, DType::Float32, false),
                 ks::Error);
}

TEST(ReductionSource, Float32MinAndMaxUseTheNaNPropagatingInstructionFromAmpereOn)
{
    // numpy's NaN rule in one instruction (min.NaN / max.NaN) where the target has it, the compare
    // and select form before; float64 has no such instruction and keeps the compare form.
    using ks::array::DType;
    for (const char* kind : {"min", "max"}) {
        SCOPED_TRACE(kind);
        const GeneratedReduction g =
            ks::array::generateReduction(ks::array::builtinReductionSpec(kind, DType::Float32, DType::Float32, DType::Float32, false));
        const std::string instruction = std::string(kind) + ".NaN.f32";
        const ks::rtc::CompileResult hopper = compileForHopper(g.source, "ks_nan_" + std::string(kind));
        ASSERT_TRUE(hopper.ok) << hopper.log;
        EXPECT_NE(hopper.ptx.find(instruction), std::string::npos);
        ks::rtc::CompileOptions turing;
        turing.arch = "sm_75";
        const ks::rtc::CompileResult old = ks::rtc::compile(g.source, "ks_nan_turing.cu", turing);
        ASSERT_TRUE(old.ok) << old.log;
        EXPECT_EQ(old.ptx.find(".NaN"), std::string::npos);
        EXPECT_NE(old.ptx.find("setp"), std::string::npos);
        const GeneratedReduction d =
            ks::array::generateReduction(ks::array::builtinReductionSpec(kind, DType::Float64, DType::Float64, DType::Float64, false));
        const ks::rtc::CompileResult wide = compileForHopper(d.source, "ks_nan_f64_" + std::string(kind));
        ASSERT_TRUE(wide.ok) << wide.log;
        EXPECT_EQ(wide.ptx.find(".NaN"), std::string::npos);
    }
}

TEST(ScanSource, CumsumCompilesForEveryRealDType)
{
    for (const ks::array::DType t : ks::array::kAllDTypes) {
        if (ks::array::isComplex(t))
            continue;
        const std::string type(ks::array::cudaTypeName(t));
        SCOPED_TRACE(type);
        const GeneratedScan g = ks::array::generateScan({type, "a+b", "", false, "", "ks_inclusive_scan"});
        const auto r = compileForHopper(g.source, "ks_inclusive_scan");
        ASSERT_TRUE(r.ok) << r.log;
        EXPECT_FALSE(spills(r.log)) << r.log;
        EXPECT_NE(r.ptx.find("ks_inclusive_scan_tile = " +
                             std::to_string(ks::array::scanTileElements(ks::array::itemSize(t))) + ";"),
                  std::string::npos);
    }
}

TEST(ScanSource, HostTileSizeMatchesTheKernel)
{
    for (const char* type : {"unsigned char", "short", "int", "double", "float4"}) {
        const GeneratedScan g = ks::array::generateScan({type, "a", "", false, "", "ks_tile_probe"});
        const auto r = compileForHopper(g.source, "ks_tile_probe");
        ASSERT_TRUE(r.ok) << r.log;
        const std::size_t size = std::string(type) == "unsigned char" ? 1
                                 : std::string(type) == "short"       ? 2
                                 : std::string(type) == "int"         ? 4
                                 : std::string(type) == "double"      ? 8
                                                                      : 16;
        const std::string expected = "ks_tile_probe_tile = " + std::to_string(ks::array::scanTileElements(size)) + ";";
        EXPECT_NE(r.ptx.find(expected), std::string::npos) << type << ": " << expected;
    }
    EXPECT_EQ(ks::array::scanTileElements(4), 4096);
    EXPECT_EQ(ks::array::scanTileElements(8), 2048);
    EXPECT_EQ(ks::array::scanTileElements(100), 256);
}

TEST(ScanSource, VectorTileFollowsTheTuning)
{
    for (const ks::array::ScanTuning tuning : {ks::array::ScanTuning{}, ks::array::ScanTuning{256, 4, 1000, 500},
                                               ks::array::ScanTuning{64, 8, 0, 0}, ks::array::ScanTuning{512, 2, 0, 0}}) {
        for (const char* type : {"int", "double"}) {
            SCOPED_TRACE(std::string(type) + ", block " + std::to_string(tuning.vectorBlock) + " x " +
                         std::to_string(tuning.vectorChunks));
            ks::array::ScanSpec spec{type, "a+b", "", false, "", "ks_vtile_probe"};
            spec.tuning = tuning;
            const GeneratedScan g = ks::array::generateScan(spec);
            const auto r = compileForHopper(g.source, "ks_vtile_probe");
            ASSERT_TRUE(r.ok) << r.log;
            EXPECT_FALSE(spills(r.log)) << r.log;
            const std::size_t size = std::string(type) == "int" ? 4 : 8;
            const int tile = ks::array::scanVectorTileElements(size, tuning);
            EXPECT_EQ(tile, tuning.vectorBlock * tuning.vectorChunks * int(16 / size));
            EXPECT_NE(r.ptx.find(g.vectorTileSymbol + " = " + std::to_string(tile) + ";"), std::string::npos);
            EXPECT_NE(r.ptx.find(".maxntid " + std::to_string(tuning.vectorBlock) + ", 1, 1"), std::string::npos);
        }
    }
    for (const ks::array::ScanTuning bad : {ks::array::ScanTuning{100, 4, 0, 0}, ks::array::ScanTuning{256, 5, 0, 0}, ks::array::ScanTuning{128, 4, 0, 2000000},
                                            ks::array::ScanTuning{128, 0, 0, 0}, ks::array::ScanTuning{128, 4, -1, 0}}) {
        ks::array::ScanSpec spec{"int", "a+b", "", false, "", "ks_bad_tuning"};
        spec.tuning = bad;
        EXPECT_THROW(ks::array::generateScan(spec), ks::Error);
    }
}

TEST(RandomSource, FlipKernelCompilesAndNamesAreComplete)
{
    ks::rtc::CompileOptions options;
    const auto r = ks::rtc::compile(ks::rng::randFlipSource(), "ks_rng_flip.cu", options);
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_NE(r.ptx.find(".entry ks_rng_flip_f32"), std::string::npos);
    EXPECT_NE(r.ptx.find(".entry ks_rng_flip_f64"), std::string::npos);
    for (const auto t : ks::rng::kAllGeneratorTypes) {
        EXPECT_NE(ks::rng::generatorName(t), "unknown");
        EXPECT_EQ(ks::rng::isQuasiRandom(t), ks::rng::curandType(t) >= CURAND_RNG_QUASI_DEFAULT);
        // cuRAND refuses offsets for the Mersenne twisters only (TYPE_ERROR on the H200 run).
        const bool twister = ks::rng::curandType(t) == CURAND_RNG_PSEUDO_MTGP32 ||
                             ks::rng::curandType(t) == CURAND_RNG_PSEUDO_MT19937;
        EXPECT_EQ(ks::rng::supportsOffset(t), !twister) << ks::rng::generatorName(t);
    }
    EXPECT_EQ(ks::rng::curandStatusName(CURAND_STATUS_LENGTH_NOT_MULTIPLE), "CURAND_STATUS_LENGTH_NOT_MULTIPLE");
    try {
        ks::rng::checkCurand(CURAND_STATUS_OUT_OF_RANGE, "curandGenerateNormal");
        FAIL();
    } catch (const ks::Error& e) {
        EXPECT_EQ(e.domain(), ks::ErrorDomain::Curand);
        EXPECT_EQ(e.call(), "curandGenerateNormal");
        EXPECT_NE(std::string(e.what()).find("CURAND_STATUS_OUT_OF_RANGE"), std::string::npos) << e.what();
    }
}
