#include "ks/gl/objects.hpp"

#include "ks/core/error.hpp"
#include "ks/gl/memory_object.hpp"

#include <chrono>
#include <cstring>
#include <thread>
#include <initializer_list>

namespace ks::gl {

void BufferTraits::destroy(GLuint h) noexcept { glDeleteBuffers(1, &h); }
void TextureTraits::destroy(GLuint h) noexcept { glDeleteTextures(1, &h); }
void ProgramTraits::destroy(GLuint h) noexcept { glDeleteProgram(h); }
void FramebufferTraits::destroy(GLuint h) noexcept { glDeleteFramebuffers(1, &h); }
void RenderbufferTraits::destroy(GLuint h) noexcept { glDeleteRenderbuffers(1, &h); }
void VertexArrayTraits::destroy(GLuint h) noexcept { glDeleteVertexArrays(1, &h); }

Buffer::Buffer(std::size_t bytes, const void* data) : m_size(bytes)
{
    GLuint b = 0;
    KS_GL(glCreateBuffers(1, &b));
    m_name.reset(b);
    KS_GL(glNamedBufferData(b, GLsizeiptr(bytes), data, GL_DYNAMIC_DRAW));
}

void Buffer::upload(const void* data, std::size_t bytes, std::size_t offset)
{
    if (offset + bytes > m_size)
        throwUsage("gl::Buffer::upload", "range exceeds the buffer's " + std::to_string(m_size) + " bytes");
    KS_GL(glNamedBufferSubData(name(), GLintptr(offset), GLsizeiptr(bytes), data));
}

void Buffer::download(void* data, std::size_t bytes, std::size_t offset) const
{
    if (offset + bytes > m_size)
        throwUsage("gl::Buffer::download", "range exceeds the buffer's " + std::to_string(m_size) + " bytes");
    KS_GL(glGetNamedBufferSubData(name(), GLintptr(offset), GLsizeiptr(bytes), data));
}

Texture2D::Texture2D(int width, int height, GLenum internalFormat, GLenum filter)
    : m_width(width), m_height(height), m_format(internalFormat)
{
    if (width <= 0 || height <= 0)
        throwUsage("gl::Texture2D", "texture size must be positive, got " + std::to_string(width) + "x" +
                                        std::to_string(height));
    GLuint t = 0;
    KS_GL(glCreateTextures(GL_TEXTURE_2D, 1, &t));
    m_name.reset(t);
    KS_GL(glTextureStorage2D(t, 1, internalFormat, width, height));
    glTextureParameteri(t, GL_TEXTURE_MIN_FILTER, GLint(filter));
    glTextureParameteri(t, GL_TEXTURE_MAG_FILTER, GLint(filter));
    glTextureParameteri(t, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    KS_GL(glTextureParameteri(t, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE));
}

Texture2D Texture2D::onMemory(GLuint memoryObject, std::uint64_t offset, int width, int height,
                              GLenum internalFormat, GLenum filter)
{
    if (width <= 0 || height <= 0)
        throwUsage("gl::Texture2D::onMemory", "texture size must be positive, got " + std::to_string(width) + "x" +
                                                  std::to_string(height));
    if (!GLAD_GL_EXT_memory_object)
        throw Error(ErrorDomain::Gl, "glTextureStorageMem2DEXT", 0, "", "the GL driver lacks GL_EXT_memory_object");
    Texture2D t;
    t.m_width = width;
    t.m_height = height;
    t.m_format = internalFormat;
    GLuint name = 0;
    KS_GL(glCreateTextures(GL_TEXTURE_2D, 1, &name));
    t.m_name.reset(name);
    glTextureParameteri(name, GL_TEXTURE_TILING_EXT, GL_OPTIMAL_TILING_EXT);
    clearErrors();
    glTextureStorageMem2DEXT(name, 1, internalFormat, width, height, memoryObject, GLuint64(offset));
    const std::string what = "glTextureStorageMem2DEXT (a " + std::to_string(width) + "x" + std::to_string(height) +
                             " texture on imported memory at offset " + std::to_string(offset) + ")";
    check(what.c_str());
    glTextureParameteri(name, GL_TEXTURE_MIN_FILTER, GLint(filter));
    glTextureParameteri(name, GL_TEXTURE_MAG_FILTER, GLint(filter));
    glTextureParameteri(name, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    KS_GL(glTextureParameteri(name, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE));
    return t;
}

void Texture2D::upload(GLenum format, GLenum type, const void* pixels)
{
    KS_GL(glTextureSubImage2D(name(), 0, 0, 0, m_width, m_height, format, type, pixels));
}

void Texture2D::download(GLenum format, GLenum type, void* pixels, std::size_t bytes) const
{
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    KS_GL(glGetTextureImage(name(), 0, format, type, GLsizei(bytes), pixels));
}

namespace {

const char* stageName(GLenum stage)
{
    switch (stage) {
    case GL_VERTEX_SHADER: return " (vertex)";
    case GL_COMPUTE_SHADER: return " (compute)";
    default: return " (fragment)";
    }
}

GLuint compileStage(GLenum stage, const std::string& source, const std::string& label)
{
    GLuint s = glCreateShader(stage);
    const char* src = source.c_str();
    glShaderSource(s, 1, &src, nullptr);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        GLint len = 0;
        glGetShaderiv(s, GL_INFO_LOG_LENGTH, &len);
        std::string log(std::size_t(len > 0 ? len : 1), '\0');
        glGetShaderInfoLog(s, len, nullptr, log.data());
        glDeleteShader(s);
        throw Error(ErrorDomain::Gl, "glCompileShader", 0, "",
                    label + stageName(stage) + ": " + log.c_str());
    }
    return s;
}

// Links the compiled stages into a new program (and deletes them); throws with the link log.
GLuint linkProgram(std::initializer_list<GLuint> stages, const std::string& label)
{
    GLuint p = glCreateProgram();
    for (GLuint s : stages)
        glAttachShader(p, s);
    glLinkProgram(p);
    for (GLuint s : stages) {
        glDetachShader(p, s);
        glDeleteShader(s);
    }
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        GLint len = 0;
        glGetProgramiv(p, GL_INFO_LOG_LENGTH, &len);
        std::string log(std::size_t(len > 0 ? len : 1), '\0');
        glGetProgramInfoLog(p, len, nullptr, log.data());
        glDeleteProgram(p);
        throw Error(ErrorDomain::Gl, "glLinkProgram", 0, "", label + ": " + log.c_str());
    }
    check("glLinkProgram");
    return p;
}

} // namespace

ShaderProgram::ShaderProgram(const std::string& vs, const std::string& fs, const std::string& label)
{
    GLuint v = compileStage(GL_VERTEX_SHADER, vs, label);
    GLuint f = 0;
    try {
        f = compileStage(GL_FRAGMENT_SHADER, fs, label);
    } catch (...) {
        glDeleteShader(v);
        throw;
    }
    m_name.reset(linkProgram({v, f}, label));
}

ShaderProgram ShaderProgram::compute(const std::string& cs, const std::string& label)
{
    ShaderProgram program;
    program.m_name.reset(linkProgram({compileStage(GL_COMPUTE_SHADER, cs, label)}, label));
    return program;
}

VertexArray::VertexArray(Create)
{
    GLuint v = 0;
    KS_GL(glCreateVertexArrays(1, &v));
    m_name.reset(v);
}

Framebuffer::Framebuffer(int width, int height) : Framebuffer(Texture2D(width, height, GL_RGBA8)) {}

Framebuffer::Framebuffer(Texture2D color) : m_color(std::move(color))
{
    const int width = m_color.width(), height = m_color.height();
    GLuint f = 0, d = 0;
    KS_GL(glCreateFramebuffers(1, &f));
    m_name.reset(f);
    KS_GL(glCreateRenderbuffers(1, &d));
    m_depth.reset(d);
    KS_GL(glNamedRenderbufferStorage(d, GL_DEPTH24_STENCIL8, width, height));
    glNamedFramebufferTexture(f, GL_COLOR_ATTACHMENT0, m_color.name(), 0);
    KS_GL(glNamedFramebufferRenderbuffer(f, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, d));
    GLenum status = glCheckNamedFramebufferStatus(f, GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE)
        throw Error(ErrorDomain::Gl, "glCheckNamedFramebufferStatus", status, "",
                    "framebuffer of " + std::to_string(width) + "x" + std::to_string(height) + " is incomplete");
}

void Framebuffer::bind() const
{
    glBindFramebuffer(GL_FRAMEBUFFER, name());
    KS_GL(glViewport(0, 0, width(), height()));
}

void finishPolled()
{
    Fence::insert().wait(std::chrono::microseconds::max());
}

PixelReader::~PixelReader()
{
    if (m_buffer)
        glDeleteBuffers(1, &m_buffer);
}

void PixelReader::read(int x, int y, int width, int height, void* dst)
{
    const std::size_t bytes = std::size_t(width) * std::size_t(height) * 4;
    if (bytes == 0)
        return;
    if (bytes > m_bytes) {
        if (m_buffer)
            glDeleteBuffers(1, &m_buffer);
        glCreateBuffers(1, &m_buffer);
        KS_GL(glNamedBufferStorage(m_buffer, GLsizeiptr(bytes), nullptr, GL_MAP_READ_BIT | GL_CLIENT_STORAGE_BIT));
        m_bytes = bytes;
    }
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, m_buffer);
    KS_GL(glReadPixels(x, y, width, height, GL_RGBA, GL_UNSIGNED_BYTE, nullptr));
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    finishPolled();
    const void* mapped = glMapNamedBufferRange(m_buffer, 0, GLsizeiptr(bytes), GL_MAP_READ_BIT);
    if (!mapped)
        throw Error(ErrorDomain::Gl, "glMapNamedBufferRange", int(glGetError()), "", "could not map the pixel buffer");
    std::memcpy(dst, mapped, bytes);
    glUnmapNamedBuffer(m_buffer);
}

std::vector<std::uint8_t> readPixelsTopDown(int x, int y, int width, int height)
{
    std::vector<std::uint8_t> pixels(std::size_t(width) * height * 4);
    PixelReader reader;
    reader.read(x, y, width, height, pixels.data());
    const std::size_t row = std::size_t(width) * 4;
    std::vector<std::uint8_t> tmp(row);
    for (int r = 0; r < height / 2; ++r) {
        std::uint8_t* a = pixels.data() + std::size_t(r) * row;
        std::uint8_t* b = pixels.data() + std::size_t(height - 1 - r) * row;
        std::memcpy(tmp.data(), a, row);
        std::memcpy(a, b, row);
        std::memcpy(b, tmp.data(), row);
    }
    return pixels;
}

std::vector<std::uint8_t> Framebuffer::readPixels() const
{
    glBindFramebuffer(GL_READ_FRAMEBUFFER, name());
    auto pixels = readPixelsTopDown(0, 0, width(), height());
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    return pixels;
}

} // namespace ks::gl
