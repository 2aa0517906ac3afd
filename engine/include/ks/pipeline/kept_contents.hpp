#pragma once
// The contents of a project's resources after its last good frame, kept where a fault cannot reach
// them: device memory exported to another process (ks/cuda/exported_memory.hpp). A supervised GPU
// process copies every resource CUDA writes into one of two slots after each frame's stages (on the
// frame's stream, so only frames whose stages all ran are copied); the shell holds the slots'
// descriptors, and the process that replaces a faulted one copies the newest complete slot back
// (docs/architecture.md, "Processes").
//
// A slot begins with a header the stream writes: the frame's number is set to "incomplete" before
// the copies and to the frame after them, so a process that dies in the middle of a copy leaves
// that slot marked incomplete and the other slot (the frame before) is used.
//
// Contract: the GL and CUDA contexts current on the calling thread, as for ResourceSet.

#include "ks/cuda/exported_memory.hpp"
#include "ks/pipeline/kept_layout.hpp"
#include "ks/pipeline/resources.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ks::pipeline {

// The resources worth keeping: those CUDA writes (a non-const pointer, a surface, a fill or array
// math target), except viewport-following textures (their size is the window's, recomputed each
// frame). Read-only ones never change after their initial upload.
KeptLayout keptLayout(const ResourceSet& resources);

class KeptContents {
public:
    static constexpr int kSlots = 2;
    // Two slots for `layout`. Throws ks::Error (Cuda) when the device memory cannot be had.
    explicit KeptContents(KeptLayout layout);

    const KeptLayout& layout() const noexcept { return m_layout; }
    // Unique in this process: tells a new KeptContents from one it replaced at the same address.
    std::uint64_t id() const noexcept { return m_id; }
    // A new descriptor of slot `slot` (0 or 1); the caller owns it.
    int exportDescriptor(int slot) const { return m_slots[std::size_t(slot)].exportDescriptor(); }
    // Queues, on `stream`, the copy of the mapped `resources` into slot frame % 2 with its header.
    // Returns the bytes copied.
    std::size_t capture(const ResourceSet& resources, CUstream stream, std::int64_t frame);

private:
    KeptLayout m_layout;
    std::uint64_t m_id = 0;
    std::array<cuda::ExportedMemory, kSlots> m_slots;
};

// What restoreKept did.
struct RestoredContents {
    std::int64_t frame = -1;           // the frame the contents are from; -1: nothing restored
    int resources = 0;                 // resources restored
    std::uint64_t bytes = 0;
    std::vector<std::string> skipped;  // kept ones the project no longer has with the same size
    std::string why;                   // when nothing was restored: why not
    double ms = 0;                     // import, copies and map/unmap, host time
};

// Imports the two slots (descriptors `fds`, which stay the caller's), picks the newest complete one
// and copies each of its entries into the resource of the same name and size (mapping and unmapping
// `resources` around the copies, and bringing shared textures' GL textures up to date). With
// `alsoInto`, the restored resources are captured into it as that frame, in the same mapping. Waits
// for the copies. Throws ks::Error (Cuda) only for CUDA errors; a layout that does not fit is
// reported in the result.
RestoredContents restoreKept(ResourceSet& resources, CUstream stream, const KeptLayout& layout,
                             const std::array<int, KeptContents::kSlots>& fds, KeptContents* alsoInto = nullptr);

} // namespace ks::pipeline
