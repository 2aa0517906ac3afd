#pragma once
// Kernelscope's fuzz targets: one function per parser of outside input, each taking arbitrary bytes.
// A target returns normally for every input, malformed or not (a ks::Error for bad input is the
// parser's answer and is caught inside); it throws ks::fuzz::Violation when the parser broke one of
// its own promises (a round trip that does not come back, a decoded cache entry that is not the one
// stored), and anything else that escapes (another exception, a crash, a sanitizer report) is a bug.
//
// The same functions run in two places: the libFuzzer executables (KS_FUZZ=ON, tests/fuzz/
// CMakeLists.txt) and the unit test FuzzInputs, which feeds them every seed and every input a
// fuzzer ever found (tests/fuzz/corpus, tests/fuzz/regressions).
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ks::fuzz {

struct Violation : std::logic_error {
    using std::logic_error::logic_error;
};

using TargetFn = void (*)(std::string_view input);

struct Target {
    const char* name; // "project", "diagnostics", ...: the executable is ks_fuzz_<name>
    TargetFn run;
    const char* what; // one line: which parser, through which entry points
};

const std::vector<Target>& targets();
const Target* findTarget(std::string_view name);

} // namespace ks::fuzz
