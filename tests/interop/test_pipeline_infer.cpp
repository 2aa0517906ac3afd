// On a GPU host: the kernels of kernels/tutorials, each run for one frame through the project
// inferred from its signature, and its outputs compared with a host reference computed from the
// inputs downloaded after the frame (in-place buffers: from their generated first contents).
#include "ks/core/paths.hpp"
#include "ks/io/data_source.hpp"
#include "ks/pipeline/infer.hpp"
#include "ks/project/project.hpp"
#include "ks/rtc/cache.hpp"
#include "ks/scene/session.hpp"

#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>

#include <vector_types.h>

using ks::pipeline::InferOptions;
using ks::scene::Session;

namespace {

namespace fs = std::filesystem;

class TutorialKernels : public ks::test::InteropTest {
protected:
    void TearDown() override
    {
        m_session.reset(); // its CUDA registrations go while the GL context they were made in lives
        InteropTest::TearDown();
    }
    // Infers the project of `file` with `o`, builds it and runs one frame.
    void run(const std::string& file, InferOptions o = {})
    {
        const fs::path path = ks::test::sourceDir() / "kernels" / "tutorials" / file;
        const auto inf = ks::pipeline::inferProject(path, ks::paths::readTextFile(path), o);
        for (const auto& p : inf.problems)
            ADD_FAILURE() << p.format();
        ASSERT_TRUE(inf.project);
        m_project = *inf.project;
        ks::pipeline::PipelineOptions po;
        po.cuda = true;
        po.stream = m_stream.get();
        po.compile.arch = ks::cuda::queryDevice(0).archName();
        po.compile.ptxasVerbose = false;
        m_session = std::make_unique<Session>(m_project, po, ks::test::sourceDir() / "shaders");
        for (const auto& problem : m_session->pipeline().buildAll(m_cache))
            ADD_FAILURE() << problem.format();
        ASSERT_TRUE(m_session->pipeline().frame()) << m_session->pipeline().error();
    }
    template <class T>
    std::vector<T> get(const std::string& name)
    {
        const auto bytes = m_session->pipeline().resources().download(name);
        std::vector<T> out(bytes.size() / sizeof(T));
        std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
        return out;
    }
    // What an in-place buffer held before the frame: its data, generated again on the host.
    template <class T>
    std::vector<T> initial(const std::string& name)
    {
        const ks::project::ResourceDesc& r = *m_project.resource(name);
        const std::vector<std::uint8_t> bytes = ks::pipeline::initialBytes(r);
        std::vector<T> out(bytes.size() / sizeof(T));
        std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
        return out;
    }
    ks::project::Project m_project;
    std::unique_ptr<Session> m_session;
    ks::rtc::CompileCache m_cache;
};

InferOptions shaped(std::vector<std::pair<std::string, std::vector<std::int64_t>>> shapes, std::string kernel = {})
{
    InferOptions o;
    o.shapes = std::move(shapes);
    o.kernel = std::move(kernel);
    return o;
}

} // namespace

TEST_F(TutorialKernels, VectorAddSaxpyAndTheGridStrideLoop)
{
    run("vector_add.cu", shaped({{"A", {100003}}}));
    auto a = get<float>("A"), b = get<float>("B"), c = get<float>("C");
    ASSERT_EQ(c.size(), 100003u);
    for (std::size_t i = 0; i < c.size(); ++i)
        ASSERT_EQ(c[i], a[i] + b[i] + 0.0f) << i;
    for (const char* file : {"saxpy.cu", "grid_stride_add.cu"}) {
        run(file, shaped({{"x", {4099}}}));
        const auto x = get<float>("x"), y0 = initial<float>("y"), y = get<float>("y");
        const float k = std::string(file) == "saxpy.cu" ? float(m_project.parameter("a")->value[0]) : 1.f;
        for (std::size_t i = 0; i < y.size(); ++i)
            ASSERT_FLOAT_EQ(y[i], k * x[i] + y0[i]) << file << " " << i;
    }
}

