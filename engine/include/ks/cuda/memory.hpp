#pragma once
// Owned device, managed, pitched and page-locked host allocations, registered host memory, 2-D
// copies and fills, and the device's stream-ordered memory pool. Need a current context to create
// and destroy.

#include "ks/core/unique_handle.hpp"
#include "ks/cuda/driver.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace ks::cuda {

struct DeviceMemoryTraits {
    using Handle = CUdeviceptr;
    static constexpr Handle empty() { return 0; }
    static void destroy(Handle h) noexcept;
};

// Copies `bytes` from host memory (pageable or not) to `device` and returns once they are on the
// device, so that work on any stream, a non-blocking one included, sees them.
void copyHostToDevice(CUdeviceptr device, const void* host, std::size_t bytes);

class DeviceMemory {
public:
    DeviceMemory() noexcept = default; // empty, size 0
    // Allocates `bytes` (0 gives an empty allocation). When the device is out of memory the
    // ks::Error says how much was asked and how much is free.
    explicit DeviceMemory(std::size_t bytes);
    // Stream-ordered: allocated with cuMemAllocAsync on `stream` from the device's current memory
    // pool and freed with cuMemFreeAsync on the same stream when destroyed, so short-lived buffers
    // (per-frame temporaries) cost no device-wide synchronisation. The memory is usable by work
    // queued on `stream` after this point (other streams must wait on it); `stream` must outlive it.
    DeviceMemory(std::size_t bytes, CUstream stream);
    ~DeviceMemory();
    DeviceMemory(DeviceMemory&& other) noexcept;
    DeviceMemory& operator=(DeviceMemory&& other) noexcept;

    CUdeviceptr get() const noexcept { return m_handle.get(); }
    // The stream a stream-ordered allocation is freed on; null for a plain allocation.
    CUstream stream() const noexcept { return m_stream; }
    std::size_t size() const noexcept { return m_size; }
    bool empty() const noexcept { return m_handle.empty(); }
    template <class T>
    T* as() const noexcept { return reinterpret_cast<T*>(get()); }

    void upload(const void* host, std::size_t bytes, std::size_t offset = 0);
    void download(void* host, std::size_t bytes, std::size_t offset = 0) const;

private:
    void releaseOrdered() noexcept;

    UniqueHandle<DeviceMemoryTraits> m_handle;
    std::size_t m_size = 0;
    CUstream m_stream = nullptr;
};

struct PinnedMemoryTraits {
    using Handle = void*;
    static constexpr Handle empty() { return nullptr; }
    static void destroy(Handle h) noexcept;
};

// Flags of page-locked host memory, allocated (cuMemHostAlloc) or registered (cuMemHostRegister);
// combinable with |.
enum class HostMemoryFlags : unsigned {
    None = 0,
    Portable = 1,     // page-locked for every context, not only the current one
    DeviceMapped = 2, // mapped into the device's address space: kernels read and write it directly
};
constexpr HostMemoryFlags operator|(HostMemoryFlags a, HostMemoryFlags b) noexcept
{
    return HostMemoryFlags(unsigned(a) | unsigned(b));
}
constexpr bool hasFlag(HostMemoryFlags set, HostMemoryFlags flag) noexcept
{
    return (unsigned(set) & unsigned(flag)) != 0;
}
std::string hostMemoryFlagsName(HostMemoryFlags flags); // "portable | device-mapped", "none"

// Page-locked host memory (cuMemAllocHost, or cuMemHostAlloc with flags): the fast path for
// asynchronous transfers.
class PinnedHostMemory {
public:
    PinnedHostMemory() noexcept = default;
    explicit PinnedHostMemory(std::size_t bytes);
    PinnedHostMemory(std::size_t bytes, HostMemoryFlags flags);

    void* get() const noexcept { return m_handle.get(); }
    std::size_t size() const noexcept { return m_size; }
    bool empty() const noexcept { return m_handle.empty(); }
    HostMemoryFlags flags() const noexcept { return m_flags; }
    template <class T>
    T* as() const noexcept { return static_cast<T*>(get()); }
    // The address kernels use for this memory (cuMemHostGetDevicePointer). On devices with unified
    // addressing (every 64-bit platform) all page-locked allocations are mapped, whatever the flags.
    CUdeviceptr devicePointer() const;

private:
    UniqueHandle<PinnedMemoryTraits> m_handle;
    std::size_t m_size = 0;
    HostMemoryFlags m_flags = HostMemoryFlags::None;
};

struct RegisteredMemoryTraits {
    using Handle = void*;
    static constexpr Handle empty() { return nullptr; }
    static void destroy(Handle h) noexcept; // cuMemHostUnregister
};

