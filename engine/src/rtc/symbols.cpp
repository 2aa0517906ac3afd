#include "ks/rtc/symbols.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace ks::rtc {

std::string demangle(std::string_view symbol)
{
    if (symbol.substr(0, 2) != "_Z")
        return std::string(symbol);
    int status = 0;
    const std::string name(symbol);
    std::unique_ptr<char, decltype(&std::free)> out(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                                    &std::free);
    return status == 0 && out ? std::string(out.get()) : name;
}

std::string annotateMangledNames(std::string_view text)
{
    std::string out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t open = text.find("'_Z", pos);
        if (open == std::string_view::npos)
            break;
        const std::size_t close = text.find('\'', open + 1);
        if (close == std::string_view::npos)
            break;
        const std::string_view symbol = text.substr(open + 1, close - open - 1);
        out.append(text.substr(pos, close + 1 - pos));
        if (const std::string plain = demangle(symbol); plain != symbol)
            out += " (" + plain + ")";
        pos = close + 1;
    }
    out.append(text.substr(pos));
    return out;
}

} // namespace ks::rtc