TEST_F(TutorialKernels, TransposesWithAGivenGridAndSized)
{
    InferOptions o = shaped({{"idata", {256, 256}}}, "transposeCoalesced");
    o.grid = std::array<unsigned, 3>{8, 8, 1};
    o.block = std::array<unsigned, 3>{32, 8, 1};
    run("transpose.cu", o);
    auto in = get<float>("idata"), out = get<float>("odata");
    for (int y = 0; y < 256; ++y)
        for (int x = 0; x < 256; ++x)
            ASSERT_EQ(out[std::size_t(x) * 256 + std::size_t(y)], in[std::size_t(y) * 256 + std::size_t(x)]);
    run("transpose_sized.cu", shaped({{"in", {37, 91}}}));
    in = get<float>("in"), out = get<float>("out");
    // out is the output's own shape (37 x 91 elements); the kernel writes x * height + y.
    for (int y = 0; y < 37; ++y)
        for (int x = 0; x < 91; ++x)
            ASSERT_EQ(out[std::size_t(x) * 37 + std::size_t(y)], in[std::size_t(y) * 91 + std::size_t(x)]);
}

TEST_F(TutorialKernels, MatrixMultiplyNaiveAndTiled)
{
    for (const char* kernel : {"matMulNaive", "matMulTiled"}) {
        run("matmul.cu", shaped({{"A", {67, 67}}}, kernel));
        const auto a = get<float>("A"), b = get<float>("B"), c = get<float>("C");
        for (int r = 0; r < 67; ++r)
            for (int col = 0; col < 67; ++col) {
                double want = 0;
                for (int k = 0; k < 67; ++k)
                    want += double(a[std::size_t(r * 67 + k)]) * b[std::size_t(k * 67 + col)];
                ASSERT_NEAR(c[std::size_t(r * 67 + col)], want, 1e-3) << kernel << " " << r << "," << col;
            }
    }
}

TEST_F(TutorialKernels, HistogramReductionScanStencil)
{
    InferOptions o = shaped({{"data", {50000}}});
    o.grid = std::array<unsigned, 3>{(50000 + 255) / 256, 1, 1}; // cover the data, not the 256 bins
    run("histogram.cu", o);
    {
        const auto data = get<std::uint8_t>("data");
        const auto hist = get<std::uint32_t>("hist");
        std::vector<std::uint32_t> want(256, 0);
        for (std::uint8_t v : data)
            ++want[v];
        EXPECT_EQ(hist, want);
    }
    run("reduce.cu", shaped({{"g_idata", {10000}}}));
    {
        // extern __shared__ int sdata[]: the stage gets one int per thread of dynamic shared memory.
        EXPECT_EQ(m_project.stages[0].sharedBytes, 256u * 4u);
        const auto in = get<std::int32_t>("g_idata"), out = get<std::int32_t>("g_odata");
        for (std::size_t block = 0; block * 256 < in.size(); ++block) {
            std::int64_t want = 0;
            for (std::size_t i = block * 256; i < std::min(in.size(), block * 256 + 256); ++i)
                want += in[i];
            ASSERT_EQ(out[block], std::int32_t(want)) << block;
        }
    }
    run("scan.cu", shaped({{"g_idata", {1000}}}));
    {
        const auto in = get<float>("g_idata"), out = get<float>("g_odata");
        for (std::size_t block = 0; block * 256 < in.size(); ++block) {
            float sum = 0;
            for (std::size_t i = block * 256; i < std::min(in.size(), block * 256 + 256); ++i) {
                sum += in[i];
                ASSERT_NEAR(out[i], sum, 1e-3f * std::max(1.f, sum)) << i;
            }
        }
    }
    run("stencil.cu", shaped({{"in", {2000}}}));
    {
        const auto in = get<std::int32_t>("in"), out = get<std::int32_t>("out");
        for (int i = 0; i < 2000; ++i) {
            std::int64_t want = 0; // random ints span their whole range: the device's sum wraps
            for (int k = -3; k <= 3; ++k)
                want += i + k >= 0 && i + k < 2000 ? in[std::size_t(i + k)] : 0;
            ASSERT_EQ(out[std::size_t(i)], std::int32_t(want)) << i;
        }
    }
}

