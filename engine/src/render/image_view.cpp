#include "ks/render/image_view.hpp"

#include "ks/core/paths.hpp"

#include <algorithm>

namespace ks::render {

FitRect fitKeepAspect(int iw, int ih, int tw, int th)
{
    if (iw <= 0 || ih <= 0 || tw <= 0 || th <= 0)
        return {};
    const float scale = std::min(float(tw) / float(iw), float(th) / float(ih));
    FitRect r;
    r.width = float(iw) * scale;
    r.height = float(ih) * scale;
    r.x = (float(tw) - r.width) * 0.5f;
    r.y = (float(th) - r.height) * 0.5f;
    return r;
}

void dispatchImagePass(const gl::ShaderProgram& p, const FitRect& fit, const gl::Framebuffer& target)
{
    // The fit is in target pixels from the top; the pass works in GL's pixels from the bottom.
    const int tw = target.width(), th = target.height();
    glUniform4f(p.uniform("u_fit"), fit.x, float(th) - fit.y - fit.height, fit.width, fit.height);
    glUniform2i(p.uniform("u_targetSize"), tw, th);
    glBindImageTexture(0, target.color().name(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    glDispatchCompute(GLuint((tw + 15) / 16), GLuint((th + 15) / 16), 1);
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
    glBindImageTexture(0, 0, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
}

ImageView::ImageView(const std::filesystem::path& shaderDir)
    : m_pass(gl::ShaderProgram::compute(paths::readTextFile(shaderDir / "view_image.comp"), "shaders/view_image.comp"))
{
}

FitRect ImageView::draw(const gl::Texture2D& image, const gl::Framebuffer& target) const
{
    const FitRect fit = fitKeepAspect(image.width(), image.height(), target.width(), target.height());
    glUseProgram(m_pass.name());
    glUniform1i(m_pass.uniform("u_mode"), 0);
    glUniform1i(m_pass.uniform("u_hasOverlay"), 0);
    glUniform1i(m_pass.uniform("u_image"), 0);
    glUniform1i(m_pass.uniform("u_colormap"), 1);
    glUniform1i(m_pass.uniform("u_overlay"), 2);
    // Every sampler needs a complete texture bound, used or not.
    glBindTextureUnit(0, image.name());
    glBindTextureUnit(1, image.name());
    glBindTextureUnit(2, image.name());
    dispatchImagePass(m_pass, fit, target);
    glUseProgram(0);
    gl::check("ImageView::draw");
    return fit;
}

} // namespace ks::render
