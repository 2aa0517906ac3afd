// Host-side pieces of the frame pipeline: register flags, argument packing,
// launch shapes, the .npy writer, colour maps and the camera.
#include "ks/core/paths.hpp"
#include "ks/io/npy.hpp"
#include "ks/pipeline/kernel_stage.hpp"
#include "ks/pipeline/resources.hpp"
#include "ks/render/camera.hpp"
#include "ks/render/colormap.hpp"
#include "ks/scene/session.hpp"

#include "test_support.hpp"

#include <cstring>
#include <fstream>

using namespace ks::pipeline;
using ks::interop::RegisterFlags;
using ks::project::parseValueType;
using ks::project::ScalarType;
using ks::project::ValueType;
using ks::scene::dumpDescr;
using ks::scene::dumpShape;

TEST(ValueTypes, ParseSizesAndNames)
{
    EXPECT_EQ(parseValueType("uchar4")->size(), 4u);
    EXPECT_EQ(parseValueType("float3")->size(), 12u);
    EXPECT_EQ(parseValueType("float3")->alignment(), 4u);
    EXPECT_EQ(parseValueType("double2")->alignment(), 16u);
    EXPECT_EQ(parseValueType("color")->components, 4);
    EXPECT_TRUE(parseValueType("color")->color);
    EXPECT_EQ(cudaTypeName(*parseValueType("unsigned int")), "unsigned int");
    EXPECT_EQ(cudaTypeName(*parseValueType("uint2")), "uint2");
    EXPECT_FALSE(parseValueType("float5"));
    EXPECT_EQ(numpyDescr(ScalarType::UInt8), "|u1");
    EXPECT_EQ(numpyDescr(ScalarType::Float64), "<f8");
}

TEST(RegisterFlags, DerivedFromUse)
{
    ks::project::ResourceDesc buffer;
    buffer.kind = ks::project::ResourceKind::Buffer;
    ks::project::ResourceDesc texture;
    texture.kind = ks::project::ResourceKind::Texture;
    EXPECT_FALSE(deriveRegisterFlags(buffer, {}));
    EXPECT_EQ(*deriveRegisterFlags(buffer, {.cudaReads = true}), RegisterFlags::ReadOnly);
    EXPECT_EQ(*deriveRegisterFlags(buffer, {.cudaReads = true, .cudaWrites = true}), RegisterFlags::None);
    EXPECT_EQ(*deriveRegisterFlags(buffer, {.cudaWrites = true}), RegisterFlags::None);
    buffer.discard = true;
    EXPECT_EQ(*deriveRegisterFlags(buffer, {.cudaWrites = true}), RegisterFlags::WriteDiscard);
    EXPECT_EQ(*deriveRegisterFlags(buffer, {.cudaReads = true, .cudaWrites = true}), RegisterFlags::None);
    EXPECT_EQ(*deriveRegisterFlags(texture, {.textureRead = true}), RegisterFlags::ReadOnly);
    EXPECT_EQ(*deriveRegisterFlags(texture, {.surface = true}), RegisterFlags::SurfaceLoadStore);
    texture.discard = true;
    EXPECT_EQ(*deriveRegisterFlags(texture, {.surface = true}), RegisterFlags::SurfaceLoadStore | RegisterFlags::WriteDiscard);
    EXPECT_EQ(*deriveRegisterFlags(texture, {.cudaWrites = true}), RegisterFlags::None);
    EXPECT_EQ(describeFlags(RegisterFlags::SurfaceLoadStore | RegisterFlags::WriteDiscard),
              "surface load/store | write-discard");
}

TEST(RegisterFlags, UsesFromTheShippedProjects)
{
    const auto loaded = ks::project::loadProject(ks::test::sourceDir() / "projects" / "heat.json");
    ASSERT_TRUE(loaded.ok());
    const auto& p = *loaded.project;
    std::vector<std::optional<ks::syntax::KernelSignature>> sigs;
    for (const auto& s : p.stages) {
        sigs.emplace_back();
        if (s.kind == ks::project::StageKind::Kernel)
            for (auto& k : ks::syntax::findKernels(ks::paths::readTextFile(p.resolve(s.file))))
                if (k.name == s.kernel)
                    sigs.back() = k;
    }
    std::vector<const ks::syntax::KernelSignature*> ptrs;
    for (auto& s : sigs)
        ptrs.push_back(s ? &*s : nullptr);
    const auto uses = deriveUses(p, ptrs);
    // u: written by heat_init, read (const) by heat_step, written by the copy -> read/write.
    EXPECT_EQ(*deriveRegisterFlags(p.resources[0], uses[0]), RegisterFlags::None);
    // next: written by heat_step, read by the copy.
    EXPECT_TRUE(uses[1].cudaReads && uses[1].cudaWrites);
}

TEST(ArgPacking, ValuesConvertToTheKernelType)
{
    ArgSlot f = packValue({ScalarType::Float32, 2}, {1.5, -2.25, 9, 9});
    ASSERT_EQ(f.size, 8u);
    float fv[2];
    std::memcpy(fv, f.bytes.data(), 8);
    EXPECT_EQ(fv[0], 1.5f);
    EXPECT_EQ(fv[1], -2.25f);
    ArgSlot i = packValue({ScalarType::Int32, 1}, {-7.0, 0, 0, 0});
    std::int32_t iv;
    std::memcpy(&iv, i.bytes.data(), 4);
    EXPECT_EQ(iv, -7);
    ArgSlot u8 = packValue({ScalarType::UInt8, 4}, {1, 2, 3, 255});
    EXPECT_EQ(u8.size, 4u);
    EXPECT_EQ(u8.bytes[3], 255);
    ArgSlot d = packValue({ScalarType::Float64, 1}, {3.25, 0, 0, 0});
    double dv;
    std::memcpy(&dv, d.bytes.data(), 8);
    EXPECT_EQ(dv, 3.25);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(f.bytes.data()) % 16, 0u);
}