// Host memory the caller owns, page-locked for the lifetime of this object (cuMemHostRegister,
// PyCUDA's register_host_memory). The memory must outlive it. Registering an empty range is refused
// (a UsageError) before the driver is asked.
class RegisteredHostMemory {
public:
    RegisteredHostMemory() noexcept = default;
    RegisteredHostMemory(void* host, std::size_t bytes, HostMemoryFlags flags = HostMemoryFlags::None);

    void* get() const noexcept { return m_handle.get(); }
    std::size_t size() const noexcept { return m_size; }
    bool empty() const noexcept { return m_handle.empty(); }
    HostMemoryFlags flags() const noexcept { return m_flags; }
    // The address kernels use for it; refused (a UsageError) unless registered DeviceMapped.
    CUdeviceptr devicePointer() const;

private:
    UniqueHandle<RegisteredMemoryTraits> m_handle;
    std::size_t m_size = 0;
    HostMemoryFlags m_flags = HostMemoryFlags::None;
};

// Managed (unified) memory (cuMemAllocManaged): one address valid on the host and on the device;
// the driver migrates pages on access. Freed with cuMemFree.
class ManagedMemory {
public:
    ManagedMemory() noexcept = default;
    // `globalAttach`: accessible from any stream (CU_MEM_ATTACH_GLOBAL); else host-attached
    // (CU_MEM_ATTACH_HOST) until a stream attaches it. 0 bytes gives an empty allocation.
    explicit ManagedMemory(std::size_t bytes, bool globalAttach = true);

    CUdeviceptr get() const noexcept { return m_handle.get(); }
    std::size_t size() const noexcept { return m_size; }
    bool empty() const noexcept { return m_handle.empty(); }
    // The same address, for the host: touch it only when no kernel using it is running.
    template <class T> T* as() const noexcept { return reinterpret_cast<T*>(get()); }

    // Migrates the whole allocation ahead of use, in stream order (cuMemPrefetchAsync). Refused (a
    // UsageError) on a device without concurrent managed access, where the driver cannot prefetch.
    void prefetchToDevice(int ordinal, CUstream stream) const;
    void prefetchToHost(CUstream stream) const;

private:
    void prefetch(CUdevice target, CUstream stream, const char* function) const; // CU_DEVICE_CPU: the host

    UniqueHandle<DeviceMemoryTraits> m_handle;
    std::size_t m_size = 0;
};

// One end of a 2-D copy: host or device memory with its row pitch, or a CUDA array.
struct CopyEnd2D {
    CUmemorytype type = CU_MEMORYTYPE_HOST;
    const void* host = nullptr; // for a destination the copy writes here
    CUdeviceptr device = 0;
    CUarray array = nullptr;
    std::size_t pitch = 0; // bytes from one row to the next (host and device)
    static CopyEnd2D hostMemory(const void* p, std::size_t pitch) { return {CU_MEMORYTYPE_HOST, p, 0, nullptr, pitch}; }
    static CopyEnd2D deviceMemory(CUdeviceptr p, std::size_t pitch)
    {
        return {CU_MEMORYTYPE_DEVICE, nullptr, p, nullptr, pitch};
    }
    static CopyEnd2D cudaArray(CUarray a) { return {CU_MEMORYTYPE_ARRAY, nullptr, 0, a, 0}; }
};
// Why `widthBytes` x `height` cannot be copied between these ends (a null end, or a row wider than
// a pitch); nullopt when it can. Pure host code.
std::optional<std::string> copy2DRefusal(const CopyEnd2D& to, const CopyEnd2D& from, std::size_t widthBytes,
                                         std::size_t height);
// Copies `height` rows of `widthBytes` bytes from `from` to `to` (cuMemcpy2D); returns when done,
// from host memory too (copyHostToDevice says why that needs more than the call).
void copy2D(const CopyEnd2D& to, const CopyEnd2D& from, std::size_t widthBytes, std::size_t height);
// The same in `stream` order (cuMemcpy2DAsync); host ends should be page-locked.
void copy2DAsync(const CopyEnd2D& to, const CopyEnd2D& from, std::size_t widthBytes, std::size_t height,
                 CUstream stream);

// Why a 2-D fill of `width` elements of `elementBytes` (1, 2 or 4) x `height` rows at `device`
// with `pitch` cannot be done (alignment, a row wider than the pitch); nullopt when it can.
std::optional<std::string> memset2DRefusal(CUdeviceptr device, std::size_t pitch, unsigned elementBytes,
                                           std::size_t width, std::size_t height);
