#pragma once
// `kernelscope --check FILE.cu`: compile a kernel file without running anything (no GPU, no GL)
// and report diagnostics, then the kernels' facts. The command line (check_command.cpp) maps its
// flags to a CheckRequest and prints what formatCheckReport() returns.

#include "ks/rtc/cache.hpp"
#include "ks/rtc/kernel_facts.hpp"

#include <filesystem>
#include <memory>
#include <string>

namespace ks::app {

struct CheckRequest {
    std::string file;      // as given on the command line; diagnostics print it this way
    rtc::CompileOptions options; // options.arch empty: defaultCheckArch()
    bool useCache = true;   // false: compile, neither read nor write the disk cache
    std::filesystem::path cacheDirectory; // empty: rtc::CompileCache::defaultDirectory()
    int occupancyBlockSize = 256;         // the block size whose occupancy is shown
};

struct CheckReport {
    std::string usageError; // not empty: the request itself is wrong (missing file, bad arch)
    std::string file;
    std::string arch;
    rtc::FastCompile fastCompile = rtc::FastCompile::Off; // as compiled (off with -G)
    std::shared_ptr<const rtc::CompileResult> result;
    rtc::CacheSource source = rtc::CacheSource::Compiled;
    double totalMs = 0; // request to result, cache lookup included
    std::filesystem::path cacheDirectory; // empty when the disk cache was off
    rtc::ModuleFacts facts;
    int occupancyBlockSize = 256;

    bool ok() const { return usageError.empty() && result && result->ok; }
    // 0 success, 1 compile errors, 2 bad usage.
    int exitCode() const { return !usageError.empty() ? 2 : ok() ? 0 : 1; }
};

// The running device's architecture ("sm_90") when the CUDA driver has a device, else "sm_90".
std::string defaultCheckArch();

// Never throws for the user's mistakes (they are usageError or diagnostics); an NVRTC that cannot
// run at all becomes a diagnostic too.
CheckReport checkFile(const CheckRequest& request);

// Diagnostics as "FILE:LINE:COL: severity: message" (with the source excerpt and a caret under
// the column, as compilers print them), a summary line, then on success each kernel with its
// parameters and facts.
std::string formatCheckReport(const CheckReport& report);

// --check FILE.cu --ptx / --sass: the build's PTX (NVRTC's) or SASS (rtc::disassemble: the
// toolkit's nvdisasm, else cuobjdump) with a comment naming the source line before each run of
// instructions that came from it, rtc::annotatedListing's "// FILE.cu:LINE: the line's text" (the
// build needs -lineinfo). `source` is the checked file's text. The SASS listing is empty with `why`
// set when there is no disassembler (saying how to get one) or it fails.
std::string ptxListing(const CheckReport& report, std::string_view source);
std::string sassListing(const CheckReport& report, std::string_view source, std::string& why);

} // namespace ks::app
