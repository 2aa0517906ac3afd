#include "cli/check_command.hpp"

#include "cli/check_file.hpp"

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
    request.options.lineInfo = o.lineInfo;
    request.options.debug = o.debug;
    request.options.cppStandard = o.cppStandard;
    request.options.fastCompile = rtc::parseFastCompile(o.fastCompile).value_or(rtc::FastCompile::Off);
    request.useCache = !o.noCache;
    const CheckReport report = checkFile(request);
    const std::string text = formatCheckReport(report);
    std::fputs(text.c_str(), report.usageError.empty() ? stdout : stderr);
    return report.exitCode();
}

} // namespace ks::app
