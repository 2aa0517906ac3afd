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

ImageView::ImageView(const std::filesystem::path& shaderDir) : m_vao(gl::VertexArray::Create{})
{
    const std::string vs = paths::readTextFile(shaderDir / "fullscreen.vert");
    m_image = gl::ShaderProgram(vs, paths::readTextFile(shaderDir / "image.frag"), "shaders/image.frag");
    m_checker = gl::ShaderProgram(vs, paths::readTextFile(shaderDir / "checker.frag"), "shaders/checker.frag");
}

FitRect ImageView::draw(const gl::Texture2D& image, const gl::Framebuffer& target) const
{
    target.bind();
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glBindVertexArray(m_vao.name());

    glUseProgram(m_checker.name());
    glUniform4f(m_checker.uniform("u_rect"), -1.f, -1.f, 1.f, 1.f);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);

    const FitRect fit = fitKeepAspect(image.width(), image.height(), target.width(), target.height());
    // Target pixels (top-left origin) to NDC (bottom-left origin, y up).
    const float x0 = fit.x / float(target.width()) * 2.f - 1.f;
    const float x1 = (fit.x + fit.width) / float(target.width()) * 2.f - 1.f;
    const float y0 = 1.f - (fit.y + fit.height) / float(target.height()) * 2.f;
    const float y1 = 1.f - fit.y / float(target.height()) * 2.f;
    glUseProgram(m_image.name());
    glBindTextureUnit(0, image.name());
    glUniform1i(m_image.uniform("u_image"), 0);
    glUniform4f(m_image.uniform("u_rect"), x0, y0, x1, y1);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);

    glBindVertexArray(0);
    glUseProgram(0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    gl::check("ImageView::draw");
    return fit;
}

} // namespace ks::render
