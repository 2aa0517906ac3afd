#pragma once
// A build's PTX and SASS as listings whose lines know the source line they came from, so that a
// tool can map both ways: a source line to its instructions, an instruction to its source line.
// The mapping needs a build with line information (CompileOptions::lineInfo, -lineinfo): PTX then
// has .loc directives, and nvdisasm prints a "//## File" marker wherever the line changes. Neither
// changes the user's line numbers (rtc::compile injects no prelude). No GPU is needed; SASS needs
// the CUDA Toolkit's nvdisasm or cuobjdump (disassemble()).
//
// Thread-safe: every function here is pure except disassemble(), which runs a program and may be
// called from any thread (it blocks: call it off the UI thread).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ks::rtc {

struct ListingLine {
    std::string text; // as the compiler or the disassembler wrote it
    int file = 0;     // the source file it came from: 1 + an index into Listing::files; 0: none
    int line = 0;     // the source line (1-based); 0: none (declarations, directives)
};

// A function of the listing: its lines are [first, end) of Listing::lines.
struct ListingFunction {
    std::string symbol; // the lowered (mangled) name
    bool entry = false; // a kernel (.entry; SASS: a STO_CUDA_ENTRY function or a cuobjdump Function)
    std::size_t first = 0, end = 0;
};

struct Listing {
    std::vector<std::string> files; // the source files, as the build named them (a path or a name)
    std::vector<ListingLine> lines;
    std::vector<ListingFunction> functions; // in listing order
    bool lineInfo = false; // some line has a source line (false: built without -lineinfo, or cuobjdump)

    // Which of `files` is `fileName` (1-based, as ListingLine::file), compared by file name since
    // the build may name it by path; 0 when none is.
    int fileIndex(std::string_view fileName) const;
    // The indices of the lines that came from `line` of file `file` (1-based), in order.
    std::vector<std::size_t> linesFrom(int file, int line) const;
    // The function that holds line `index`, or nullptr.
    const ListingFunction* functionAt(std::size_t index) const;
};

// NVRTC's PTX: ".file N \"name\"" (NVVM writes the table at the end) and ".loc N LINE COL": each
// line from a .loc to the next, or to the end of its function, has that source line. An inlined
// call's ".loc ..., inlined_at ..." gives the line of the inlined code itself.
Listing parsePtxListing(std::string_view ptx);

// nvdisasm --print-code --print-line-info output: "//## File \"path\", line N" sets the source line
// of the instructions after it (a marker with "inlined at" names the inlined code's own line first,
// which is the one taken); the markers themselves are not lines of the listing. Functions begin at
// ".section .text.SYMBOL". cuobjdump -sass output ("Function : SYMBOL") is read too, without
// source lines (cuobjdump prints none).
Listing parseSassListing(std::string_view text);

// The listing as text with a comment "// FILE:LINE: the line's text" before each run of lines
// from one source line (the text only for lines of `fileName`, whose text is `source`): what
// `kernelscope --check --ptx/--sass` prints.
std::string annotatedListing(const Listing& listing, std::string_view fileName, std::string_view source);

// SASS of a CUBIN from the CUDA Toolkit's nvdisasm (--print-code --print-line-info, so the text
// parses with source lines), else its cuobjdump (-sass, without them), found on PATH, in
// $CUDA_HOME/bin, next to the toolkit's include folder or in /usr/local/cuda/bin. ok false with
// the reason when it cannot: kNoDisassembler where neither is installed. Blocks while the program
// runs (at most 60 s).
struct Disassembly {
    bool ok = false;
    std::string text;
    std::string reason;
    std::string tool;      // the program that ran
    bool lineInfo = false; // the tool prints source lines (nvdisasm)
};
Disassembly disassemble(const std::vector<std::uint8_t>& cubin);

// Why there is no SASS where no disassembler is installed, and how to get one.
inline constexpr const char* kNoDisassembler =
    "SASS needs the CUDA Toolkit's nvdisasm (or cuobjdump), which is not installed here (looked in PATH, "
    "$CUDA_HOME/bin and /usr/local/cuda/bin): install the toolkit's cuda-nvdisasm package";

} // namespace ks::rtc
