// On a GPU host: the frame pipeline's resources round-trip between GL and CUDA with every register
// flag it derives, textures resize and re-register, oversize projects are refused without
// disturbing a running one, the demo projects match reference images, the pi estimate's dump
// matches a host computation, and reruns with the same seed are bit-identical.
#include "app.hpp"
#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/io/image.hpp"
#include "ks/project/project.hpp"
#include "ks/rtc/cache.hpp"
#include "ks/scene/session.hpp"
#include "cli/options.hpp"
#include "platform/platforms.hpp"

#include "test_support.hpp"

#include <ks_device/thread_colors.cuh>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>

using ks::test::InteropTest;
using namespace ks::pipeline;
using ks::scene::Session;

namespace {

namespace fs = std::filesystem;

ks::project::Project parse(const std::string& text, const fs::path& file)
{
    auto r = ks::project::parseProject(text, file);
    for (const auto& p : r.problems)
        ADD_FAILURE() << p.format();
    return r.project.value_or(ks::project::Project{});
}

ks::project::Project load(const fs::path& file)
{
    auto r = ks::project::loadProject(file);
    for (const auto& p : r.problems)
        ADD_FAILURE() << p.format();
    return r.project.value_or(ks::project::Project{});
}

std::string numbers(const std::vector<float>& v) { return ks::test::jsonNumbers(v); }

// Writes a through a surface, copies a to b, samples b and c into sum (tests/projects/interop/roundtrip.cu).
constexpr const char* kTexturesProject = R"({"kernelscope": 1,
  "resources": {"a": {"kind": "texture", "format": "rgba32f", "size": [37, 23], "discard": true},
    "b": {"kind": "texture", "format": "rgba32f", "size": [37, 23]},
    "c": {"kind": "texture", "format": "rgba32f", "size": [37, 23]},
    "sum": {"kind": "buffer", "type": "float4", "count": 851, "discard": true}},
  "stages": [
    {"kind": "kernel", "file": "roundtrip.cu", "kernel": "write_surface", "cover": "a", "block": [8, 8],
     "args": [{"surface": "a"}, {"width": "a"}, {"height": "a"}]},
    {"kind": "copy", "from": "a", "to": "b"},
    {"kind": "kernel", "file": "roundtrip.cu", "kernel": "read_textures", "cover": "a", "block": [8, 8],
     "args": [{"texture": "b"}, {"texture": "c"}, "sum", {"width": "a"}, {"height": "a"}]}]})";

// What kTexturesProject's frame leaves in a and sum, given c's contents.
void checkTextures(const std::vector<float>& a, const std::vector<float>& sum, const std::vector<float>& c, int w, int h)
{
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const std::size_t i = (std::size_t(y) * std::size_t(w) + std::size_t(x)) * 4;
            const float want[4] = {x + 0.25f, y + 0.5f, x * 0.5f - float(y), 1.f};
            for (int k = 0; k < 4; ++k) {
                ASSERT_EQ(a[i + std::size_t(k)], want[k]) << x << "," << y;
                ASSERT_EQ(sum[i + std::size_t(k)], want[k] + c[i + std::size_t(k)]) << x << "," << y;
            }
        }
}

class PipelineInterop : public InteropTest {
protected:
    PipelineOptions options()
    {
        PipelineOptions o;
        o.cuda = true;
        o.stream = m_stream.get();
        o.compile.arch = ks::cuda::queryDevice(0).archName();
        o.compile.ptxasVerbose = false;
        return o;
    }
    std::unique_ptr<Session> session(ks::project::Project p)
    {
        auto s = std::make_unique<Session>(std::move(p), options(), ks::test::sourceDir() / "shaders");
        for (const auto& problem : s->pipeline().buildAll(m_cache))
            ADD_FAILURE() << problem.format();
        return s;
    }
    template <class T>
    std::vector<T> download(const Session& s, const std::string& name)
    {
        const auto bytes = s.pipeline().resources().download(name);
        std::vector<T> out(bytes.size() / sizeof(T));
        std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
        return out;
    }
    ks::rtc::CompileCache m_cache;
    const fs::path m_dir = ks::test::sourceDir() / "tests" / "projects" / "interop";
};

