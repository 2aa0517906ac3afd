#include "shell_screen.hpp"

#include "frame_layout.hpp"

#include "ks/core/error.hpp"

#include <cstdlib>
#include <unistd.h>

namespace ks::app {

ShellScreen::ShellScreen()
{
    glCreateFramebuffers(1, &m_framebuffer);
}

ShellScreen::~ShellScreen()
{
    finishAll();
    glDeleteFramebuffers(1, &m_framebuffer);
}

std::optional<supervise::ShellGl> ShellScreen::shellGl()
{
    if (const char* e = std::getenv("KS_CPU_FRAMES"); e && *e && std::string(e) != "0")
        return std::nullopt;
    const std::optional<gl::MemoryIdentity> id = gl::memoryIdentity();
    if (!id)
        return std::nullopt;
    supervise::ShellGl g;
    g.devices = id->devices;
    g.driver = id->driver;
    // KS_FRAME_BUFFERS=1: frames read into buffers rather than rendered in place (the bench compares).
    const char* b = std::getenv("KS_FRAME_BUFFERS");
    g.textures = !(b && *b && std::string(b) != "0");
    return g;
}

void ShellScreen::import(const ShellLink::GpuFrameMemory& memory)
{
    finishAll();
    m_serial = 0;
    dropImports();
    auto descriptor = [&](std::size_t k) {
        const int fd = ::dup(memory.fds.at(k).get());
        if (fd < 0)
            throw Error(ErrorDomain::System, "dup", errno, "", "cannot hold the frame memory's descriptor");
        return fd;
    };
    if (memory.width > 0) {
        const gl::MemoryObject probe(descriptor(supervise::kGpuFrameSlots), memory.probeBytes);
        if (const std::string differs = supervise::checkProbe(probe.name()); !differs.empty())
            throw Error(ErrorDomain::Gl, "frame memory probe", 0, "", differs);
    }
    for (int k = 0; k < supervise::kGpuFrameSlots; ++k) {
        if (memory.width == 0) {
            m_slots[k] = gl::ImportedBuffer(descriptor(std::size_t(k)), memory.slotBytes); // takes the descriptor
            continue;
        }
        m_memory[k] = gl::MemoryObject(descriptor(std::size_t(k)), memory.slotBytes); // takes the descriptor
        m_textures[k] = gl::Texture2D::onMemory(m_memory[k].name(), 0, memory.width, memory.height, GL_RGBA8);
    }
    m_serial = memory.serial;
}

void ShellScreen::dropImports()
{
    for (int k = 0; k < supervise::kGpuFrameSlots; ++k) {
        m_textures[k] = gl::Texture2D(); // before the memory under it
        m_memory[k] = gl::MemoryObject();
        m_slots[k] = gl::ImportedBuffer();
    }
}

bool ShellScreen::take(const ShellLink::Frame& frame, ShellLink& link)
{
    if (frame.gpuMemory != 0 && frame.gpuMemory != m_serial) {
        const std::optional<ShellLink::GpuFrameMemory>& memory = link.gpuFrameMemory();
        const bool inPlace = memory && memory->width > 0;
        try {
            if (!memory || memory->serial != frame.gpuMemory)
                throw Error(ErrorDomain::Usage, "ShellScreen::take", 0, "", "the frame's GPU memory is gone");
            import(*memory);
        } catch (const Error& e) {
            dropImports();
            m_serial = 0;
            if (inPlace)
                link.refuseGpuTextures(e.what());
            else
                link.refuseGpuFrames(e.what());
            return false;
        }
    }
    if (frame.width != m_width || frame.height != m_height) {
        m_texture = gl::Texture2D(frame.width, frame.height, GL_RGBA8, GL_NEAREST);
        m_width = frame.width;
        m_height = frame.height;
        glNamedFramebufferTexture(m_framebuffer, GL_COLOR_ATTACHMENT0, m_texture.name(), 0);
    }
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    if (frame.gpuMemory != 0) {
        if (!m_textures[frame.slot].empty()) {
            glCopyImageSubData(m_textures[frame.slot].name(), GL_TEXTURE_2D, 0, 0, 0, 0, m_texture.name(),
                               GL_TEXTURE_2D, 0, 0, 0, 0, frame.width, frame.height, 1);
        } else {
            glBindBuffer(GL_PIXEL_UNPACK_BUFFER, m_slots[frame.slot].buffer());
            glTextureSubImage2D(m_texture.name(), 0, 0, 0, frame.width, frame.height, GL_RGBA, GL_UNSIGNED_BYTE,
                                nullptr);
            glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
        }
        m_read[frame.slot] = gl::Fence::insert();
        m_newest = frame.slot;
    } else {
        glTextureSubImage2D(m_texture.name(), 0, 0, 0, frame.width, frame.height, GL_RGBA, GL_UNSIGNED_BYTE,
                            frame.pixels);
    }
    return true;
}

void ShellScreen::finishReading()
{
    for (int k = 0; k < supervise::kGpuFrameSlots; ++k)
        if (k != m_newest && !m_read[k].empty()) {
            m_read[k].wait(std::chrono::microseconds::max());
            m_read[k] = gl::Fence();
        }
}

void ShellScreen::finishAll()
{
    m_newest = -1;
    finishReading();
}

void ShellScreen::blit(int targetHeight) const
{
    if (m_width > 0)
        glBlitNamedFramebuffer(m_framebuffer, 0, 0, 0, m_width, m_height, 0, targetHeight - m_height, m_width,
                               targetHeight, GL_COLOR_BUFFER_BIT, GL_NEAREST);
}

} // namespace ks::app
