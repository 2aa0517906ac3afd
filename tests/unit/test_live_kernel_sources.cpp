// Every kernel the CUDA tests launch compiles for sm_90 here, and its facts (discovered
// parameters, lowered names, PTX layout) agree, so that the GPU run meets no typo.
#include "ks/rtc/kernel_facts.hpp"

#include "live_kernels.hpp"

#include <gtest/gtest.h>

TEST(LiveKernelSources, AllCompileForHopperWithConsistentFacts)
{
    using namespace ks::rtc;
    for (const char* source : ks::test::live_kernels::kAll) {
        const auto kernels = ks::syntax::findKernels(source);
        const auto names = nameExpressionsFor(kernels);
        CompileOptions o;
        o.arch = "sm_90";
        const CompileResult r = compile(source, "live.cu", o, names);
        ASSERT_TRUE(r.ok) << source << "\n" << r.log;
        for (const Diagnostic& d : r.diagnostics)
            ADD_FAILURE() << formatDiagnostic(d);
        const ModuleFacts facts = collectFacts(kernels, names, r, "sm_90");
        ASSERT_FALSE(facts.kernels.empty());
        for (const KernelFacts& k : facts.kernels) {
            EXPECT_FALSE(k.symbol.empty()) << k.name;
            EXPECT_TRUE(k.resourcesKnown) << k.name;
            for (const std::string& p : k.problems)
                ADD_FAILURE() << k.name << ": " << p;
        }
    }
}
