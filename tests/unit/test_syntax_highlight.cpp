// The editor's CUDA C++ lexer (ks/syntax/highlight.hpp): the class of each kind of token, what spans
// lines, spans that always cover a line exactly, and a cache whose incremental result always equals
// lexing the whole text afresh.
#include "ks/syntax/highlight.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

using ks::syntax::LexState;
using ks::syntax::SyntaxCache;
using ks::syntax::SyntaxClass;
using ks::syntax::SyntaxSpan;

namespace {

using Tokens = std::vector<std::pair<std::string, SyntaxClass>>;

// The non-plain spans of a line as (text, class).
Tokens coloured(const std::string& line, const LexState& entry = {}, LexState* exit = nullptr)
{
    std::vector<SyntaxSpan> spans;
    const LexState out = ks::syntax::lexLine(line, entry, spans);
    if (exit)
        *exit = out;
    Tokens t;
    for (const SyntaxSpan& s : spans)
        if (s.cls != SyntaxClass::Plain)
            t.emplace_back(line.substr(s.begin, s.end - s.begin), s.cls);
    return t;
}

// Spans are in order, adjacent, non-empty, cover the line, and never two of a class side by side.
void expectCovers(const std::string& line, const std::vector<SyntaxSpan>& spans)
{
    std::uint32_t at = 0;
    for (std::size_t i = 0; i < spans.size(); ++i) {
        ASSERT_EQ(spans[i].begin, at) << "line: " << line;
        ASSERT_LT(spans[i].begin, spans[i].end) << "line: " << line;
        if (i > 0) {
            ASSERT_NE(spans[i].cls, spans[i - 1].cls) << "line: " << line;
        }
        at = spans[i].end;
    }
    ASSERT_EQ(at, line.size()) << "line: " << line;
}

// Every line's spans from a fresh cache.
std::vector<std::vector<SyntaxSpan>> fresh(const std::string& text)
{
    SyntaxCache c;
    c.update(text);
    std::vector<std::vector<SyntaxSpan>> out;
    for (std::size_t i = 0; i < c.lineCount(); ++i)
        out.push_back(c.spans(i));
    return out;
}

std::string kernelOfLines(int lines)
{
    std::string s = "#include <cuda_fp16.h>\n";
    for (int i = 1; i < lines; ++i)
        s += "    out[i + " + std::to_string(i) + "] = atomicAdd(&sum, in[threadIdx.x] * 1.5f); // step\n";
    s.pop_back();
    return s;
}

} // namespace

TEST(Highlight, EachKindOfTokenHasItsClass)
{
    const Tokens t = coloured("extern \"C\" __global__ void k(const float4* __restrict__ in, cudaSurfaceObject_t s, "
                              "unsigned n) { if (threadIdx.x < n) { __syncthreads(); atomicAdd(&c, 1u); "
                              "float2 v = make_float2(.5f, 1e-3); surf2Dwrite(v, s, 0, 0); } } /* end */");
    const Tokens want{{"extern", SyntaxClass::Keyword},       {"\"C\"", SyntaxClass::String},
                      {"__global__", SyntaxClass::Qualifier}, {"void", SyntaxClass::Type},
                      {"const", SyntaxClass::Keyword},        {"float4", SyntaxClass::Type},
                      {"__restrict__", SyntaxClass::Qualifier}, {"cudaSurfaceObject_t", SyntaxClass::Type},
                      {"unsigned", SyntaxClass::Type},        {"if", SyntaxClass::Keyword},
                      {"threadIdx", SyntaxClass::Builtin},    {"__syncthreads", SyntaxClass::Intrinsic},
                      {"atomicAdd", SyntaxClass::Intrinsic},  {"1u", SyntaxClass::Number},
                      {"float2", SyntaxClass::Type},          {"make_float2", SyntaxClass::Intrinsic},
                      {".5f", SyntaxClass::Number},           {"1e-3", SyntaxClass::Number},
                      {"surf2Dwrite", SyntaxClass::Intrinsic}, {"0", SyntaxClass::Number},
                      {"0", SyntaxClass::Number},             {"/* end */", SyntaxClass::Comment}};
    EXPECT_EQ(t, want);

    // Names that only look like something: plain.
    EXPECT_TRUE(coloured("atomic atomics float5 int0 threadIdxs blockDimX make_thing surfing").empty());
    EXPECT_EQ(coloured("blockIdx gridDim blockDim warpSize"),
              (Tokens{{"blockIdx", SyntaxClass::Builtin}, {"gridDim", SyntaxClass::Builtin},
                      {"blockDim", SyntaxClass::Builtin}, {"warpSize", SyntaxClass::Builtin}}));
}

