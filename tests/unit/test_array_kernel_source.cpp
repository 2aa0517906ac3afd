// Every kind of generated array kernel compiles with NVRTC for sm_90 on a machine without a GPU:
// the prelude, the contiguous (vector + scalar) and strided map kernels of every binary operation
// for every dtype pair, every unary/cumath operation and cast for every dtype, where, mul_add, the
// two-result cumath functions, arange/linspace, and user ElementwiseKernels. float16 is one of the
// dtypes: kernels that name __half get the prelude's float16 part (cuda_fp16.h), the others do not.
//
// Many specs go into one translation unit (entry points renamed per spec) to keep NVRTC time sane.
// The full cross products (18 binary ops x 196 dtype pairs, 196 casts) go through NVRTC's front end
// for sm_90 (-fdevice-syntax-only: every template instantiated and type-checked, no code
// generation: code generation for ~3000 kernels takes many minutes on this machine); for every op a
// representative set of dtype pairs, and every unary op for every dtype, compile to sm_90 CUBIN, and
// a few sources are also compiled exactly as generated.
#include "ks/array/algorithm_source.hpp"
#include "ks/array/elementwise_kernel.hpp"
#include "ks/array/kernel_source.hpp"
#include "ks/array/op_specs.hpp"
#include "ks/core/error.hpp"
#include "ks/rtc/compiler.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <regex>
#include <string>
#include <vector>

using namespace ks::array;

namespace {

ks::rtc::CompileResult compileSm90(const std::string& source, const std::string& name, bool syntaxOnly = false)
{
    ks::rtc::CompileOptions options;
    options.arch = "sm_90";
    options.ptxasVerbose = false;
    if (syntaxOnly)
        options.extra.push_back("-fdevice-syntax-only");
    return ks::rtc::compile(source, name, options);
}

std::string errors(const ks::rtc::CompileResult& r)
{
    std::string s;
    for (const auto& d : r.diagnostics)
        if (d.severity == ks::rtc::Severity::Error)
            s += ks::rtc::formatDiagnostic(d) + "\n";
    return s.empty() ? r.log : s;
}

// Joins many generated sources into one: one prelude, each body with its names made unique.
class Batch {
public:
    void add(const std::string& source)
    {
        const std::string marker = "// ---- end of prelude\n";
        const std::size_t at = source.find(marker);
        ASSERT_NE(at, std::string::npos);
        std::string body = source.substr(at + marker.size());
        const std::string suffix = "_" + std::to_string(m_count++);
        for (const char* name : {"ks_map_op", "ks_map_vec", "ks_map_scalar", "ks_map_strided", "ks_map_layout",
                                 "ks_map_tiled", "ks_map_tiled_layout"})
            body = std::regex_replace(body, std::regex(std::string("\\b") + name + "\\b"), name + suffix);
        m_text += body;
    }
    int count() const { return m_count; }
    void compileAndCheck(const std::string& what, bool syntaxOnly = false)
    {
        const auto r = compileSm90(preludeFor(m_text) + m_text, what + ".cu", syntaxOnly);
        EXPECT_TRUE(r.ok) << what << ":\n" << errors(r);
        if (!syntaxOnly) {
            EXPECT_FALSE(r.cubin.empty());
        }
    }

private:
    std::string m_text;
    int m_count = 0;
};

} // namespace

TEST(ArrayKernels, PreludeCompilesAlone)
{
    const auto r = compileSm90(std::string(devicePrelude()) +
                                   "extern \"C\" __global__ void k(ks::complex64* z, double* d) {\n"
                                   "  z[0] = ks::sqrt(ks::exp(z[1]) / z[2]) + ks::pow(z[3], z[4]);\n"
                                   "  d[0] = ks::floordiv(d[1], d[2]) + ks::mod(d[3], d[4]) + ks::maximum(d[5], d[6]);\n"
                                   "}\n",
                               "prelude.cu");
    ASSERT_TRUE(r.ok) << errors(r);
}