TEST_F(PipelineInterop, BuffersRoundTripWithEveryBufferFlag)
{
    const int n = 1000;
    const auto in = ks::test::randomFloats(n, 1), inout = ks::test::randomFloats(n, 2);
    const std::vector<float> poison(n, -777.f);
    const std::string text = R"({"kernelscope": 1, "parameters": {"k": {"type": "float", "value": 2.5}},
      "resources": {"in": {"kind": "buffer", "type": "float", "count": 1000, "init": )" + numbers(in) + R"(},
        "out": {"kind": "buffer", "type": "float", "count": 1000, "discard": true, "init": )" + numbers(poison) + R"(},
        "inout": {"kind": "buffer", "type": "float", "count": 1000, "init": )" + numbers(inout) + R"(}},
      "stages": [{"kind": "kernel", "file": "roundtrip.cu", "kernel": "buffers", "cover": "in", "block": [128],
                  "args": ["in", "out", "inout", {"count": "in"}, "k"]}]})";
    auto s = session(parse(text, m_dir / "buffers.json"));
    const ResourceSet& r = s->pipeline().resources();
    EXPECT_EQ(*r.find("in")->flags, ks::interop::RegisterFlags::ReadOnly);
    EXPECT_EQ(*r.find("out")->flags, ks::interop::RegisterFlags::WriteDiscard);
    EXPECT_EQ(*r.find("inout")->flags, ks::interop::RegisterFlags::None);
    ASSERT_TRUE(s->pipeline().frame()) << s->pipeline().error();
    ASSERT_TRUE(s->pipeline().frame()) << s->pipeline().error();
    const auto out = download<float>(*s, "out"), io = download<float>(*s, "inout"), back = download<float>(*s, "in");
    for (int i = 0; i < n; ++i) {
        ASSERT_EQ(out[std::size_t(i)], in[std::size_t(i)] * 2.5f) << i;
        ASSERT_EQ(io[std::size_t(i)], (inout[std::size_t(i)] + in[std::size_t(i)]) + in[std::size_t(i)]) << i;
        ASSERT_EQ(back[std::size_t(i)], in[std::size_t(i)]) << i;
    }
    const FrameTimings& t = s->pipeline().timings();
    ASSERT_TRUE(t.valid);
    EXPECT_GT(t.stages[0].ms, 0.f);
    EXPECT_GT(t.mapUs, 0.0);
}

