// On a GPU host: instrumented variants run in place of a project's kernel stage (ks::teach::
// StageProbe) give the same output as the stage's own kernel, and their records match the indexing
// of known launches: the PyCUDA tutorial's doublify (one 4 x 4 block, a stage that runs once),
// multiply_them with the classic "ignores blockIdx" bug, a 2-D surface kernel with partial edge
// blocks, and a block timeline of a many-block launch.
#include "ks/core/error.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/project/project.hpp"
#include "ks/rtc/cache.hpp"
#include "ks/scene/session.hpp"
#include "ks/teach/overlay.hpp"
#include "ks/teach/stage_probe.hpp"

#include "resource_download.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

using ks::test::download;
using ks::test::InteropTest;
using namespace ks::pipeline;
using ks::scene::Session;
using ks::teach::ProbeRequest;
using ks::teach::StageProbe;
using ks::teach::VariantKind;

namespace {

namespace fs = std::filesystem;

class StageProbeInterop : public InteropTest {
protected:
    std::unique_ptr<Session> open(const fs::path& file, const std::string& text = {})
    {
        auto r = text.empty() ? ks::project::loadProject(file) : ks::project::parseProject(text, file);
        for (const auto& p : r.problems)
            ADD_FAILURE() << p.format();
        if (!r.project)
            return nullptr;
        PipelineOptions o;
        o.cuda = true;
        o.stream = m_stream.get();
        o.compile.arch = ks::cuda::queryDevice(0).archName();
        o.compile.ptxasVerbose = false;
        auto s = std::make_unique<Session>(*r.project, o, ks::test::sourceDir() / "shaders");
        for (const auto& problem : s->pipeline().buildAll(m_cache))
            ADD_FAILURE() << problem.format();
        return s;
    }
    // Requests a capture and runs frames until it arrived (at most a few).
    const ks::teach::ProbeCapture* capture(Session& s, StageProbe& probe, ProbeRequest request)
    {
        if (!probe.request(s.pipeline(), request)) {
            ADD_FAILURE() << probe.error();
            return nullptr;
        }
        for (int i = 0; i < 4 && probe.pending(s.pipeline()); ++i)
            EXPECT_TRUE(s.pipeline().frame()) << s.pipeline().error();
        EXPECT_FALSE(probe.pending(s.pipeline()));
        return probe.latest(request.kind);
    }
    ks::rtc::CompileCache m_cache;
};

TEST_F(StageProbeInterop, DoublifyOnceStageRerunsOnceAndRecordsEveryThread)
{
    auto s = open(ks::test::sourceDir() / "projects" / "doublify.json");
    ASSERT_TRUE(s);
    const std::vector<double> init = s->pipeline().project().resources[0].init;
    ASSERT_EQ(init.size(), 16u);
    ASSERT_TRUE(s->pipeline().frame());
    ASSERT_TRUE(s->pipeline().frame()); // a "once" stage: frame 1 does not run it
    StageProbe probe(&m_cache);
    const auto* c = capture(*s, probe, {0, VariantKind::WhoWrote, "", 0});
    ASSERT_TRUE(c);
    // The probe restarted the pipeline and the variant ran instead of doublify: doubled once.
    const auto a = download<float>(*s, "a");
    for (std::size_t i = 0; i < 16; ++i)
        EXPECT_FLOAT_EQ(a[i], float(init[i]) * 2.f) << i;
    EXPECT_EQ(c->resource, "a");
    EXPECT_EQ(c->width, 4);
    EXPECT_EQ(c->height, 4);
    EXPECT_EQ(c->frame, 0);
    ASSERT_EQ(c->who.records.size(), 16u);
    EXPECT_EQ(c->who.droppedWrites, 0u);
    for (unsigned i = 0; i < 16; ++i) {
        const auto& r = c->who.records[i];
        EXPECT_EQ(r.writeCount, 1u) << i;
        EXPECT_EQ(r.threadX + 4u * r.threadY, i) << i; // idx = threadIdx.x + threadIdx.y * 4
        EXPECT_EQ(r.blockX + r.blockY + r.blockZ, 0u);
        EXPECT_EQ(r.warp, 0u);
        EXPECT_EQ(r.lane, i);
        const ks::teach::Writer w = ks::teach::writerOf(r, c->launch);
        EXPECT_EQ(w.globalThread, i);
    }
}

TEST_F(StageProbeInterop, MultiplyThemIgnoringBlockIdxWritesTheFirstHalfTwice)
{
    auto s = open(ks::test::sourceDir() / "projects" / "multiply_them.json");
    ASSERT_TRUE(s);
    Pipeline& p = s->pipeline();
    ASSERT_EQ(p.stage(2).desc().kernel, "multiply_them");
    p.stage(2).desc().grid = {2, 1, 1};
    p.stage(2).desc().block = {200, 1, 1};
    StageProbe probe(&m_cache);
    const auto* c = capture(*s, probe, {2, VariantKind::WhoWrote, "", 0});
    ASSERT_TRUE(c);
    EXPECT_EQ(c->outputParam, "dest");
    EXPECT_EQ(c->width, 400);
    EXPECT_EQ(c->height, 1);
    const auto a = download<float>(*s, "a"), b = download<float>(*s, "b"), dest = download<float>(*s, "dest");
    for (unsigned i = 0; i < 400; ++i) {
        const auto& r = c->who.records[i];
        if (i < 200) {
            EXPECT_EQ(r.writeCount, 2u) << i; // both blocks' thread i wrote dest[i]
            EXPECT_EQ(r.threadX, i);
            EXPECT_FLOAT_EQ(dest[i], a[i] * b[i]);
        } else {
            EXPECT_EQ(r.writeCount, 0u) << i; // nobody reached the second half
        }
    }
    // Fixed launch: one block of 400 threads covers everything once, 13 warps.
    p.stage(2).desc().grid = {1, 1, 1};
    p.stage(2).desc().block = {400, 1, 1};
    c = capture(*s, probe, {2, VariantKind::WhoWrote, "dest", 0});
    ASSERT_TRUE(c);
    unsigned maxWarp = 0;
    for (unsigned i = 0; i < 400; ++i) {
        EXPECT_EQ(c->who.records[i].writeCount, 1u) << i;
        EXPECT_EQ(c->who.records[i].warp, i / 32);
        EXPECT_EQ(c->who.records[i].lane, i % 32);
        maxWarp = std::max<unsigned>(maxWarp, c->who.records[i].warp);
    }
    EXPECT_EQ(maxWarp, 12u);
}

TEST_F(StageProbeInterop, SurfaceKernelWithPartialBlocksSameOutputAndIndexing)
{
    const fs::path file = ks::test::sourceDir() / "tests" / "projects" / "interop" / "probe_surface.json";
    const std::string text = R"({
      "kernelscope": 1, "name": "probe", "seed": 1,
      "resources": {"image": {"kind": "texture", "format": "rgba8", "size": [100, 70]}},
      "stages": [{"kind": "kernel", "name": "colours", "file": "../../../kernels/thread_colors.cu",
                  "kernel": "thread_colors_surface", "cover": "image", "block": [16, 8],
                  "args": [{"surface": "image"}, {"width": "image"}, {"height": "image"}, {"value": 0.5}]}],
      "views": [{"kind": "image", "name": "threads", "source": "image"}]
    })";
    auto s = open(file, text);
    ASSERT_TRUE(s);
    ASSERT_TRUE(s->pipeline().frame());
    const auto plain = download<std::uint32_t>(*s, "image");
    // Poison, then the variant must produce the same texels.
    {
        auto& r = *s->pipeline().resources().find("image");
        const std::vector<std::uint32_t> poison(100 * 70, 0xDEADBEEFu);
        r.texture.upload(GL_RGBA, GL_UNSIGNED_BYTE, poison.data());
    }
    StageProbe probe(&m_cache);
    const auto* c = capture(*s, probe, {0, VariantKind::WhoWrote, "", 0});
    ASSERT_TRUE(c);
    EXPECT_EQ(download<std::uint32_t>(*s, "image"), plain);
    EXPECT_EQ(c->launch.grid.x, 7u); // ceil(100 / 16)
    EXPECT_EQ(c->launch.grid.y, 9u); // ceil(70 / 8)
    EXPECT_EQ(c->who.blocksStarted, 63u);
    for (unsigned y = 0; y < 70; ++y)
        for (unsigned x = 0; x < 100; ++x) {
            const auto& r = c->who.records[y * 100 + x];
            ASSERT_EQ(r.writeCount, 1u) << x << "," << y;
            EXPECT_EQ(r.blockX * 16 + r.threadX, x);
            EXPECT_EQ(r.blockY * 8 + r.threadY, y);
            EXPECT_EQ(r.warp, (r.threadX + 16u * r.threadY) / 32);
        }
    // Every overlay mode renders from these records with no unwritten element.
    for (ks::teach::OverlayMode mode : ks::teach::kOverlayModes) {
        const auto image = ks::teach::overlayImage(c->who.records, 100, 70, mode, c->launch);
        for (std::size_t i = 0; i < 100 * 70; ++i)
            ASSERT_NE(ks::teach::Color({image.pixels[4 * i], image.pixels[4 * i + 1], image.pixels[4 * i + 2],
                                        image.pixels[4 * i + 3]}),
                      ks::teach::kNotWrittenColor);
    }
}

