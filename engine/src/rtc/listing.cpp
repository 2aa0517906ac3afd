#include "ks/rtc/listing.hpp"

#include "ks/core/atomic_file.hpp"
#include "ks/core/numbers.hpp"
#include "ks/core/paths.hpp"
#include "ks/core/text_lines.hpp"
#include "ks/proc/child_process.hpp"
#include "ks/rtc/compiler.hpp"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>

namespace ks::rtc {
namespace fs = std::filesystem;

namespace {

std::string_view trimLeft(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    return s;
}

// The next whitespace-separated word of `s`, taken off it.
std::string_view word(std::string_view& s)
{
    s = trimLeft(s);
    std::size_t n = 0;
    while (n < s.size() && s[n] != ' ' && s[n] != '\t' && s[n] != ',')
        ++n;
    std::string_view w = s.substr(0, n);
    s.remove_prefix(n);
    return w;
}

bool isDigits(std::string_view s)
{
    return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

// The quoted text at the start of `s` ("...") into `out`, taken off `s`; false when there is none.
bool quoted(std::string_view& s, std::string_view& out)
{
    s = trimLeft(s);
    if (s.empty() || s.front() != '"')
        return false;
    const std::size_t close = s.find('"', 1);
    if (close == std::string_view::npos)
        return false;
    out = s.substr(1, close - 1);
    s.remove_prefix(close + 1);
    return true;
}

// The symbol of a PTX function header ".visible .entry name(" / ".func  (.param .b32 r) name(";
// empty when `line` is no definition's header (an .extern declaration is none).
std::string ptxFunctionHeader(std::string_view line, bool& entry)
{
    std::string_view rest = line;
    bool external = false;
    for (;;) {
        const std::string_view w = word(rest);
        if (w == ".visible" || w == ".weak")
            continue;
        if (w == ".extern")
            external = true;
        else if (w == ".entry" || w == ".func") {
            entry = w == ".entry";
            break;
        } else {
            return {};
        }
    }
    if (external)
        return {};
    rest = trimLeft(rest);
    if (!rest.empty() && rest.front() == '(') { // a .func's return parameters
        const std::size_t close = rest.find(')');
        if (close == std::string_view::npos)
            return {};
        rest = trimLeft(rest.substr(close + 1));
    }
    std::size_t n = 0;
    while (n < rest.size() && rest[n] != '(' && rest[n] != ' ' && rest[n] != '\t' && rest[n] != ';')
        ++n;
    if (n == rest.size() || rest[n] == ';')
        return {}; // a prototype ("name;"), not a definition
    return std::string(rest.substr(0, n));
}

} // namespace

int Listing::fileIndex(std::string_view fileName) const
{
    const fs::path wanted = fs::path(fileName).filename();
    for (std::size_t i = 0; i < files.size(); ++i)
        if (fs::path(files[i]).filename() == wanted)
            return int(i) + 1;
    return 0;
}

std::vector<std::size_t> Listing::linesFrom(int file, int line) const
{
    std::vector<std::size_t> out;
    if (file <= 0 || line <= 0)
        return out;
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (lines[i].file == file && lines[i].line == line)
            out.push_back(i);
    return out;
}

const ListingFunction* Listing::functionAt(std::size_t index) const
{
    for (const ListingFunction& f : functions)
        if (index >= f.first && index < f.end)
            return &f;
    return nullptr;
}

Listing parsePtxListing(std::string_view ptx)
{
    Listing out;
    const std::vector<std::string_view> lines = splitLines(ptx);
    std::map<int, int> fileOf; // .file number -> 1 + index into out.files
    for (std::string_view l : lines) { // NVVM writes the .file table after the functions
        std::string_view rest = trimLeft(l);
        if (!rest.starts_with(".file"))
            continue;
        word(rest);
        const std::string_view number = word(rest);
        std::string_view name;
        if (isDigits(number) && quoted(rest, name)) {
            out.files.emplace_back(name);
            fileOf[leadingInt(number)] = int(out.files.size());
        }
    }
    int file = 0, line = 0;
    bool inFunction = false;
    for (std::string_view l : lines) {
        const std::string_view rest0 = trimLeft(l);
        if (!inFunction) {
            bool entry = false;
            if (std::string symbol = ptxFunctionHeader(rest0, entry); !symbol.empty()) {
                out.functions.push_back({std::move(symbol), entry, out.lines.size(), 0});
                inFunction = true;
                file = line = 0;
            }
        }
        if (rest0.starts_with(".loc") && rest0.size() > 4 && (rest0[4] == ' ' || rest0[4] == '\t')) {
            std::string_view rest = rest0.substr(4);
            const std::string_view number = word(rest), row = word(rest);
            const auto it = isDigits(number) ? fileOf.find(leadingInt(number)) : fileOf.end();
            if (it != fileOf.end() && isDigits(row)) {
                file = it->second;
                line = leadingInt(row);
            }
        }
        out.lines.push_back({std::string(l), inFunction ? file : 0, inFunction ? line : 0});
        if (inFunction && l == "}") {
            out.functions.back().end = out.lines.size();
            inFunction = false;
            file = line = 0;
        }
        out.lineInfo = out.lineInfo || line > 0;
    }
    if (inFunction)
        out.functions.back().end = out.lines.size();
    return out;
}

Listing parseSassListing(std::string_view text)
{
    Listing out;
    std::map<std::string, int, std::less<>> fileOf;
    int file = 0, line = 0;
    auto endFunction = [&] {
        if (!out.functions.empty() && out.functions.back().end == 0)
            out.functions.back().end = out.lines.size();
        file = line = 0;
    };
    for (std::string_view l : splitLines(text)) {
        const std::string_view rest0 = trimLeft(l);
        if (rest0.starts_with("//## File ")) {
            // //## File "/path/k.cu", line 9[ inlined at "/path/k.cu", line 20]
            std::string_view rest = rest0.substr(10), name;
            if (quoted(rest, name) && trimLeft(rest).starts_with(", line ")) {
                rest = trimLeft(rest).substr(7);
                auto [it, added] = fileOf.try_emplace(std::string(name), int(out.files.size()) + 1);
                if (added)
                    out.files.emplace_back(name);
                file = it->second;
                line = leadingInt(rest);
                out.lineInfo = out.lineInfo || line > 0;
                continue;
            }
        }
        const bool section = rest0.starts_with(".section") && rest0.size() > 8 && (rest0[8] == ' ' || rest0[8] == '\t');
        if (section && rest0.find(".text.") != std::string_view::npos) {
            endFunction();
            std::string_view rest = rest0.substr(rest0.find(".text.") + 6);
            out.functions.push_back({std::string(rest.substr(0, rest.find_first_of(", \t"))), false,
                                     out.lines.size(), 0});
        } else if (rest0.starts_with("Function : ")) { // cuobjdump -sass
            endFunction();
            out.functions.push_back({std::string(rest0.substr(11)), true, out.lines.size(), 0});
        } else if (section) { // .sectioninfo and the like belong to the section they follow
            endFunction();
        } else if (rest0.starts_with(".other") && rest0.find("STO_CUDA_ENTRY") != std::string_view::npos &&
                   !out.functions.empty() && out.functions.back().end == 0) {
            out.functions.back().entry = true;
        }
        out.lines.push_back({std::string(l), file, line});
    }
    endFunction();
    return out;
}

std::string annotatedListing(const Listing& listing, std::string_view fileName, std::string_view source)
{
    const std::vector<std::string_view> sourceLines = splitLines(source);
    const int own = listing.fileIndex(fileName);
    std::string out;
    int lastFile = 0, lastLine = 0;
    for (const ListingLine& l : listing.lines) {
        if (l.line > 0 && (l.file != lastFile || l.line != lastLine)) {
            out += "// " + fs::path(listing.files[std::size_t(l.file - 1)]).filename().string() + ":" +
                   std::to_string(l.line);
            if (l.file == own && std::size_t(l.line) <= sourceLines.size()) {
                out += ": ";
                out += trimLeft(sourceLines[std::size_t(l.line) - 1]);
            }
            out += "\n";
            lastFile = l.file;
            lastLine = l.line;
        }
        out += l.text;
        out += "\n";
    }
    return out;
}

Disassembly disassemble(const std::vector<std::uint8_t>& cubin)
{
    Disassembly d;
    if (cubin.empty()) {
        d.reason = "no CUBIN to disassemble (a build for a virtual architecture, compute_XX, has only PTX)";
        return d;
    }
    std::vector<fs::path> toolkit;
    if (const char* home = std::getenv("CUDA_HOME"); home && *home)
        toolkit.push_back(fs::path(home) / "bin");
    if (const std::string include = cudaIncludeDir(); !include.empty())
        toolkit.push_back(fs::path(include).parent_path() / "bin");
    toolkit.push_back("/usr/local/cuda/bin");
    fs::path tool = paths::findProgram("nvdisasm", toolkit);
    d.lineInfo = !tool.empty();
    if (tool.empty())
        tool = paths::findProgram("cuobjdump", toolkit);
    if (tool.empty()) {
        d.reason = kNoDisassembler;
        return d;
    }
    d.tool = tool.string();
    char folder[] = "/tmp/kernelscope-sass-XXXXXX";
    if (!::mkdtemp(folder)) {
        d.reason = std::string("cannot make a temporary folder: ") + std::strerror(errno);
        return d;
    }
    const fs::path dir = folder, file = dir / "kernel.cubin", listing = dir / "listing.txt";
    try {
        paths::writeFileAtomically(file, std::string_view(reinterpret_cast<const char*>(cubin.data()), cubin.size()));
        proc::SpawnSpec spec;
        spec.executable = tool;
        spec.args = d.lineInfo ? std::vector<std::string>{"--print-code", "--print-line-info", file.string()}
                               : std::vector<std::string>{"-sass", file.string()};
        spec.output = listing;
        proc::ChildProcess child = proc::ChildProcess::spawn(spec);
        const std::optional<proc::ExitStatus> status = child.wait(std::chrono::seconds(60));
        std::string text = paths::readFile(listing, std::size_t(256) << 20);
        if (!status || !status->success()) {
            d.reason = tool.filename().string() + (status ? " " + status->describe() : std::string(" ran past 60 s")) +
                       ": " + text;
        } else {
            d.ok = true;
            d.text = std::move(text);
        }
    } catch (const std::exception& e) {
        d.reason = e.what();
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
    return d;
}

} // namespace ks::rtc