TEST_F(PipelineInterop, BuffersOfTheSameFlagsShareOneRegistration)
{
    // Two stages over two sets of (read-only, write-discard, read/write) buffers of different sizes:
    // six buffers, three registrations (one per flag), each buffer at its own offset.
    const int n1 = 1000, n2 = 333;
    const auto in1 = ks::test::randomFloats(n1, 3), io1 = ks::test::randomFloats(n1, 4);
    const auto in2 = ks::test::randomFloats(n2, 5), io2 = ks::test::randomFloats(n2, 6);
    const std::string text = R"({"kernelscope": 1, "parameters": {"k": {"type": "float", "value": 2.5}},
      "resources": {
        "in1": {"kind": "buffer", "type": "float", "count": 1000, "init": )" + numbers(in1) + R"(},
        "out1": {"kind": "buffer", "type": "float", "count": 1000, "discard": true, "init": -7},
        "io1": {"kind": "buffer", "type": "float", "count": 1000, "init": )" + numbers(io1) + R"(},
        "in2": {"kind": "buffer", "type": "float", "count": 333, "init": )" + numbers(in2) + R"(},
        "out2": {"kind": "buffer", "type": "float", "count": 333, "discard": true, "init": -7},
        "io2": {"kind": "buffer", "type": "float", "count": 333, "init": )" + numbers(io2) + R"(}},
      "stages": [{"kind": "kernel", "file": "roundtrip.cu", "kernel": "buffers", "cover": "in1", "block": [128],
                  "args": ["in1", "out1", "io1", {"count": "in1"}, "k"]},
                 {"kind": "kernel", "file": "roundtrip.cu", "kernel": "buffers", "cover": "in2", "block": [128],
                  "args": ["in2", "out2", "io2", {"count": "in2"}, "k"]}]})";
    auto s = session(parse(text, m_dir / "shared.json"));
    const ResourceSet& r = s->pipeline().resources();
    ASSERT_EQ(r.size(), 6u) << "the project loaded";
    EXPECT_EQ(r.registeredCount(), 6u);
    EXPECT_EQ(r.registrationCount(), 3u);
    EXPECT_EQ(r.find("in1")->buffer.name, r.find("in2")->buffer.name);
    EXPECT_NE(r.find("in1")->buffer.name, r.find("out1")->buffer.name);
    ASSERT_TRUE(s->pipeline().frame()) << s->pipeline().error();
    EXPECT_GT(s->pipeline().timings().mapCallUs, 0.0);
    auto check = [&](const char* in, const char* out, const char* io, const std::vector<float>& a,
                     const std::vector<float>& b) {
        const auto o = download<float>(*s, out), x = download<float>(*s, io), back = download<float>(*s, in);
        ASSERT_EQ(o.size(), a.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            ASSERT_EQ(o[i], a[i] * 2.5f) << out << " " << i;
            ASSERT_EQ(x[i], b[i] + a[i]) << io << " " << i;
            ASSERT_EQ(back[i], a[i]) << in << " " << i;
        }
    };
    check("in1", "out1", "io1", in1, io1);
    check("in2", "out2", "io2", in2, io2);
}

TEST_F(PipelineInterop, TexturesThroughSurfacesTextureObjectsAndCopies)
{
    const int w = 37, h = 23;
    auto s = session(parse(kTexturesProject, m_dir / "textures.json"));
    ResourceSet& r = s->pipeline().resources();
    using F = ks::interop::RegisterFlags;
    EXPECT_EQ(*r.find("a")->flags, F::SurfaceLoadStore | F::WriteDiscard);
    EXPECT_EQ(*r.find("b")->flags, F::None);
    EXPECT_EQ(*r.find("c")->flags, F::ReadOnly);
    // c's contents come from GL.
    const auto cData = ks::test::randomFloats(std::size_t(w) * h * 4, 9);
    r.find("c")->texture.upload(GL_RGBA, GL_FLOAT, cData.data());
    ASSERT_TRUE(s->pipeline().frame()) << s->pipeline().error();
    const auto sum = download<float>(*s, "sum");
    const auto a = download<float>(*s, "a");
    checkTextures(a, sum, cData, w, h);
}

// "interop": "shared" (CUDA owns the texels, GL gets a copy after each frame): the same bits as
// mapped textures, through surfaces, texture objects and copies, with nothing registered.
TEST_F(PipelineInterop, SharedTexturesGiveTheBitsOfMappedOnes)
{
    const int w = 37, h = 23;
    auto run = [&](bool shared) {
        ks::project::Project p = parse(kTexturesProject, m_dir / (shared ? "shared.json" : "mapped.json"));
        for (ks::project::ResourceDesc& d : p.resources)
            d.sharedInterop = shared && (d.name == "a" || d.name == "b");
        auto s = session(std::move(p));
        const ResourceSet& r = s->pipeline().resources();
        EXPECT_EQ(r.sharedCount(), shared ? 2u : 0u);
        EXPECT_EQ(r.registrationCount(), shared ? 2u : 4u) << "c and sum; with maps also a and b";
        EXPECT_EQ(r.find("a")->shared(), shared);
        EXPECT_FALSE(r.find("c")->shared());
        for (int f = 0; f < 3; ++f)
            EXPECT_TRUE(s->pipeline().frame()) << s->pipeline().error();
        EXPECT_GT(s->pipeline().timings().mapCallUs, 0.0) << "c and sum are mapped either way";
        return std::array<std::vector<float>, 3>{download<float>(*s, "a"), download<float>(*s, "b"),
                                                 download<float>(*s, "sum")};
    };
    const auto mapped = run(false), shared = run(true);
    const std::vector<float> zeros(std::size_t(w) * h * 4, 0.f);
    checkTextures(shared[0], shared[2], zeros, w, h);
    for (std::size_t k = 0; k < 3; ++k) {
        ASSERT_EQ(shared[k].size(), mapped[k].size());
        EXPECT_EQ(std::memcmp(shared[k].data(), mapped[k].data(), shared[k].size() * sizeof(float)), 0) << k;
    }
}