// The float16 part: casts between __half and every other type, and the math overloads, which
// compute in float.
TEST(ArrayKernels, PreludeWithFloat16Compiles)
{
    std::string body = "extern \"C\" __global__ void k(__half* h, ks::complex64* z, double* d, long long* l, bool* b) {\n"
                       "  h[0] = ks::sin(h[1]) ;\n  h[2] = ks::powr(h[3], h[4]);\n"
                       "  h[5] = ks::cast<__half>(d[0]); h[6] = ks::cast<__half>(z[0]); h[7] = ks::cast<__half>(l[0]);\n"
                       "  h[8] = ks::cast<__half>(b[0]); h[9] = ks::cast<__half>(h[10]);\n"
                       "  d[1] = ks::cast<double>(h[0]); z[1] = ks::cast<ks::complex64>(h[1]); l[1] = ks::cast<long long>(h[2]);\n"
                       "  b[1] = ks::cast<bool>(h[3]) && !ks::isnan(h[4]);\n}\n";
    EXPECT_EQ(preludeFor(body), devicePrelude(true));
    const auto r = compileSm90(devicePrelude(true) + body, "prelude_f16.cu");
    ASSERT_TRUE(r.ok) << errors(r);
    // Without float16, no #include: the bare prelude, and kernels that do not name __half get it.
    EXPECT_EQ(std::string(devicePrelude()).find("#define KS_FLOAT16"), std::string::npos);
    EXPECT_EQ(mapContiguousSource(binarySpec(BinaryOp::Add, {DType::Float32, false}, {DType::Int8, false}))
                  .find("#define KS_FLOAT16"),
              std::string::npos);
    EXPECT_NE(mapContiguousSource(binarySpec(BinaryOp::Add, {DType::Float16, false}, {DType::Int8, false}))
                  .find("#define KS_FLOAT16"),
              std::string::npos);
    // put names the element type only in its body.
    EXPECT_NE(mapContiguousSource(putSpec(DType::Float16, DType::Int32, {DType::Float32, false}, IndexMode::Wrap))
                  .find("#define KS_FLOAT16"),
              std::string::npos);
    EXPECT_EQ(preludeFor("halfway = 1; __halfling();"), devicePrelude(false)); // whole identifiers only
}

// float16 arithmetic is done in float32 and rounded once, as numpy's float16 loops do.
TEST(ArrayKernels, Float16ComputesInFloat32)
{
    const MapSpec add = binarySpec(BinaryOp::Add, {DType::Float16, false}, {DType::Int8, false});
    EXPECT_EQ(add.outputs, std::vector<DType>{DType::Float16});
    EXPECT_EQ(add.body, "out0 = (__half)(ks::cast<float>(in0) + ks::cast<float>(in1));");
    EXPECT_EQ(unarySpec(UnaryOp::Sqrt, DType::Float16).body, "out0 = (__half)(ks::sqrt(ks::cast<float>(in0)));");
    EXPECT_EQ(unarySpec(UnaryOp::Negative, DType::Float16).body, "out0 = (__half)(-ks::cast<float>(in0));");
    EXPECT_EQ(binaryResultType(BinaryOp::Add, DType::Float16, DType::Int16), DType::Float32);
    EXPECT_EQ(binaryResultType(BinaryOp::TrueDivide, DType::Float16, DType::UInt8), DType::Float16);
    EXPECT_EQ(unaryResultType(UnaryOp::Sin, DType::Float16), DType::Float16);
    EXPECT_EQ(unaryResultType(UnaryOp::Sin, DType::Int8), DType::Float32); // numpy: float16 (dtype.hpp says why)
    EXPECT_EQ(mapVectorWidth(castSpec(DType::Float16, DType::Float16)), 8);
    const auto r = compileSm90(mapContiguousSource(add), "add_f16.cu");
    ASSERT_TRUE(r.ok) << errors(r);
    EXPECT_NE(r.ptx.find("cvt.rn.f16.f32"), std::string::npos) << "one rounding to half";
    // cumsum of float16 scans __half values (numpy's add.accumulate rounds each step to float16 too).
    const GeneratedScan scan = generateScan(ScanSpec{"__half", "a+b", "0", false, "", "ks_cumsum_half"});
    const auto rs = compileSm90(scan.source, "cumsum_f16.cu");
    EXPECT_TRUE(rs.ok) << errors(rs);
}

