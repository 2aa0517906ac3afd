// Swap semantics of a live module without a GPU: a fake module type stands in for cuda::Module.
#include "ks/rtc/live_module.hpp"

#include <gtest/gtest.h>

#include <set>

namespace {

// "Loads" an image whose text lists kernel names; an image starting with "BAD" fails to load.
struct FakeModule {
    FakeModule() = default;
    explicit FakeModule(const void* image)
    {
        const std::string text(static_cast<const char*>(image));
        if (text.rfind("BAD", 0) == 0)
            throw ks::Error(ks::ErrorDomain::Cuda, "cuModuleLoadData", 218, "CUDA_ERROR_INVALID_PTX", "bad image");
        std::size_t start = 0;
        while (start < text.size()) {
            const std::size_t end = std::min(text.find(' ', start), text.size());
            names.insert(text.substr(start, end - start));
            start = end + 1;
        }
    }
    bool hasFunction(const std::string& n) const { return names.count(n) != 0; }
    std::set<std::string> names;
};

std::shared_ptr<const ks::rtc::CompileResult> build(const std::string& ptx, bool ok = true)
{
    auto r = std::make_shared<ks::rtc::CompileResult>();
    r->ok = ok;
    r->ptx = ptx;
    if (!ok) {
        ks::rtc::Diagnostic d;
        d.file = "k.cu";
        d.line = 3;
        d.message = "expected a \";\"";
        r->diagnostics.push_back(d);
    }
    return r;
}

} // namespace

TEST(LiveModule, OnlyABuildThatCompilesAndLoadsIsSwappedIn)
{
    ks::rtc::BasicLiveModule<FakeModule> live;
    EXPECT_FALSE(live.hasModule());
    auto first = build("draw shade");
    EXPECT_TRUE(live.offer(first, {"draw"}).swapped);
    EXPECT_EQ(live.generation(), 1u);
    EXPECT_TRUE(live.module().hasFunction("shade"));
    EXPECT_EQ(live.build(), first);

    // A failed compile keeps the old module and says why.
    auto outcome = live.offer(build("", false), {"draw"});
    EXPECT_FALSE(outcome.swapped);
    EXPECT_EQ(outcome.failure, "the build failed: k.cu:3: error: expected a \";\"");
    EXPECT_EQ(live.generation(), 1u);
    EXPECT_TRUE(live.module().hasFunction("draw"));
    EXPECT_EQ(live.lastFailure(), outcome.failure);

    // A build that compiled but does not load keeps it too.
    outcome = live.offer(build("BAD image"));
    EXPECT_FALSE(outcome.swapped);
    EXPECT_NE(outcome.failure.find("could not be loaded"), std::string::npos);
    EXPECT_NE(outcome.failure.find("CUDA_ERROR_INVALID_PTX"), std::string::npos);
    EXPECT_EQ(live.build(), first);

    // So does one that lacks a kernel the app draws with.
    outcome = live.offer(build("shade"), {"draw"});
    EXPECT_FALSE(outcome.swapped);
    EXPECT_EQ(outcome.failure, "the new build has no kernel 'draw'");
    EXPECT_TRUE(live.module().hasFunction("draw"));

    // A good one swaps, and the failure clears.
    EXPECT_TRUE(live.offer(build("draw"), {"draw"}).swapped);
    EXPECT_EQ(live.generation(), 2u);
    EXPECT_FALSE(live.module().hasFunction("shade"));
    EXPECT_TRUE(live.lastFailure().empty());
    EXPECT_FALSE(live.offer(nullptr).swapped);
}