// A shared texture that a kernel reads and writes keeps its contents from frame to frame (CUDA's
// array is the texture), with frames in flight and the views drawn every frame; restart puts it
// back to zeros; a resize makes new storage.
TEST_F(PipelineInterop, SharedTexturesAccumulateRestartAndResize)
{
    const std::string text = R"({"kernelscope": 1,
      "resources": {"acc": {"kind": "texture", "format": "r32f", "size": [45, 17], "interop": "shared"}},
      "stages": [{"kind": "kernel", "file": "roundtrip.cu", "kernel": "accumulate", "cover": "acc", "block": [16, 8],
                  "args": ["acc", {"width": "acc"}, {"height": "acc"}]}],
      "views": [{"kind": "image", "name": "acc", "source": "acc", "range": [0, 8]}]})";
    PipelineOptions o = options();
    o.framesInFlight = 2;
    Session s(parse(text, m_dir / "accumulate.json"), o, ks::test::sourceDir() / "shaders");
    for (const auto& problem : s.pipeline().buildAll(m_cache))
        ADD_FAILURE() << problem.format();
    const Resource* acc = s.pipeline().resources().find("acc");
    ASSERT_TRUE(acc->shared());
    EXPECT_EQ(s.pipeline().resources().registrationCount(), 0u);
    auto expectFrames = [&](int w, int h, int frames) {
        const auto v = download<float>(s, "acc");
        ASSERT_EQ(v.size(), std::size_t(w) * std::size_t(h));
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                float want = 0;
                for (int f = 0; f < frames; ++f)
                    want = want + 1.0f + 0.25f * float((x + y * w) % 8);
                ASSERT_EQ(v[std::size_t(y * w + x)], want) << x << "," << y << " after " << frames << " frames";
            }
    };
    for (int f = 0; f < 7; ++f) {
        ASSERT_TRUE(s.pipeline().frame()) << s.pipeline().error();
        s.renderViews({{64, 32}});
        EXPECT_TRUE(s.viewError(0).empty()) << s.viewError(0);
    }
    s.pipeline().finish();
    expectFrames(45, 17, 7);
    {
        // The copy for GL is timed after the stages, with its bytes (read + written).
        const FrameTimings& t = s.pipeline().timings();
        ASSERT_TRUE(t.valid);
        ASSERT_EQ(t.stages.size(), 2u);
        EXPECT_EQ(t.stages[1].name, "shared textures: copy for GL");
        EXPECT_TRUE(t.stages[1].ran);
        EXPECT_GT(t.stages[1].ms, 0.f);
        EXPECT_EQ(t.stages[1].bytes.value_or(0), 2.0 * 45 * 17 * 4);
        EXPECT_GE(t.stagesMs, t.stages[0].ms + t.stages[1].ms * 0.99f);
        EXPECT_EQ(t.mapCallUs, 0.0) << "nothing is mapped";
    }
    s.pipeline().restart();
    expectFrames(45, 17, 0);
    ASSERT_TRUE(s.pipeline().frame());
    ASSERT_TRUE(s.pipeline().frame());
    s.pipeline().finish();
    expectFrames(45, 17, 2);
    s.pipeline().resources().resizeTexture("acc", 20, 10);
    EXPECT_EQ(acc->registrations, 2);
    ASSERT_TRUE(s.pipeline().frame()) << s.pipeline().error();
    s.pipeline().finish();
    expectFrames(20, 10, 1);
}