TEST_F(TutorialKernels, SobelBlurInvertOnImages)
{
    run("sobel.cu", shaped({{"in", {40, 50}}}));
    {
        const auto in = get<std::uint8_t>("in"), out = get<std::uint8_t>("out");
        auto at = [&](int x, int y) { return int(in[std::size_t(y * 50 + x)]); };
        for (int y = 0; y < 40; ++y)
            for (int x = 0; x < 50; ++x) {
                int want = 0;
                if (x >= 1 && y >= 1 && x < 49 && y < 39) {
                    const int gx = -at(x - 1, y - 1) - 2 * at(x - 1, y) - at(x - 1, y + 1) + at(x + 1, y - 1) +
                                   2 * at(x + 1, y) + at(x + 1, y + 1);
                    const int gy = -at(x - 1, y - 1) - 2 * at(x, y - 1) - at(x + 1, y - 1) + at(x - 1, y + 1) +
                                   2 * at(x, y + 1) + at(x + 1, y + 1);
                    want = std::min(255, std::abs(gx) + std::abs(gy));
                }
                ASSERT_EQ(int(out[std::size_t(y * 50 + x)]), want) << x << "," << y;
            }
    }
    run("invert.cu", shaped({{"img", {16, 24}}}));
    {
        const auto before = initial<std::uint8_t>("img"), after = get<std::uint8_t>("img");
        for (std::size_t i = 0; i < after.size(); ++i)
            ASSERT_EQ(after[i], i % 4 == 3 ? before[i] : 255 - before[i]) << i;
    }
}

TEST_F(TutorialKernels, TemplatesNamespacesAndDoubles)
{
    InferOptions o = shaped({{"data", {5000}}}, "scale<double>");
    run("scale_template.cu", o);
    {
        const auto before = initial<double>("data"), after = get<double>("data");
        const double factor = m_project.parameter("factor")->value[0];
        for (std::size_t i = 0; i < after.size(); ++i)
            ASSERT_EQ(after[i], before[i] * factor) << i;
    }
    run("namespaced.cu", shaped({{"in", {3000}}}));
    {
        const auto in = get<double>("in"), out = get<double>("out");
        for (std::size_t i = 0; i < out.size(); ++i)
            ASSERT_EQ(out[i], in[i] * in[i]) << i;
    }
    run("complex_mul.cu", shaped({{"a", {1000}}}));
    {
        const auto a = get<double>("a"), b = get<double>("b"), c = get<double>("c");
        for (std::size_t i = 0; i < 1000; ++i) {
            ASSERT_NEAR(c[2 * i], a[2 * i] * b[2 * i] - a[2 * i + 1] * b[2 * i + 1], 1e-12);
            ASSERT_NEAR(c[2 * i + 1], a[2 * i] * b[2 * i + 1] + a[2 * i + 1] * b[2 * i], 1e-12);
        }
    }
}

TEST_F(TutorialKernels, ThresholdReluDotAndParticles)
{
    run("threshold.cu", shaped({{"in", {777}}}));
    {
        const auto in = get<float>("in");
        const auto mask = get<std::uint8_t>("mask");
        const float level = float(m_project.parameter("level")->value[0]);
        const bool invert = m_project.parameter("invert")->value[0] != 0;
        for (std::size_t i = 0; i < in.size(); ++i)
            ASSERT_EQ(int(mask[i]), ((in[i] > level) != invert) ? 255 : 0) << i;
    }
    InferOptions o = shaped({{"x", {1000}}});
    o.args = {{"x", "normal:3"}};
    run("relu.cu", o);
    {
        const auto before = initial<float>("x"), after = get<float>("x");
        int negative = 0;
        for (std::size_t i = 0; i < after.size(); ++i) {
            negative += before[i] < 0;
            ASSERT_EQ(after[i], std::max(before[i], 0.f)) << i;
        }
        EXPECT_GT(negative, 300); // normal numbers: about half below zero
    }
    run("dot.cu", shaped({{"a", {4096}}}));
    {
        const auto a = get<float>("a"), b = get<float>("b"), c = get<float>("c");
        double want = 0;
        for (std::size_t i = 0; i < a.size(); ++i)
            want += double(a[i]) * b[i];
        EXPECT_NEAR(c[0], want, 1e-3 * want);
    }
    run("particles.cu", shaped({{"pos", {512}}}));
    {
        const auto before = initial<float>("pos"), vel = get<float>("vel"), after = get<float>("pos");
        const float dt = float(m_project.timeStep);
        for (std::size_t i = 0; i < 512; ++i)
            for (std::size_t k = 0; k < 3; ++k)
                ASSERT_FLOAT_EQ(after[4 * i + k], before[4 * i + k] + (vel[4 * i + k] - 0.5f) * dt) << i;
    }
}

