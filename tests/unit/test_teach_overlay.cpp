// Host-side teaching analysis: block timelines from synthetic records, overlay colours and
// legends, and the pixel inspector. (The launch panel's logic is tested in test_cuda_module.cpp.)
#include "ks/core/error.hpp"
#include "ks/render/view_renderer.hpp"
#include "ks/teach/inspector.hpp"
#include "ks/teach/overlay.hpp"
#include "ks/teach/timeline.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>

using namespace ks::teach;
using ks::cuda::Dim3;
using ks::cuda::LaunchConfig;

namespace {

BlockRecord block(unsigned long long startNs, unsigned long long endNs, unsigned sm, unsigned order = 0)
{
    const unsigned long long base = 1'700'000'000'000'000'000ull; // %globaltimer is ns since an epoch
    return BlockRecord{base + startNs, base + endNs, 1000 + startNs, 1000 + endNs, sm, order};
}

// The records a correct 2-D launch writes: element (x, y) by block (x / bx, y / by), thread (x % bx, y % by).
std::vector<WhoRecord> recordsOf2dLaunch(const LaunchConfig& l, int width, int height)
{
    std::vector<WhoRecord> r(std::size_t(width) * height);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            WhoRecord& w = r[std::size_t(y) * width + x];
            w.blockX = x / l.block.x;
            w.blockY = y / l.block.y;
            w.threadX = static_cast<unsigned short>(x % l.block.x);
            w.threadY = static_cast<unsigned short>(y % l.block.y);
            const unsigned linear = w.threadX + l.block.x * w.threadY;
            w.warp = static_cast<unsigned short>(linear / 32);
            w.lane = static_cast<unsigned char>(linear % 32);
            w.smid = static_cast<unsigned short>((w.blockX * 7 + w.blockY) % 5);
            w.blockOrder = w.blockY * l.grid.x + w.blockX;
            w.writeCount = 1;
        }
    return r;
}

} // namespace

TEST(Timeline, WavesUtilisationTailAndImbalanceOfAKnownSchedule)
{
    // 2 SMs, 1 resident block each, 5 blocks of 10 us: SM0 runs 0-10, 10-20, 20-30; SM1 runs 0-10, 10-20.
    std::vector<BlockRecord> r = {block(0, 10000, 0, 0), block(0, 10000, 1, 1), block(10000, 20000, 0, 2),
                                  block(10000, 20000, 1, 3), block(20000, 30000, 0, 4)};
    const TimelineModel m = analyzeTimeline(r, 2, 1);
    EXPECT_TRUE(m.problems.empty());
    ASSERT_EQ(m.blocks.size(), 5u);
    EXPECT_DOUBLE_EQ(m.makespanUs, 30.0);
    EXPECT_EQ(m.waves, 3u);
    EXPECT_DOUBLE_EQ(m.lastWaveFill, 0.5);
    EXPECT_DOUBLE_EQ(m.utilisation, 50.0 / 60.0);
    EXPECT_DOUBLE_EQ(m.busyFraction, 50.0 / 60.0);
    EXPECT_DOUBLE_EQ(m.tailUs, 10.0); // SM1 idles from 20 us
    EXPECT_NEAR(m.tailFraction, 1.0 / 3.0, 1e-12);
    EXPECT_NEAR(m.imbalance, 30.0 / 25.0 - 1.0, 1e-12);
    EXPECT_EQ(m.smsUsed, 2u);
    EXPECT_EQ(m.minBlocksPerSm, 2u);
    EXPECT_EQ(m.maxBlocksPerSm, 3u);
    ASSERT_EQ(m.rows.size(), 2u);
    EXPECT_EQ(m.rows[0].blocks.size(), 3u);
    EXPECT_EQ(m.rows[0].slotsUsed, 1u);
    EXPECT_DOUBLE_EQ(m.rows[1].lastEndUs, 20.0);
    EXPECT_NE(describeTimeline(m).find("3 waves"), std::string::npos) << describeTimeline(m);
}

