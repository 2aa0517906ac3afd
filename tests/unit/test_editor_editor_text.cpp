// The kernel editor's text operations (app/editor/editor_text.hpp): find with match case and whole word,
// next/previous with wrap-around, replace all, line lookups, and Ctrl+/ comment toggling.
#include "editor/editor_text.hpp"

#include "ks/syntax/kernel_signature.hpp"

#include <gtest/gtest.h>

using namespace ks::app::text;

TEST(EditorText, FindHonoursCaseAndWholeWords)
{
    const std::string s = "int idx = Idx + index; // IDX idx_2 idx";
    EXPECT_EQ(findAll(s, "idx", {}), (std::vector<Match>{{4, 7}, {10, 13}, {26, 29}, {30, 33}, {36, 39}}));
    EXPECT_EQ(findAll(s, "idx", {.matchCase = true}), (std::vector<Match>{{4, 7}, {30, 33}, {36, 39}}));
    EXPECT_EQ(findAll(s, "idx", {.wholeWord = true}), (std::vector<Match>{{4, 7}, {10, 13}, {26, 29}, {36, 39}}));
    EXPECT_EQ(findAll(s, "idx", {.matchCase = true, .wholeWord = true}), (std::vector<Match>{{4, 7}, {36, 39}}));
    EXPECT_TRUE(findAll(s, "", {}).empty());
    EXPECT_TRUE(findAll("ab", "abc", {}).empty());
    // Matches never overlap.
    EXPECT_EQ(findAll("aaaa", "aa", {}), (std::vector<Match>{{0, 2}, {2, 4}}));
}

TEST(EditorText, NextAndPreviousWrapAround)
{
    const std::vector<Match> m{{4, 7}, {10, 13}, {30, 33}};
    EXPECT_EQ(nextMatch(m, 0), 0);
    EXPECT_EQ(nextMatch(m, 4), 0);
    EXPECT_EQ(nextMatch(m, 5), 1);
    EXPECT_EQ(nextMatch(m, 31), 0); // wraps
    EXPECT_EQ(previousMatch(m, 10), 0);
    EXPECT_EQ(previousMatch(m, 4), 2); // wraps
    EXPECT_EQ(previousMatch(m, 100), 2);
    EXPECT_EQ(nextMatch({}, 3), -1);
    EXPECT_EQ(previousMatch({}, 3), -1);
}

TEST(EditorText, ReplaceAllCountsAndKeepsTheRest)
{
    int n = -1;
    EXPECT_EQ(replaceAll("float a; float4 b; Float c;", "float", "double", {.wholeWord = true}, &n),
              "double a; float4 b; double c;");
    EXPECT_EQ(n, 2);
    EXPECT_EQ(replaceAll("x x x", "x", "xx", {.matchCase = true}, &n), "xx xx xx"); // no re-matching of output
    EXPECT_EQ(n, 3);
    EXPECT_EQ(replaceAll("abc", "", "z", {}, &n), "abc");
    EXPECT_EQ(n, 0);
}

TEST(EditorText, LinesOfOffsets)
{
    const std::string s = "a\nbc\n\nd";
    EXPECT_EQ(ks::syntax::lineOf(s, 0), 1);
    EXPECT_EQ(ks::syntax::lineOf(s, 2), 2);
    EXPECT_EQ(ks::syntax::lineOf(s, 5), 3);
    EXPECT_EQ(ks::syntax::lineOf(s, 999), 4);
    EXPECT_EQ(lineStart(s, 1), 0u);
    EXPECT_EQ(lineStart(s, 2), 2u);
    EXPECT_EQ(lineStart(s, 4), 6u);
    EXPECT_EQ(lineStart(s, 40), 6u); // clamped to the last line
}

TEST(EditorText, CommentTogglingAddsAtTheCommonIndentAndRemovesAgain)
{
    const std::string s = "{\n    int a = 1;\n\n        a += 2;\n}\n";
    // Lines 2 to 4 (the selection starts inside line 2 and ends inside line 4).
    const std::size_t b = s.find("int"), e = s.find("+=");
    const Edit on = toggleLineComments(s, b, e);
    EXPECT_EQ(on.text, "{\n    // int a = 1;\n\n    //     a += 2;\n}\n");
    EXPECT_EQ(on.text.substr(on.selBegin, on.selEnd - on.selBegin), "    // int a = 1;\n\n    //     a += 2;");
    const Edit off = toggleLineComments(on.text, on.selBegin, on.selEnd);
    EXPECT_EQ(off.text, s);

    // A cursor without a selection toggles its line; a mix of commented and plain lines comments all.
    EXPECT_EQ(toggleLineComments("x;\ny;", 4, 4).text, "x;\n// y;");
    EXPECT_EQ(toggleLineComments("// x;\ny;", 0, 8).text, "// // x;\n// y;");
    EXPECT_EQ(toggleLineComments("  //x;", 0, 0).text, "  x;");
    // A selection ending at the start of a line leaves that line alone.
    EXPECT_EQ(toggleLineComments("a\nb\nc", 0, 4).text, "// a\n// b\nc");
    // Only blank lines: nothing changes.
    EXPECT_EQ(toggleLineComments("\n  \n", 0, 3).text, "\n  \n");
}

TEST(EditorText, BracketsMatchAcrossNestingAndSkipWhatIsNotCode)
{
    const auto code = [](std::size_t) { return true; };
    const std::string s = "f(a[i], {b(c)}) x";
    // Just after '(' of f( and at it: the ')' before " x".
    EXPECT_EQ(matchingBracket(s, 2, code)->match, 14u);
    EXPECT_EQ(matchingBracket(s, 1, code)->match, 14u);
    EXPECT_EQ(matchingBracket(s, 15, code)->match, 1u); // after the last ')': back to f(
    EXPECT_FALSE(matchingBracket(s, 7, code)); // between ',' and ' '
    ASSERT_TRUE(matchingBracket(s, 8, code));  // at '{'
    EXPECT_EQ(matchingBracket(s, 8, code)->at, 8u);
    EXPECT_EQ(matchingBracket(s, 8, code)->match, 13u);
    EXPECT_FALSE(matchingBracket(s, 17, code)); // "x": no bracket
    EXPECT_FALSE(matchingBracket("(()", 0, code)); // unmatched
    // A ')' in a comment (not code) does not count.
    const std::string c = "g( /* ) */ )";
    const auto notComment = [&](std::size_t i) { return i < 3 || i > 9; };
    EXPECT_EQ(matchingBracket(c, 1, notComment)->match, 11u);
    EXPECT_EQ(matchingBracket(c, 1, code)->match, 6u);
}

TEST(EditorText, ANewLineTakesTheIndentationAndOneMoreAfterABrace)
{
    EXPECT_EQ(indentForNewLine("    int a;\n", 11), "    ");
    EXPECT_EQ(indentForNewLine("    if (x) {\n", 13), "        ");
    EXPECT_EQ(indentForNewLine("\tfor (;;) { // loop\n", 20), "\t    ");
    EXPECT_EQ(indentForNewLine("\tfor (;;) { // loop\n", 20, true), "\t\t"); // a file indented with tabs
    EXPECT_EQ(indentForNewLine("a\n  b\n", 6), "  ");
    EXPECT_EQ(indentForNewLine("x\n", 2), "");
    EXPECT_EQ(indentForNewLine("x", 1), ""); // no new line before the cursor
}
