#pragma once
// Device memory other processes can hold and map: cuMemCreate with a POSIX file descriptor as its
// shareable handle. The allocation lives while any process holds a descriptor of it or maps it, so
// a process without CUDA that holds a descriptor keeps the memory (and its bytes) through the death
// of the process that made it. Seen with driver 580: after the maker was killed, killed inside a
// kernel that never ended, or ended after CUDA_ERROR_ILLEGAL_ADDRESS, the next process imported
// 64 MiB and read back every byte; import, map and a device copy cost little next to the restart
// itself (docs/measurements.md, "The GPU process").
//
// Contract: a CUDA context is current on the calling thread for every call, destruction included.

#include "ks/cuda/driver.hpp"

#include <cstddef>

namespace ks::cuda {

class ExportedMemory {
public:
    ExportedMemory() noexcept = default;
    // At least `bytes` (rounded up to the allocation granularity), readable and writable by the
    // current context's device. Throws ks::Error (Cuda) with nothing left allocated.
    static ExportedMemory create(std::size_t bytes);
    // Maps the allocation that `fd` (from exportDescriptor, possibly in another process) names; `bytes`
    // is the size its maker asked create() for (rounded up as create() did). The descriptor stays
    // the caller's. Throws ks::Error (Cuda).
    static ExportedMemory import(int fd, std::size_t bytes);
    ~ExportedMemory();
    ExportedMemory(ExportedMemory&& other) noexcept;
    ExportedMemory& operator=(ExportedMemory&& other) noexcept;
    ExportedMemory(const ExportedMemory&) = delete;
    ExportedMemory& operator=(const ExportedMemory&) = delete;

    bool empty() const noexcept { return m_ptr == 0; }
    CUdeviceptr pointer() const noexcept { return m_ptr; }
    std::size_t size() const noexcept { return m_bytes; }
    // A new descriptor of the allocation; the caller owns (and closes) it.
    int exportDescriptor() const;

private:
    // Reserves an address range for m_handle, maps it and allows the device to read and write it.
    void mapHandle();
    void release() noexcept;

    std::size_t m_bytes = 0;
    CUmemGenericAllocationHandle m_handle = 0;
    CUdeviceptr m_ptr = 0;
};

// cuMemCreate's properties for device memory of the current context's device that can be
// exported as a POSIX file descriptor.
CUmemAllocationProp exportableProperties();

} // namespace ks::cuda
