#pragma once
// Kernel parameter values for one launch, packed the way cuLaunchKernel wants them: each value
// copied into storage that lives as long as the KernelArgs, and an array of pointers to them.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ks::array {

class KernelArgs {
public:
    KernelArgs() = default;
    KernelArgs(const KernelArgs&) = delete;
    KernelArgs& operator=(const KernelArgs&) = delete;

    template <class T>
    KernelArgs& add(const T& value)
    {
        return addBytes(&value, sizeof(T), alignof(T));
    }
    KernelArgs& addBytes(const void* data, std::size_t size, std::size_t align);

    std::size_t count() const noexcept { return m_offsets.size(); }
    // The kernelParams array; valid until the next add.
    void** params();

private:
    std::vector<std::uint64_t> m_storage; // 8-byte words; wider alignments are padded to
    std::vector<std::size_t> m_offsets;   // byte offsets into m_storage
    std::vector<void*> m_pointers;
};

} // namespace ks::array
