// The source widget's editing rules (app/editor/code_edit.hpp): character, word and line moves over UTF-8,
// what double- and triple-clicks select, typing over a selection, Backspace in indentation, Tab and
// Shift+Tab on one line and on a selection of lines, and Up/Down keeping the column.
#include "editor/code_edit.hpp"

#include <gtest/gtest.h>

using namespace ks::app::text;

TEST(CodeEdit, CharactersStepOverWholeUtf8Sequences)
{
    const std::string s = "a\xC3\xA9" "b\xE2\x86\x90"; // a é b ←
    EXPECT_EQ(nextChar(s, 0), 1u);
    EXPECT_EQ(nextChar(s, 1), 3u);
    EXPECT_EQ(nextChar(s, 4), 7u);
    EXPECT_EQ(nextChar(s, 7), 7u);
    EXPECT_EQ(previousChar(s, 7), 4u);
    EXPECT_EQ(previousChar(s, 3), 1u);
    EXPECT_EQ(previousChar(s, 0), 0u);
    EXPECT_EQ(previousChar(s, 99), 4u); // clamped to the end first
    EXPECT_EQ(charBoundary(s, 2), 1u);  // inside é: back to its start
    EXPECT_EQ(charBoundary(s, 6), 4u);  // inside ←
    EXPECT_EQ(charBoundary(s, 3), 3u);
    EXPECT_EQ(charBoundary(s, 99), 7u); // clamped to the end
}

TEST(CodeEdit, WordMovesStopAtRunsAndLineBreaks)
{
    const std::string s = "int idx = a->b;\n  foo(x)";
    EXPECT_EQ(wordRight(s, 0), 3u);  // "int"
    EXPECT_EQ(wordRight(s, 3), 7u);  // blank skipped, "idx"
    EXPECT_EQ(wordRight(s, 7), 9u);  // "="
    EXPECT_EQ(wordRight(s, 11), 13u); // "->"
    EXPECT_EQ(wordRight(s, 15), 16u); // the line break alone
    EXPECT_EQ(wordRight(s, 16), 21u); // indentation skipped, "foo"
    EXPECT_EQ(wordRight(s, s.size()), s.size());
    EXPECT_EQ(wordLeft(s, 21), 18u);
    EXPECT_EQ(wordLeft(s, 18), 15u); // back over the indentation to the line break
    EXPECT_EQ(wordLeft(s, 16), 15u);
    EXPECT_EQ(wordLeft(s, 7), 4u);
    EXPECT_EQ(wordLeft(s, 0), 0u);
}

TEST(CodeEdit, LinesAndSmartHome)
{
    const std::string s = "a\n    int x;\nlast";
    EXPECT_EQ(lineBegin(s, 8), 2u);
    EXPECT_EQ(lineEnd(s, 8), 12u);
    EXPECT_EQ(lineBegin(s, 2), 2u);
    EXPECT_EQ(lineEnd(s, 13), s.size());
    EXPECT_EQ(smartHome(s, 10), 6u); // to the first non-blank
    EXPECT_EQ(smartHome(s, 6), 2u);  // then to column 0
    EXPECT_EQ(smartHome(s, 2), 6u);  // and back
}

TEST(CodeEdit, DoubleAndTripleClickSelections)
{
    const std::string s = "float4 value = x;\nnext";
    EXPECT_EQ(wordAt(s, 9), (Caret{12, 7}));  // inside "value"
    EXPECT_EQ(wordAt(s, 12), (Caret{12, 7})); // just after it
    EXPECT_EQ(wordAt(s, 0), (Caret{6, 0}));
    EXPECT_EQ(wordAt(s, 13), (Caret{14, 13})); // the '=' after the blank
    EXPECT_EQ(wordAt(s, 17), (Caret{17, 16})); // ';' at the line's end
    EXPECT_EQ(lineAt(s, 5), (Caret{18, 0}));   // with its line break
    EXPECT_EQ(lineAt(s, 20), (Caret{22, 18})); // the last line has none
}