TEST_F(TutorialKernels, SurfaceAndTextureKernels)
{
    InferOptions o;
    o.size = std::array<int, 2>{64, 48};
    run("surface_gradient.cu", o);
    {
        const auto px = get<std::uint8_t>("out");
        ASSERT_EQ(px.size(), 64u * 48u * 4u);
        for (int y = 0; y < 48; ++y)
            for (int x = 0; x < 64; ++x) {
                const std::size_t i = (std::size_t(y) * 64 + std::size_t(x)) * 4;
                ASSERT_EQ(int(px[i]), 255 * x / 64) << x << "," << y;
                ASSERT_EQ(int(px[i + 1]), 255 * y / 48) << x << "," << y;
                ASSERT_EQ(int(px[i + 3]), 255);
            }
    }
    ks::test::TempDir dir;
    ks::io::Rgba8Image picture;
    picture.width = 33, picture.height = 17;
    for (int i = 0; i < 33 * 17; ++i)
        for (int c = 0; c < 4; ++c)
            picture.pixels.push_back(std::uint8_t((i * 7 + c * 50) % 256));
    ks::io::writePng(dir.path() / "in.png", picture);
    InferOptions t;
    t.args = {{"tex", (dir.path() / "in.png").string()}};
    run("texture_sample.cu", t);
    {
        const auto lum = get<float>("luminance");
        ASSERT_EQ(lum.size(), 33u * 17u);
        for (std::size_t i = 0; i < lum.size(); ++i) {
            const float want = (0.299f * picture.pixels[4 * i] + 0.587f * picture.pixels[4 * i + 1] +
                                0.114f * picture.pixels[4 * i + 2]) /
                               255.f;
            ASSERT_NEAR(lum[i], want, 2e-3f) << i;
        }
    }
}

namespace {

// particles_aos.cu's structs, as the host lays them out (the same definitions).
struct Particle {
    float3 pos;
    float3 vel;
    float mass;
    int bounces;
};
struct StepSettings {
    float dt;
    float3 gravity;
    float floor;
    float restitution;
};

Particle stepped(Particle p, const StepSettings& s)
{
    p.vel.x += s.gravity.x * s.dt, p.vel.y += s.gravity.y * s.dt, p.vel.z += s.gravity.z * s.dt;
    p.pos.x += p.vel.x * s.dt, p.pos.y += p.vel.y * s.dt, p.pos.z += p.vel.z * s.dt;
    if (p.pos.y < s.floor) {
        p.pos.y = s.floor;
        p.vel.y = -p.vel.y * s.restitution;
        p.bounces += 1;
    }
    p.mass += 1.f;
    return p;
}

} // namespace