TEST(ArrayKernels, ContiguousSourceCompilesAsGeneratedAndVectorises)
{
    const MapSpec spec = mulAddSpec(DType::Float32, DType::Float32);
    EXPECT_EQ(mapVectorWidth(spec), 4);
    const auto r = compileSm90(mapContiguousSource(spec), "mul_add.cu");
    ASSERT_TRUE(r.ok) << errors(r);
    EXPECT_NE(r.ptx.find(".entry ks_map_vec"), std::string::npos);
    EXPECT_NE(r.ptx.find(".entry ks_map_scalar"), std::string::npos);
    // z = a*x + b*y in float32 moves 16 bytes per access on the fast path.
    EXPECT_NE(r.ptx.find("ld.global.v4.f32"), std::string::npos) << "vector loads missing";
    EXPECT_NE(r.ptx.find("st.global.v4.f32"), std::string::npos) << "vector stores missing";
    // Mixed widths: the widest operand sets V (float64 -> 2).
    EXPECT_EQ(mapVectorWidth(binarySpec(BinaryOp::Add, {DType::Int8, false}, {DType::Float64, false})), 2);
    EXPECT_EQ(mapVectorWidth(unarySpec(UnaryOp::Exp, DType::Complex128)), 1);
    EXPECT_EQ(mapVectorWidth(castSpec(DType::Float32, DType::Float32, true)), 4); // scalars do not count
}

TEST(ArrayKernels, StridedSourceCompilesForEveryRankAndIndexWidth)
{
    const MapSpec spec = binarySpec(BinaryOp::Add, {DType::Float32, false}, {DType::Float64, true});
    Batch batch;
    for (int rank = 1; rank <= kMaxDims; ++rank)
        for (bool index64 : {false, true})
            batch.add(mapStridedSource(spec, rank, index64));
    batch.compileAndCheck("strided_ranks");
    const auto r = compileSm90(mapStridedSource(spec, 3, true), "strided.cu");
    ASSERT_TRUE(r.ok) << errors(r);
    EXPECT_NE(r.ptx.find(".entry ks_map_strided"), std::string::npos);
    EXPECT_THROW(mapStridedSource(spec, 0, false), ks::Error);
}

TEST(ArrayKernels, TiledSourceStagesOnlyTheTransposedInputs)
{
    // out0 = in0 + in1 * in2 with in0 staged, in1 a scalar, in2 read directly.
    MapSpec spec;
    spec.name = "tiled";
    spec.inputs = {{DType::Float64, false}, {DType::Float32, true}, {DType::Float32, false}};
    spec.outputs = {DType::Float64};
    spec.body = "out0 = in0 + in1 * in2;";
    const std::string source = mapTiledSource(spec, {true, false, false});
    EXPECT_NE(source.find("__shared__ double t0[32][33]"), std::string::npos) << source;
    EXPECT_EQ(source.find("t2["), std::string::npos) << "in2 runs along the outputs: not staged";
    const auto r = compileSm90(source, "tiled.cu");
    ASSERT_TRUE(r.ok) << errors(r);
    EXPECT_NE(r.ptx.find(".entry ks_map_tiled"), std::string::npos);
    EXPECT_NE(r.ptx.find("st.shared.f64"), std::string::npos);
    EXPECT_NE(r.ptx.find("bar.sync"), std::string::npos);
    // Nothing staged: no shared memory and no barrier. A flag per input, or an error.
    const auto plain = compileSm90(mapTiledSource(spec, {false, false, false}), "tiled_plain.cu");
    ASSERT_TRUE(plain.ok) << errors(plain);
    EXPECT_EQ(plain.ptx.find("bar.sync"), std::string::npos);
    EXPECT_THROW(mapTiledSource(spec, {true}), ks::Error);
    // Every dtype staged (complex128's 16-byte elements included).
    Batch batch;
    for (DType t : kAllDTypes)
        batch.add(mapTiledSource(castSpec(t, t), {true}));
    batch.compileAndCheck("tiled_casts");
}

