#pragma once
// Owned device and page-locked host allocations. Need a current context to create and destroy.

#include "ks/core/unique_handle.hpp"
#include "ks/cuda/driver.hpp"

#include <cstddef>
#include <string>

namespace ks::cuda {

struct DeviceMemoryTraits {
    using Handle = CUdeviceptr;
    static constexpr Handle empty() { return 0; }
    static void destroy(Handle h) noexcept;
};

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

// Page-locked host memory (cuMemAllocHost): the fast path for asynchronous transfers.
class PinnedHostMemory {
public:
    PinnedHostMemory() noexcept = default;
    explicit PinnedHostMemory(std::size_t bytes);

    void* get() const noexcept { return m_handle.get(); }
    std::size_t size() const noexcept { return m_size; }
    bool empty() const noexcept { return m_handle.empty(); }
    template <class T>
    T* as() const noexcept { return static_cast<T*>(get()); }

private:
    UniqueHandle<PinnedMemoryTraits> m_handle;
    std::size_t m_size = 0;
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