TEST_F(StageProbeInterop, TimelineOfAStageHasOneEntryPerBlock)
{
    auto s = open(ks::test::sourceDir() / "projects" / "thread_colors.json");
    ASSERT_TRUE(s);
    const auto device = ks::cuda::queryDevice(0);
    StageProbe probe(&m_cache);
    const auto* c = capture(*s, probe, {0, VariantKind::BlockTimeline, "", unsigned(device.smCount)});
    ASSERT_TRUE(c);
    const unsigned long long blocks = c->launch.grid.count();
    EXPECT_EQ(blocks, 48u * 32u); // 768 x 512 in 16 x 16 blocks
    ASSERT_EQ(c->timeline.blocks.size(), blocks);
    EXPECT_EQ(c->timeline.blocksStarted, blocks);
    EXPECT_GT(c->residentBlocksPerSm, 0);
    for (const auto& b : c->timeline.blocks) {
        EXPECT_GE(b.endNs, b.startNs);
        EXPECT_LT(b.smid, unsigned(device.smCount));
    }
    EXPECT_TRUE(c->model.problems.empty()) << c->model.problems.front();
    EXPECT_EQ(c->model.blocks.size(), blocks);
    EXPECT_GE(c->model.waves, 1u);
    EXPECT_GT(c->model.smsUsed, 0u);
}

