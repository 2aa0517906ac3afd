// The device prelude of generated array kernels (see kernel_source.hpp): the text of
// device/device_prelude.cuh, which the build compiles into the engine (cmake/KsEmbed.cmake).
#include "ks/array/kernel_source.hpp"

#include "device/device_text.hpp"

namespace ks::array {

namespace {

bool identifierChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Whether `code` holds `word` as a whole identifier.
bool namesIdentifier(std::string_view code, std::string_view word)
{
    for (std::size_t at = code.find(word); at != std::string_view::npos; at = code.find(word, at + 1)) {
        const bool startOk = at == 0 || !identifierChar(code[at - 1]);
        const std::size_t end = at + word.size();
        if (startOk && (end == code.size() || !identifierChar(code[end])))
            return true;
    }
    return false;
}

} // namespace

std::string devicePrelude(bool float16)
{
    std::string text = float16 ? "#define KS_FLOAT16 1\n" : "";
    text += device_text::kDevicePrelude;
    return text;
}

std::string preludeFor(std::string_view code)
{
    return devicePrelude(namesIdentifier(code, "__half") || namesIdentifier(code, "half"));
}

} // namespace ks::array