TEST(ArrayKernels, EveryBinaryOpForEveryDtypePairCompiles)
{
    int unsupported = 0;
    Batch all;
    for (BinaryOp op : kAllBinaryOps)
        for (DType a : kAllDTypes)
            for (DType b : kAllDTypes) {
                if (!supports(op, a, b)) {
                    EXPECT_THROW(binarySpec(op, {a, false}, {b, false}), ks::Error);
                    ++unsupported;
                    continue;
                }
                all.add(mapContiguousSource(binarySpec(op, {a, false}, {b, false})));
            }
    all.compileAndCheck("binary_all_pairs", true);
    // subtract(bool, bool), and floor_divide/remainder/fmod of complex pairs.
    EXPECT_EQ(unsupported, 1 + 3 * (14 * 14 - 12 * 12));

    // To CUBIN: every op for representative pairs, with array and scalar operands, contiguous and strided.
    const std::pair<DType, DType> pairs[] = {{DType::Float32, DType::Float32}, {DType::Int32, DType::Float32},
                                             {DType::Int8, DType::UInt64},    {DType::UInt16, DType::Bool},
                                             {DType::Complex64, DType::Float64}, {DType::Bool, DType::Bool},
                                             {DType::Float16, DType::Float16},   {DType::Float16, DType::Int16}};
    Batch some;
    for (BinaryOp op : kAllBinaryOps)
        for (const auto& [a, b] : pairs) {
            if (!supports(op, a, b))
                continue;
            some.add(mapContiguousSource(binarySpec(op, {a, false}, {b, false})));
            some.add(mapContiguousSource(binarySpec(op, {a, true}, {b, false})));
            some.add(mapStridedSource(binarySpec(op, {a, false}, {b, true}), 2, false));
        }
    EXPECT_GT(some.count(), 330);
    some.compileAndCheck("binary_representative");
}

TEST(ArrayKernels, EveryUnaryOpCastAndCumathFunctionCompiles)
{
    Batch batch;
    for (UnaryOp op : kAllUnaryOps)
        for (DType a : kAllDTypes) {
            if (!supports(op, a)) {
                EXPECT_THROW(unarySpec(op, a), ks::Error);
                continue;
            }
            batch.add(mapContiguousSource(unarySpec(op, a)));
        }
    batch.compileAndCheck("unary");

    Batch casts, fills;
    for (DType from : kAllDTypes) {
        for (DType to : kAllDTypes)
            casts.add(mapContiguousSource(castSpec(from, to)));
        fills.add(mapContiguousSource(castSpec(from, from, true)));
        fills.add(mapStridedSource(castSpec(from, DType::Float32), 2, true));
    }
    casts.compileAndCheck("casts", true);
    fills.compileAndCheck("fills");
}

TEST(ArrayKernels, WhereMulAddTwoResultCumathAndCreationCompile)
{
    Batch batch;
    for (DType a : kAllDTypes) {
        batch.add(mapContiguousSource(whereSpec({DType::Bool, false}, {a, false}, {DType::Float32, false})));
        batch.add(mapContiguousSource(whereSpec({a, false}, {DType::Int32, true}, {a, false})));
        batch.add(mapContiguousSource(mulAddSpec(a, DType::Float32)));
        if (!isComplex(a)) {
            batch.add(mapContiguousSource(ldexpSpec(a, {DType::Float32, false})));
            batch.add(mapContiguousSource(ldexpSpec(a, {DType::Int32, false})));
            batch.add(mapContiguousSource(modfSpec(a)));
            batch.add(mapContiguousSource(frexpSpec(a)));
        } else {
            EXPECT_THROW(modfSpec(a), ks::Error);
        }
        if (!isComplex(a) && a != DType::Bool)
            batch.add(mapContiguousSource(arangeSpec(a)));
        batch.add(mapContiguousSource(linspaceSpec(a)));
    }
    batch.compileAndCheck("misc");
}

