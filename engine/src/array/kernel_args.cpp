#include "ks/array/kernel_args.hpp"

#include <algorithm>
#include <cstring>

namespace ks::array {

KernelArgs& KernelArgs::addBytes(const void* data, std::size_t size, std::size_t align)
{
    std::size_t offset = m_storage.size() * sizeof(std::uint64_t);
    if (align > sizeof(std::uint64_t))
        offset = (offset + align - 1) / align * align;
    const std::size_t words = (offset + size + sizeof(std::uint64_t) - 1) / sizeof(std::uint64_t);
    m_storage.resize(std::max(words, m_storage.size()), 0);
    std::memcpy(reinterpret_cast<unsigned char*>(m_storage.data()) + offset, data, size);
    m_offsets.push_back(offset);
    return *this;
}

void** KernelArgs::params()
{
    m_pointers.clear();
    for (std::size_t off : m_offsets)
        m_pointers.push_back(reinterpret_cast<unsigned char*>(m_storage.data()) + off);
    return m_pointers.data();
}

} // namespace ks::array