// The default demo's picture, drawn by the views, is the same image whichever way its texture
// reaches CUDA.
TEST_F(PipelineInterop, SharedAndMappedDefaultDemoDrawTheSamePicture)
{
    auto picture = [&](bool shared) {
        ks::project::Project p = load(ks::test::sourceDir() / "projects" / "thread_colors.json");
        p.resources[0].sharedInterop = shared;
        auto s = session(std::move(p));
        EXPECT_EQ(s->pipeline().resources().sharedCount(), shared ? 1u : 0u);
        for (int f = 0; f < 3; ++f)
            EXPECT_TRUE(s->pipeline().frame()) << s->pipeline().error();
        return s->composite(640, 360).pixels;
    };
    const auto mapped = picture(false), shared = picture(true);
    ASSERT_EQ(mapped.size(), shared.size());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < mapped.size(); ++i)
        differ += mapped[i] != shared[i];
    EXPECT_EQ(differ, 0u);
    std::size_t lit = 0;
    for (std::size_t i = 0; i < shared.size(); i += 4)
        lit += shared[i] + shared[i + 1] + shared[i + 2] > 60;
    EXPECT_GT(lit, shared.size() / 4 / 4) << "the picture is drawn, not blank";
}

TEST_F(PipelineInterop, ViewportTexturesResizeAndReRegister)
{
    auto s = session(load(ks::test::sourceDir() / "projects" / "mandelbrot.json"));
    Resource* img = s->pipeline().resources().find("image");
    EXPECT_EQ(img->registrations, 1);
    s->followViewport(64, 32);
    EXPECT_EQ(img->registrations, 2);
    s->followViewport(64, 32);
    EXPECT_EQ(img->registrations, 2); // same size: no re-registration
    ASSERT_TRUE(s->pipeline().frame()) << s->pipeline().error();
    const auto px = download<std::uint8_t>(*s, "image");
    ASSERT_EQ(px.size(), 64u * 32 * 4);
    std::size_t opaque = 0;
    for (std::size_t i = 3; i < px.size(); i += 4)
        opaque += px[i] == 255;
    EXPECT_EQ(opaque, 64u * 32) << "every pixel written";
}

TEST_F(PipelineInterop, OversizeProjectsAreRefusedAndTheRunningOneContinues)
{
    auto running = session(load(ks::test::sourceDir() / "projects" / "heat.json"));
    ASSERT_TRUE(running->pipeline().frame());
    const std::size_t total = ks::cuda::queryDevice(0).totalMemory;
    const std::string text = R"({"kernelscope": 1, "resources": {"huge": {"kind": "buffer", "type": "float4", "count": )" +
                             std::to_string(total / 16 + 1) + R"(}}})";
    try {
        Session refused(parse(text, m_dir / "huge.json"), options(), ks::test::sourceDir() / "shaders");
        FAIL() << "an oversize project was accepted";
    } catch (const ks::Error& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("need"), std::string::npos) << m;
        EXPECT_NE(m.find("free"), std::string::npos) << m;
        EXPECT_NE(m.find("huge"), std::string::npos) << m;
    }
    EXPECT_TRUE(running->pipeline().frame()) << running->pipeline().error();
}

TEST_F(PipelineInterop, DefaultDemoProjectDrawsTheDemoPicture)
{
    auto s = session(load(ks::test::sourceDir() / "projects" / "thread_colors.json"));
    ASSERT_TRUE(s->pipeline().frame());
    const auto px = download<std::uint8_t>(*s, "image");
    std::size_t bad = 0;
    for (int y = 0; y < 512; ++y)
        for (int x = 0; x < 768; ++x) {
            const ks::Rgba8 want = ks::demoThreadColor(unsigned(x) / 16, unsigned(y) / 16, unsigned(x) % 16,
                                                       unsigned(y) % 16, 16, 16, 48, 0.f);
            const std::uint8_t* got = &px[(std::size_t(y) * 768 + std::size_t(x)) * 4];
            bad += std::max({std::abs(got[0] - want.r), std::abs(got[1] - want.g), std::abs(got[2] - want.b)}) > 2;
        }
    EXPECT_EQ(bad, 0u);
}

