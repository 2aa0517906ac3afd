#pragma once
// Draws an image (a texture CUDA wrote) into a render target, fitted with its aspect ratio kept,
// over a checkerboard, as one compute pass (shaders/view_image.comp, which image views share). GLSL
// comes from the data root's shaders/ folder. Needs its GL context current for every call,
// construction and destruction included.

#include "ks/gl/objects.hpp"

#include <filesystem>

namespace ks::render {

// Where the image landed in the target, in target pixels (origin top-left).
struct FitRect {
    float x = 0, y = 0, width = 0, height = 0;
};

// The largest rectangle with the image's aspect that fits the target, centred.
FitRect fitKeepAspect(int imageWidth, int imageHeight, int targetWidth, int targetHeight);

// Runs view_image.comp's pass (program `p` in use, its source uniforms and textures set) over the
// whole of `target`, the image fitted into `fit`, and orders the writes before later reads of the
// target (sampling, read-back, blits).
void dispatchImagePass(const gl::ShaderProgram& p, const FitRect& fit, const gl::Framebuffer& target);

class ImageView {
public:
    ImageView() = default;
    explicit ImageView(const std::filesystem::path& shaderDir);

    // Draws `image` into `target` (its size), keeping the aspect ratio. Returns where it landed.
    FitRect draw(const gl::Texture2D& image, const gl::Framebuffer& target) const;

private:
    gl::ShaderProgram m_pass;
};

} // namespace ks::render
