#pragma once
// Image files (stb_image / stb_image_write from libstb): PNG screenshots and reference images as
// RGBA8, and any image stb_image decodes (PNG, JPEG, BMP, TGA, GIF, PSD, HDR, PIC, PNM) as typed
// data for buffers and textures.

#include "ks/io/host_array.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace ks::io {

struct Rgba8Image {
    int width = 0, height = 0;
    std::vector<std::uint8_t> pixels; // RGBA, rows top to bottom
};

// Throws ks::Error (System) naming the path when the file cannot be written.
void writePng(const std::filesystem::path& path, const Rgba8Image& image);
// Throws ks::Error (System) naming the path when the file cannot be read or decoded.
Rgba8Image readPng(const std::filesystem::path& path);

// The CUDA samples' compareData semantics: a pixel mismatches when any channel differs by more
// than `epsilon`; the images match when at most `allowedFraction` of the pixels mismatch.
struct CompareResult {
    bool sameSize = false;
    std::size_t mismatched = 0;
    std::size_t total = 0;
    int maxDifference = 0;
    bool matches(double allowedFraction) const
    {
        return sameSize && double(mismatched) <= allowedFraction * double(total);
    }
};
CompareResult compare(const Rgba8Image& a, const Rgba8Image& b, int epsilon);

// What an image file holds, from its header alone.
struct ImageInfo {
    int width = 0, height = 0;
    int channels = 0;          // 1 gray, 2 gray + alpha, 3 RGB, 4 RGBA
    Dtype dtype = Dtype::uint8(); // uint8, uint16 (16-bit PNG, PNM, PSD) or float32 (HDR)
    int bits() const noexcept { return 8 * dtype.size; }
};

struct ImageOptions {
    int channels = 0;           // 0: as in the file; 1..4: converted by stb_image (1 for gray, 4 for RGBA)
    bool flipVertically = false; // false: rows top to bottom, as stored; true: bottom row first (GL's origin)
    std::uint64_t maxBytes = std::uint64_t(4) << 30; // larger decoded images are refused before decoding
};

// Reads the header only (stbi_info): size, channels and depth, without decoding. Throws ks::Error
// (Usage) naming the file and stb_image's reason when it is no image stb_image reads; (System) when
// it cannot be read.
ImageInfo probeImage(const std::filesystem::path& path);

// The decoded pixels: uint8, uint16 or float32 as ImageInfo says, shape (height, width) for one
// channel, else (height, width, channels). Throws ks::Error naming the file and stb_image's reason
// (Usage), or the decoded size against options.maxBytes, or why the file cannot be read (System).
HostArray readImage(const std::filesystem::path& path, const ImageOptions& options = {});

} // namespace ks::io
