#include "ks/array/kernel_signature.hpp"

#include "ks/core/error.hpp"

#include <algorithm>
#include <cctype>

namespace ks::array {
namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

bool isIdentChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

std::vector<std::string> words(std::string_view s)
{
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < s.size()) {
        if (isIdentChar(s[i])) {
            std::size_t j = i;
            while (j < s.size() && (isIdentChar(s[j]) || (s[j] == ':' && j + 1 < s.size() && s[j + 1] == ':'))) {
                j += s[j] == ':' ? 2 : 1;
            }
            out.emplace_back(s.substr(i, j - i));
            i = j;
        } else {
            ++i;
        }
    }
    return out;
}

bool isQualifier(const std::string& w)
{
    return w == "const" || w == "volatile" || w == "__restrict__" || w == "restrict" || w == "__restrict";
}

} // namespace

std::vector<KernelParameter> parseKernelParameters(std::string_view arguments)
{
    std::vector<KernelParameter> params;
    if (trim(arguments).empty())
        return params;
    std::size_t start = 0;
    int index = 0;
    while (start <= arguments.size()) {
        std::size_t comma = arguments.find(',', start);
        if (comma == std::string_view::npos)
            comma = arguments.size();
        const std::string_view decl = trim(arguments.substr(start, comma - start));
        ++index;
        const std::string where = "parameter " + std::to_string(index) + " '" + std::string(decl) + "'";
        if (decl.empty())
            throwUsage("ks::array::parseKernelParameters", where + " is empty in \"" + std::string(arguments) + "\"");
        for (char c : decl)
            if (c == '<' || c == '>' || c == '[' || c == ']' || c == '(' || c == ')' || c == '&')
                throwUsage("ks::array::parseKernelParameters",
                           where + ": only plain types, pointers and by-value parameters are supported");
        std::size_t nameEnd = decl.size();
        std::size_t nameBegin = nameEnd;
        while (nameBegin > 0 && isIdentChar(decl[nameBegin - 1]))
            --nameBegin;
        KernelParameter p;
        p.declaration = std::string(decl);
        p.name = std::string(decl.substr(nameBegin, nameEnd - nameBegin));
        p.type = std::string(trim(decl.substr(0, nameBegin)));
        const std::vector<std::string> typeWords = words(p.type);
        bool hasBaseType = false;
        for (const auto& w : typeWords)
            hasBaseType = hasBaseType || !isQualifier(w);
        if (p.name.empty() || !hasBaseType || std::isdigit(static_cast<unsigned char>(p.name[0])))
            throwUsage("ks::array::parseKernelParameters", where + " needs a type and a name (\"float *x\")");
        const std::size_t stars = std::count(p.type.begin(), p.type.end(), '*');
        if (stars > 1)
            throwUsage("ks::array::parseKernelParameters", where + ": pointers to pointers are not supported");
        p.pointer = stars == 1;
        {
            const std::string_view pointee = trim(std::string_view(p.type).substr(0, p.type.find('*')));
            std::string element;
            for (const auto& w : words(pointee)) {
                if (isQualifier(w))
                    continue;
                if (!element.empty())
                    element += ' ';
                element += w;
            }
            p.elementType = element;
        }
        for (const auto& other : params)
            if (other.name == p.name)
                throwUsage("ks::array::parseKernelParameters", where + ": the name '" + p.name + "' is used twice");
        params.push_back(std::move(p));
        start = comma + 1;
        if (comma == arguments.size())
            break;
    }
    return params;
}

std::string parameterNames(const std::vector<KernelParameter>& params)
{
    std::string out;
    for (const auto& p : params) {
        if (!out.empty())
            out += ", ";
        out += p.name;
    }
    return out;
}

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
