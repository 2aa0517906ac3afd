#pragma once
// Colour maps for scalar data: viridis, magma, inferno, plasma, gray, coolwarm, turbo. Evaluated on
// the CPU (piecewise linear through control points close to the published maps) and uploaded as a
// 256 x 1 RGBA8 texture the view shaders sample.

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace ks::render {

// The names colourmap() knows, in the UI's order.
const std::vector<std::string_view>& colormapNames();
bool isColormap(std::string_view name);

// RGB in [0, 1] at `t` (clamped to [0, 1]); an unknown name gives gray.
std::array<float, 3> colormap(std::string_view name, float t);

// `n` RGBA8 texels from t = 0 to t = 1.
std::vector<std::uint8_t> colormapTexels(std::string_view name, int n = 256);

// Scalar to [0, 1] for the colour map: (v * scale - lo) / (hi - lo), clamped; 0.5 when hi == lo.
float normalizeValue(float v, float lo, float hi, float scale = 1.f);

} // namespace ks::render
