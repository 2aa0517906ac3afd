#pragma once
// Frames rendered in place in GPU memory (protocol.hpp, FrameMemory with a size): how big a slot must
// be, and the layout probe.
//
// The worker's GL renders the frame into a texture made at offset 0 of the slot's memory; the
// shell's GL makes the same texture (same size, format and optimal tiling) on its import of that
// memory and copies from it. GL does not promise that two contexts lay out such a texture alike, so
// the worker also writes a probe (a 256x256 RGBA8 texture of known pixels) at offset 0 of a fourth,
// small allocation, and the shell reads it back through its own texture before it takes any frame
// from the memory: pixels that differ mean the shell does not see what the worker wrote, and it asks
// for frames read into buffers instead.
//
// Seen with driver 580: a texture at a non-zero offset of an imported memory object was not where
// the worker's GL wrote it (the shell's texture at offset 1 MiB of slot 2 showed slot 0's frame);
// imported as dedicated memory objects (GL_DEDICATED_MEMORY_OBJECT_EXT) every frame arrived, but
// drawing into them cost the worker measurably more a frame. Textures at offset 0 of plain imports
// are both right and fast: so every texture here is at offset 0 of an allocation of its own.
//
// Contract: a GL context is current on the calling thread.

#include "ks/gl/gl.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace ks::app::supervise {

inline constexpr int kProbeSide = 256;
inline constexpr std::size_t kProbeBytes = std::size_t(1) << 20; // the probe's allocation

// Bytes a slot needs for a frame texture of width x height at offset 0: room for GL's tiling
// (columns padded to 64 pixels, rows to 128) and 64 KiB more.
std::size_t textureSlotBytes(int width, int height);

// Writes the probe through a texture at offset 0 of `memoryObject` (GL finishes it before the frame
// memory is announced: the caller fences).
void writeProbe(GLuint memoryObject);
// Reads the probe back through a texture at offset 0 of `memoryObject`: empty when every pixel is as
// written, else what differs. Throws ks::Error (Gl) when GL cannot make the texture.
std::string checkProbe(GLuint memoryObject);

} // namespace ks::app::supervise
