#include "cli/check_file.hpp"

#include "ks/core/paths.hpp"
#include "ks/rtc/listing.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/driver.hpp"

#include <chrono>
#include <cstdio>
#include <regex>
#include <sstream>

namespace ks::app {
namespace fs = std::filesystem;

namespace {

std::string bytes(std::size_t n)
{
    char buf[64];
    if (n < 1024)
        std::snprintf(buf, sizeof buf, "%zu B", n);
    else if (n < 1024 * 1024)
        std::snprintf(buf, sizeof buf, "%.1f KiB", double(n) / 1024);
    else
        std::snprintf(buf, sizeof buf, "%.1f MiB", double(n) / (1024 * 1024));
    return buf;
}

std::string ms(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, v < 10 ? "%.2f ms" : "%.1f ms", v);
    return buf;
}

// Which NVRTC mode produced the result, and why the full headers were needed where they were.
std::string modeText(const rtc::CompileResult& r)
{
    const std::string curand = r.curandTablesLeftOut ? ", cuRAND tables left out" : "";
    if (r.mode == rtc::CompileMode::Minimal)
        return "-minimal" + curand;
    return "full headers" + (r.fullReason.empty() ? std::string() : ": " + r.fullReason) + curand;
}

std::string plural(std::size_t n, const char* word)
{
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

} // namespace

std::string defaultCheckArch()
{
    try {
        if (cuda::driverStatus().available) {
            const cuda::DeviceInfo d = cuda::queryDevice(0);
            return d.archName();
        }
    } catch (const std::exception&) {
        // No usable device: the portable default.
    }
    return "sm_90";
}

CheckReport checkFile(const CheckRequest& request)
{
    const auto start = std::chrono::steady_clock::now();
    CheckReport report;
    report.file = request.file;
    report.occupancyBlockSize = request.occupancyBlockSize;
    rtc::CompileOptions options = request.options;
    if (options.arch.empty())
        options.arch = defaultCheckArch();
    report.arch = options.arch;
    report.fastCompile = rtc::effectiveFastCompile(options);
    static const std::regex archPattern(R"((sm|compute)_\d+[af]?)");
    if (!std::regex_match(options.arch, archPattern)) {
        report.usageError = "'" + options.arch + "' is not a GPU architecture (expected e.g. sm_90 or compute_90)";
        return report;
    }
    std::error_code ec;
    if (request.file.empty()) {
        report.usageError = "no file to check";
        return report;
    }
    if (!fs::exists(request.file, ec)) {
        report.usageError = request.file + ": no such file";
        return report;
    }
    if (fs::is_directory(request.file, ec)) {
        report.usageError = request.file + ": is a folder, not a kernel file";
        return report;
    }
    std::string source;
    try {
        source = paths::readTextFile(request.file);
    } catch (const std::exception& e) {
        report.usageError = e.what();
        return report;
    }

    const std::vector<syntax::KernelSignature> kernels = syntax::findKernels(source);
    const std::vector<std::string> names = rtc::nameExpressionsFor(kernels);
    if (request.useCache)
        report.cacheDirectory = request.cacheDirectory.empty() ? rtc::CompileCache::defaultDirectory() : request.cacheDirectory;
    rtc::CompileCache cache(report.cacheDirectory);
    try {
        const rtc::CachedCompile c = cache.request(source, request.file, options, names);
        report.result = c.result;
        report.source = c.source;
    } catch (const std::exception& e) {
        auto failed = std::make_shared<rtc::CompileResult>();
        failed->toolFailure = true;
        rtc::Diagnostic d;
        d.file = request.file;
        d.message = std::string("the compiler could not run: ") + e.what();
        failed->diagnostics.push_back(std::move(d));
        report.result = std::move(failed);
    }
    report.totalMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (report.result->ok)
        report.facts = rtc::collectFacts(kernels, names, *report.result, options.arch);
    return report;
}

std::string formatCheckReport(const CheckReport& r)
{
    std::ostringstream out;
    if (!r.usageError.empty()) {
        out << "kernelscope: error: " << r.usageError << "\n";
        return out.str();
    }
    std::size_t errors = 0, warnings = 0;
    for (const rtc::Diagnostic& d : r.result->diagnostics) {
        errors += d.severity == rtc::Severity::Error;
        warnings += d.severity == rtc::Severity::Warning;
        out << rtc::formatDiagnostic(d) << "\n";
        if (!d.excerpt.empty()) {
            out << "    " << d.excerpt << "\n";
            if (d.column > 0) {
                std::string caret = "    ";
                for (int i = 0; i + 1 < d.column && std::size_t(i) < d.excerpt.size(); ++i)
                    caret += d.excerpt[std::size_t(i)] == '\t' ? '\t' : ' ';
                out << caret << "^\n";
            }
        }
    }
    const std::string where = r.source == rtc::CacheSource::Compiled
                                  ? "compiled in " + ms(r.result->compileMs) + " (" +
                                        (r.cacheDirectory.empty() ? "cache off" : "cache miss") + ", " +
                                        modeText(*r.result) + ")"
                                  : "from the " + std::string(rtc::cacheSourceName(r.source)) + " cache in " + ms(r.totalMs) +
                                        " (compiled in " + ms(r.result->compileMs) + " originally, " +
                                        modeText(*r.result) + ")";
    if (!r.result->ok) {
        out << r.file << ": " << plural(errors ? errors : 1, "error") << ", " << plural(warnings, "warning") << " ("
            << r.arch << ", " << where << ")\n";
        return out.str();
    }
    const rtc::ModuleFacts& f = r.facts;
    out << r.file << ": ok for " << r.arch;
    if (r.fastCompile != rtc::FastCompile::Off)
        out << " (--Ofast-compile=" << rtc::fastCompileName(r.fastCompile) << ": less optimized code)";
    out << ", " << plural(warnings, "warning") << "; " << where << "; CUBIN "
        << bytes(f.cubinBytes) << ", PTX " << bytes(f.ptxBytes);
    if (f.globalBytes)
        out << ", " << bytes(std::size_t(f.globalBytes)) << " of __device__ globals";
    out << "\n";
    if (f.kernels.empty())
        out << "  no kernels (no __global__ function definitions)\n";
    const cuda::OccupancyLimits limits = cuda::OccupancyLimits::forArch(r.arch);
    for (const rtc::KernelFacts& k : f.kernels) {
        out << "\nkernel " << k.name << "(";
        for (std::size_t i = 0; i < k.params.size(); ++i) {
            out << (i ? ", " : "") << k.params[i].type;
            if (!k.params[i].name.empty())
                out << " " << k.params[i].name;
        }
        out << ")";
        if (k.signature && k.signature->line > 0)
            out << "  [line " << k.signature->line << "]";
        out << "\n";
        if (!k.symbol.empty() && k.symbol != k.name)
            out << "  symbol          " << k.symbol << "\n";
        if (!k.ptxParams.empty()) {
            out << "  parameters      ";
            std::size_t total = 0;
            for (std::size_t i = 0; i < k.ptxParams.size(); ++i) {
                const rtc::PtxParameter& p = k.ptxParams[i];
                total = (total + p.align - 1) / std::max<std::size_t>(p.align, 1) * std::max<std::size_t>(p.align, 1);
                out << (i ? ", " : "") << p.size << " B";
                total += p.size;
            }
            out << " (" << total << " B in all)\n";
        }
        if (k.resourcesKnown) {
            const rtc::PtxasKernelReport& x = k.resources;
            out << "  registers       " << x.registers << " per thread\n";
            out << "  shared memory   " << bytes(std::size_t(x.sharedBytes)) << " static\n";
            if (x.constBytes)
                out << "  constant memory " << bytes(std::size_t(x.constBytes)) << "\n";
            out << "  local memory    " << bytes(std::size_t(x.stackFrameBytes)) << " stack per thread";
            if (x.cumulativeStackBytes > x.stackFrameBytes) // calls kept as calls (-G, --Ofast-compile)
                out << " (" << bytes(std::size_t(x.cumulativeStackBytes)) << " with the functions it calls)";
            if (x.spillStoreBytes || x.spillLoadBytes)
                out << ", SPILLS: " << x.spillStoreBytes << " B stored, " << x.spillLoadBytes << " B loaded";
            else
                out << ", no spills";
            out << "\n";
            if (x.barriers)
                out << "  barriers        " << x.barriers << "\n";
            out << "  max threads     " << k.maxThreadsPerBlock << " per block\n";
            const cuda::Occupancy o = k.occupancy(limits, r.occupancyBlockSize);
            out << "  occupancy       " << r.occupancyBlockSize << " threads/block: " << o.summary();
            cuda::OccupancyInput in;
            in.registersPerThread = x.registers;
            in.staticSharedBytes = x.sharedBytes;
            in.kernelMaxThreads = k.maxThreadsPerBlock;
            const cuda::BlockSizeSuggestion best = cuda::suggestBlockSize(limits, in);
            if (best.blockSize)
                out << "; best block size " << best.blockSize << " (" << int(best.occupancy.fraction * 100 + 0.5)
                    << "%)";
            out << (f.archKnown ? "" : " [limits of sm_90: " + r.arch + " is not in the table]") << "\n";
        }
        for (const std::string& p : k.problems)
            out << "  note: " << p << "\n";
    }
    return out.str();
}

} // namespace ks::app

namespace ks::app {

std::string ptxListing(const CheckReport& report, std::string_view source)
{
    if (!report.ok())
        return {};
    return rtc::annotatedListing(rtc::parsePtxListing(report.result->ptx), report.file, source);
}

std::string sassListing(const CheckReport& report, std::string_view source, std::string& why)
{
    const rtc::Disassembly d = rtc::disassemble(report.ok() ? report.result->cubin : std::vector<std::uint8_t>());
    if (!d.ok) {
        why = d.reason + (d.reason == rtc::kNoDisassembler ? ", or use --ptx" : "");
        return {};
    }
    return rtc::annotatedListing(rtc::parseSassListing(d.text), report.file, source);
}

} // namespace ks::app
