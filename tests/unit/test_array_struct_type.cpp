// Struct element types on the host: layouts of CUDA's vector types and of preamble structs, and
// ElementwiseKernels over them, compiled with NVRTC for sm_90 (no GPU needed).
#include "ks/array/device_array.hpp"
#include "ks/array/elementwise_kernel.hpp"
#include "ks/array/struct_type.hpp"
#include "ks/core/error.hpp"
#include "ks/rtc/compiler.hpp"

#include <gtest/gtest.h>

#include <string>

using ks::array::DType;
using ks::array::StructType;

namespace {

ks::rtc::CompileResult compileSm90(const std::string& source, const std::string& name)
{
    ks::rtc::CompileOptions options;
    options.arch = "sm_90";
    options.ptxasVerbose = false;
    return ks::rtc::compile(source, name, options);
}

std::string errorText(const ks::rtc::CompileResult& r)
{
    std::string s;
    for (const auto& d : r.diagnostics)
        s += ks::rtc::formatDiagnostic(d) + "\n";
    return s.empty() ? r.log : s;
}

struct Float3 {
    float x, y, z;
};

constexpr const char* kParticle = "struct Particle {\n    float3 pos;\n    float mass;\n    int id;\n};\n";

} // namespace

TEST(ArrayStructType, VectorTypesHaveTheirCudaLayout)
{
    const auto f3 = StructType::vector("float3");
    EXPECT_EQ(f3->name, "float3");
    EXPECT_EQ(f3->size, 12u);
    EXPECT_EQ(f3->align, 4u);
    EXPECT_TRUE(f3->preamble.empty());
    EXPECT_EQ(StructType::vector("float4")->align, 16u);
    EXPECT_EQ(StructType::vector("int2")->size, 8u);
    EXPECT_EQ(StructType::vector("int2")->align, 8u);
    EXPECT_EQ(StructType::vector("uchar4")->size, 4u);
    EXPECT_TRUE(f3->sameAs(*StructType::vector("float3")));
    EXPECT_FALSE(f3->sameAs(*StructType::vector("int3")));
    EXPECT_THROW(StructType::vector("float"), ks::Error);
    EXPECT_THROW(StructType::vector("float3*"), ks::Error);
    EXPECT_THROW(StructType::vector("Particle"), ks::Error);
}

TEST(ArrayStructType, PreambleStructsAreLaidOutAsCppDoes)
{
    const auto p = StructType::record("Particle", kParticle);
    EXPECT_EQ(p->size, 20u); // float3 (12) + float + int, all aligned to 4
    EXPECT_EQ(p->align, 4u);
    EXPECT_EQ(p->preamble, kParticle);
    const auto aligned = StructType::record("A", "struct __align__(16) A { float a; double b; };");
    EXPECT_EQ(aligned->size, 16u);
    EXPECT_EQ(aligned->align, 16u);
    try {
        StructType::record("Missing", kParticle);
        ADD_FAILURE() << "no such struct";
    } catch (const ks::Error& e) {
        EXPECT_NE(std::string(e.what()).find("Missing"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(ks::array::hasDType<Float3>());
    EXPECT_TRUE(ks::array::hasDType<ks::Half>());
    EXPECT_TRUE(ks::array::hasDType<unsigned short>());
}

TEST(ArrayStructType, StructDTypeTakesPartInNoArithmetic)
{
    EXPECT_EQ(ks::array::promoteTypes(DType::Struct, DType::Float32), DType::Struct);
    EXPECT_EQ(ks::array::itemSize(DType::Struct), 0u);
    EXPECT_THROW(ks::array::Scalar::typed(DType::Struct, 1), ks::Error);
    EXPECT_THROW(ks::array::DeviceArray::detached(0x1000, DType::Struct, ks::array::Dims{4}), ks::Error);
    const auto numbers = ks::array::DeviceArray::detached(0x1000, DType::Float32, ks::array::Dims{4});
    EXPECT_THROW(numbers.elementWords(), ks::Error);
    EXPECT_THROW(numbers.viewAs(DType::Struct), ks::Error);
}

TEST(ArrayStructType, ElementwiseKernelsOverStructsCompile)
{
    using ks::array::ElementwiseKernel;
    const ElementwiseKernel fill3("float3 *v, const float *s", "v[i] = make_float3(s[i], 2.f * s[i], -s[i])", "fill3");
    ASSERT_EQ(fill3.arguments()[0].dtype, DType::Struct);
    ASSERT_NE(fill3.arguments()[0].structType, nullptr);
    EXPECT_EQ(fill3.arguments()[0].structType->size, 12u);
    EXPECT_EQ(fill3.vectorPlan().width, 1); // no Vec of structs
    auto r = compileSm90(fill3.source(), "fill3.cu");
    ASSERT_TRUE(r.ok) << errorText(r);
    EXPECT_NE(r.ptx.find(".entry fill3("), std::string::npos);

    const ElementwiseKernel fall("Particle *p, const float *dt, float g", "p[i].pos.z += g * dt[i];\np[i].id = (int)i",
                                 "fall", kParticle);
    ASSERT_EQ(fall.arguments()[0].dtype, DType::Struct);
    EXPECT_EQ(fall.arguments()[0].structType->name, "Particle");
    r = compileSm90(fall.source(), "fall.cu");
    ASSERT_TRUE(r.ok) << errorText(r);

    EXPECT_THROW(ElementwiseKernel("float3 v, float *x", "x[i] = v.x", "byvalue"), ks::Error);
    EXPECT_THROW(ElementwiseKernel("Particle *p", "p[i].id = 0", "nopreamble"), ks::Error);
    EXPECT_THROW(ElementwiseKernel("Nope *p", "p[i].id = 0", "unknown", kParticle), ks::Error);
}