// Structs of the kernel's file: particles from a raw file of Particle records, the step's settings
// by value, set by member name and, the same, as raw bytes. Every record is compared with the host.
TEST_F(TutorialKernels, ArraysOfStructsAndStructsByValue)
{
    static_assert(sizeof(Particle) == 32 && sizeof(StepSettings) == 24);
    ks::test::TempDir dir;
    std::vector<Particle> particles(1001);
    for (std::size_t i = 0; i < particles.size(); ++i) {
        const float f = float(i);
        particles[i] = {{f, 0.01f * f, -f}, {1.f, 0.5f - 0.001f * f, 2.f}, 0.f, int(i % 3)};
    }
    const fs::path raw = dir.path() / "particles.raw";
    {
        std::ofstream out(raw, std::ios::binary);
        out.write(reinterpret_cast<const char*>(particles.data()), std::streamsize(particles.size() * sizeof(Particle)));
    }
    const StepSettings settings{0.25f, {0.f, -4.f, 1.f}, 0.5f, 0.75f};
    std::vector<std::uint8_t> settingsBytes(sizeof settings);
    std::memcpy(settingsBytes.data(), &settings, sizeof settings);
    for (const std::string& step : {std::string(R"({"dt": 0.25, "gravity": [0, -4, 1], "floor": 0.5, "restitution": 0.75})"),
                                    "bytes:" + ks::project::formatHexBytes(settingsBytes)}) {
        InferOptions o;
        o.args = {{"particles", raw.string() + ":uint8:1001x32"}, {"step", step}};
        run("particles_aos.cu", o);
        const auto after = get<Particle>("particles");
        ASSERT_EQ(after.size(), particles.size()) << step;
        int bounced = 0;
        for (std::size_t i = 0; i < after.size(); ++i) {
            const Particle want = stepped(particles[i], settings);
            const Particle& got = after[i];
            for (auto [g, w] : {std::pair{got.pos.x, want.pos.x}, {got.pos.y, want.pos.y}, {got.pos.z, want.pos.z},
                                {got.vel.x, want.vel.x}, {got.vel.y, want.vel.y}, {got.vel.z, want.vel.z}})
                ASSERT_NEAR(g, w, 1e-5f * (1.f + std::fabs(w))) << step << ", particle " << i;
            ASSERT_EQ(got.mass, want.mass) << i;
            ASSERT_EQ(got.bounces, want.bounces) << i;
            bounced += got.bounces != particles[i].bounces;
        }
        EXPECT_GT(bounced, 10) << "the floor is crossed by the first particles";
        EXPECT_LT(bounced, 1001);
    }
}

// Raw bytes of a struct Kernelscope cannot lay out (a bit-field): the right size runs; a wrong
// size is refused before the launch, naming both sizes, and the next frame with the right size runs.
TEST_F(TutorialKernels, RawBytesOfAStructAreCheckedAgainstTheCompiledKernel)
{
    const fs::path path = ks::test::sourceDir() / "tests" / "projects" / "infer" / "struct_param.cu";
    InferOptions o;
    o.shapes = {{"out", {300}}};
    o.args = {{"p", "bytes:00000040 07000000"}}; // gain 2.0, offset 7 (the low 8 bits)
    auto inf = ks::pipeline::inferProject(path, ks::paths::readTextFile(path), o);
    ASSERT_TRUE(inf.ok()) << (inf.problems.empty() ? "" : inf.problems[0].format());
    m_project = *inf.project;
    ks::pipeline::PipelineOptions po;
    po.cuda = true;
    po.stream = m_stream.get();
    po.compile.arch = ks::cuda::queryDevice(0).archName();
    m_session = std::make_unique<Session>(m_project, po, ks::test::sourceDir() / "shaders");
    for (const auto& problem : m_session->pipeline().buildAll(m_cache))
        ADD_FAILURE() << problem.format();
    ASSERT_TRUE(m_session->pipeline().frame()) << m_session->pipeline().error();
    const auto out = get<float>("out");
    ASSERT_EQ(out.size(), 300u);
    for (std::size_t i = 0; i < out.size(); ++i)
        ASSERT_EQ(out[i], 2.f * float(i) + 7.f) << i;

    m_project.stages[0].args[1].bytes.resize(4);
    m_session = std::make_unique<Session>(m_project, po, ks::test::sourceDir() / "shaders");
    (void)m_session->pipeline().buildAll(m_cache);
    EXPECT_FALSE(m_session->pipeline().frame());
    const std::string error = m_session->pipeline().error();
    EXPECT_NE(error.find("argument 2 is 4 bytes"), std::string::npos) << error;
    EXPECT_NE(error.find("parameter 2 is 8 bytes"), std::string::npos) << error;
}