TEST(CodeEdit, TypingReplacesTheSelection)
{
    std::string s = "abcdef";
    Caret c{4, 1};
    replaceSelection(s, c, "XY");
    EXPECT_EQ(s, "aXYef");
    EXPECT_EQ(c, (Caret{3, 3}));
    Caret reversed{1, 3}; // a selection made leftwards is the same range
    replaceSelection(s, reversed, "");
    EXPECT_EQ(s, "aef");
    EXPECT_EQ(reversed, (Caret{1, 1}));
}

TEST(CodeEdit, BackspaceAndDelete)
{
    std::string s = "ab\xC3\xA9" "c";
    Caret c{4, 4};
    EXPECT_TRUE(eraseBackward(s, c, false)); // the whole é
    EXPECT_EQ(s, "abc");
    EXPECT_EQ(c.cursor, 2u);
    c = {0, 0};
    EXPECT_FALSE(eraseBackward(s, c, false));
    EXPECT_TRUE(eraseForward(s, c, false));
    EXPECT_EQ(s, "bc");
    c = {2, 2};
    EXPECT_FALSE(eraseForward(s, c, false));

    // Ctrl+Backspace / Ctrl+Delete take a word.
    s = "int value = 3;";
    c = {8, 8};
    EXPECT_TRUE(eraseBackward(s, c, true));
    EXPECT_EQ(s, "int e = 3;");
    EXPECT_TRUE(eraseForward(s, c, true));
    EXPECT_EQ(s, "int  = 3;");

    // In indentation of spaces, back to the previous stop of four.
    s = "{\n      x";
    c = {8, 8};
    EXPECT_TRUE(eraseBackward(s, c, false));
    EXPECT_EQ(s, "{\n    x");
    EXPECT_TRUE(eraseBackward(s, c, false));
    EXPECT_EQ(s, "{\nx");
    // Not after other text on the line.
    s = "a   b";
    c = {4, 4};
    EXPECT_TRUE(eraseBackward(s, c, false));
    EXPECT_EQ(s, "a  b");
}

TEST(CodeEdit, TabInsertsSpacesToTheNextStop)
{
    std::string s = "ab";
    Caret c{2, 2};
    EXPECT_TRUE(tab(s, c, false));
    EXPECT_EQ(s, "ab  ");
    EXPECT_EQ(c.cursor, 4u);
    EXPECT_TRUE(tab(s, c, false));
    EXPECT_EQ(s, "ab      ");
    // Shift+Tab without a selection outdents the line, the cursor moving with its text.
    s = "      x = 1;";
    c = {8, 8};
    EXPECT_TRUE(tab(s, c, true));
    EXPECT_EQ(s, "  x = 1;");
    EXPECT_EQ(c.cursor, 4u);
    s = "\tx";
    c = {2, 2};
    EXPECT_TRUE(tab(s, c, true));
    EXPECT_EQ(s, "x");
    EXPECT_EQ(c.cursor, 1u);
    EXPECT_FALSE(tab(s, c, true)); // nothing to remove
}

TEST(CodeEdit, TabOnSelectedLinesIndentsEachAndKeepsThemSelected)
{
    const std::string original = "a\n\n  b\nc\nd";
    std::string s = original;
    Caret c{8, 0}; // from the start to inside "c": lines a, (blank), b, c
    EXPECT_TRUE(tab(s, c, false));
    EXPECT_EQ(s, "    a\n\n      b\n    c\nd");
    EXPECT_EQ(c.anchor, 0u);
    EXPECT_EQ(s.substr(c.begin(), c.end() - c.begin()), "    a\n\n      b\n    c");
    EXPECT_TRUE(tab(s, c, true));
    EXPECT_EQ(s, original); // four spaces came off each line that got them
    // A selection that ends at a line's start leaves that line alone.
    s = "x\ny\nz";
    c = {0, 4}; // made leftwards, from the start of "z"
    EXPECT_TRUE(tab(s, c, false));
    EXPECT_EQ(s, "    x\n    y\nz");
    EXPECT_EQ(c, (Caret{0, 12}));
}

