#include "ks/rtc/minimal_mode.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

namespace ks::rtc {
namespace fs = std::filesystem;

namespace {

bool identStart(char c)
{
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}

bool identChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

// Identifiers that name something -minimal leaves out (or that tell the two modes apart).
bool needsFullHeaders(std::string_view id)
{
    for (std::string_view prefix : {"tex", "surf", "cuda", "make_cuda", "__CUDACC_RTC_MINIMAL"})
        if (startsWith(id, prefix))
            return true;
    return id == "CUDART_VERSION";
}

// Header names (any folder) whose content -minimal leaves out or replaces.
bool fullHeaderName(std::string_view spelled)
{
    for (std::string_view part : {"runtime", "texture", "surface", "driver_types", "device_launch"})
        if (spelled.find(part) != std::string_view::npos)
            return true;
    return false;
}

// Toolkit headers checked to compile under -minimal to the same PTX as without it (NVRTC 13.0).
// Others (CUB, Thrust, libcu++'s cuda/ headers, cooperative groups) take the full path.
constexpr std::array<std::string_view, 7> kMinimalSafeToolkitHeaders = {
    "curand_kernel.h", "math_constants.h", "cuda_fp16.h", "cuda_bf16.h", "cuda_fp8.h", "mma.h", "cuda_pipeline.h"};

std::string unquoted(const std::string& spelled)
{
    return spelled.size() >= 2 ? spelled.substr(1, spelled.size() - 2) : spelled;
}

} // namespace

std::string minimalBlockerInText(std::string_view text)
{
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        const char next = i + 1 < text.size() ? text[i + 1] : '\0';
        if (c == '/' && next == '/') {
            i = text.find('\n', i);
            if (i == std::string_view::npos)
                break;
        } else if (c == '/' && next == '*') {
            i = text.find("*/", i + 2);
            if (i == std::string_view::npos)
                break;
            i += 2;
        } else if (std::isdigit(static_cast<unsigned char>(c))) {
            while (i < text.size() && (identChar(text[i]) || text[i] == '.'))
                ++i; // a number with its suffix (1.0f, 0x1e): no identifier inside
        } else if (identStart(c)) {
            const std::size_t start = i;
            while (i < text.size() && identChar(text[i]))
                ++i;
            const std::string_view id = text.substr(start, i - start);
            if (needsFullHeaders(id))
                return "uses " + std::string(id);
        } else if (text.substr(i, 3) == "<<<") {
            return "launches a kernel from device code";
        } else {
            ++i;
        }
    }
    return {};
}

std::string minimalBlocker(std::string_view source, const IncludeScan& scan)
{
    if (std::string why = minimalBlockerInText(source); !why.empty())
        return why;
    if (scan.computedIncludes > 0)
        return "has a computed #include";
    std::set<fs::path> read;
    for (const IncludedFile& f : scan.files) {
        const std::string name = unquoted(f.spelled);
        if (fullHeaderName(name))
            return "includes " + f.spelled;
        if (f.toolkit) {
            if (std::find(kMinimalSafeToolkitHeaders.begin(), kMinimalSafeToolkitHeaders.end(), name) ==
                kMinimalSafeToolkitHeaders.end())
                return "includes " + f.spelled + " (a toolkit header not checked under -minimal)";
            continue;
        }
        if (f.path.empty() || !read.insert(f.path).second)
            continue; // not found (an NVRTC builtin such as <cstdint>, or an error either way)
        std::ifstream in(f.path, std::ios::binary);
        if (!in)
            return "cannot read " + f.path.filename().string();
        std::ostringstream text;
        text << in.rdbuf();
        if (std::string why = minimalBlockerInText(text.str()); !why.empty())
            return f.path.filename().string() + " " + why;
    }
    return {};
}

std::string minimalBlocker(std::string_view source, const std::string& fileName, const CompileOptions& options)
{
    if (options.minimal)
        return {};
    if (!options.autoMinimal)
        return "the -minimal fast path is off";
    return minimalBlocker(source, scanIncludes(source, fileName, includeSearchPath(options), toolkitIncludeDirs()));
}

} // namespace ks::rtc
