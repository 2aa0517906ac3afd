// The engine's generated kernels have checked variants ("find the fault": every access through a
// pointer parameter bounds-checked; ks_device/checked.cuh) that compile with NVRTC for sm_90: every
// entry point of elementwise kernels (plain, range, vector), map kernels (vector, scalar, strided),
// reductions (general and vector) and scans (general and vector), and the random flip. The GPU test
// CheckedEngineKernels runs them; this one keeps a change to a generator from breaking them where
// there is no GPU. The kernels written for it use ks_cast/ks_at/ks_span (array prelude) where they
// would reinterpret a pointer, bind an element to a reference or read through a raw pointer.
#include "ks/array/algorithm_source.hpp"
#include "ks/array/elementwise_kernel.hpp"
#include "ks/array/kernel_source.hpp"
#include "ks/array/reduction.hpp"
#include "ks/rng/fill.hpp"
#include "ks/teach/instrument.hpp"

#include "kernel_options.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using ks::array::DType;

void expectCheckedVariantCompiles(const std::string& what, const std::string& source, const std::string& kernel)
{
    SCOPED_TRACE(what + ", kernel " + kernel);
    ASSERT_FALSE(kernel.empty());
    const auto b = ks::teach::buildVariant({source, what + ".cu", kernel, ks::teach::VariantKind::Checked, ""},
                                           ks::test::kernelOptions("sm_90"));
    ASSERT_TRUE(b.variant.ok) << b.variant.error;
    std::string log;
    for (const auto& d : b.compile.diagnostics)
        log += ks::rtc::formatDiagnostic(d) + "\n";
    ASSERT_TRUE(b.compile.ok) << log;
    EXPECT_FALSE(b.loweredEntry.empty());
    // Every pointer parameter is checked.
    for (std::size_t i = 0; i < b.variant.kernel.params.size(); ++i) {
        if (b.variant.kernel.params[i].kind == ks::syntax::ParamKind::Pointer) {
            EXPECT_EQ(b.variant.checkedKinds[i], ks::syntax::ParamKind::Pointer) << "parameter " << i;
        }
    }
}

TEST(CheckedEngineKernels, ElementwiseEntriesCompileChecked)
{
    const ks::array::ElementwiseKernel k("float *z, float a, float *x, float b, float *y", "z[i] = a*x[i] + b*y[i]",
                                         "axpby");
    for (const char* entry : {"axpby", "axpby_range", "axpby_vec"})
        expectCheckedVariantCompiles("elementwise", k.source(), entry);
}

TEST(CheckedEngineKernels, MapEntriesCompileChecked)
{
    ks::array::MapSpec m;
    m.name = "fma";
    m.inputs = {{DType::Float32, false}, {DType::Float64, true}, {DType::Float32, false}};
    m.outputs = {DType::Float32, DType::Int32};
    m.body = "out0 = in0 * in1 + in2; out1 = out0 > 0;";
    const std::string contiguous = ks::array::mapContiguousSource(m);
    expectCheckedVariantCompiles("map", contiguous, ks::array::kMapVectorKernel);
    expectCheckedVariantCompiles("map", contiguous, ks::array::kMapScalarKernel);
    for (int rank : {1, 3})
        for (bool index64 : {false, true})
            expectCheckedVariantCompiles("map", ks::array::mapStridedSource(m, rank, index64),
                                         ks::array::kMapStridedKernel);
    expectCheckedVariantCompiles("map", ks::array::mapTiledSource(m, {true, false, false}), ks::array::kMapTiledKernel);
}

TEST(CheckedEngineKernels, ReductionEntriesCompileChecked)
{
    ks::array::ReductionSpec dot;
    dot.outType = "float";
    dot.neutral = "0";
    dot.reduceExpr = "a+b";
    dot.mapExpr = "x[i]*y[i]";
    dot.arguments = "const float* x, const float* y";
    dot.name = "dot";
    const auto g = ks::array::generateReduction(dot);
    ASSERT_TRUE(g.vectorizable);
    expectCheckedVariantCompiles("reduction", g.source, g.kernel);
    expectCheckedVariantCompiles("reduction", g.source, g.vectorKernel);
    // A map that is not elementwise (no vector kernel) and a struct result.
    ks::array::ReductionSpec minmax;
    minmax.outType = "minmax_t";
    minmax.preamble = "struct minmax_t { float lo, hi; minmax_t() = default; __device__ minmax_t(float l, float h) : lo(l), hi(h) {} };";
    minmax.neutral = "1e30f, -1e30f";
    minmax.reduceExpr = "minmax_t(fminf(a.lo, b.lo), fmaxf(a.hi, b.hi))";
    minmax.mapExpr = "minmax_t(x[n - 1 - i], x[n - 1 - i])";
    minmax.arguments = "const float* x, long long n";
    minmax.name = "minmax";
    const auto m = ks::array::generateReduction(minmax);
    expectCheckedVariantCompiles("reduction", m.source, m.kernel);
}

TEST(CheckedEngineKernels, BuiltInStridedReductionsCompileChecked)
{
    // The built-in reductions over strided views walk each element's offset from a layout passed as
    // an extra parameter (ReductionSpec::extraParameters): the walk's load is checked too.
    for (const char* kind : {"sum", "dot", "min", "any"}) {
        const auto spec = ks::array::builtinReductionSpec(kind, DType::Float32, DType::Float32,
                                                           std::string(kind) == "any" ? DType::Bool : DType::Float32, true);
        const auto g = ks::array::generateReduction(spec);
        expectCheckedVariantCompiles(std::string("strided_") + kind, g.source, g.kernel);
        if (g.vectorizable)
            expectCheckedVariantCompiles(std::string("strided_") + kind, g.source, g.vectorKernel);
    }
}

TEST(CheckedEngineKernels, ScanEntriesCompileChecked)
{
    for (const char* type : {"float", "double", "short"}) {
        ks::array::ScanSpec s;
        s.type = type;
        s.scanExpr = "a+b";
        s.neutral = "0";
        s.exclusive = std::string(type) == "double";
        const auto g = ks::array::generateScan(s);
        expectCheckedVariantCompiles(std::string("scan_") + type, g.source, g.kernel);
        expectCheckedVariantCompiles(std::string("scan_") + type, g.source, g.vectorKernel);
    }
}

TEST(CheckedEngineKernels, RandomFlipCompilesChecked)
{
    expectCheckedVariantCompiles("flip", ks::rng::randFlipSource(), "ks_rng_flip_f32");
    expectCheckedVariantCompiles("flip", ks::rng::randFlipSource(), "ks_rng_flip_f64");
}

} // namespace