TEST(CodeEdit, UpAndDownKeepTheColumn)
{
    const std::string s = "long line here\nab\n\tindented\nend";
    EXPECT_EQ(columnOf(s, 10), 10);
    EXPECT_EQ(columnOf(s, 19), 4); // after a tab
    EXPECT_EQ(moveLines(s, 10, 1, 10), 17u); // "ab" is shorter: its end
    EXPECT_EQ(moveLines(s, 17, 1, 10), 25u); // the column comes back on a longer line (tab = 4)
    EXPECT_EQ(moveLines(s, 25, -2, 10), 10u);
    EXPECT_EQ(moveLines(s, 3, -1, 3), 0u);          // above the first line: its start
    EXPECT_EQ(moveLines(s, 28, 1, 1), s.size());    // below the last: the end
    EXPECT_EQ(moveLines(s, 0, 3, 2), 30u);
    EXPECT_EQ(offsetAtColumn(s, 18, 1), 18u); // nearer the tab's start than its end
    EXPECT_EQ(offsetAtColumn(s, 18, 3), 19u);
}

TEST(CodeEdit, LineStartsFollowAnEditFromItsFirstLine)
{
    EXPECT_EQ(lineStarts(""), (std::vector<int>{0}));
    EXPECT_EQ(lineStarts("a\n\nbc\n"), (std::vector<int>{0, 2, 3, 6}));
    // Edits of every kind at every place of a small text: kept lines plus a scan from the edit's
    // line give the same table as a scan of the whole text.
    const std::string original = "int a;\n\n  {\n    b();\n  }\nend";
    const std::string_view inserts[] = {"", "x", "\n", "y\nz", "\n\n"};
    for (std::size_t at = 0; at <= original.size(); ++at)
        for (std::size_t removed = 0; at + removed <= original.size() && removed < 8; ++removed)
            for (std::string_view with : inserts) {
                std::vector<int> starts = lineStarts(original);
                std::string s = original;
                s.replace(at, removed, with);
                const std::size_t from = lineBegin(s, at);
                updateLineStarts(starts, s, from);
                ASSERT_EQ(starts, lineStarts(s)) << "at " << at << ", " << removed << " removed, '" << with << "'";
            }
    // The whole text replaced, from 0.
    std::vector<int> starts = lineStarts(original);
    updateLineStarts(starts, "one line", 0);
    EXPECT_EQ(starts, (std::vector<int>{0}));
}

TEST(CodeEdit, AFileIndentedWithTabsGetsTabs)
{
    EXPECT_FALSE(indentsWithTabs(""));
    EXPECT_FALSE(indentsWithTabs("int a;\n    b();\n\tc();\n    d();\n"));
    EXPECT_TRUE(indentsWithTabs("int a;\n\tb();\n\tc();\n    d();\n"));
    // A block comment's " *" lines are no indentation.
    EXPECT_TRUE(indentsWithTabs("/**\n * one\n * two\n */\nvoid f()\n{\n\tg();\n}\n"));

    std::string s = "{\n\tx;\n}";
    Caret c{3, 3}; // before "x"
    EXPECT_TRUE(tab(s, c, false, true));
    EXPECT_EQ(s, "{\n\t\tx;\n}");
    EXPECT_EQ(c, (Caret{4, 4}));
    c = {s.size(), 0}; // everything: each non-blank line one tab deeper, then back
    EXPECT_TRUE(tab(s, c, false, true));
    EXPECT_EQ(s, "\t{\n\t\t\tx;\n\t}");
    EXPECT_TRUE(tab(s, c, true, true));
    EXPECT_EQ(s, "{\n\t\tx;\n}");
}
