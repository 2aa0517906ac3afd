// The headless EGL context comes up (Mesa's software device where there is no GPU), renders a
// known image read back by glReadPixels, and GL errors become exceptions naming the call.
#include "ks/core/error.hpp"
#include "ks/gl/objects.hpp"
#include "ks/io/image.hpp"
#include "ks/render/image_view.hpp"

#include "test_support.hpp"

#include <string>

using ks::test::GlTest;

TEST_F(GlTest, ContextIsOpenGL45Core)
{
    const ks::gl::ContextInfo info = ks::gl::contextInfo();
    EXPECT_NE(info.version.find("4."), std::string::npos) << info.version;
    GLint major = 0, minor = 0, profile = 0;
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    glGetIntegerv(GL_CONTEXT_PROFILE_MASK, &profile);
    EXPECT_TRUE(major > 4 || (major == 4 && minor >= 5)) << major << "." << minor;
    EXPECT_TRUE(profile & GL_CONTEXT_CORE_PROFILE_BIT);
    EXPECT_FALSE(m_egl.description().empty());
}

TEST_F(GlTest, ClearAndScissorReadBackExactly)
{
    ks::gl::Framebuffer fbo(64, 32);
    fbo.bind();
    glClearColor(1.f, 0.f, 0.f, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, 16, 8); // bottom-left corner in GL's coordinates
    glClearColor(0.f, 0.f, 1.f, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    const std::vector<std::uint8_t> px = fbo.readPixels(); // rows top to bottom
    auto at = [&](int x, int y) { return &px[(std::size_t(y) * 64 + std::size_t(x)) * 4]; };
    EXPECT_EQ(at(0, 0)[0], 255);  // top-left: red
    EXPECT_EQ(at(0, 0)[2], 0);
    EXPECT_EQ(at(0, 31)[2], 255); // bottom-left: blue (flipped into the last row)
    EXPECT_EQ(at(0, 31)[0], 0);
    EXPECT_EQ(at(15, 24)[2], 255);
    EXPECT_EQ(at(16, 24)[0], 255);
    EXPECT_EQ(at(15, 23)[0], 255);
}

TEST_F(GlTest, ImageViewDrawsATextureWithItsAspectAndOrientation)
{
    // A 4x2 texture, row 0 (the top) red-green-blue-white, row 1 black.
    const std::uint8_t texels[] = {255, 0,   0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255,
                                   0,   0,   0, 255, 0, 0,   0, 255, 0, 0, 0,   255, 0,   0,   0,   255};
    ks::gl::Texture2D tex(4, 2, GL_RGBA8, GL_NEAREST);
    tex.upload(GL_RGBA, GL_UNSIGNED_BYTE, texels);
    ks::render::ImageView view(ks::test::sourceDir() / "shaders");
    ks::gl::Framebuffer target(80, 80);
    const ks::render::FitRect fit = view.draw(tex, target);
    EXPECT_FLOAT_EQ(fit.width, 80.f);
    EXPECT_FLOAT_EQ(fit.height, 40.f);
    EXPECT_FLOAT_EQ(fit.y, 20.f);
    const auto px = target.readPixels();
    auto rgb = [&](int x, int y) {
        const std::uint8_t* p = &px[(std::size_t(y) * 80 + std::size_t(x)) * 4];
        return std::array<int, 3>{p[0], p[1], p[2]};
    };
    EXPECT_EQ(rgb(10, 30), (std::array<int, 3>{255, 0, 0}));     // top row, first texel
    EXPECT_EQ(rgb(30, 30), (std::array<int, 3>{0, 255, 0}));
    EXPECT_EQ(rgb(50, 30), (std::array<int, 3>{0, 0, 255}));
    EXPECT_EQ(rgb(70, 30), (std::array<int, 3>{255, 255, 255}));
    EXPECT_EQ(rgb(10, 50), (std::array<int, 3>{0, 0, 0}));       // bottom row
    const auto bg = rgb(40, 5);                                   // checkerboard above the image
    EXPECT_LT(bg[0], 60);
    EXPECT_GT(bg[0], 10);
}

TEST_F(GlTest, GlErrorsBecomeExceptionsNamingTheCall)
{
    try {
        KS_GL(glBindTexture(GL_FRAMEBUFFER, 0)); // not a texture target
        FAIL() << "no exception";
    } catch (const ks::Error& e) {
        EXPECT_EQ(e.domain(), ks::ErrorDomain::Gl);
        EXPECT_EQ(e.call(), "glBindTexture");
        EXPECT_EQ(e.codeName(), "GL_INVALID_ENUM");
        EXPECT_EQ(e.file(), "tests/gl/test_gl_egl_context.cpp");
    }
    EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR)) << "check() must drain the error queue";
}

TEST_F(GlTest, ShaderCompileErrorsCarryTheLog)
{
    try {
        ks::gl::ShaderProgram p("#version 450 core\nvoid main() { gl_Position = vec4(0); }\n",
                                "#version 450 core\nout vec4 c;\nvoid main() { c = undefined_thing; }\n", "broken.frag");
        FAIL() << "no exception";
    } catch (const ks::Error& e) {
        EXPECT_EQ(e.call(), "glCompileShader");
        EXPECT_NE(std::string(e.what()).find("broken.frag (fragment)"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("undefined_thing"), std::string::npos) << e.what();
    }
}

TEST_F(GlTest, PngRoundTripAndCompare)
{
    ks::io::Rgba8Image img{3, 2, {}};
    for (int i = 0; i < 24; ++i)
        img.pixels.push_back(std::uint8_t(i * 10));
    const auto path = std::filesystem::temp_directory_path() / "ks_png_roundtrip.png";
    ks::io::writePng(path, img);
    const ks::io::Rgba8Image back = ks::io::readPng(path);
    EXPECT_EQ(back.pixels, img.pixels);
    ks::io::Rgba8Image other = img;
    other.pixels[5] += 3;
    EXPECT_EQ(ks::io::compare(img, other, 2).mismatched, 1u);
    EXPECT_EQ(ks::io::compare(img, other, 3).mismatched, 0u);
    EXPECT_TRUE(ks::io::compare(img, other, 2).matches(1.0 / 6.0));
    EXPECT_FALSE(ks::io::compare(img, other, 2).matches(0.0));
    std::filesystem::remove(path);
}