// take and put for every element dtype, every integer index dtype and every IndexMode: the
// contiguous kernels, and the strided ones (put has no outputs: runMap runs it over its indices).
TEST(ArrayKernels, TakeAndPutCompileForEveryDtypeIndexTypeAndMode)
{
    Batch syntax, full;
    for (DType a : kAllDTypes)
        for (DType index : kAllDTypes) {
            if (!isInteger(index)) {
                EXPECT_THROW(takeSpec(a, index, IndexMode::FromEnd), ks::Error) << dtypeName(index);
                EXPECT_THROW(putSpec(a, index, {a, true}, IndexMode::FromEnd), ks::Error) << dtypeName(index);
                continue;
            }
            for (IndexMode mode : {IndexMode::FromEnd, IndexMode::Wrap, IndexMode::Clip}) {
                syntax.add(mapContiguousSource(takeSpec(a, index, mode)));
                syntax.add(mapContiguousSource(putSpec(a, index, {DType::Float64, false}, mode)));
                syntax.add(mapContiguousSource(putSpec(a, index, {a, true}, mode)));
            }
        }
    syntax.compileAndCheck("take_put_all", true);
    for (DType a : {DType::Bool, DType::Int8, DType::Float16, DType::Float32, DType::Complex128})
        for (DType index : {DType::Int64, DType::UInt8, DType::Int32}) {
            full.add(mapContiguousSource(takeSpec(a, index, IndexMode::FromEnd)));
            full.add(mapStridedSource(takeSpec(a, index, IndexMode::Wrap), 3, false));
            full.add(mapContiguousSource(putSpec(a, index, {DType::Int16, false}, IndexMode::Clip)));
            full.add(mapStridedSource(putSpec(a, index, {a, true}, IndexMode::FromEnd), 2, true));
        }
    full.compileAndCheck("take_put");
    EXPECT_TRUE(putSpec(DType::Float32, DType::Int32, {DType::Float32, false}, IndexMode::Wrap).outputs.empty());
}

TEST(ArrayKernels, ResultTypesFollowNumpy)
{
    EXPECT_EQ(binaryResultType(BinaryOp::TrueDivide, DType::Int32, DType::Int32), DType::Float64);
    EXPECT_EQ(binaryResultType(BinaryOp::TrueDivide, DType::Float32, DType::Int8), DType::Float32);
    EXPECT_EQ(binaryResultType(BinaryOp::FloorDivide, DType::Bool, DType::Bool), DType::Int8);
    EXPECT_EQ(binaryResultType(BinaryOp::Less, DType::Float32, DType::Int64), DType::Bool);
    EXPECT_EQ(binaryResultType(BinaryOp::Add, DType::Int32, DType::Float32), DType::Float64);
    EXPECT_EQ(binaryResultType(BinaryOp::Add, DType::Bool, DType::Bool), DType::Bool);
    EXPECT_EQ(unaryResultType(UnaryOp::Absolute, DType::Complex64), DType::Float32);
    EXPECT_EQ(unaryResultType(UnaryOp::Sqrt, DType::Int32), DType::Float64);
    EXPECT_EQ(unaryResultType(UnaryOp::Sin, DType::Int16), DType::Float32);
    EXPECT_EQ(unaryResultType(UnaryOp::LogicalNot, DType::Float64), DType::Bool);
    EXPECT_THROW(unaryResultType(UnaryOp::Negative, DType::Bool), ks::Error);
    EXPECT_THROW(binaryResultType(BinaryOp::Subtract, DType::Bool, DType::Bool), ks::Error);
    // Scalars: weak ones take the array's type, out-of-range ints compare exactly.
    EXPECT_EQ(scalarOperandType(BinaryOp::Multiply, DType::Float32, Scalar(0.1)), DType::Float32);
    EXPECT_EQ(scalarOperandType(BinaryOp::Add, DType::Int32, Scalar(2.5)), DType::Float64);
    EXPECT_EQ(scalarOperandType(BinaryOp::Less, DType::UInt8, Scalar(300)), DType::Int64);
    EXPECT_EQ(scalarOperandType(BinaryOp::Less, DType::UInt8, Scalar(-1)), DType::Int64);
    EXPECT_THROW(scalarOperandType(BinaryOp::Add, DType::UInt8, Scalar(300)), ks::Error);
    EXPECT_TRUE(canCastSameKind(DType::Float64, DType::Float32));
    EXPECT_TRUE(canCastSameKind(DType::Int32, DType::Float32));
    EXPECT_FALSE(canCastSameKind(DType::Float32, DType::Int32));
    EXPECT_FALSE(canCastSameKind(DType::Complex64, DType::Float64));
}

