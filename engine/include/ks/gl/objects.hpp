#pragma once
// Move-only owners of GL objects (direct state access, GL 4.5). Create and destroy them with their
// GL context current on the calling thread. A moved-from or default-constructed object is empty
// (name 0) and its destructor does nothing.

#include "ks/core/unique_handle.hpp"
#include "ks/gl/gl.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ks::gl {

#define KS_GL_NAME_TRAITS(Type)                                                                            \
    struct Type##Traits {                                                                                  \
        using Handle = GLuint;                                                                             \
        static constexpr Handle empty() { return 0; }                                                      \
        static void destroy(Handle h) noexcept;                                                            \
    };
KS_GL_NAME_TRAITS(Buffer)
KS_GL_NAME_TRAITS(Texture)
KS_GL_NAME_TRAITS(Program)
KS_GL_NAME_TRAITS(Framebuffer)
KS_GL_NAME_TRAITS(Renderbuffer)
KS_GL_NAME_TRAITS(VertexArray)
#undef KS_GL_NAME_TRAITS

class Buffer {
public:
    Buffer() noexcept = default;
    // A buffer of `bytes` (contents from `data` if not null), GL_DYNAMIC_DRAW usage.
    explicit Buffer(std::size_t bytes, const void* data = nullptr);
    GLuint name() const noexcept { return m_name.get(); }
    bool empty() const noexcept { return m_name.empty(); }
    std::size_t size() const noexcept { return m_size; }
    void upload(const void* data, std::size_t bytes, std::size_t offset = 0);
    void download(void* data, std::size_t bytes, std::size_t offset = 0) const;

private:
    UniqueHandle<BufferTraits> m_name;
    std::size_t m_size = 0;
};

// A byte range of a GL buffer (not owned): what a shader storage binding or a vertex fetch reads.
struct BufferRange {
    GLuint name = 0;
    std::size_t offset = 0, size = 0;
    bool empty() const noexcept { return name == 0; }
};

class Texture2D {
public:
    Texture2D() noexcept = default;
    // Immutable storage, one mip level. `internalFormat`: GL_RGBA8, GL_R32F, GL_RGBA32F, ...
    Texture2D(int width, int height, GLenum internalFormat, GLenum filter = GL_LINEAR);
    // Storage from `offset` bytes into an imported memory object (GL_EXT_memory_object, optimal
    // tiling): two GL contexts of one driver that make the same texture on the same memory see the
    // same pixels. Throws ks::Error (Gl) when GL refuses (the memory too small, no extension).
    static Texture2D onMemory(GLuint memoryObject, std::uint64_t offset, int width, int height,
                              GLenum internalFormat, GLenum filter = GL_NEAREST);
    GLuint name() const noexcept { return m_name.get(); }
    bool empty() const noexcept { return m_name.empty(); }
    int width() const noexcept { return m_width; }
    int height() const noexcept { return m_height; }
    GLenum internalFormat() const noexcept { return m_format; }
    void upload(GLenum format, GLenum type, const void* pixels);
    // Reads level 0 into `pixels` (glGetTextureImage).
    void download(GLenum format, GLenum type, void* pixels, std::size_t bytes) const;

private:
    UniqueHandle<TextureTraits> m_name;
    int m_width = 0, m_height = 0;
    GLenum m_format = 0;
};

class ShaderProgram {
public:
    ShaderProgram() noexcept = default;
    // Compiles and links; throws ks::Error with the GLSL log, labelled with `label` (usually the
    // shader file name), on failure.
    ShaderProgram(const std::string& vertexSource, const std::string& fragmentSource, const std::string& label);
    // A compute program; throws like the constructor.
    static ShaderProgram compute(const std::string& computeSource, const std::string& label);
    GLuint name() const noexcept { return m_name.get(); }
    bool empty() const noexcept { return m_name.empty(); }
    GLint uniform(const char* name) const { return glGetUniformLocation(this->name(), name); }

private:
    UniqueHandle<ProgramTraits> m_name;
};

class VertexArray {
public:
    VertexArray() noexcept = default;
    struct Create {};
    explicit VertexArray(Create);
    GLuint name() const noexcept { return m_name.get(); }
    bool empty() const noexcept { return m_name.empty(); }

private:
    UniqueHandle<VertexArrayTraits> m_name;
};

// An offscreen render target: an RGBA8 colour texture plus a depth renderbuffer.
class Framebuffer {
public:
    Framebuffer() noexcept = default;
    Framebuffer(int width, int height);
    // Draws into `color` (RGBA8), which it keeps, with a depth-stencil buffer of its own.
    explicit Framebuffer(Texture2D color);
    GLuint name() const noexcept { return m_name.get(); }
    bool empty() const noexcept { return m_name.empty(); }
    int width() const noexcept { return m_color.width(); }
    int height() const noexcept { return m_color.height(); }
    const Texture2D& color() const noexcept { return m_color; }
    void bind() const; // binds for drawing and sets the viewport
    // RGBA8 pixels, rows top to bottom (flipped from GL's bottom-up order).
    std::vector<std::uint8_t> readPixels() const;

private:
    UniqueHandle<FramebufferTraits> m_name;
    Texture2D m_color;
    UniqueHandle<RenderbufferTraits> m_depth;
};

// Reads RGBA8 pixels of the currently bound read framebuffer, rows top to bottom.
std::vector<std::uint8_t> readPixelsTopDown(int x, int y, int width, int height);

// Waits until GL has finished every command issued so far by polling a fence (glClientWaitSync
// with a zero timeout, yielding between polls) rather than by a blocking wait. Tried against the
// stall of every GL wait that the lent H100 shows after any kernel has faulted (docs/supervision.md):
// it did not help there (the GL work itself does not finish). Throws ks::Error (Gl).
void finishPolled();

// Reads RGBA8 pixels of the bound read framebuffer, rows bottom to top (GL's order), into `dst`
// through a pixel-pack buffer and finishPolled(). Keeps the buffer between reads.
class PixelReader {
public:
    PixelReader() = default;
    ~PixelReader();
    PixelReader(const PixelReader&) = delete;
    PixelReader& operator=(const PixelReader&) = delete;
    void read(int x, int y, int width, int height, void* dst);

private:
    GLuint m_buffer = 0;
    std::size_t m_bytes = 0;
};

} // namespace ks::gl
