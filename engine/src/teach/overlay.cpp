#include "ks/teach/overlay.hpp"

#include <cctype>

#include "ks/core/error.hpp"

#include <ks_device/thread_colors.cuh>

#include <algorithm>
#include <cmath>
#include <map>

namespace ks::teach {
namespace {

std::uint8_t toByte(float v)
{
    return static_cast<std::uint8_t>(std::clamp(v, 0.f, 1.f) * 255.f + 0.5f);
}

std::string dim3Text(unsigned x, unsigned y, unsigned z)
{
    return "(" + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) + ")";
}

double ramp(double value, double maxValue)
{
    return maxValue > 0 ? value / maxValue : 0.0;
}

// One ramp colour per value of a discrete quantity 0..maxValue.
void rampStops(Legend& l, unsigned long long maxValue, const std::string& prefix)
{
    l.continuous = true;
    const int stops = maxValue < 4 ? int(maxValue) + 1 : 5;
    for (int i = 0; i < stops; ++i) {
        const unsigned long long v = stops > 1 ? maxValue * unsigned(i) / unsigned(stops - 1) : 0;
        l.entries.push_back({prefix + std::to_string(v), sequentialColor(ramp(double(v), double(maxValue)))});
    }
}

} // namespace

std::optional<OverlayMode> parseOverlayMode(std::string_view name)
{
    auto normal = [](std::string_view text) {
        std::string out;
        for (char c : text)
            if (c != ' ' && c != '-' && c != '_')
                out += char(std::tolower(static_cast<unsigned char>(c)));
        return out;
    };
    const std::string wanted = normal(name);
    for (OverlayMode mode : kOverlayModes)
        if (!wanted.empty() && normal(overlayModeName(mode)) == wanted)
            return mode;
    return std::nullopt;
}

std::string_view overlayModeName(OverlayMode mode)
{
    switch (mode) {
    case OverlayMode::BlockIdx: return "blockIdx";
    case OverlayMode::ThreadIdx: return "threadIdx";
    case OverlayMode::LinearThreadId: return "linear thread id";
    case OverlayMode::Warp: return "warp";
    case OverlayMode::Lane: return "lane";
    case OverlayMode::Sm: return "SM";
    case OverlayMode::BlockOrder: return "block start order";
    case OverlayMode::WriteCount: return "write count";
    }
    return "?";
}

Color categoricalColor(unsigned long long id)
{
    float r, g, b;
    ks::demoBlockHue(static_cast<unsigned>(id), 0, 1, r, g, b); // the demo's block hues, so both agree
    return {toByte(r * 0.95f), toByte(g * 0.95f), toByte(b * 0.95f), 255};
}

Color sequentialColor(double t)
{
    // Stops close to matplotlib's viridis, interpolated linearly.
    static const float kStops[][3] = {
        {0.267f, 0.005f, 0.329f}, {0.229f, 0.322f, 0.546f}, {0.128f, 0.567f, 0.551f},
        {0.369f, 0.789f, 0.383f}, {0.993f, 0.906f, 0.144f}};
    const double c = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * 4.0;
    const int i = std::min(3, int(c));
    const float f = float(c - i);
    return {toByte(kStops[i][0] + f * (kStops[i + 1][0] - kStops[i][0])),
            toByte(kStops[i][1] + f * (kStops[i + 1][1] - kStops[i][1])),
            toByte(kStops[i][2] + f * (kStops[i + 1][2] - kStops[i][2])), 255};
}

Writer writerOf(const WhoRecord& r, const cuda::LaunchConfig& launch)
{
    Writer w;
    w.blockIdx = {r.blockX, r.blockY, r.blockZ};
    w.threadIdx = {r.threadX, r.threadY, r.threadZ};
    w.linearBlock = r.blockX + 1ull * launch.grid.x * (r.blockY + 1ull * launch.grid.y * r.blockZ);
    w.threadInBlock = r.threadX + launch.block.x * (r.threadY + launch.block.y * r.threadZ);
    w.globalThread = w.linearBlock * launch.block.count() + w.threadInBlock;
    w.warp = r.warp;
    w.lane = r.lane;
    w.sm = r.smid;
    w.blockOrder = r.blockOrder;
    w.writeCount = r.writeCount;
    return w;
}