TEST(Highlight, NumbersAreWholePpNumbers)
{
    EXPECT_EQ(coloured("1'000'000 0x1Fp+2 0x1e+5 3.f 2.5e+10L 0b1010"),
              (Tokens{{"1'000'000", SyntaxClass::Number},
                      {"0x1Fp+2", SyntaxClass::Number},
                      {"0x1e", SyntaxClass::Number}, // a hex 'e' is a digit: "+5" is an addition
                      {"5", SyntaxClass::Number},
                      {"3.f", SyntaxClass::Number},
                      {"2.5e+10L", SyntaxClass::Number},
                      {"0b1010", SyntaxClass::Number}}));
    EXPECT_EQ(coloured("a.b x1 y2"), Tokens{}); // members and names with digits are not numbers
}

TEST(Highlight, PreprocessorLinesAndIncludedHeaders)
{
    EXPECT_EQ(coloured("#include <cuda_fp16.h>"),
              (Tokens{{"#include", SyntaxClass::Preprocessor}, {"<cuda_fp16.h>", SyntaxClass::String}}));
    EXPECT_EQ(coloured("  #  include \"util.cuh\" // mine"),
              (Tokens{{"#  include", SyntaxClass::Preprocessor},
                      {"\"util.cuh\"", SyntaxClass::String},
                      {"// mine", SyntaxClass::Comment}}));
    EXPECT_EQ(coloured("#define N 256"), (Tokens{{"#define", SyntaxClass::Preprocessor}, {"256", SyntaxClass::Number}}));
    // A '<' after #if is a comparison, not a header.
    EXPECT_EQ(coloured("#if N < 4"), (Tokens{{"#if", SyntaxClass::Preprocessor}, {"4", SyntaxClass::Number}}));
    // A '#' that does not start the line is an operator (token pasting, stringising).
    EXPECT_EQ(coloured("x # y"), Tokens{});
}

TEST(Highlight, StringsAndCharactersWithEscapesAndPrefixes)
{
    EXPECT_EQ(coloured(R"(printf("a \"quoted\" word\n", '\'', u8"x", L'y');)"),
              (Tokens{{"printf", SyntaxClass::Intrinsic},
                      {R"("a \"quoted\" word\n")", SyntaxClass::String},
                      {R"('\'')", SyntaxClass::String},
                      {"u8\"x\"", SyntaxClass::String},
                      {"L'y'", SyntaxClass::String}}));
    EXPECT_EQ(coloured("\"// not a comment /* nor this\""),
              (Tokens{{"\"// not a comment /* nor this\"", SyntaxClass::String}}));
    // Unterminated: to the end of the line, and the next line starts fresh (the compiler reports it).
    LexState exit;
    EXPECT_EQ(coloured("s = \"open", {}, &exit), (Tokens{{"\"open", SyntaxClass::String}}));
    EXPECT_EQ(exit, LexState{});
}

