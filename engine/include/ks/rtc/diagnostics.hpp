#pragma once
// NVRTC's log parsed into structured diagnostics.

#include <string>
#include <string_view>
#include <vector>

namespace ks::rtc {

enum class Severity { Error, Warning, Remark, Note };
std::string_view severityName(Severity s) noexcept; // "error", "warning", "remark", "note"

struct Diagnostic {
    std::string file;
    int line = 0;   // 1-based, the user's line; 0 when the message has no location
    int column = 0; // 1-based; 0 when unknown
    Severity severity = Severity::Error;
    std::string code;    // "#177-D" where NVRTC gives one
    std::string message;
    std::string excerpt; // the source line NVRTC quoted, without its indentation prefix
    // Set on a copy of an error whose true cause is probably the previous non-blank line (a
    // missing ';' is reported at the next token). See markLikelyCauses().
    bool likelyCause = false;
};

// Parses an NVRTC log into diagnostics, in the log's order:
// - the front end's "file(line): severity[ #code]: message", with the quoted source line and the
//   caret that gives the column (tabs kept, so the column counts characters); "catastrophic
//   error" (a missing include, #error) is an error. A diagnostic inside an included header carries
//   that header's file name as NVRTC spells it.
// - "detected during instantiation of ... at line N [of "file"]" context lines become Notes at
//   that line (where the template was used), following their error.
// - location-less "error: ...", "Command-line error: ...", "nvrtc: error: ..." (bad options).
// - ptxas' "error"/"warning"/"fatal" lines (the back end: unresolved externs, bad inline asm):
//   located at no line of the user's; PTX line numbers go into the message.
// ptxas' info lines (see kernel_facts.hpp), summaries ("2 errors detected ...") and the
// "Remark: The warnings can be suppressed ..." hint are skipped. Diagnostics without a file get
// `defaultFile` (the file being compiled).
std::vector<Diagnostic> parseLog(std::string_view log, std::string_view defaultFile = {});

// For errors of the "expected a ';'"-kind (reported at the token after the real cause) that sit at
// the start of their line, appends a Note at the preceding non-blank line of `source` with
// likelyCause set. `source` is the user's file as they see it.
void markLikelyCauses(std::vector<Diagnostic>& diagnostics, std::string_view source, std::string_view fileName);

// "file:line:col: severity: message" (col omitted when unknown), the form editors and CI read.
std::string formatDiagnostic(const Diagnostic& d);

} // namespace ks::rtc