TEST(ArrayKernels, ElementwiseKernelParsesCompilesAndReportsUserLines)
{
    const ElementwiseKernel lin("float a, float *x, float b, const float *y, float *z", "z[i] = a*x[i] + b*y[i]",
                                "linear_combination");
    ASSERT_EQ(lin.arguments().size(), 5u);
    EXPECT_TRUE(lin.arguments()[1].pointer);
    EXPECT_FALSE(lin.arguments()[0].pointer);
    EXPECT_TRUE(lin.arguments()[3].isConst);
    auto r = compileSm90(lin.source(), "linear_combination.cu");
    ASSERT_TRUE(r.ok) << errors(r);
    EXPECT_NE(r.ptx.find(".entry linear_combination("), std::string::npos);
    EXPECT_NE(r.ptx.find(".entry linear_combination_range("), std::string::npos);

    const ElementwiseKernel withPreamble("unsigned int *out, pycuda::complex<float> *z, double s",
                                         "out[i] = sq(i) + (unsigned)ks::abs(z[i]) + (unsigned)s", "pre",
                                         "__device__ unsigned sq(long long v) { return (unsigned)(v * v); }");
    r = compileSm90(withPreamble.source(), "pre.cu");
    EXPECT_TRUE(r.ok) << errors(r);

    const ElementwiseKernel broken("float *x", "x[i] = 1;\nx[i] = undefined_thing", "broken");
    r = compileSm90(broken.source(), "broken.cu");
    ASSERT_FALSE(r.ok);
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_EQ(r.diagnostics[0].file, "operation");
    EXPECT_EQ(r.diagnostics[0].line, 2);

    EXPECT_THROW(ElementwiseKernel("float a", "a = 1", "noarrays"), ks::Error);
    EXPECT_THROW(ElementwiseKernel("float8 *x", "x[i] = 1", "k"), ks::Error);

    // float16 arguments: __half or half; the prelude's float16 part comes with them.
    const ElementwiseKernel halves("half *x, const __half *y, float a", "x[i] = __float2half(a * __half2float(ks::sqrt(y[i])))",
                                   "halves");
    EXPECT_EQ(halves.arguments()[0].dtype, DType::Float16);
    EXPECT_EQ(halves.arguments()[1].dtype, DType::Float16);
    EXPECT_EQ(halves.vectorPlan().width, 8);
    r = compileSm90(halves.source(), "halves.cu");
    ASSERT_TRUE(r.ok) << errors(r);
    EXPECT_NE(r.ptx.find(".entry halves_vec("), std::string::npos);
    EXPECT_THROW(ElementwiseKernel("float *x,", "x[i] = 1", "k"), ks::Error);
    EXPECT_THROW(ElementwiseKernel("float *x", "x[i] = 1", "bad name"), ks::Error);
}

