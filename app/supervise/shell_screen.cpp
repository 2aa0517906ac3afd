#include "supervise/shell_screen.hpp"

#include "supervise/frame_layout.hpp"

#include "ks/core/error.hpp"

#include <cstdlib>
#include <unistd.h>

namespace ks::app {

ShellScreen::ShellScreen()
{
    glCreateFramebuffers(1, &m_framebuffer);
    glCreateFramebuffers(supervise::kGpuFrameSlots, m_slotFramebuffers);
}

ShellScreen::~ShellScreen()
{
    finishAll();
    glDeleteFramebuffers(supervise::kGpuFrameSlots, m_slotFramebuffers);
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
        glNamedFramebufferTexture(m_slotFramebuffers[k], GL_COLOR_ATTACHMENT0, m_textures[k].name(), 0);
    }
    m_serial = memory.serial;
}

void ShellScreen::dropImports()
{
    m_inPlace = false;
    for (int k = 0; k < supervise::kGpuFrameSlots; ++k) {
        glNamedFramebufferTexture(m_slotFramebuffers[k], GL_COLOR_ATTACHMENT0, 0, 0);
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
    m_width = frame.width;
    m_height = frame.height;
    if (frame.gpuMemory != 0 && !m_textures[frame.slot].empty()) {
        // Rendered in place: shown from the slot's texture (blit() fences its reads of it).
        m_inPlace = true;
        m_newest = frame.slot;
        return true;
    }
    m_inPlace = false;
    if (m_texture.empty() || m_texture.width() != frame.width || m_texture.height() != frame.height) {
        m_texture = gl::Texture2D(frame.width, frame.height, GL_RGBA8, GL_NEAREST);
        glNamedFramebufferTexture(m_framebuffer, GL_COLOR_ATTACHMENT0, m_texture.name(), 0);
    }
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    if (frame.gpuMemory != 0) {
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, m_slots[frame.slot].buffer());
        glTextureSubImage2D(m_texture.name(), 0, 0, 0, frame.width, frame.height, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
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

void ShellScreen::blit(int targetHeight, GLuint target)
{
    if (m_width <= 0)
        return;
    const bool slot = m_inPlace && m_newest >= 0;
    glBlitNamedFramebuffer(slot ? m_slotFramebuffers[m_newest] : m_framebuffer, target, 0, 0, m_width, m_height, 0,
                           targetHeight - m_height, m_width, targetHeight, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    if (slot)
        m_read[m_newest] = gl::Fence::insert(); // the worker may write this slot again once it is done
}

} // namespace ks::app