// Sets `width` elements x `height` rows at `device` (rows `pitch` bytes apart) to `value`
// (cuMemsetD2D8 / D16 / D32, by the value's type). Returns when done.
void memset2D(CUdeviceptr device, std::size_t pitch, std::uint8_t value, std::size_t width, std::size_t height);
void memset2D(CUdeviceptr device, std::size_t pitch, std::uint16_t value, std::size_t width, std::size_t height);
void memset2D(CUdeviceptr device, std::size_t pitch, std::uint32_t value, std::size_t width, std::size_t height);

// A pitched 2-D device allocation (cuMemAllocPitch): `height` rows of `widthBytes`, each row
// starting `pitch()` bytes after the one before, aligned for the device's fastest access.
class PitchedDeviceMemory {
public:
    PitchedDeviceMemory() noexcept = default;
    // `elementBytes` (4, 8 or 16) is the size of the widest access kernels make (the driver aligns
    // for it). An empty extent gives an empty allocation.
    PitchedDeviceMemory(std::size_t widthBytes, std::size_t height, unsigned elementBytes = 4);

    CUdeviceptr get() const noexcept { return m_handle.get(); }
    bool empty() const noexcept { return m_handle.empty(); }
    std::size_t pitch() const noexcept { return m_pitch; }
    std::size_t widthBytes() const noexcept { return m_widthBytes; }
    std::size_t height() const noexcept { return m_height; }
    // The address of byte `xBytes` of row `y`.
    CUdeviceptr at(std::size_t xBytes, std::size_t y) const noexcept { return get() + y * m_pitch + xBytes; }

    // Whole-extent copies from and to host rows `hostPitch` bytes apart (0: rows packed, widthBytes).
    void upload(const void* host, std::size_t hostPitch = 0);
    void download(void* host, std::size_t hostPitch = 0) const;
    // Fills `columns` x `rows` elements of the value's size, from element `column` of row `row`
    // (cuMemsetD2D8/16/32). A region beyond the extent is refused (a UsageError).
    template <class T> void fill(T value, std::size_t column, std::size_t row, std::size_t columns, std::size_t rows)
    {
        checkRegion(sizeof(T), column, row, columns, rows);
        memset2D(at(column * sizeof(T), row), m_pitch, value, columns, rows);
    }

private:
    void checkRegion(std::size_t elementBytes, std::size_t column, std::size_t row, std::size_t columns,
                     std::size_t rows) const;

    UniqueHandle<DeviceMemoryTraits> m_handle;
    std::size_t m_pitch = 0;
    std::size_t m_widthBytes = 0;
    std::size_t m_height = 0;
};

// The device's default stream-ordered memory pool, the one DeviceMemory(bytes, stream) allocates
// from (a view: the pool belongs to the device). PyCUDA's DeviceMemoryPool, with the driver's pool
// doing the holding: freed stream-ordered memory stays reserved for reuse until freeHeld().
struct MemoryPoolStats {
    std::uint64_t reservedBytes = 0;     // backing memory the pool holds now
    std::uint64_t reservedHighBytes = 0; // the most it held since the last resetHighWater()
    std::uint64_t usedBytes = 0;         // of that, in use by allocations now
    std::uint64_t usedHighBytes = 0;
};
class MemoryPool {
public:
    // Device `ordinal`'s default pool. Refused (a UsageError) on a device without memory pools.
    static MemoryPool deviceDefault(int ordinal);
    // The default pool of the current context's device.
    static MemoryPool current();

    CUmemoryPool get() const noexcept { return m_pool; }
    MemoryPoolStats stats() const;
    // Returns held memory the pool does not use to the device, keeping at least `keepBytes`
    // reserved (cuMemPoolTrimTo). Synchronize the streams that freed memory first: memory freed in
    // stream order is held only once the free has run.
    void freeHeld(std::size_t keepBytes = 0) const;
    void resetHighWater() const; // the high-water marks restart from the current values
    // How much freed memory the pool keeps at a synchronisation before releasing it (bytes;
    // ~0 keeps everything, as the array runtime sets it).
    void setReleaseThreshold(std::uint64_t bytes) const;

private:
    explicit MemoryPool(CUmemoryPool pool) noexcept : m_pool(pool) {}
    CUmemoryPool m_pool = nullptr;
};

struct MemoryInfo {
    std::size_t freeBytes = 0;
    std::size_t totalBytes = 0;
};
// Free and total memory of the current context's device.
MemoryInfo memoryInfo();

// "1.50 GiB", "512 B".
std::string formatBytes(std::size_t bytes);

} // namespace ks::cuda
