#pragma once
// PNG files for screenshots and reference images (stb_image / stb_image_write from libstb).

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

} // namespace ks::io