TEST(LaunchShape, CoverRoundsUp)
{
    const auto g = coverGrid(768, 512, {16, 16, 1});
    EXPECT_EQ(g.x, 48u);
    EXPECT_EQ(g.y, 32u);
    const auto h = coverGrid(1000001, 1, {256, 1, 1});
    EXPECT_EQ(h.x, 3907u);
    EXPECT_EQ(h.y, 1u);
    ks::project::ResourceDesc r;
    r.count = 12;
    r.shape = std::array<std::int64_t, 2>{3, 4};
    EXPECT_EQ(resourceExtent(r)[0], 4);
    EXPECT_EQ(resourceExtent(r)[1], 3);
}

TEST(Npy, HeaderIsNumpyFormat10)
{
    const std::string h = ks::io::npyHeader("<f4", {3, 4});
    ASSERT_GE(h.size(), 10u);
    EXPECT_EQ(h.substr(0, 6), "\x93NUMPY");
    EXPECT_EQ(h[6], 1);
    EXPECT_EQ(h[7], 0);
    EXPECT_EQ(h.size() % 64, 0u);
    const std::size_t len = std::size_t(std::uint8_t(h[8])) | std::size_t(std::uint8_t(h[9])) << 8;
    EXPECT_EQ(len + 10, h.size());
    EXPECT_EQ(h.back(), '\n');
    EXPECT_NE(h.find("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }"), std::string::npos);
    EXPECT_NE(ks::io::npyHeader("|u1", {5}).find("'shape': (5,)"), std::string::npos);
}

TEST(Npy, WritesHeaderThenData)
{
    const auto values = ks::test::randomFloats(10, 3);
    const auto path = std::filesystem::temp_directory_path() / "ks_unit.npy";
    ks::io::writeNpy(path, "<f4", {2, 5}, values.data(), values.size() * 4);
    std::ifstream in(path, std::ios::binary);
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string h = ks::io::npyHeader("<f4", {2, 5});
    ASSERT_EQ(all.size(), h.size() + 40);
    EXPECT_EQ(all.substr(0, h.size()), h);
    EXPECT_EQ(std::memcmp(all.data() + h.size(), values.data(), 40), 0);
    std::filesystem::remove(path);
}

TEST(Npy, DumpShapesOfResources)
{
    ks::project::ResourceDesc b;
    b.element = {ScalarType::Float32, 4};
    b.count = 6;
    EXPECT_EQ(dumpShape(b), (std::vector<std::int64_t>{6, 4}));
    b.shape = std::array<std::int64_t, 2>{2, 3};
    EXPECT_EQ(dumpShape(b), (std::vector<std::int64_t>{2, 3, 4}));
    ks::project::ResourceDesc t;
    t.kind = ks::project::ResourceKind::Texture;
    t.width = 5, t.height = 7;
    t.format = ks::project::TextureFormat::R32F;
    EXPECT_EQ(dumpShape(t), (std::vector<std::int64_t>{7, 5}));
    EXPECT_EQ(dumpDescr(t), "<f4");
}

TEST(Colormap, EndpointsMonotoneAndClamped)
{
    for (auto name : ks::render::colormapNames()) {
        const auto lo = ks::render::colormap(name, 0.f), hi = ks::render::colormap(name, 1.f);
        EXPECT_NE(lo, hi) << name;
        EXPECT_EQ(ks::render::colormap(name, -3.f), lo) << name;
        EXPECT_EQ(ks::render::colormap(name, 7.f), hi) << name;
        const auto texels = ks::render::colormapTexels(name, 256);
        ASSERT_EQ(texels.size(), 1024u);
        EXPECT_EQ(texels[3], 255);
    }
    // Gray is the identity; viridis' luminance rises from end to end.
    EXPECT_FLOAT_EQ(ks::render::colormap("gray", 0.25f)[0], 0.25f);
    auto lum = [](std::array<float, 3> c) { return 0.2126f * c[0] + 0.7152f * c[1] + 0.0722f * c[2]; };
    float prev = -1;
    for (int i = 0; i <= 16; ++i) {
        const float l = lum(ks::render::colormap("viridis", float(i) / 16.f));
        EXPECT_GT(l, prev) << i;
        prev = l;
    }
    EXPECT_FLOAT_EQ(ks::render::normalizeValue(5.f, 0.f, 10.f), 0.5f);
    EXPECT_FLOAT_EQ(ks::render::normalizeValue(50.f, 0.f, 10.f), 1.f);
    EXPECT_FLOAT_EQ(ks::render::normalizeValue(2.f, 0.f, 10.f, 2.f), 0.4f);
}

TEST(Camera, OrbitPanZoom)
{
    ks::render::OrbitCamera c;
    c.yaw = 0, c.pitch = 0, c.distance = 2;
    EXPECT_NEAR(c.eye().z, 2.f, 1e-6f);
    c.zoom(1);
    EXPECT_NEAR(c.distance, 1.8f, 1e-6f);
    c.orbit(0, 1000);
    EXPECT_LE(c.pitch, 89.f);
    ks::render::OrbitCamera d;
    d.yaw = 0, d.pitch = 0;
    d.pan(-100, 0, 100);
    EXPECT_GT(d.target.x, 0.f);
}
