#pragma once
// The kernel editor's undo and redo, of its own (ImGui's is lost whenever the text widget is made
// again: a reload from disk, a replace, a comment toggle, a restore after the GPU process was
// replaced). It watches the text: each change it sees makes the text before it an undo step;
// typing that follows within a second joins the step it started (for at most 5 s of typing), other
// changes (a replace, a reload, a paste of many lines) are steps of their own. Undo puts a step's
// text back and keeps what it replaced for redo; any new change clears the redo steps. At most
// 500 steps and 32 MiB of text are kept, the oldest dropped first. Pure.
#include <cstddef>
#include <deque>
#include <optional>
#include <string>

namespace ks::app {

class TextHistory {
public:
    struct Step {
        std::string text;
        int cursor = 0; // byte offset to put the cursor at
    };

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
