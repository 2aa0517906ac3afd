#include "ks/rtc/minimal_mode.hpp"

#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>

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

// Identifiers that name something -minimal leaves out (or that tell the two modes apart).
bool needsFullHeaders(std::string_view id)
{
    for (std::string_view prefix : {"tex", "surf", "cuda", "make_cuda", "__CUDACC_RTC_MINIMAL"})
        if (id.starts_with(prefix))
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

// The first identifier of `text` (comments and numbers skipped) for which `reason` says something,
// as that reason; with `launches`, a `<<<` counts too. Empty when none.
template <typename Reason>
std::string firstReason(std::string_view text, Reason reason, bool launches)
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
            if (std::string why = reason(text.substr(start, i - start)); !why.empty())
                return why;
        } else if (launches && text.substr(i, 3) == "<<<") {
            return "launches a kernel from device code";
        } else {
            ++i;
        }
    }
    return {};
}

// The first reason `inText` gives for the user headers of `scan` (each read once), prefixed with
// the header's name; `directive` is asked first about every include directive, toolkit headers
// included (computed includes are the caller's business).
template <typename InText, typename Directive>
std::string firstReasonInHeaders(const IncludeScan& scan, InText inText, Directive directive)
{
    std::set<fs::path> read;
    for (const IncludedFile& f : scan.files) {
        if (std::string why = directive(f); !why.empty())
            return why;
        if (f.toolkit || f.path.empty() || !read.insert(f.path).second)
            continue; // not found (an NVRTC builtin such as <cstdint>, or an error either way)
        std::string text;
        try {
            text = paths::readTextFile(f.path);
        } catch (const Error&) {
            return "cannot read " + f.path.filename().string();
        }
        if (std::string why = inText(text); !why.empty())
            return f.path.filename().string() + " " + why;
    }
    return {};
}

} // namespace

std::string minimalBlockerInText(std::string_view text)
{
    return firstReason(
        text, [](std::string_view id) { return needsFullHeaders(id) ? "uses " + std::string(id) : std::string(); },
        true);
}

std::string minimalBlocker(std::string_view source, const IncludeScan& scan)
{
    if (std::string why = minimalBlockerInText(source); !why.empty())
        return why;
    if (scan.computedIncludes > 0)
        return "has a computed #include";
    return firstReasonInHeaders(scan, minimalBlockerInText, [](const IncludedFile& f) {
        const std::string name = unquoted(f.spelled);
        if (fullHeaderName(name))
            return "includes " + f.spelled;
        if (f.toolkit && std::find(kMinimalSafeToolkitHeaders.begin(), kMinimalSafeToolkitHeaders.end(), name) ==
                             kMinimalSafeToolkitHeaders.end())
            return "includes " + f.spelled + " (a toolkit header not checked under -minimal)";
        return std::string();
    });
}

bool includesCurandKernel(const IncludeScan& scan)
{
    return std::any_of(scan.files.begin(), scan.files.end(),
                       [](const IncludedFile& f) { return f.toolkit && unquoted(f.spelled) == "curand_kernel.h"; });
}

std::string curandTablesUserInText(std::string_view text)
{
    return firstReason(
        text,
        [](std::string_view id) {
            for (std::string_view part : {"XORWOW", "xorwow", "MRG32k3a", "mrg32k3a"})
                if (id.find(part) != std::string_view::npos)
                    return "uses " + std::string(id);
            return id == "curandState" || id == "curandState_t" ? "uses " + std::string(id) : std::string();
        },
        false);
}

std::string curandTablesBlocker(std::string_view source, const IncludeScan& scan)
{
    if (!includesCurandKernel(scan))
        return "does not include curand_kernel.h";
    if (std::string why = curandTablesUserInText(source); !why.empty())
        return why;
    if (scan.computedIncludes > 0)
        return "has a computed #include";
    return firstReasonInHeaders(scan, curandTablesUserInText, [](const IncludedFile&) { return std::string(); });
}

std::string curandTablesBlocker(std::string_view source, const std::string& fileName, const CompileOptions& options)
{
    if (!options.leanCurand)
        return "the lean-cuRAND fast path is off";
    return curandTablesBlocker(source,
                               scanIncludes(source, fileName, includeSearchPath(options), toolkitIncludeDirs()));
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
