#pragma once
// The shell's copy of its worker's frames (docs/architecture.md, "Processes"): a GL texture the size
// of the last frame, filled from the frame's CPU memory (an upload) or, when both GL contexts share
// a device, from the GPU frame memory the worker's GL wrote (imported into this context; a copy on
// the GPU, no upload: from the texture the worker rendered the frame into, or from the buffer it
// read the frame into). Needs the shell's GL context current.

#include "protocol.hpp"
#include "shell_link.hpp"

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

    // Copies `frame` into the texture. A frame in GPU memory that this context cannot import or
    // read as the worker wrote it is not shown: the link is told (ShellLink::refuseGpuFrames, or
    // refuseGpuTextures for frames rendered in place) and false returned.
    bool take(const ShellLink::Frame& frame, ShellLink& link);
    // Waits until GL has finished copying out of every slot of the GPU frame memory but the newest
    // frame's: call it before asking for a frame (protocol.hpp, FrameMemory). Usually returns at
    // once: those copies were issued a frame or more ago.
    void finishReading();
    // Draws the frame, pixel for pixel, at the top left of the window's framebuffer (framebuffer 0)
    // of height `targetHeight` (both bottom-up).
    void blit(int targetHeight) const;

    GLuint texture() const noexcept { return m_texture.name(); }
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
    int m_width = 0, m_height = 0;
    std::uint64_t m_serial = 0; // the GPU frame memory imported (0: none)
    gl::ImportedBuffer m_slots[supervise::kGpuFrameSlots]; // frames read into buffers
    // Frames rendered in place: the memory and the frame's texture on it, per slot.
    gl::MemoryObject m_memory[supervise::kGpuFrameSlots];
    gl::Texture2D m_textures[supervise::kGpuFrameSlots];
    gl::Fence m_read[supervise::kGpuFrameSlots]; // the last copy out of each slot
    int m_newest = -1;                            // the slot of the last frame taken
};

} // namespace ks::app