// The vector entry of ElementwiseKernel (bench: axpby at 0.909x of the float4 kernel with the scalar
// grid-stride loop): which operations get it, what it loads and stores, and that it compiles.
TEST(ArrayKernels, ElementwiseKernelVectorEntryOnlyForPlainIndexing)
{
    const ElementwiseKernel axpby("float a, const float *x, float b, const float *y, float *z",
                                  "z[i] = a*x[i] + b*y[i]", "axpby");
    const ElementwiseVectorPlan& p = axpby.vectorPlan();
    EXPECT_EQ(p.width, 4);
    EXPECT_EQ(p.load, (std::vector<bool>{false, true, false, true, false}));
    EXPECT_EQ(p.store, (std::vector<bool>{false, false, false, false, true})); // z is write-only: no load
    EXPECT_EQ(p.operation, "ks_v_z.v[ks_e] = a*ks_v_x.v[ks_e] + b*ks_v_y.v[ks_e]");
    auto r = compileSm90(axpby.source(), "axpby.cu");
    ASSERT_TRUE(r.ok) << errors(r);
    EXPECT_NE(r.ptx.find(".entry axpby_vec("), std::string::npos);
    EXPECT_NE(r.ptx.find("ld.global.v4.f32"), std::string::npos) << "one 16-byte load per array";
    EXPECT_NE(r.ptx.find("st.global.v4.f32"), std::string::npos);

    const auto plan = [](const char* args, const char* op, const char* pre = "", bool loop = false) {
        return planElementwiseVector(parseKernelArguments(args), op, pre, loop);
    };
    // Widest array sets the width; read-modify-write loads and stores; branches load written arrays.
    EXPECT_EQ(plan("double *d, float *f", "d[i] = f[i]").width, 2);
    EXPECT_EQ(plan("unsigned char *c", "c[i] += 1").width, 16);
    EXPECT_TRUE(plan("unsigned char *c", "c[i] += 1").load[0]);
    EXPECT_TRUE(plan("float *x, float *z", "if (x[i] > 0) z[i] = 1").load[1]);
    EXPECT_TRUE(plan("float *x, float *z", "z[i] = x[i] > 0 ? 1 : z [ i ]").load[1]);
    EXPECT_FALSE(plan("float *x, float *z", "z[i] = x[i] == 0").load[1]);
    EXPECT_TRUE(plan("float *x, float *z", "z[i] = x[i] == 0").load[0]);
    EXPECT_EQ(plan("float *x, float *unused, float *z", "z[i] = x[i]").width, 4);
    // Anything else: no vector entry.
    EXPECT_EQ(plan("ks::complex128 *c", "c[i] = c[i] * c[i]").width, 1);     // 16-byte elements
    EXPECT_EQ(plan("float *x, float *z", "z[i] = x[i + 1]").width, 1);
    EXPECT_EQ(plan("float *x, float *z", "z[i] = x[n - 1 - i]").width, 1);
    EXPECT_EQ(plan("float *x, float *z", "z[i] = *(x + i)").width, 1);
    EXPECT_EQ(plan("float *x, float *z", "atomicAdd(&z[i], x[i])").width, 1);
    EXPECT_EQ(plan("float *x, float *z", "z[i] = x[i]; return").width, 1);
    EXPECT_EQ(plan("float *x, float *z", "z[i] = f(i)", "__device__ float f(long long i) { return x[i]; }").width, 1);
    EXPECT_EQ(plan("float *x, float *z", "z[i] = x[i]", "", true).width, 1);
    EXPECT_EQ(plan("float *x, float *z", "z[i] = x[ii]").width, 1);
    EXPECT_EQ(plan("float *x, float *z", "z[i] = x[i]\n").width, 4);

    // Branches, compound assignment, complex64 and the preamble: every vector entry compiles.
    const ElementwiseKernel mixed("ks::complex64 *c, float *m, const float *x", "if (x[i] > 0) m[i] += ks::abs(c[i]);\nc[i] = c[i] * x[i]",
                                  "mixed");
    EXPECT_EQ(mixed.vectorPlan().width, 2);
    r = compileSm90(mixed.source(), "mixed.cu");
    ASSERT_TRUE(r.ok) << errors(r);
    EXPECT_NE(r.ptx.find(".entry mixed_vec("), std::string::npos);
    const ElementwiseKernel scalarOnly("float *x, float *z", "z[i] = x[n - 1 - i]", "reverse");
    r = compileSm90(scalarOnly.source(), "reverse.cu");
    ASSERT_TRUE(r.ok) << errors(r);
    EXPECT_EQ(r.ptx.find("reverse_vec"), std::string::npos);
}
