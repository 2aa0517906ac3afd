#pragma once
// Where the panels drew what tests click and check, by name: one rectangle (x0, y0, x1, y1) per
// control, window part or picture. Filled only while a test has turned it on (enabled): an ordinary
// frame records nothing. The names, by the part that draws them:
//   menu bar    "menu:File", "menu:Open kernel...", "dialog:Open", "dialog:name"
//   tour        "tour:Back", "tour:Next" (or "tour:Finish"), "tour:Close"
//   Arguments   "args:row:A", "args:spec:A", "args:choice:A", "args:shape:A", "args:member:step.dt",
//               "args:grid", "args:block", "args:Undo"
//   editor      "find:find", "find:replace", "find:Replace", "find:Replace all", "marker:LINE"
//   Compile log "log:I" (the I-th diagnostic listed), "tab:Log", "tab:PTX / SASS"
//   PTX / SASS  "asm:PTX", "asm:SASS", "asm:I" (the listing's line I), "asm:kernel:SYMBOL",
//               "asm:note" (why there is no SASS, or what it lacks)
//   Views       "view:I" (the I-th view's picture)
//   editor      "editor:text" (the source text's visible part, right of the gutter), "editor:cell"
//               (one character of the source font: its advance by the line height)
//   any window  "clip:WINDOW" (what its items reach past its clip rectangle, where no scroll bar
//               reaches it), "clip:WINDOW table N column C" (the same for a table's column):
//               recordClipped() writes these

#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace ks::app {

class UiProbe {
public:
    using Rect = std::array<float, 4>;

    bool enabled = false;

    void record(std::string name, const Rect& r)
    {
        if (enabled)
            m_rects[std::move(name)] = r;
    }
    // Forgets the names that start with `prefix`: a part that draws its rectangles anew each frame
    // (the tour's buttons, a tab's markers) so that one no longer drawn is gone.
    void forget(std::string_view prefix);
    std::optional<Rect> find(const std::string& name) const;
    std::size_t count(std::string_view prefix) const; // names that start with `prefix`
    std::map<std::string, Rect, std::less<>> withPrefix(std::string_view prefix) const;
    // Records, as "clip:" names, every window drawn this frame whose items reach past what it shows
    // (right of its clip rectangle where it has no horizontal scroll bar, below it where it has no
    // vertical one) and every table column whose cells reach past the column: text and buttons that
    // the window cuts. Each rectangle is the part cut off. It reads ImGui's record of the furthest
    // item (a window's DC.CursorMaxPos, a column's ContentMaxX), so it sees every kind of item, not
    // only those a panel names. Call it after the last window of the frame has ended, before
    // ImGui::Render().
    void recordClipped();

private:
    std::map<std::string, Rect, std::less<>> m_rects;
};

// The process's one probe (as ImGui's context is one).
UiProbe& uiProbe();

} // namespace ks::app