// Golden images of the overlays drawn by the view renderer over the views of two teaching projects:
// the 2-D index_2d (image view, partial edge blocks) and multiply_them (plot view, 13 warps). The
// modes that do not depend on scheduling are compared with references; the SM and block-order
// modes, which change from run to run, are checked against the records instead.
TEST_F(StageProbeInterop, OverlaysOverViewsMatchReferences)
{
    struct Case {
        const char* project;
        const char* output;
        int width, height;
    };
    for (const Case& k : {Case{"teaching/index_2d.json", "out", 560, 200}, Case{"multiply_them.json", "dest", 800, 200}}) {
        auto s = open(ks::test::sourceDir() / "projects" / k.project);
        ASSERT_TRUE(s);
        std::size_t stage = 0;
        while (stage + 1 < s->pipeline().stageCount() && s->pipeline().stage(stage).desc().once)
            ++stage; // multiply_them: the fills run once first
        StageProbe probe(&m_cache);
        const auto* c = capture(*s, probe, {stage, VariantKind::WhoWrote, "", 0});
        ASSERT_TRUE(c);
        ASSERT_EQ(c->resource, k.output);
        for (ks::teach::OverlayMode mode : ks::teach::kOverlayModes) {
            const auto image = ks::teach::overlayImage(c->who.records, c->width, c->height, mode, c->launch);
            ks::gl::Texture2D texture(image.width, image.height, GL_RGBA8, GL_NEAREST);
            texture.upload(GL_RGBA, GL_UNSIGNED_BYTE, image.pixels.data());
            s->setOverlay(c->resource, &texture, 0.7f);
            const auto shot = s->composite(k.width, k.height);
            s->setOverlay({}, nullptr, 0);
            std::string name = std::string(ks::teach::overlayModeName(mode));
            std::replace(name.begin(), name.end(), ' ', '-');
            name = "overlay-" + fs::path(k.project).stem().string() + "-" + name;
            if (mode == ks::teach::OverlayMode::Sm || mode == ks::teach::OverlayMode::BlockOrder) {
                for (const auto& r : c->who.records) {
                    EXPECT_LT(r.smid, unsigned(ks::cuda::queryDevice(0).smCount));
                    EXPECT_LT(r.blockOrder, c->who.blocksStarted);
                }
                continue;
            }
            ks::test::expectMatchesGpuReference(shot, name);
        }
    }
}

TEST_F(StageProbeInterop, RefusesWhatCannotBeRecorded)
{
    auto s = open(ks::test::sourceDir() / "projects" / "multiply_them.json");
    ASSERT_TRUE(s);
    StageProbe probe(&m_cache);
    EXPECT_FALSE(probe.request(s->pipeline(), {2, VariantKind::WhoWrote, "a", 0})); // a const input
    EXPECT_NE(probe.error().find("\"a\""), std::string::npos) << probe.error();
    EXPECT_FALSE(probe.request(s->pipeline(), {9, VariantKind::WhoWrote, "", 0}));
    EXPECT_NE(probe.error().find("not a kernel stage"), std::string::npos) << probe.error();
    EXPECT_FALSE(probe.pending(s->pipeline()));
}

} // namespace