TEST(Timeline, OverlappingBlocksGetSlotsAndIdleSmsCountAsTail)
{
    // 4 SMs, 2 resident per SM; 3 blocks all on SM 2, two of them at once.
    std::vector<BlockRecord> r = {block(0, 8000, 2, 0), block(1000, 5000, 2, 1), block(8000, 12000, 2, 2)};
    const TimelineModel m = analyzeTimeline(r, 4, 2);
    ASSERT_EQ(m.blocks.size(), 3u);
    EXPECT_EQ(m.blocks[0].slot, 0u);
    EXPECT_EQ(m.blocks[1].slot, 1u);
    EXPECT_EQ(m.blocks[2].slot, 0u) << "slot 0 is free again at 8 us";
    EXPECT_EQ(m.rows[2].slotsUsed, 2u);
    EXPECT_EQ(m.maxConcurrentPerSm, 2u);
    EXPECT_DOUBLE_EQ(m.rows[2].busyUs, 12.0);
    EXPECT_EQ(m.waves, 1u);
    EXPECT_DOUBLE_EQ(m.lastWaveFill, 3.0 / 8.0);
    EXPECT_DOUBLE_EQ(m.utilisation, 16.0 / (4 * 2 * 12.0));
    EXPECT_DOUBLE_EQ(m.busyFraction, 12.0 / 48.0);
    EXPECT_DOUBLE_EQ(m.tailUs, 12.0) << "three SMs got no block at all";
    EXPECT_EQ(m.smsUsed, 1u);
    EXPECT_EQ(m.minBlocksPerSm, 0u);
    EXPECT_DOUBLE_EQ(m.imbalance, 12.0 / 3.0 - 1.0);
}

TEST(Timeline, RandomSchedulesKeepTheInvariants)
{
    std::mt19937 rng(7);
    for (int trial = 0; trial < 50; ++trial) {
        const unsigned sms = 1 + rng() % 16, resident = 1 + rng() % 4, n = 1 + rng() % 300;
        std::vector<BlockRecord> r;
        double sum = 0;
        for (unsigned i = 0; i < n; ++i) {
            const unsigned long long s = rng() % 100000, d = 1 + rng() % 20000;
            r.push_back(block(s, s + d, rng() % sms, i));
            sum += d / 1000.0;
        }
        const TimelineModel m = analyzeTimeline(r, sms, resident);
        ASSERT_EQ(m.blocks.size(), n);
        EXPECT_EQ(m.waves, (n + sms * resident - 1) / (sms * resident));
        EXPECT_GT(m.lastWaveFill, 0.0);
        EXPECT_LE(m.lastWaveFill, 1.0);
        EXPECT_GE(m.busyFraction, 0.0);
        EXPECT_LE(m.busyFraction, 1.0 + 1e-12);
        EXPECT_NEAR(m.utilisation * sms * resident * m.makespanUs, sum, 1e-6);
        EXPECT_GE(m.tailUs, 0.0);
        EXPECT_LE(m.tailUs, m.makespanUs + 1e-9);
        EXPECT_GE(m.imbalance, 0.0);
        std::size_t total = 0;
        for (const SmRow& row : m.rows) {
            total += row.blocks.size();
            EXPECT_LE(row.busyUs, m.makespanUs + 1e-9);
            for (std::size_t a = 0; a < row.blocks.size(); ++a)
                for (std::size_t b = a + 1; b < row.blocks.size(); ++b) {
                    const TimelineBlock& x = m.blocks[row.blocks[a]];
                    const TimelineBlock& y = m.blocks[row.blocks[b]];
                    if (x.slot == y.slot) { // blocks sharing a slot never overlap
                        EXPECT_TRUE(x.endUs <= y.startUs || y.endUs <= x.startUs);
                    }
                }
        }
        EXPECT_EQ(total, n);
    }
}

TEST(Timeline, ReportsUnusableRecords)
{
    std::vector<BlockRecord> r = {block(0, 1000, 0), BlockRecord{}, block(5000, 4000, 0), block(0, 1000, 9)};
    const TimelineModel m = analyzeTimeline(r, 4, 1);
    EXPECT_EQ(m.blocks.size(), 1u);
    ASSERT_EQ(m.problems.size(), 3u);
    EXPECT_NE(m.problems[0].find("block 1 has no record"), std::string::npos);
    EXPECT_NE(m.problems[1].find("block 2 ends before it starts"), std::string::npos);
    EXPECT_NE(m.problems[2].find("SM 9, not below the SM count 4"), std::string::npos);
    EXPECT_EQ(waveCount(0, 132, 2), 0u);
    EXPECT_EQ(waveCount(10, 0, 2), 0u);
    EXPECT_EQ(waveCount(265, 132, 2), 2u);
    EXPECT_EQ(analyzeTimeline({}, 4, 1).blocks.size(), 0u);
}