// Through the command line's headless path (its own EGL and CUDA contexts), so not in the fixture.
TEST(PipelineHeadless, PiDumpMatchesTheHostWithin1e5)
{
    KS_REQUIRE_CUDA();
    const fs::path npy = fs::temp_directory_path() / "ks_pi.npy";
    fs::remove(npy);
    ks::app::AppOptions o;
    o.headless = true;
    o.project = ks::test::sourceDir() / "projects" / "pi.json";
    o.frames = 2;
    o.width = 320, o.height = 180;
    o.dataDir = ks::test::sourceDir();
    o.dumps = {{"pi", npy}};
    ASSERT_EQ(ks::app::runProjectHeadless(o), 0);
    std::ifstream in(npy, std::ios::binary);
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_GE(all.size(), 10u + 8u);
    const std::size_t headerLen = std::size_t(std::uint8_t(all[8])) | std::size_t(std::uint8_t(all[9])) << 8;
    ASSERT_NE(all.find("'descr': '<f8'"), std::string::npos);
    ASSERT_EQ(all.size(), 10 + headerLen + 8);
    double pi = 0;
    std::memcpy(&pi, all.data() + 10 + headerLen, 8);
    // The host computes the same float terms and sums them in double.
    const int n = 1000000;
    double host = 0;
    for (int i = 0; i < n; ++i) {
        const double x = (i + 0.5) / n;
        host += double(float(4.0 / (1.0 + x * x) / n));
    }
    EXPECT_NEAR(pi, M_PI, 1e-5);
    EXPECT_NEAR(pi, host, 1e-9);
    fs::remove(npy);
}

// Surface and texture objects are kept across frames (re-made only when a map returns another
// CUarray): frames after the first still write and read the right textures, through poisoned
// contents.
TEST_F(PipelineInterop, SurfaceAndTextureObjectsStayRightAcrossFrames)
{
    const int w = 37, h = 23;
    auto s = session(parse(kTexturesProject, m_dir / "textures_frames.json"));
    ResourceSet& r = s->pipeline().resources();
    const std::size_t n = std::size_t(w) * h * 4;
    for (int frame = 0; frame < 4; ++frame) {
        SCOPED_TRACE("frame " + std::to_string(frame));
        // New inputs and poisoned outputs every frame.
        const auto cData = ks::test::randomFloats(n, 20 + unsigned(frame));
        const auto poison = ks::test::randomFloats(n, 40 + unsigned(frame));
        r.find("c")->texture.upload(GL_RGBA, GL_FLOAT, cData.data());
        r.find("a")->texture.upload(GL_RGBA, GL_FLOAT, poison.data());
        r.find("b")->texture.upload(GL_RGBA, GL_FLOAT, poison.data());
        r.upload("sum", poison.data(), n * sizeof(float));
        ASSERT_TRUE(s->pipeline().frame()) << s->pipeline().error();
        const FrameTimings& t = s->pipeline().timings();
        if (frame == 0)
            EXPECT_EQ(t.objectsCreated, 4) << "a: surface + texture (copied from), b and c: texture";
        else
            EXPECT_EQ(t.objectsCreated, 0) << "frame " << frame
                                           << ": the driver mapped another CUarray, so the objects were re-made "
                                              "(correct, but the cache does not pay off on this driver)";
        const auto sum = download<float>(*s, "sum");
        const auto a = download<float>(*s, "a");
        checkTextures(a, sum, cData, w, h);
        if (HasFatalFailure())
            return;
    }
    // A surface-only texture gets no texture object.
    auto d = session(load(ks::test::sourceDir() / "projects" / "thread_colors.json"));
    ASSERT_TRUE(d->pipeline().frame()) << d->pipeline().error();
    EXPECT_EQ(d->pipeline().timings().objectsCreated, 1);
    EXPECT_TRUE(d->pipeline().resources().find("image")->textureObject.empty());
}