TEST(Highlight, WhatSpansLinesIsCarriedInTheState)
{
    LexState s;
    EXPECT_EQ(coloured("int a; /* starts", {}, &s),
              (Tokens{{"int", SyntaxClass::Type}, {"/* starts", SyntaxClass::Comment}}));
    EXPECT_EQ(s.open, LexState::Open::BlockComment);
    EXPECT_EQ(coloured("still int", s, &s), (Tokens{{"still int", SyntaxClass::Comment}}));
    EXPECT_EQ(coloured("ends */ int b;", s, &s),
              (Tokens{{"ends */", SyntaxClass::Comment}, {"int", SyntaxClass::Type}}));
    EXPECT_EQ(s, LexState{});

    // A raw string with a delimiter: ")" alone or with another delimiter does not end it.
    EXPECT_EQ(coloured("auto k = R\"cu(first", {}, &s),
              (Tokens{{"auto", SyntaxClass::Keyword}, {"R\"cu(first", SyntaxClass::String}}));
    EXPECT_EQ(s.open, LexState::Open::RawString);
    EXPECT_EQ(s.rawDelimiter, "cu");
    EXPECT_EQ(coloured("x)\" )x\" int", s, &s), (Tokens{{"x)\" )x\" int", SyntaxClass::String}}));
    EXPECT_EQ(coloured("last)cu\"; int z;", s, &s),
              (Tokens{{"last)cu\"", SyntaxClass::String}, {"int", SyntaxClass::Type}}));
    EXPECT_EQ(s, LexState{});

    // A backslash at the end continues a // comment and a string.
    EXPECT_EQ(coloured("// note \\", {}, &s), (Tokens{{"// note \\", SyntaxClass::Comment}}));
    EXPECT_EQ(coloured("int still_comment;", s, &s), (Tokens{{"int still_comment;", SyntaxClass::Comment}}));
    EXPECT_EQ(s, LexState{});
    EXPECT_EQ(coloured("\"abc\\", {}, &s), (Tokens{{"\"abc\\", SyntaxClass::String}}));
    EXPECT_EQ(s.open, LexState::Open::String);
    EXPECT_EQ(coloured("def\" int", s, &s), (Tokens{{"def\"", SyntaxClass::String}, {"int", SyntaxClass::Type}}));
}

TEST(Highlight, SpansCoverEveryLineExactly)
{
    // Random lines over an alphabet of every character that starts or ends something.
    const std::string alphabet = "ab_R8u0x.e+-'\"\\/*#<>() \t\xC3\xA9iLUp";
    std::mt19937 rng(7);
    LexState state;
    for (int n = 0; n < 20000; ++n) {
        std::string line;
        const int len = int(rng() % 40);
        for (int i = 0; i < len; ++i)
            line += alphabet[rng() % alphabet.size()];
        std::vector<SyntaxSpan> spans;
        state = ks::syntax::lexLine(line, state, spans);
        expectCovers(line, spans);
        if (::testing::Test::HasFatalFailure())
            return;
    }
}

