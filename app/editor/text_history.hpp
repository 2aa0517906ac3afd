#pragma once
// The kernel editor's undo and redo, of its own (ImGui's is lost whenever the text widget is made
// again: a reload from disk, a replace, a comment toggle, a restore after the GPU process was
// replaced). It watches the text: each change it sees makes the text before it an undo step;
// typing that follows within a second joins the step it started (for at most 5 s of typing), other
// changes (a replace, a reload, a paste of many lines) are steps of their own. Undo puts a step's
// text back and keeps what it replaced for redo; any new change clears the redo steps. At most
// 500 steps and 32 MiB of text are kept, the oldest dropped first. Pure.
//
// The steps also travel (save/restore): a new GPU process gets the undo and redo steps of the one
// it replaced, each as a small edit of the step after it rather than a whole text.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace ks::app {

class TextHistory {
public:
    // A step's text as an edit of a newer text: the newer text's first keepFront and last
    // keepBack bytes with `middle` between (cut at UTF-8 character boundaries).
    struct Delta {
        std::size_t keepFront = 0, keepBack = 0;
        std::string middle;
        int cursor = 0;
    };
    struct Step {
        std::string text;
        int cursor = 0; // byte offset to put the cursor at
        // save()'s cache: this step as a Delta of the next newer step (never of the text now).
        mutable std::optional<Delta> link;
    };
    // The undo and redo steps, each newest first: the first as a Delta of the text now, every other
    // one of the step before it in the list. At most kMaxSavedBytes of middles (older steps beyond
    // are left out). `base`: a hash of the text they are relative to.
    struct Saved {
        std::vector<Delta> undo, redo;
        std::uint64_t base = 0;
    };
    static constexpr std::size_t kMaxSavedBytes = std::size_t(4) << 20;

    // The text is `text` now (cursor at `cursor`, at steady time `now` s). `typing`: the change, if
    // there is one, came from keys typed into the widget (it may join the step being typed).
    void observe(const std::string& text, int cursor, double now, bool typing);
    // The text to put back for undo / redo of `current` (the text now); nullopt: nothing to undo /
    // redo. The history then takes the returned text as seen.
    std::optional<Step> undo(const std::string& current, int cursor);
    std::optional<Step> redo(const std::string& current, int cursor);

    bool canUndo() const noexcept { return !m_undo.empty(); }
    bool canRedo() const noexcept { return !m_redo.empty(); }
    std::size_t undoSteps() const noexcept { return m_undo.size(); }
    std::size_t redoSteps() const noexcept { return m_redo.size(); }

    // The steps relative to the text last seen. Cheap to call every frame: the deltas between older
    // steps are computed once and kept.
    Saved save() const;
    // Starts over from `text` (cursor `cursor`) with `saved`'s steps: none when `text` is not the
    // text they were saved from (its hash differs); a delta that does not fit the text it applies
    // to ends its list (it and older steps are dropped).
    void restore(const Saved& saved, const std::string& text, int cursor);

private:
    std::optional<Step> move(std::deque<Step>& from, std::deque<Step>& to, const std::string& current, int cursor);
    void trim();
    std::deque<Step> m_undo, m_redo;
    std::string m_seen;
    int m_seenCursor = 0;
    bool m_started = false;
    double m_typingSince = -1, m_typedAt = -1; // the step being typed (-1: none)
    std::size_t m_bytes = 0;
};

} // namespace ks::app
