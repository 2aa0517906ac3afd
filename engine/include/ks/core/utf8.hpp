#pragma once
// UTF-8 as RFC 3629 defines it: no stray continuation bytes, overlong forms, surrogates or code
// points past U+10FFFF. Project files are UTF-8 (the JSON reader refuses anything else), so text
// that goes into one (a kernel's name, a parameter's name) is checked with the same rule.
#include <cstddef>
#include <string_view>

namespace ks {

// The length in bytes of the sequence that starts `text` (1 for ASCII), or 0 when it is not a
// valid UTF-8 sequence (or `text` is empty).
inline std::size_t utf8SequenceLength(std::string_view text) noexcept
{
    if (text.empty())
        return 0;
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char lead = byte(0);
    if (lead < 0x80)
        return 1;
    const std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
    if (length == 0 || lead >= 0xF5 || lead == 0xC0 || lead == 0xC1 || length > text.size())
        return 0;
    unsigned cp = length == 2 ? lead & 0x1Fu : length == 3 ? lead & 0x0Fu : lead & 0x07u;
    for (std::size_t i = 1; i < length; ++i) {
        if ((byte(i) & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (byte(i) & 0x3Fu);
    }
    const bool overlong = (length == 3 && cp < 0x800) || (length == 4 && cp < 0x10000);
    const bool outside = cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000);
    return overlong || outside ? 0 : length;
}

inline bool isUtf8(std::string_view text) noexcept
{
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t n = utf8SequenceLength(text.substr(at));
        if (n == 0)
            return false;
        at += n;
    }
    return true;
}

} // namespace ks