// Every line's spans in `cache` are those a fresh lex of `text` gives.
static void expectSameAsAFreshLex(const SyntaxCache& cache, const std::string& text)
{
    const auto want = fresh(text);
    ASSERT_EQ(cache.lineCount(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i)
        ASSERT_EQ(cache.spans(i), want[i]) << "line " << i;
}

TEST(Highlight, CacheLexesOnlyWhatAnEditChanged)
{
    std::string text = kernelOfLines(2000);
    SyntaxCache cache;
    EXPECT_EQ(cache.update(text), 2000u);
    EXPECT_EQ(cache.lineCount(), 2000u);
    EXPECT_EQ(cache.update(text), 0u); // unchanged

    // A letter typed in line 1000: that line.
    const std::size_t line1000 = text.find("1000]");
    text.insert(line1000, "7");
    EXPECT_EQ(cache.update(text), 1u);
    // A new line after it: the new line only.
    text.insert(text.find('\n', line1000) + 1, "    int extra = 1;\n");
    EXPECT_EQ(cache.update(text), 1u);
    EXPECT_EQ(cache.lineCount(), 2001u);
    // "/*" opened in line 10 changes every later line's state; "*/" right after closes it again.
    const std::size_t line10 = text.find("+ 10]");
    text.insert(line10, "/*");
    EXPECT_EQ(cache.update(text), 2001u - 10u);
    EXPECT_EQ(cache.spans(1500).size(), 1u);
    EXPECT_EQ(cache.spans(1500).front().cls, SyntaxClass::Comment);
    text.insert(line10 + 2, "*/");
    EXPECT_EQ(cache.update(text), 2001u - 10u);
    expectSameAsAFreshLex(cache, text);
}

TEST(Highlight, IncrementalResultsEqualAFreshLexAfterRandomEdits)
{
    std::string text = kernelOfLines(60) + "\nauto s = R\"x(raw\n)x\";\n/* a\n comment */\n";
    const std::string pieces[] = {"\n", "/*", "*/", "\"", "R\"x(", ")x\"", "//", "\\", "#include <a>", "int ", "'"};
    std::mt19937 rng(11);
    SyntaxCache cache;
    cache.update(text);
    for (int edit = 0; edit < 400; ++edit) {
        const std::size_t at = rng() % (text.size() + 1);
        if (rng() % 3 == 0 && !text.empty()) {
            text.erase(std::min(at, text.size() - 1), 1 + rng() % 6);
        } else {
            text.insert(at, pieces[rng() % std::size(pieces)]);
        }
        cache.update(text);
        const auto want = fresh(text);
        ASSERT_EQ(cache.lineCount(), want.size()) << "edit " << edit;
        for (std::size_t i = 0; i < want.size(); ++i)
            ASSERT_EQ(cache.spans(i), want[i]) << "edit " << edit << ", line " << i;
    }
}

// The editor asks for the lines down to the last one on screen: "/*" typed at the top of a
// 2,000-line file lexes those lines, not the 2,000; the rest come when asked for and are then what
// a fresh lex gives.
TEST(Highlight, OnlyTheLinesAskedForAreLexed)
{
    std::string text = kernelOfLines(2000);
    SyntaxCache cache;
    EXPECT_EQ(cache.update(text, 60), 60u);
    EXPECT_EQ(cache.upToDate(), 60u);
    EXPECT_EQ(cache.lineCount(), 2000u);
    text.insert(text.find("+ 10]"), "/*");
    EXPECT_EQ(cache.update(text, 60), 60u - 10u);
    EXPECT_EQ(cache.spans(59).front().cls, SyntaxClass::Comment);
    EXPECT_EQ(cache.update(text, 60), 0u); // nothing new asked for
    EXPECT_EQ(cache.ensure(1000), 1000u - 60u);
    EXPECT_EQ(cache.ensure(SyntaxCache::kAllLines), 1000u);
    expectSameAsAFreshLex(cache, text);
}

TEST(Highlight, PartialUpdatesAfterRandomEditsEqualAFreshLexWhereAskedFor)
{
    std::string text = kernelOfLines(80) + "\nauto s = R\"x(raw\n)x\";\n/* a\n comment */\n";
    const std::string pieces[] = {"\n", "/*", "*/", "\"", "R\"x(", ")x\"", "//", "\\", "int ", "'"};
    std::mt19937 rng(23);
    SyntaxCache cache;
    for (int edit = 0; edit < 400; ++edit) {
        const std::size_t at = rng() % (text.size() + 1);
        if (rng() % 3 == 0 && !text.empty())
            text.erase(std::min(at, text.size() - 1), 1 + rng() % 6);
        else
            text.insert(at, pieces[rng() % std::size(pieces)]);
        const std::size_t need = rng() % 100; // a screen somewhere in the file
        cache.update(text, need);
        const auto want = fresh(text);
        ASSERT_EQ(cache.lineCount(), want.size()) << "edit " << edit;
        ASSERT_GE(cache.upToDate(), std::min(need, want.size())) << "edit " << edit;
        for (std::size_t i = 0; i < std::min(need, want.size()); ++i)
            ASSERT_EQ(cache.spans(i), want[i]) << "edit " << edit << ", line " << i;
    }
    cache.ensure(SyntaxCache::kAllLines);
    expectSameAsAFreshLex(cache, text);
}
