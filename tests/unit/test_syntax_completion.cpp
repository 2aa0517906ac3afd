// Completion's matching and ranking (ks/syntax/completion.hpp): the tiers, the order within a
// tier, the sources merged once each, the file's identifiers read through the lexer (never from
// comments or strings), and the word being typed.
#include "ks/syntax/completion.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

using ks::syntax::CompletionItem;
using ks::syntax::CompletionKind;

namespace {

std::vector<std::string> labels(const std::vector<CompletionItem>& all, const std::vector<std::size_t>& picked)
{
    std::vector<std::string> out;
    for (std::size_t i : picked)
        out.push_back(all[i].label);
    return out;
}

std::vector<std::string> top(const std::vector<CompletionItem>& all, std::string_view prefix, std::size_t n)
{
    return labels(all, ks::syntax::rankCompletions(all, prefix, n));
}

} // namespace

TEST(SyntaxCompletion, MatchTiers)
{
    using ks::syntax::completionMatch;
    EXPECT_EQ(completionMatch("atomicAdd", "atomicA"), 0);
    EXPECT_EQ(completionMatch("atomicAdd", ""), 0);
    EXPECT_EQ(completionMatch("atomicAdd", "atomica"), 1);
    EXPECT_EQ(completionMatch("__syncthreads", "sync"), 2);
    EXPECT_EQ(completionMatch("__syncthreads", "SYNC"), 2);
    EXPECT_EQ(completionMatch("__shfl_down_sync", "shfd"), 3);
    EXPECT_EQ(completionMatch("atomicAdd", "aAd"), 3);
    EXPECT_EQ(completionMatch("atomicAdd", "tomic"), -1); // the first character is the name's first letter
    EXPECT_EQ(completionMatch("atomicAdd", "atomicAddx"), -1);
    EXPECT_EQ(completionMatch("atomicAdd", "dA"), -1);
    EXPECT_EQ(completionMatch("___", "a"), -1);
}

TEST(SyntaxCompletion, AtomicPrefixRanksAtomicAddFirst)
{
    const auto all = ks::syntax::completionCandidates({}, {});
    const auto got = top(all, "atomicA", 3);
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[0], "atomicAdd");
    EXPECT_EQ(got[1], "atomicAdd_block");
    EXPECT_EQ(got[2], "atomicAdd_system");
    EXPECT_EQ(top(all, "atomicC", 1), std::vector<std::string>{"atomicCAS"});
    // "sync" starts no name: the names it starts after their underscores (tier 2) come first,
    // the shortest of those first.
    const auto sync = top(all, "sync", 50);
    ASSERT_FALSE(sync.empty());
    EXPECT_EQ(sync[0], "__syncthreads");
    EXPECT_TRUE(std::find(sync.begin(), sync.end(), "__syncwarp") != sync.end());
    EXPECT_TRUE(top(all, "qqqq", 10).empty());
}

TEST(SyntaxCompletion, CaseFoldedAfterExactCase)
{
    std::vector<CompletionItem> project{{"Alpha", CompletionKind::Parameter, "float", ""},
                                        {"alphabet", CompletionKind::Resource, "buffer", ""}};
    const auto all = ks::syntax::completionCandidates(project, {});
    EXPECT_EQ(top(all, "alp", 2), (std::vector<std::string>{"alphabet", "Alpha"}));
    EXPECT_EQ(top(all, "Alp", 2), (std::vector<std::string>{"Alpha", "alphabet"}));
}

TEST(SyntaxCompletion, SourcesMergedOnceBuiltinsFirst)
{
    std::vector<CompletionItem> project{{"scale", CompletionKind::Parameter, "float, 0 to 2", "a slider"},
                                        {"atomicAdd", CompletionKind::Resource, "buffer", ""}};
    const auto all = ks::syntax::completionCandidates(project, {"scale", "speed", "atomicAdd", "threadIdx"});
    int scale = 0, atomic = 0, speed = 0;
    for (const CompletionItem& c : all) {
        scale += c.label == "scale";
        atomic += c.label == "atomicAdd";
        speed += c.label == "speed";
        if (c.label == "scale")
            EXPECT_EQ(c.kind, CompletionKind::Parameter);
        if (c.label == "atomicAdd")
            EXPECT_EQ(c.kind, CompletionKind::Atomic);
        if (c.label == "speed")
            EXPECT_EQ(c.kind, CompletionKind::Identifier);
    }
    EXPECT_EQ(scale, 1);
    EXPECT_EQ(atomic, 1);
    EXPECT_EQ(speed, 1);
    EXPECT_EQ(top(all, "sc", 1), std::vector<std::string>{"scale"});
}

TEST(SyntaxCompletion, TheWordBeingTypedIsNotOffered)
{
    const auto all = ks::syntax::completionCandidates({}, {"counter", "count"});
    EXPECT_EQ(top(all, "count", 5), std::vector<std::string>{"counter"});
    EXPECT_EQ(top(all, "cou", 5), (std::vector<std::string>{"count", "counter"}));
}

TEST(SyntaxCompletion, IdentifiersOfTheFileOnlyFromCode)
{
    const std::string src = "#define BLOCK 256\n"
                            "// commentWord here\n"
                            "__global__ void k(float* data, int n) { const char* s = \"stringWord\"; data[0] = 1.5f; }\n";
    const auto words = ks::syntax::identifiersOf(src);
    for (const char* w : {"BLOCK", "__global__", "k", "data", "n", "float", "s"})
        EXPECT_TRUE(std::binary_search(words.begin(), words.end(), w)) << w;
    for (const char* w : {"commentWord", "stringWord", "here", "f", "5f"})
        EXPECT_FALSE(std::binary_search(words.begin(), words.end(), w)) << w;
    EXPECT_TRUE(std::is_sorted(words.begin(), words.end()));
    EXPECT_TRUE(std::adjacent_find(words.begin(), words.end()) == words.end());
}

TEST(SyntaxCompletion, IdentifierStart)
{
    using ks::syntax::identifierStart;
    const std::string s = "x = atomicA";
    EXPECT_EQ(identifierStart(s, s.size()), 4u);
    EXPECT_EQ(identifierStart(s, 3), 3u);
    EXPECT_EQ(identifierStart(s, 1), 0u);
    EXPECT_EQ(identifierStart(s, 100), 4u);
    EXPECT_EQ(identifierStart("", 0), 0u);
}