Color overlayColor(OverlayMode mode, const WhoRecord& r, const cuda::LaunchConfig& launch, unsigned maxBlockOrder,
                   unsigned warpSize)
{
    const Writer w = writerOf(r, launch);
    switch (mode) {
    case OverlayMode::BlockIdx: return categoricalColor(w.linearBlock);
    case OverlayMode::ThreadIdx: {
        auto part = [](unsigned v, unsigned n) { return n > 1 ? float(v) / float(n - 1) : 0.f; };
        return {toByte(0.15f + 0.85f * part(r.threadX, launch.block.x)),
                toByte(0.15f + 0.85f * part(r.threadY, launch.block.y)),
                toByte(0.15f + 0.85f * part(r.threadZ, launch.block.z)), 255};
    }
    case OverlayMode::LinearThreadId: {
        const unsigned long long total = launch.grid.count() * launch.block.count();
        return sequentialColor(ramp(double(w.globalThread), double(total > 0 ? total - 1 : 0)));
    }
    case OverlayMode::Warp: return categoricalColor(w.warp);
    case OverlayMode::Lane: return sequentialColor(ramp(w.lane, warpSize > 0 ? warpSize - 1 : 0));
    case OverlayMode::Sm: return categoricalColor(w.sm);
    case OverlayMode::BlockOrder: return sequentialColor(ramp(w.blockOrder, maxBlockOrder));
    case OverlayMode::WriteCount:
        return w.writeCount <= 1 ? Color{60, 190, 90, 255} : w.writeCount == 2 ? Color{240, 160, 40, 255}
                                                                                : Color{220, 50, 50, 255};
    }
    return {};
}

Legend overlayLegend(OverlayMode mode, std::span<const WhoRecord> records, const cuda::LaunchConfig& launch,
                     std::size_t maxEntries, unsigned warpSize)
{
    Legend l;
    bool anyUnwritten = false;
    unsigned maxOrder = 0;
    std::map<unsigned long long, std::string> categories; // id -> label, ordered by id
    for (const WhoRecord& r : records) {
        if (r.writeCount == 0) {
            anyUnwritten = true;
            continue;
        }
        maxOrder = std::max(maxOrder, r.blockOrder);
        const Writer w = writerOf(r, launch);
        if (mode == OverlayMode::BlockIdx)
            categories.emplace(w.linearBlock, "block " + dim3Text(r.blockX, r.blockY, r.blockZ));
        else if (mode == OverlayMode::Warp)
            categories.emplace(w.warp, "warp " + std::to_string(w.warp) + " (threads " +
                                           std::to_string(w.warp * warpSize) + "-" +
                                           std::to_string(w.warp * warpSize + warpSize - 1) + " of the block)");
        else if (mode == OverlayMode::Sm)
            categories.emplace(w.sm, "SM " + std::to_string(w.sm));
        else if (mode == OverlayMode::WriteCount)
            categories.emplace(std::min(w.writeCount, 3u), w.writeCount == 1   ? "written once"
                                                           : w.writeCount == 2 ? "written twice"
                                                                               : "written 3 or more times");
    }
    switch (mode) {
    case OverlayMode::BlockIdx: l.title = "blockIdx: one colour per block"; break;
    case OverlayMode::Warp: l.title = "warp: one colour per warp of a block (warp = linear thread index / " +
                                      std::to_string(warpSize) + ")"; break;
    case OverlayMode::Sm: l.title = "SM: one colour per streaming multiprocessor that ran the block"; break;
    case OverlayMode::WriteCount: l.title = "write count: how many writes each element received"; break;
    case OverlayMode::ThreadIdx:
        l.title = "threadIdx: red = x, green = y, blue = z (dark = 0, bright = blockDim - 1)";
        l.continuous = true;
        l.entries.push_back({"threadIdx " + dim3Text(0, 0, 0), overlayColor(mode, WhoRecord{}, launch, 0)});
        {
            WhoRecord x{}, y{}, z{};
            x.threadX = static_cast<unsigned short>(launch.block.x - 1);
            y.threadY = static_cast<unsigned short>(launch.block.y - 1);
            z.threadZ = static_cast<unsigned short>(launch.block.z - 1);
            if (launch.block.x > 1)
                l.entries.push_back({"threadIdx.x = " + std::to_string(launch.block.x - 1), overlayColor(mode, x, launch, 0)});
            if (launch.block.y > 1)
                l.entries.push_back({"threadIdx.y = " + std::to_string(launch.block.y - 1), overlayColor(mode, y, launch, 0)});
            if (launch.block.z > 1)
                l.entries.push_back({"threadIdx.z = " + std::to_string(launch.block.z - 1), overlayColor(mode, z, launch, 0)});
        }
        break;
    case OverlayMode::LinearThreadId: {
        l.title = "linear thread id = linear block * threads per block + linear thread in block";
        const unsigned long long total = launch.grid.count() * launch.block.count();
        rampStops(l, total > 0 ? total - 1 : 0, "thread ");
        break;
    }
    case OverlayMode::Lane:
        l.title = "lane: the thread's position in its warp";
        rampStops(l, warpSize > 0 ? warpSize - 1 : 0, "lane ");
        break;
    case OverlayMode::BlockOrder:
        l.title = "block start order: first (dark) to last (bright)";
        rampStops(l, maxOrder, "started #");
        break;
    }
    std::size_t shown = 0;
    for (const auto& [id, label] : categories) {
        if (shown == maxEntries) {
            l.entries.push_back({"... " + std::to_string(categories.size() - shown) + " more", Color{128, 128, 128, 255}});
            break;
        }
        WhoRecord probe{};
        if (mode == OverlayMode::WriteCount)
            probe.writeCount = unsigned(id);
        l.entries.push_back({label, mode == OverlayMode::WriteCount ? overlayColor(mode, probe, launch, 0)
                                                                    : categoricalColor(id)});
        ++shown;
    }
    if (anyUnwritten)
        l.entries.push_back({"not written", kNotWrittenColor});
    return l;
}

