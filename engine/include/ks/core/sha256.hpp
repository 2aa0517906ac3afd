#pragma once
// SHA-256 (FIPS 180-4), for content keys: the compile cache names its entries by the digest of
// everything that decides a build, and checks entries against a digest of their payload.
// Incremental: update() any number of times, then finish() once. Not for secrets (no constant-time
// guarantees matter here).

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ks {

class Sha256 {
public:
    using Digest = std::array<std::uint8_t, 32>;

    Sha256() noexcept;
    void update(const void* data, std::size_t bytes) noexcept;
    void update(std::string_view text) noexcept { update(text.data(), text.size()); }
    // Appends a length-prefixed field, so that ("ab","c") and ("a","bc") hash differently.
    void field(std::string_view text) noexcept;
    // The digest; the object must not be updated afterwards.
    Digest finish() noexcept;

    static std::string hex(const Digest& digest);
    static Digest of(std::string_view text) noexcept;

private:
    void block(const std::uint8_t* p) noexcept;
    std::array<std::uint32_t, 8> m_state;
    std::array<std::uint8_t, 64> m_buffer{};
    std::size_t m_buffered = 0;
    std::uint64_t m_totalBytes = 0;
};

} // namespace ks
