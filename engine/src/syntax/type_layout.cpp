#include "ks/syntax/type_layout.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace ks::syntax {
namespace {

bool isIdentChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

} // namespace

std::optional<TypeLayout> knownTypeLayout(std::string_view typeText)
{
    // Drop qualifiers; any pointer is 8 bytes on the 64-bit hosts CUDA supports.
    std::string type;
    {
        std::string word;
        std::vector<std::string> words;
        auto flush = [&] {
            if (!word.empty())
                words.push_back(word);
            word.clear();
        };
        for (char c : typeText) {
            if (isIdentChar(c) || c == ':') {
                word += c;
            } else {
                flush();
                if (c == '*' || c == '&')
                    words.push_back(std::string(1, c));
            }
        }
        flush();
        for (const auto& w : words) {
            if (w == "const" || w == "volatile" || w == "__restrict__" || w == "__restrict" || w == "restrict" ||
                w == "struct" || w == "typename" || w == "__grid_constant__")
                continue;
            if (!type.empty() && w != "*" && w != "&" && type.back() != '*')
                type += ' ';
            type += w;
        }
    }
    if (!type.empty() && (type.back() == '*'))
        return TypeLayout{8, 8};
    if (!type.empty() && type.back() == '&')
        return std::nullopt; // references cannot be kernel parameters
    if (type.rfind("std::", 0) == 0 || type.rfind("::", 0) == 0)
        type = type.substr(type.find("::") + 2);
    static const std::map<std::string, TypeLayout, std::less<>> scalars = {
        {"bool", {1, 1}},
        {"char", {1, 1}},
        {"signed char", {1, 1}},
        {"unsigned char", {1, 1}},
        {"int8_t", {1, 1}},
        {"uint8_t", {1, 1}},
        {"short", {2, 2}},
        {"short int", {2, 2}},
        {"signed short", {2, 2}},
        {"unsigned short", {2, 2}},
        {"unsigned short int", {2, 2}},
        {"int16_t", {2, 2}},
        {"uint16_t", {2, 2}},
        {"__half", {2, 2}},
        {"half", {2, 2}},
        {"__nv_bfloat16", {2, 2}},
        {"__half2", {4, 4}},
        {"half2", {4, 4}},
        {"__nv_bfloat162", {4, 4}},
        {"int", {4, 4}},
        {"signed", {4, 4}},
        {"signed int", {4, 4}},
        {"unsigned", {4, 4}},
        {"unsigned int", {4, 4}},
        {"int32_t", {4, 4}},
        {"uint32_t", {4, 4}},
        {"float", {4, 4}},
        {"long", {8, 8}},
        {"long int", {8, 8}},
        {"signed long", {8, 8}},
        {"unsigned long", {8, 8}},
        {"unsigned long int", {8, 8}},
        {"long long", {8, 8}},
        {"long long int", {8, 8}},
        {"signed long long", {8, 8}},
        {"unsigned long long", {8, 8}},
        {"unsigned long long int", {8, 8}},
        {"int64_t", {8, 8}},
        {"uint64_t", {8, 8}},
        {"size_t", {8, 8}},
        {"ptrdiff_t", {8, 8}},
        {"intptr_t", {8, 8}},
        {"uintptr_t", {8, 8}},
        {"double", {8, 8}},
        {"CUdeviceptr", {8, 8}},
        {"cudaTextureObject_t", {8, 8}},
        {"cudaSurfaceObject_t", {8, 8}},
        {"CUtexObject", {8, 8}},
        {"CUsurfObject", {8, 8}},
        {"dim3", {12, 4}},
        {"uint3", {12, 4}},
    };
    if (auto it = scalars.find(type); it != scalars.end())
        return it->second;
    // Vector types: <base><n>, with the alignments <vector_types.h> declares.
    struct Base {
        const char* name;
        std::size_t size;
    };
    static const Base bases[] = {{"char", 1},     {"uchar", 1},     {"short", 2}, {"ushort", 2},
                                 {"int", 4},      {"uint", 4},      {"long", 8},  {"ulong", 8},
                                 {"longlong", 8}, {"ulonglong", 8}, {"float", 4}, {"double", 8}};
    for (const Base& b : bases) {
        const std::string_view name(b.name);
        if (type.size() < name.size() + 1 || type.compare(0, name.size(), name) != 0)
            continue;
        std::string_view rest = std::string_view(type).substr(name.size());
        // CUDA 13's explicitly aligned 4-vectors of 8-byte types: long4_16a, double4_32a, ...
        std::size_t explicitAlign = 0;
        if (rest == "4_16a")
            explicitAlign = 16;
        else if (rest == "4_32a")
            explicitAlign = 32;
        const char n = rest[0];
        if (n < '1' || n > '4' || (rest.size() != 1 && !explicitAlign))
            continue;
        const std::size_t count = std::size_t(n - '0');
        const std::size_t size = b.size * count;
        std::size_t align = b.size;
        if (explicitAlign)
            align = explicitAlign;
        else if (count == 2)
            align = size;
        else if (count == 4)
            align = std::min<std::size_t>(size, 16);
        return TypeLayout{size, align};
    }
    return std::nullopt;
}

} // namespace ks::syntax