// Frames in flight change when the host waits, not what runs: the same buffers and readouts as
// frames that finish one by one.
TEST_F(PipelineInterop, FramesInFlightMatchFramesRunOneByOne)
{
    auto run = [&](int inFlight, int frames) {
        PipelineOptions o = options();
        o.framesInFlight = inFlight;
        Session s(load(ks::test::sourceDir() / "projects" / "particles.json"), o, ks::test::sourceDir() / "shaders");
        for (const auto& p : s.pipeline().buildAll(m_cache))
            ADD_FAILURE() << p.format();
        for (int f = 0; f < frames; ++f) {
            EXPECT_TRUE(s.pipeline().frame()) << s.pipeline().error();
            EXPECT_LE(f - s.pipeline().timings().frame, inFlight) << "timings lag by at most the frames in flight";
        }
        s.pipeline().finish();
        EXPECT_EQ(s.pipeline().timings().frame, frames - 1);
        std::vector<double> readouts;
        for (const Readout& r : s.pipeline().readouts())
            readouts.insert(readouts.end(), r.values.begin(), r.values.end());
        return std::pair{s.pipeline().resources().download("pos"), readouts};
    };
    const auto one = run(0, 25), two = run(2, 25), three = run(3, 25);
    ASSERT_FALSE(one.second.empty());
    EXPECT_EQ(one.first, two.first);
    EXPECT_EQ(one.first, three.first);
    EXPECT_EQ(one.second, two.second);
    EXPECT_EQ(one.second, three.second);
}

TEST_F(PipelineInterop, SameSeedSameFramesBitIdentical)
{
    auto run = [&](std::uint64_t seed, int frames) {
        PipelineOptions o = options();
        o.seed = seed;
        Session s(load(ks::test::sourceDir() / "projects" / "particles.json"), o, ks::test::sourceDir() / "shaders");
        for (const auto& p : s.pipeline().buildAll(m_cache))
            ADD_FAILURE() << p.format();
        for (int f = 0; f < frames; ++f)
            EXPECT_TRUE(s.pipeline().frame()) << s.pipeline().error();
        return s.pipeline().resources().download("pos");
    };
    const auto a = run(5, 30), b = run(5, 30), c = run(6, 30);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
    // Restart brings time, seed and contents back.
    auto s = session(load(ks::test::sourceDir() / "projects" / "particles.json"));
    for (int f = 0; f < 10; ++f)
        s->pipeline().frame();
    const auto first = s->pipeline().resources().download("pos");
    s->pipeline().restart();
    for (int f = 0; f < 10; ++f)
        s->pipeline().frame();
    EXPECT_EQ(first, s->pipeline().resources().download("pos"));
}

// Golden images of each shipped project rendered headless on the GPU. References live in
// $KS_GPU_REFERENCE_DIR (default tests/reference/gpu); KS_UPDATE_REFERENCES=1 writes them.
class DemoProjects : public PipelineInterop, public ::testing::WithParamInterface<const char*> {};

TEST_P(DemoProjects, MatchReference)
{
    auto s = session(load(ks::test::sourceDir() / "projects" / (std::string(GetParam()) + ".json")));
    s->followViewport(480, 270);
    for (int f = 0; f < 10; ++f)
        ASSERT_TRUE(s->pipeline().frame()) << s->pipeline().error();
    ks::test::expectMatchesGpuReference(s->composite(480, 270), GetParam());
}

INSTANTIATE_TEST_SUITE_P(Shipped, DemoProjects,
                         ::testing::Values("thread_colors", "doublify", "multiply_them", "pi", "particles",
                                           "sine_wave", "mandelbrot", "heat"));

} // namespace