TEST(Overlay, PalettesTellNeighboursApart)
{
    for (unsigned long long id = 0; id < 64; ++id) {
        const Color a = categoricalColor(id), b = categoricalColor(id + 1);
        EXPECT_GT(std::abs(a.r - b.r) + std::abs(a.g - b.g) + std::abs(a.b - b.b), 30) << id;
        EXPECT_EQ(a.a, 255);
    }
    int previous = -1;
    for (int i = 0; i <= 10; ++i) { // the ramp gets brighter
        const Color c = sequentialColor(i / 10.0);
        const int luma = 2 * c.r + 7 * c.g + c.b;
        EXPECT_GT(luma, previous);
        previous = luma;
    }
    EXPECT_EQ(sequentialColor(-1.0), sequentialColor(0.0));
    EXPECT_EQ(sequentialColor(2.0), sequentialColor(1.0));
    EXPECT_EQ(sequentialColor(NAN), sequentialColor(0.0));
}

TEST(Overlay, EachModeColoursByItsQuantity)
{
    const LaunchConfig l{{3, 2, 1}, {16, 8, 1}, 0};
    const auto r = recordsOf2dLaunch(l, 40, 12);
    const std::size_t at00 = 0, at17 = 17, at1_9 = 9 * 40 + 1; // (0,0), (17,0) block (1,0), (1,9) block (0,1)
    EXPECT_EQ(overlayColor(OverlayMode::BlockIdx, r[at00], l, 5), categoricalColor(0));
    EXPECT_EQ(overlayColor(OverlayMode::BlockIdx, r[at17], l, 5), categoricalColor(1));
    EXPECT_EQ(overlayColor(OverlayMode::BlockIdx, r[at1_9], l, 5), categoricalColor(3));
    EXPECT_EQ(overlayColor(OverlayMode::ThreadIdx, r[0], l, 5), overlayColor(OverlayMode::ThreadIdx, r[16], l, 5))
        << "threadIdx repeats in every block";
    EXPECT_NE(overlayColor(OverlayMode::ThreadIdx, r[0], l, 5), overlayColor(OverlayMode::ThreadIdx, r[1], l, 5));
    EXPECT_EQ(overlayColor(OverlayMode::Warp, r[0], l, 5), categoricalColor(0));
    EXPECT_EQ(overlayColor(OverlayMode::Warp, r[4 * 40], l, 5), categoricalColor(2)) << "row 4 of a 16-wide block: thread 64";
    EXPECT_EQ(overlayColor(OverlayMode::Lane, r[3], l, 5), sequentialColor(3.0 / 31.0));
    EXPECT_EQ(overlayColor(OverlayMode::Sm, r[at17], l, 5), categoricalColor(r[at17].smid));
    EXPECT_EQ(overlayColor(OverlayMode::BlockOrder, r[at1_9], l, 5), sequentialColor(3.0 / 5.0));
    const unsigned long long total = l.grid.count() * l.block.count();
    const Writer w = writerOf(r[at1_9], l);
    EXPECT_EQ(w.linearBlock, 3u);
    EXPECT_EQ(w.threadInBlock, 1u + 16u * 1u);
    EXPECT_EQ(w.globalThread, 3u * 128u + 17u);
    EXPECT_EQ(overlayColor(OverlayMode::LinearThreadId, r[at1_9], l, 5),
              sequentialColor(double(w.globalThread) / double(total - 1)));
    WhoRecord twice = r[0];
    twice.writeCount = 2;
    EXPECT_NE(overlayColor(OverlayMode::WriteCount, twice, l, 5), overlayColor(OverlayMode::WriteCount, r[0], l, 5));
}

