#include "cli/check_command.hpp"

#include "cli/check_file.hpp"

#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"

#include <cstdio>

namespace ks::app {

int runCheckCommands(const CheckOptions& o)
{
    if (o.clearCache) {
        rtc::CompileCache cache(rtc::CompileCache::defaultDirectory());
        if (!cache.clear()) {
            std::fprintf(stderr, "kernelscope: could not clear the compile cache in %s\n", cache.directory().c_str());
            return 2;
        }
        std::printf("kernelscope: cleared the compile cache in %s\n", cache.directory().c_str());
        if (o.file.empty())
            return 0;
    }
    CheckRequest request;
    request.file = o.file;
    request.options.arch = o.arch;
    request.options.defines = o.defines;
    request.options.includePaths = o.includes;
    request.options.fastMath = o.fastMath;
    request.options.lineInfo = o.lineInfo || o.ptx || o.sass; // the listings' source lines
    request.options.debug = o.debug;
    request.options.cppStandard = o.cppStandard;
    request.options.fastCompile = rtc::parseFastCompile(o.fastCompile).value_or(rtc::FastCompile::Off);
    request.useCache = !o.noCache;
    const CheckReport report = checkFile(request);
    const std::string text = formatCheckReport(report);
    std::fputs(text.c_str(), report.usageError.empty() ? stdout : stderr);
    if (!report.ok() || !(o.ptx || o.sass))
        return report.exitCode();
    std::string source;
    try {
        source = paths::readTextFile(o.file);
    } catch (const Error&) {
        // the listing goes without the lines' text
    }
    if (o.ptx)
        std::fputs(ptxListing(report, source).c_str(), stdout);
    if (o.sass) {
        std::string why;
        const std::string listing = sassListing(report, source, why);
        if (listing.empty()) {
            std::fprintf(stderr, "kernelscope: no SASS: %s\n", why.c_str());
            return 2;
        }
        std::fputs(listing.c_str(), stdout);
    }
    return 0;
}

} // namespace ks::app
