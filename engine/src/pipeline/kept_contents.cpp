#include "ks/pipeline/kept_contents.hpp"

#include "ks/core/error.hpp"
#include "ks/core/log.hpp"
#include "ks/cuda/memory.hpp"

#include <atomic>
#include <chrono>

namespace ks::pipeline {

namespace {

// The slot header: frame (low, high word) and a magic word; high word kIncomplete while a copy runs.
constexpr std::uint64_t kHeaderBytes = 256;
constexpr std::uint32_t kIncomplete = 0xFFFFFFFFu;
constexpr std::uint32_t kMagic = 0x4B53'4B43u; // "KSKC"
constexpr std::uint64_t kAlign = 256;

bool kept(const Resource& r)
{
    return r.flags.has_value() && (r.use.cudaWrites || r.use.surface) && !(r.isTexture() && r.desc.followViewport);
}

std::size_t rowBytes(const Resource& r)
{
    return std::size_t(r.desc.width) * glFormat(r.desc.format).texelBytes;
}

void copyTextureToLinear(const Resource& r, CUdeviceptr to, CUstream stream)
{
    CUDA_MEMCPY2D c{};
    c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    c.srcArray = r.array;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = to;
    c.dstPitch = rowBytes(r);
    c.WidthInBytes = rowBytes(r);
    c.Height = std::size_t(r.desc.height);
    KS_CU(cuMemcpy2DAsync, &c, stream);
}

void copyLinearToTexture(CUdeviceptr from, const Resource& r, CUstream stream)
{
    CUDA_MEMCPY2D c{};
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = from;
    c.srcPitch = rowBytes(r);
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    c.dstArray = r.array;
    c.WidthInBytes = rowBytes(r);
    c.Height = std::size_t(r.desc.height);
    KS_CU(cuMemcpy2DAsync, &c, stream);
}

} // namespace

KeptLayout keptLayout(const ResourceSet& resources)
{
    KeptLayout layout;
    std::uint64_t offset = kHeaderBytes;
    for (std::size_t i = 0; i < resources.size(); ++i) {
        const Resource& r = resources[i];
        if (!kept(r))
            continue;
        KeptEntry e{r.desc.name, offset, r.desc.bytes()};
        offset = (offset + e.bytes + kAlign - 1) / kAlign * kAlign;
        layout.entries.push_back(std::move(e));
    }
    layout.slotBytes = offset;
    return layout;
}

KeptContents::KeptContents(KeptLayout layout) : m_layout(std::move(layout))
{
    static std::atomic<std::uint64_t> made{0};
    m_id = ++made;
    for (cuda::ExportedMemory& slot : m_slots) {
        slot = cuda::ExportedMemory::create(m_layout.slotBytes);
        const std::uint32_t header[3] = {0, kIncomplete, kMagic};
        cuda::copyHostToDevice(slot.pointer(), header, sizeof header);
    }
}

std::size_t KeptContents::capture(const ResourceSet& resources, CUstream stream, std::int64_t frame)
{
    const CUdeviceptr base = m_slots[std::size_t(frame % kSlots)].pointer();
    KS_CU(cuMemsetD32Async, base + 4, kIncomplete, 1, stream);
    std::size_t bytes = 0;
    for (const KeptEntry& e : m_layout.entries) {
        const Resource* r = resources.find(e.name);
        if (!r || r->desc.bytes() != e.bytes)
            continue; // the layout was made for these resources: cannot happen unless they changed
        if (r->isTexture()) {
            if (!r->array)
                continue;
            copyTextureToLinear(*r, base + e.offset, stream);
        } else {
            if (!r->pointer)
                continue;
            KS_CU(cuMemcpyDtoDAsync, base + e.offset, r->pointer, e.bytes, stream);
        }
        bytes += e.bytes;
    }
    const auto f = std::uint64_t(frame);
    KS_CU(cuMemsetD32Async, base, std::uint32_t(f & 0xFFFFFFFFu), 1, stream);
    KS_CU(cuMemsetD32Async, base + 4, std::uint32_t(f >> 32), 1, stream);
    return bytes;
}

RestoredContents restoreKept(ResourceSet& resources, CUstream stream, const KeptLayout& layout,
                             const std::array<int, KeptContents::kSlots>& fds, KeptContents* alsoInto)
{
    const auto t0 = std::chrono::steady_clock::now();
    RestoredContents result;
    if (layout.slotBytes < kHeaderBytes) {
        result.why = "nothing was kept";
        return result;
    }
    std::array<cuda::ExportedMemory, KeptContents::kSlots> slots;
    int newest = -1;
    std::int64_t newestFrame = -1;
    for (int k = 0; k < KeptContents::kSlots; ++k) {
        slots[std::size_t(k)] = cuda::ExportedMemory::import(fds[std::size_t(k)], layout.slotBytes);
        std::uint32_t header[3] = {};
        KS_CU(cuMemcpyDtoH, header, slots[std::size_t(k)].pointer(), sizeof header);
        if (header[2] != kMagic || header[1] == kIncomplete)
            continue;
        const auto frame = std::int64_t((std::uint64_t(header[1]) << 32) | header[0]);
        if (frame > newestFrame)
            newestFrame = frame, newest = k;
    }
    if (newest < 0) {
        result.why = "no frame had finished when the process ended";
        return result;
    }
    const CUdeviceptr base = slots[std::size_t(newest)].pointer();
    bool sharedTouched = false;
    resources.map(stream);
    try {
        for (const KeptEntry& e : layout.entries) {
            Resource* r = resources.find(e.name);
            if (!r || !kept(*r) || r->desc.bytes() != e.bytes || e.offset + e.bytes > layout.slotBytes) {
                result.skipped.push_back(e.name);
                continue;
            }
            if (r->isTexture()) {
                copyLinearToTexture(base + e.offset, *r, stream);
                sharedTouched = sharedTouched || r->shared();
            } else {
                KS_CU(cuMemcpyDtoDAsync, r->pointer, base + e.offset, e.bytes, stream);
            }
            ++result.resources;
            result.bytes += e.bytes;
        }
        if (alsoInto)
            alsoInto->capture(resources, stream, newestFrame);
        KS_CU(cuStreamSynchronize, stream);
    } catch (...) {
        resources.unmap();
        throw;
    }
    resources.unmap();
    if (sharedTouched) {
        resources.queueMirrors(stream);
        resources.publish(ResourceSet::Publish::Newest);
    }
    result.frame = newestFrame;
    result.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

} // namespace ks::pipeline