TEST(Overlay, ImageMarksUnwrittenElementsAndBlends)
{
    const LaunchConfig l{{2, 2, 1}, {4, 4, 1}, 0};
    auto r = recordsOf2dLaunch(l, 8, 8);
    r[5].writeCount = 0;
    const ks::io::Rgba8Image img = overlayImage(r, 8, 8, OverlayMode::BlockIdx, l, 200);
    ASSERT_EQ(img.pixels.size(), 8u * 8u * 4u);
    EXPECT_EQ(img.pixels[5 * 4 + 0], kNotWrittenColor.r);
    EXPECT_EQ(img.pixels[5 * 4 + 3], kNotWrittenColor.a);
    EXPECT_EQ(img.pixels[4 * 4 + 0], categoricalColor(1).r);
    EXPECT_EQ(img.pixels[4 * 4 + 3], 200);
    EXPECT_THROW(overlayImage(r, 9, 8, OverlayMode::BlockIdx, l), ks::Error);

    ks::io::Rgba8Image base{1, 1, {100, 100, 100, 255}};
    blendOver(base, ks::io::Rgba8Image{1, 1, {200, 0, 100, 255}}, 0.5f);
    EXPECT_NEAR(base.pixels[0], 150, 1);
    EXPECT_NEAR(base.pixels[1], 50, 1);
    EXPECT_NEAR(base.pixels[2], 100, 1);
    EXPECT_EQ(base.pixels[3], 255);
    ks::io::Rgba8Image clear{1, 1, {10, 20, 30, 255}};
    blendOver(clear, ks::io::Rgba8Image{1, 1, {200, 200, 200, 0}});
    EXPECT_EQ(clear.pixels, (std::vector<std::uint8_t>{10, 20, 30, 255})) << "a transparent overlay changes nothing";
    EXPECT_THROW(blendOver(clear, img), ks::Error);
}

TEST(Overlay, LegendsListWhatTheRecordsHold)
{
    const LaunchConfig l{{3, 2, 1}, {16, 8, 1}, 0};
    auto r = recordsOf2dLaunch(l, 40, 12);
    Legend blocks = overlayLegend(OverlayMode::BlockIdx, r, l, 4);
    EXPECT_FALSE(blocks.continuous);
    ASSERT_EQ(blocks.entries.size(), 5u) << "6 blocks, 4 shown, then '... 2 more'";
    EXPECT_EQ(blocks.entries[0].label, "block (0, 0, 0)");
    EXPECT_EQ(blocks.entries[1].label, "block (1, 0, 0)");
    EXPECT_EQ(blocks.entries[1].color, categoricalColor(1));
    EXPECT_EQ(blocks.entries[4].label, "... 2 more");
    r[0].writeCount = 0;
    const Legend warps = overlayLegend(OverlayMode::Warp, r, l);
    ASSERT_EQ(warps.entries.size(), 5u) << "4 warps per 128-thread block, then not written";
    EXPECT_EQ(warps.entries[1].label, "warp 1 (threads 32-63 of the block)");
    EXPECT_EQ(warps.entries.back().label, "not written");
    const Legend lanes = overlayLegend(OverlayMode::Lane, r, l);
    EXPECT_TRUE(lanes.continuous);
    EXPECT_EQ(lanes.entries.front().label, "lane 0");
    EXPECT_EQ(lanes.entries[4].label, "lane 31");
    const Legend order = overlayLegend(OverlayMode::BlockOrder, r, l);
    EXPECT_EQ(order.entries[4].label, "started #5");
    const Legend tid = overlayLegend(OverlayMode::ThreadIdx, r, l);
    EXPECT_EQ(tid.entries.size(), 4u); // origin, x, y, not written
    for (OverlayMode mode : kOverlayModes) {
        const Legend lg = overlayLegend(mode, r, l);
        EXPECT_FALSE(lg.title.empty()) << overlayModeName(mode);
        EXPECT_FALSE(lg.entries.empty()) << overlayModeName(mode);
    }
}

TEST(Overlay, ModesParseFromTheirNamesOnly)
{
    for (ks::teach::OverlayMode mode : ks::teach::kOverlayModes)
        EXPECT_EQ(ks::teach::parseOverlayMode(ks::teach::overlayModeName(mode)), mode);
    EXPECT_EQ(ks::teach::parseOverlayMode("write-count"), ks::teach::OverlayMode::WriteCount);
    EXPECT_EQ(ks::teach::parseOverlayMode("BlockIdx"), ks::teach::OverlayMode::BlockIdx);
    EXPECT_EQ(ks::teach::parseOverlayMode("block_start_order"), ks::teach::OverlayMode::BlockOrder);
    EXPECT_FALSE(ks::teach::parseOverlayMode(""));
    EXPECT_FALSE(ks::teach::parseOverlayMode("block"));
    EXPECT_FALSE(ks::teach::parseOverlayMode("rainbow"));
}

