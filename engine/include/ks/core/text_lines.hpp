#pragma once
// Text as a list of lines, without copying: what the parsers of compiler logs, PTX, disassembler
// output and sources walk over. (The editor keeps line starts as offsets, updated per edit, and the
// Console joins lines across reads; both need more than this.)

#include <string_view>
#include <vector>

namespace ks {

// The lines of `text` as views into it (valid while `text` is), without their '\n' nor a '\r'
// before it, so a file with CRLF endings reads as its lines. "" has no line; "a\n" and "a" have one.
inline std::vector<std::string_view> splitLines(std::string_view text)
{
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        lines.push_back(line);
        if (end == std::string_view::npos)
            break;
        text.remove_prefix(end + 1);
    }
    return lines;
}

} // namespace ks
