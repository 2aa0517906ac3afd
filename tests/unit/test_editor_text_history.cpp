// The editor's own undo and redo (app/editor/text_history.hpp): typing joins into steps, other changes are
// steps of their own, undo and redo walk them, a new change drops the redo steps, and the history is
// bounded; its steps travel to a new history (a new GPU process) as small edits.
#include "supervise/protocol.hpp"
#include "editor/text_history.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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

namespace {

// The texts undo then redo walk through from `current` until each runs out.
std::vector<std::string> walk(TextHistory h, std::string current)
{
    std::vector<std::string> seen;
    const std::string start = current;
    while (auto u = h.undo(current, 0))
        seen.push_back(current = u->text);
    seen.push_back("|");
    while (auto r = h.redo(current, 0))
        seen.push_back(current = r->text);
    return seen;
}

} // namespace

TEST(TextHistory, SavedStepsComeBackInANewHistoryAsSmallEdits)
{
    // A 100 KB text with edits here and there, some of them in multi-byte UTF-8 characters (each
    // cut must fall between characters, or the saved edit is not valid UTF-8 and JSON refuses it).
    std::string text(100000, 'x');
    for (std::size_t i = 0; i < text.size(); i += 100)
        text[i] = '\n';
    TextHistory h;
    h.observe(text, 0, 0.0, false);
    struct Edit {
        std::size_t at, erase;
        std::string insert;
    };
    // e-acute inserted, then replaced by e-grave (the two differ in their second byte only), an
    // arrow, plain text, an emoji.
    const std::vector<Edit> edits = {{10, 0, "\xC3\xA9"}, {10, 2, "\xC3\xA8"}, {50000, 0, "// \xE2\x86\x92 arrow"},
                                     {99990, 0, "end"}, {0, 0, "\xF0\x9F\x98\x80"}};
    std::vector<std::string> versions{text};
    for (const auto& [at, erase, what] : edits) {
        text.replace(at, erase, what);
        versions.push_back(text);
        h.observe(text, int(at), 10.0 * double(versions.size()), false); // far apart: each a step
    }
    // Two undone, so there is something to redo.
    text = h.undo(text, 0)->text;
    text = h.undo(text, 0)->text;
    ASSERT_EQ(text, versions[versions.size() - 3]);
    ASSERT_EQ(h.undoSteps(), 3u);
    ASSERT_EQ(h.redoSteps(), 2u);

    const TextHistory::Saved saved = h.save();
    ASSERT_EQ(saved.undo.size(), 3u);
    ASSERT_EQ(saved.redo.size(), 2u);
    std::size_t bytes = 0;
    for (const auto* list : {&saved.undo, &saved.redo})
        for (const TextHistory::Delta& d : *list)
            bytes += d.middle.size();
    EXPECT_LT(bytes, 200u) << "small edits, not whole 100 KB texts";
    // Through the snapshot's JSON, dumped strictly (throws on invalid UTF-8).
    ks::app::supervise::TabSnapshot t;
    t.undo = saved.undo;
    t.redo = saved.redo;
    t.historyBase = saved.base;
    const std::string json = nlohmann::json(t).dump();
    const auto back = nlohmann::json::parse(json).get<ks::app::supervise::TabSnapshot>();

    TextHistory restored;
    restored.restore({back.undo, back.redo, back.historyBase}, text, 0);
    EXPECT_EQ(restored.undoSteps(), 3u);
    EXPECT_EQ(restored.redoSteps(), 2u);
    EXPECT_EQ(walk(restored, text), walk(h, text));
    EXPECT_EQ(walk(restored, text).front(), versions[versions.size() - 4]);
    // Saving the restored history gives the same steps (its links came with it).
    const TextHistory::Saved again = restored.save();
    ASSERT_EQ(again.undo.size(), saved.undo.size());
    for (std::size_t i = 0; i < again.undo.size(); ++i)
        EXPECT_EQ(again.undo[i].middle, saved.undo[i].middle);

    // Another text than the one saved from (the file changed on disk): no steps at all.
    TextHistory other;
    other.restore(saved, text + "changed", 0);
    EXPECT_FALSE(other.canUndo());
    EXPECT_FALSE(other.canRedo());
    // A delta that does not fit ends its list: the steps before it stay.
    TextHistory::Saved broken = saved;
    broken.undo[1].keepFront = text.size() * 2;
    TextHistory partial;
    partial.restore(broken, text, 0);
    EXPECT_EQ(partial.undoSteps(), 1u);
    EXPECT_EQ(partial.redoSteps(), 2u);
}

TEST(TextHistory, SavingIsIncrementalWhileTyping)
{
    // Typing on after undo steps exist changes only the newest delta; the older ones are kept.
    TextHistory h;
    std::string text = "int a;\n";
    h.observe(text, 0, 0.0, false);
    for (int i = 0; i < 5; ++i) {
        text += "int b" + std::to_string(i) + ";\n";
        h.observe(text, 0, 10.0 * (i + 1), false);
    }
    const TextHistory::Saved first = h.save();
    text += "// typing";
    h.observe(text, 0, 100.0, true);
    const TextHistory::Saved second = h.save();
    ASSERT_EQ(second.undo.size(), first.undo.size() + 1);
    for (std::size_t i = 1; i < second.undo.size(); ++i)
        EXPECT_EQ(second.undo[i].middle, first.undo[i - 1].middle) << i;
    TextHistory restored;
    restored.restore(second, text, 0);
    EXPECT_EQ(walk(restored, text), walk(h, text));
}