io::Rgba8Image overlayImage(std::span<const WhoRecord> records, int width, int height, OverlayMode mode,
                               const cuda::LaunchConfig& launch, std::uint8_t opacity, unsigned warpSize)
{
    if (width < 0 || height < 0 || std::size_t(width) * std::size_t(height) > records.size())
        throwUsage("teach::overlayImage", "an overlay of " + std::to_string(width) + " x " + std::to_string(height) +
                                              " needs that many records; there are " + std::to_string(records.size()));
    unsigned maxOrder = 0;
    for (const WhoRecord& r : records)
        if (r.writeCount)
            maxOrder = std::max(maxOrder, r.blockOrder);
    io::Rgba8Image img;
    img.width = width;
    img.height = height;
    img.pixels.resize(std::size_t(width) * std::size_t(height) * 4);
    for (std::size_t i = 0; i < std::size_t(width) * std::size_t(height); ++i) {
        Color c = kNotWrittenColor;
        if (records[i].writeCount) {
            c = overlayColor(mode, records[i], launch, maxOrder, warpSize);
            c.a = opacity;
        }
        img.pixels[4 * i + 0] = c.r;
        img.pixels[4 * i + 1] = c.g;
        img.pixels[4 * i + 2] = c.b;
        img.pixels[4 * i + 3] = c.a;
    }
    return img;
}

void blendOver(io::Rgba8Image& base, const io::Rgba8Image& overlay, float opacity)
{
    if (base.width != overlay.width || base.height != overlay.height || base.pixels.size() != overlay.pixels.size())
        throwUsage("teach::blendOver", "the overlay is " + std::to_string(overlay.width) + " x " +
                                           std::to_string(overlay.height) + " but the image is " +
                                           std::to_string(base.width) + " x " + std::to_string(base.height));
    const float k = std::clamp(opacity, 0.f, 1.f) / 255.f;
    for (std::size_t i = 0; i + 3 < base.pixels.size(); i += 4) {
        const float a = overlay.pixels[i + 3] * k;
        for (int c = 0; c < 3; ++c)
            base.pixels[i + c] = toByte((overlay.pixels[i + c] * a + base.pixels[i + c] * (1.f - a)) / 255.f);
        base.pixels[i + 3] = toByte((255.f * a + base.pixels[i + 3] * (1.f - a)) / 255.f);
    }
}

} // namespace ks::teach