// Where a view puts its elements: the overlay and the inspector's mouse both use it.
TEST(Overlay, ElementRectsOfImageAndPlotViews)
{
    using ks::project::ViewKind;
    const auto image = ks::render::elementRect(ViewKind::Image, 70, 20, 700, 400); // fits the width
    EXPECT_FLOAT_EQ(image.x, 0.f);
    EXPECT_FLOAT_EQ(image.width, 700.f);
    EXPECT_FLOAT_EQ(image.height, 200.f);
    EXPECT_FLOAT_EQ(image.y, 100.f);
    // Plot: element i is drawn at x = 0.05 w + i / (n - 1) * 0.9 w; texel i is centred there.
    const auto plot = ks::render::elementRect(ViewKind::Plot, 5, 1, 1000, 300);
    const float texel = plot.width / 5;
    for (int i = 0; i < 5; ++i)
        EXPECT_NEAR(plot.x + (float(i) + 0.5f) * texel, 50.f + float(i) / 4.f * 900.f, 1e-3f) << i;
    EXPECT_FLOAT_EQ(plot.y, 15.f);
    EXPECT_FLOAT_EQ(plot.height, 270.f);
    EXPECT_EQ(ks::render::elementRect(ViewKind::Points, 5, 1, 1000, 300).width, 0.f);
}

TEST(Inspector, NamesTheWriterFromTheRecords)
{
    const LaunchConfig l{{3, 2, 1}, {16, 8, 1}, 0};
    auto r = recordsOf2dLaunch(l, 40, 12);
    const InspectedElement e = inspectElement(r, 9 * 40 + 17, l, 40);
    ASSERT_TRUE(e.writer);
    EXPECT_EQ(e.x, 17);
    EXPECT_EQ(e.y, 9);
    EXPECT_EQ(e.writer->blockIdx, (Dim3{1, 1, 0}));
    EXPECT_EQ(e.writer->threadIdx, (Dim3{1, 1, 0}));
    EXPECT_EQ(e.writer->globalThread, 4u * 128u + 17u);
    EXPECT_EQ(e.writer->warp, 0u);
    EXPECT_EQ(e.writer->lane, 17u);
    EXPECT_NE(e.summary.find("(17, 9) written by block (1, 1, 0) thread (1, 1, 0): global thread 529, warp 0 lane 17"),
              std::string::npos)
        << e.summary;
    r[3].writeCount = 0;
    EXPECT_FALSE(inspectElement(r, 3, l, 40).writer);
    EXPECT_NE(inspectElement(r, 3, l, 0).summary.find("[3] was not written"), std::string::npos);
    r[4].writeCount = 3;
    EXPECT_NE(inspectElement(r, 4, l, 40).summary.find("written 3 times"), std::string::npos);
    EXPECT_THROW(inspectElement(r, r.size(), l, 40), ks::Error);
}

TEST(Inspector, FormatsElementsOfEveryScalarKind)
{
    const float f = 0.25f;
    EXPECT_EQ(formatElement(&f, ScalarKind::F32, 1), "0.25");
    const unsigned char rgba[4] = {255, 128, 0, 7};
    std::vector<double> values;
    EXPECT_EQ(formatElement(rgba, ScalarKind::U8, 4, &values), "(255, 128, 0, 7)");
    EXPECT_EQ(values, (std::vector<double>{255, 128, 0, 7}));
    const int i2[2] = {-3, 40000};
    EXPECT_EQ(formatElement(i2, ScalarKind::I32, 2), "(-3, 40000)");
    const long long big = -9007199254740993ll;
    EXPECT_EQ(formatElement(&big, ScalarKind::I64, 1), "-9007199254740993");
    const double d = 3.141592653589793;
    EXPECT_EQ(formatElement(&d, ScalarKind::F64, 1), "3.1415926535897931");
    const short s = -7;
    EXPECT_EQ(formatElement(&s, ScalarKind::I16, 1), "-7");
    EXPECT_EQ(scalarSize(ScalarKind::U16), 2u);
    EXPECT_EQ((ResourceView{"v", 0, nullptr, 4, 0, ScalarKind::F32, 4}.elementBytes()), 16u);
}
