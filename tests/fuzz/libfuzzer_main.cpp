// The libFuzzer entry of one target (KS_FUZZ_TARGET, set per executable by tests/fuzz/CMakeLists.txt).
// A broken promise (ks::fuzz::Violation) aborts with what was promised; any other exception that
// escapes a target ends in std::terminate, which libFuzzer reports as a crash with the input.
#include "targets.hpp"

#include <cstdio>
#include <cstdlib>

#ifndef KS_FUZZ_TARGET
#error "KS_FUZZ_TARGET names the target this executable fuzzes"
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const ks::fuzz::Target* target = [] {
        const ks::fuzz::Target* t = ks::fuzz::findTarget(KS_FUZZ_TARGET);
        if (!t) {
            std::fprintf(stderr, "no fuzz target named %s\n", KS_FUZZ_TARGET);
            std::abort();
        }
        return t;
    }();
    try {
        target->run(std::string_view(reinterpret_cast<const char*>(data), size));
    } catch (const ks::fuzz::Violation& v) {
        std::fprintf(stderr, "ks_fuzz_%s: a promise was broken: %s\n", KS_FUZZ_TARGET, v.what());
        std::abort();
    }
    return 0;
}
