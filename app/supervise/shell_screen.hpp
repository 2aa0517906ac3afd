#pragma once
// The shell's picture of its worker's frames (docs/architecture.md, "Processes"). A frame the
// worker rendered in place, into a texture on GPU frame memory both GL contexts import, is shown
// straight from that texture: no copy, one blit to the window. A frame read into a buffer of that
// memory (a copy on the GPU) or sent in CPU memory (an upload) goes into a GL texture of the
// shell's own first. Needs the shell's GL context current.

#include "supervise/protocol.hpp"
#include "supervise/shell_link.hpp"

#include "ks/gl/memory_object.hpp"
#include "ks/gl/objects.hpp"

#include <cstdint>
#include <optional>

namespace ks::app {

class ShellScreen {
public:
    ShellScreen();
    ~ShellScreen();
    ShellScreen(const ShellScreen&) = delete;
    ShellScreen& operator=(const ShellScreen&) = delete;

    // What this GL context says of itself for ShellLink::Config::shellGl; nullopt when it cannot
    // import memory, or when KS_CPU_FRAMES=1 asks for frames through CPU memory.
    static std::optional<supervise::ShellGl> shellGl();

    // Makes `frame` the one shown: its slot's texture when rendered in place, else copied into the
    // shell's texture. A frame in GPU memory that this context cannot import or read as the worker
    // wrote it is not shown: the link is told (ShellLink::refuseGpuFrames, or refuseGpuTextures
    // for frames rendered in place) and false returned.
    bool take(const ShellLink::Frame& frame, ShellLink& link);
    // Waits until GL has finished reading every slot of the GPU frame memory but the newest frame's
    // (its copies, its blits): call it before asking for a frame (protocol.hpp, FrameMemory).
    // Usually returns at once: those reads were issued a frame or more ago.
    void finishReading();
    // Draws the frame, pixel for pixel, at the top left of framebuffer `target` (0: the window's)
    // of height `targetHeight` (both bottom-up).
    void blit(int targetHeight, GLuint target = 0);

    // The texture shown (a slot's for a frame rendered in place, else the shell's own).
    GLuint texture() const noexcept
    {
        return m_inPlace && m_newest >= 0 ? m_textures[m_newest].name() : m_texture.name();
    }
    int width() const noexcept { return m_width; }
    int height() const noexcept { return m_height; }
    bool throughGpuMemory() const noexcept { return m_serial != 0; }
    bool renderedInPlace() const noexcept { return m_serial != 0 && !m_textures[0].empty(); }

private:
    void import(const ShellLink::GpuFrameMemory& memory);
    void dropImports();
    void finishAll();

    gl::Texture2D m_texture;
    GLuint m_framebuffer = 0; // reads m_texture for blit()
    GLuint m_slotFramebuffers[supervise::kGpuFrameSlots] = {}; // read each slot's texture (in place)
    bool m_inPlace = false;   // the frame shown is a slot's texture
    int m_width = 0, m_height = 0;
    std::uint64_t m_serial = 0; // the GPU frame memory imported (0: none)
    gl::ImportedBuffer m_slots[supervise::kGpuFrameSlots]; // frames read into buffers
    // Frames rendered in place: the memory and the frame's texture on it, per slot.
    gl::MemoryObject m_memory[supervise::kGpuFrameSlots];
    gl::Texture2D m_textures[supervise::kGpuFrameSlots];
    gl::Fence m_read[supervise::kGpuFrameSlots]; // the last read of each slot (a copy or a blit)
    int m_newest = -1;                            // the slot of the last frame taken
};

} // namespace ks::app
