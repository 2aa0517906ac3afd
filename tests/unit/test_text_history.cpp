// The editor's own undo and redo (app/text_history.hpp): typing joins into steps, other changes are
// steps of their own, undo and redo walk them, a new change drops the redo steps, and the history is
// bounded.
#include "text_history.hpp"

#include <gtest/gtest.h>

using ks::app::TextHistory;

TEST(TextHistory, TypingJoinsOtherChangesStandAloneUndoAndRedoWalkThem)
{
    TextHistory h;
    h.observe("", 0, 0.0, false);
    EXPECT_FALSE(h.canUndo());
    // "abc" typed a key every 0.2 s: one step.
    h.observe("a", 1, 1.0, true);
    h.observe("ab", 2, 1.2, true);
    h.observe("abc", 3, 1.4, true);
    EXPECT_EQ(h.undoSteps(), 1u);
    // A pause of 2 s, then more typing: a second step.
    h.observe("abcd", 4, 3.5, true);
    EXPECT_EQ(h.undoSteps(), 2u);
    // A replace (not typing): a step of its own even right after typing.
    h.observe("ABCD", 0, 3.6, false);
    EXPECT_EQ(h.undoSteps(), 3u);

    auto u = h.undo("ABCD", 0);
    ASSERT_TRUE(u);
    EXPECT_EQ(u->text, "abcd");
    EXPECT_EQ(u->cursor, 4);
    u = h.undo("abcd", 4);
    ASSERT_TRUE(u);
    EXPECT_EQ(u->text, "abc");
    u = h.undo("abc", 3);
    ASSERT_TRUE(u);
    EXPECT_EQ(u->text, "");
    EXPECT_FALSE(h.undo("", 0));
    auto r = h.redo("", 0);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->text, "abc");
    r = h.redo("abc", 3);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->text, "abcd");
    EXPECT_TRUE(h.canRedo());
    // A new change after undoing drops what could be redone.
    h.observe("abcdX", 5, 10.0, true);
    EXPECT_FALSE(h.canRedo());
    EXPECT_FALSE(h.redo("abcdX", 5));
    u = h.undo("abcdX", 5);
    ASSERT_TRUE(u);
    EXPECT_EQ(u->text, "abcd");
}

TEST(TextHistory, AChangeNotSeenYetIsUndoneFirstAndTypingStepsEndAfterFiveSeconds)
{
    TextHistory h;
    h.observe("one", 3, 0.0, false);
    // Undo while the text has a change the history has not seen: that change is undone.
    auto u = h.undo("one two", 7);
    ASSERT_TRUE(u);
    EXPECT_EQ(u->text, "one");
    // Typing without pauses for 8 s: more than one step (each at most 5 s of typing).
    std::string t;
    for (int i = 0; i < 40; ++i) {
        t += 'x';
        h.observe(t, int(t.size()), 20.0 + 0.2 * i, true);
    }
    EXPECT_GE(h.undoSteps(), 2u);
}

TEST(TextHistory, IsBounded)
{
    TextHistory h;
    h.observe("", 0, 0.0, false);
    const std::string big(std::size_t(1) << 20, 'k'); // 1 MiB: 32 MiB holds about 32 of them
    for (int i = 0; i < 100; ++i)
        h.observe(big + std::to_string(i), 0, double(i), false);
    EXPECT_LE(h.undoSteps(), 33u);
    EXPECT_GE(h.undoSteps(), 30u);
    TextHistory small;
    small.observe("", 0, 0.0, false);
    for (int i = 0; i < 700; ++i)
        small.observe(std::to_string(i), 0, double(i) * 10, false);
    EXPECT_EQ(small.undoSteps(), 500u);
}
