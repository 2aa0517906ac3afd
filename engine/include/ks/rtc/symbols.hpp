#pragma once
// C++ symbol names as the user wrote them.

#include <string>
#include <string_view>

namespace ks::rtc {

// "_Z10missing_fnf" -> "missing_fn(float)"; a name that is not an Itanium-mangled one (an
// extern "C" kernel) is returned unchanged.
std::string demangle(std::string_view symbol);

// Replaces every '_Z...' symbol quoted with single quotes in `text` by "'<mangled>' (<demangled>)".
std::string annotateMangledNames(std::string_view text);

} // namespace ks::rtc
