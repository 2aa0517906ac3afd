#pragma once
// "Who wrote it" overlays: each output element coloured by the thread that wrote it, from the
// records of the ks_who_ variant (ks/teach/instrument.hpp), with a legend per mode. Host code that
// produces an RGBA8 image to blend over the result (a view uploads it as a texture); no device.

#include "ks/cuda/module.hpp"
#include "ks/io/image.hpp"

#include <ks_device/records.cuh>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ks::teach {

enum class OverlayMode {
    BlockIdx,       // one hue per block (the default demo's block hues)
    ThreadIdx,      // red = threadIdx.x, green = threadIdx.y, blue = threadIdx.z, over the block
    LinearThreadId, // the global linear thread index, dark to bright over the launch
    Warp,           // one hue per warp of a block
    Lane,           // lane 0..31, dark to bright
    Sm,             // one hue per SM
    BlockOrder,     // the order in which blocks started, dark (first) to bright (last)
    WriteCount,     // green: written once, orange: twice, red: more (a race or a reduction)
};
inline constexpr OverlayMode kOverlayModes[] = {OverlayMode::BlockIdx, OverlayMode::ThreadIdx,
                                                OverlayMode::LinearThreadId, OverlayMode::Warp,
                                                OverlayMode::Lane, OverlayMode::Sm,
                                                OverlayMode::BlockOrder, OverlayMode::WriteCount};

std::string_view overlayModeName(OverlayMode mode); // "blockIdx", "threadIdx", ...
// The mode named `name`, ignoring case, spaces, '-' and '_' ("write-count", "WriteCount",
// "block start order"); nullopt for anything else.
std::optional<OverlayMode> parseOverlayMode(std::string_view name);

struct Color {
    std::uint8_t r = 0, g = 0, b = 0, a = 255;
    friend bool operator==(const Color&, const Color&) = default;
};

// An element nobody wrote: dark grey, mostly opaque, so holes in the coverage stand out.
inline constexpr Color kNotWrittenColor{48, 48, 48, 200};

// Distinct colours for ids (neighbouring ids differ clearly): golden-ratio hue steps.
Color categoricalColor(unsigned long long id);
// 0..1 to a perceptually ordered dark-blue -> green -> yellow ramp; clamps outside.
Color sequentialColor(double t);

// The thread that wrote an element, with everything derived from the record and the launch.
struct Writer {
    cuda::Dim3 blockIdx, threadIdx;
    unsigned long long linearBlock = 0;  // blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)
    unsigned threadInBlock = 0;          // threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)
    unsigned long long globalThread = 0; // linearBlock * threads per block + threadInBlock
    unsigned warp = 0, lane = 0;         // as recorded on the device
    unsigned sm = 0, blockOrder = 0, writeCount = 0;
};
Writer writerOf(const WhoRecord& record, const cuda::LaunchConfig& launch);

// The colour of a written element in `mode` (ignores writeCount == 0: see overlayImage).
Color overlayColor(OverlayMode mode, const WhoRecord& record, const cuda::LaunchConfig& launch,
                   unsigned maxBlockOrder, unsigned warpSize = 32);

struct LegendEntry {
    std::string label;
    Color color;
};
struct Legend {
    std::string title;       // "blockIdx: one colour per block"
    bool continuous = false; // entries are stops of a ramp rather than categories
    std::vector<LegendEntry> entries;
};
// The legend of `mode` for these records: categories seen (up to maxEntries, then "... N more"),
// or ramp stops; always ends with the not-written entry when some element was not written.
Legend overlayLegend(OverlayMode mode, std::span<const WhoRecord> records, const cuda::LaunchConfig& launch,
                     std::size_t maxEntries = 12, unsigned warpSize = 32);

// The overlay image of `records` laid out as width x height (row-major, element = y * width + x);
// written elements get their mode colour with alpha `opacity`, unwritten ones kNotWrittenColor.
// Throws ks::Error (Usage) when width * height exceeds the records.
io::Rgba8Image overlayImage(std::span<const WhoRecord> records, int width, int height, OverlayMode mode,
                               const cuda::LaunchConfig& launch, std::uint8_t opacity = 255, unsigned warpSize = 32);

// Blends `overlay` over `base` in place ("over" with the overlay's alpha scaled by `opacity`).
// Throws ks::Error (Usage) when the sizes differ.
void blendOver(io::Rgba8Image& base, const io::Rgba8Image& overlay, float opacity = 1.0f);

} // namespace ks::teach
