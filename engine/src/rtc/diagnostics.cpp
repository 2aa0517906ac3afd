#include "ks/rtc/diagnostics.hpp"

#include "ks/core/numbers.hpp"
#include "ks/core/text_lines.hpp"
#include "ks/rtc/symbols.hpp"

#include <regex>
#include <sstream>

namespace ks::rtc {

std::string_view severityName(Severity s) noexcept
{
    switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Remark: return "remark";
    case Severity::Note: return "note";
    }
    return "error";
}

namespace {

Severity parseSeverity(const std::string& s)
{
    if (s.find("warning") != std::string::npos)
        return Severity::Warning;
    if (s.find("remark") != std::string::npos)
        return Severity::Remark;
    if (s.find("note") != std::string::npos)
        return Severity::Note;
    return Severity::Error;
}

bool isCaretLine(std::string_view line)
{
    const std::size_t caret = line.find_first_not_of(" \t");
    return caret != std::string_view::npos && line[caret] == '^' &&
           line.find_first_not_of(" \t", caret + 1) == std::string_view::npos;
}

std::string trim(std::string_view s)
{
    const std::size_t a = s.find_first_not_of(" \t");
    if (a == std::string_view::npos)
        return {};
    const std::size_t b = s.find_last_not_of(" \t\r");
    return std::string(s.substr(a, b - a + 1));
}

} // namespace

std::vector<Diagnostic> parseLog(std::string_view log, std::string_view defaultFile)
{
    // "file(12): error: msg", "file(12): warning #177-D: msg", "file(12): catastrophic error: msg",
    // "file(12): remark #20200-D: msg".
    static const std::regex located(
        R"(^(.*)\((\d+)\): (catastrophic error|error|warning|remark|note)( #[0-9A-Za-z-]+)?: (.*)$)");
    // Location-less: "error: msg", "Command-line error: msg", "nvrtc: error: msg", and NVRTC's own
    // troubles, "Catastrophic error: unable to obtain mapped memory" (seen with a file size limit).
    static const std::regex bare(
        R"(^(?:nvrtc: |Command-line )?([Cc]atastrophic error|error|warning|remark|note)( #[0-9A-Za-z-]+)?: (.*)$)");
    // ptxas: "ptxas fatal   : msg", "ptxas error   : msg", "ptxas warning : msg" and
    // "ptxas application ptx input, line 27; error   : msg".
    static const std::regex ptxas(R"(^ptxas(?: application ptx input, line (\d+);)? *(fatal|error|warning) *: (.*)$)");
    // "detected during instantiation of "..." at line 10" / "... at line 10 of "b.cuh"" and the
    // indented list after "detected during:".
    static const std::regex context(R"(^\s+(?:detected during(?::)? ?)?(.*?) at line (\d+)(?: of \"?([^"]+)\"?)?\s*$)");

    std::vector<Diagnostic> out;
    const auto lines = splitLines(log);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string line(lines[i]);
        std::smatch m;
        Diagnostic d;
        if (std::regex_match(line, m, located)) {
            d.file = m[1];
            d.line = leadingInt(std::string(m[2]));
            d.severity = parseSeverity(m[3]);
            d.code = m[4].matched ? std::string(m[4]).substr(1) : "";
            d.message = m[5];
        } else if (std::regex_match(line, m, ptxas)) {
            d.severity = m[2] == "warning" ? Severity::Warning : Severity::Error;
            d.message = "ptxas";
            if (m[1].matched)
                d.message += " (PTX line " + std::string(m[1]) + ")";
            d.message += ": " + annotateMangledNames(std::string(m[3]));
        } else if (std::regex_match(line, m, bare)) {
            d.severity = parseSeverity(m[1]);
            d.code = m[2].matched ? std::string(m[2]).substr(1) : "";
            d.message = m[3];
        } else if (!out.empty() && std::regex_match(line, m, context)) {
            // Where a template that failed was used: a note at that line, after its error.
            Diagnostic n;
            const Diagnostic& owner = out.back();
            n.file = m[3].matched ? std::string(m[3]) : owner.file;
            n.line = leadingInt(std::string(m[2]));
            n.severity = Severity::Note;
            std::string what = trim(std::string(m[1]));
            n.message = what.empty() ? "required from here" : "detected during " + what;
            out.push_back(std::move(n));
            continue;
        } else {
            continue;
        }
        if (d.file.empty())
            d.file = std::string(defaultFile);
        // The quoted source line and the caret under the column follow, both indented by two
        // spaces more than the source (tabs are reproduced, so positions agree).
        if (i + 2 < lines.size() && isCaretLine(lines[i + 2])) {
            std::string_view src = lines[i + 1];
            const std::size_t caret = lines[i + 2].find('^');
            const std::size_t prefix = src.size() >= 2 && src.substr(0, 2) == "  " ? 2 : 0;
            d.excerpt = std::string(src.substr(prefix));
            d.column = caret >= prefix ? int(caret - prefix) + 1 : 0;
            i += 2;
        }
        out.push_back(std::move(d));
    }
    return out;
}

void markLikelyCauses(std::vector<Diagnostic>& diagnostics, std::string_view source, std::string_view fileName)
{
    const auto lines = splitLines(source);
    std::vector<Diagnostic> notes;
    for (const Diagnostic& d : diagnostics) {
        if (d.severity != Severity::Error || d.file != fileName || d.line <= 1 || d.line > int(lines.size()))
            continue;
        if (d.message.rfind("expected a", 0) != 0)
            continue;
        // Only when the reported token is the first on its line: then the thing expected was
        // missing at the end of an earlier line.
        std::string_view here = lines[std::size_t(d.line - 1)];
        const std::size_t first = here.find_first_not_of(" \t");
        if (d.column > 0 && first != std::string_view::npos && std::size_t(d.column - 1) != first)
            continue;
        int prev = d.line - 1;
        while (prev >= 1 && lines[std::size_t(prev - 1)].find_first_not_of(" \t") == std::string_view::npos)
            --prev;
        if (prev < 1)
            continue;
        Diagnostic n;
        n.file = d.file;
        n.line = prev;
        std::string_view prevLine = lines[std::size_t(prev - 1)];
        const std::size_t last = prevLine.find_last_not_of(" \t");
        n.column = last == std::string_view::npos ? 0 : int(last) + 2; // just past the last character
        n.severity = Severity::Note;
        n.message = "likely cause of the error on line " + std::to_string(d.line) + ": " + d.message +
                    " at the end of this line";
        n.excerpt = std::string(prevLine);
        n.likelyCause = true;
        notes.push_back(std::move(n));
    }
    diagnostics.insert(diagnostics.end(), notes.begin(), notes.end());
}

std::string formatDiagnostic(const Diagnostic& d)
{
    std::ostringstream s;
    if (!d.file.empty()) {
        s << d.file;
        if (d.line > 0) {
            s << ':' << d.line;
            if (d.column > 0)
                s << ':' << d.column;
        }
        s << ": ";
    }
    s << severityName(d.severity) << ": " << d.message;
    return s.str();
}

} // namespace ks::rtc
