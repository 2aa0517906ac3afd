#pragma once
// The state of the kernel editor: open documents (tabs), their builds, the session's compile
// options, and which kernel the open project runs. The editor panel draws from it and edits its own
// widget buffers; everything else goes through Commands that App applies.

#include "editor/code_edit.hpp"
#include "editor/editor_text.hpp"
#include "editor/text_history.hpp"

#include "ks/project/debouncer.hpp"
#include "ks/project/kernel_document.hpp"
#include "ks/project/recovery_store.hpp"
#include "ks/rtc/cache.hpp"
#include "ks/rtc/compiler.hpp"
#include "ks/rtc/diagnostics.hpp"
#include "ks/syntax/completion.hpp"
#include "ks/syntax/highlight.hpp"
#include "ks/syntax/kernel_signature.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

struct ImFont;

namespace ks::app {

// "Find the fault" for the kernel of a fault banner (app/supervise/find_fault.hpp).
enum class FaultSearchState { Unavailable, Offered, Running, Done };

// The builds of one document.
struct BuildState {
    std::uint64_t ticket = 0;           // the newest request submitted (0: none)
    // The compile-service slot `ticket` is of: the file's own, or a project stage's build of the
    // same text (App::submitBuild), whose result the tab shows rather than compiling it twice.
    std::string slot;
    std::uint64_t submittedRevision = 0; // the document revision it builds
    double submittedAt = 0;              // steady-clock seconds
    bool inFlight = false;               // submitted and not finished
    // The newest finished build and what it was of.
    std::shared_ptr<const rtc::CompileResult> result;
    std::uint64_t resultRevision = 0;
    double resultTotalMs = 0;            // submit to completion (queue + compile)
    rtc::CacheSource resultSource = rtc::CacheSource::Compiled; // a compile, or answered from the cache
    int errors = 0, warnings = 0;
};

// The completion list under the cursor (app/editor/completion_popup.cpp): the identifier being
// typed is [wordBegin, the cursor); the candidates are gathered when the list opens, and ranked
// again for each prefix.
struct CompletionState {
    bool open = false;
    // Enter accepts only a choice the user made: the list was opened with Ctrl+Space, or Up/Down
    // moved in it. Otherwise Enter closes the list and breaks the line (Tab always accepts).
    bool chosen = false;
    bool invoked = false; // opened with Ctrl+Space: it stays open with nothing typed
    std::size_t wordBegin = 0;
    // Kept between openings while the file's words (EditorTab::wordsGeneration) and the
    // project's names stay the same: opening the list then ranks only.
    std::vector<syntax::CompletionItem> candidates;
    std::uint64_t candidatesWords = 0;
    std::vector<syntax::CompletionItem> candidatesProject;
    // The word whose typing found no match (its start; npos: none): typing on in it does not open
    // the list again (Ctrl+Space does).
    std::size_t noMatchAt = std::size_t(-1);
    std::vector<std::size_t> shown; // indices into candidates, best first, for `prefix`
    std::string prefix;
    int selected = 0; // index into shown
    int firstRow = 0; // the row at the list's top (it shows kRows at a time)
    static constexpr int kRows = 10;
    // Where the list was drawn in the last frame (x0, y0, x1, y1; zeros when closed): its clicks
    // and wheel are taken here, as it is drawn over the text rather than as a window of its own.
    std::array<float, 4> rect{};
    float rowHeight = 0;
};

// One open file.
struct EditorTab {
    explicit EditorTab(project::KernelDocument d) : doc(std::move(d)), buffer(doc.text())
    {
        history.observe(buffer, 0, 0.0, false);
    }

    project::KernelDocument doc;
    std::string buffer;              // the text widget's buffer; equals doc.text() after each frame
    // Whether a diagnostic of this tab's build is about this file: its own builds name it by its
    // file name, a project stage's build (BuildState::slot) by its path; "" is the file itself.
    bool owns(const rtc::Diagnostic& d) const
    {
        return d.file.empty() || d.file == doc.path().filename().string() || d.file == doc.path().string();
    }
    int widgetGeneration = 0;        // bumped when the text is replaced from outside the widget
    project::Debouncer debounce;
    BuildState build;
    std::vector<syntax::KernelSignature> kernels; // found in the text (for the kernel picker)
    // The text's identifiers (syntax::identifiersOf), offered by completion; read with `kernels`
    // when typing pauses, or by the editor when the list first opens and nothing has read them.
    std::vector<std::string> words;
    bool wordsRead = false;
    std::uint64_t wordsGeneration = 0; // bumped at each read
    std::uint64_t scannedRevision = 0;
    std::optional<project::RecoveryEntry> recovery; // unsaved edits found at open, on offer
    std::uint64_t recoveredRevision = 0;            // the revision last written to the recovery file
    std::string message;                            // the last save/reload message for this file
    std::string faultNote; // this file's kernel faulted in the previous GPU process (a banner until dismissed)
    FaultSearchState faultSearch = FaultSearchState::Unavailable; // the banner's "Find the fault"
    std::string faultFinding;                 // under the note: "Looking for the fault...", then what was found
    std::optional<rtc::Diagnostic> faultMark; // the bad access's line, marked like a compile error
    TextHistory history; // undo and redo of the text (text_history.hpp), kept across reloads and builds
    int historyGeneration = 0; // widgetGeneration when the history last looked: a change since is no typing

    // Widget-side state (owned by the editor panel).
    CodeInputState input;   // the source widget's cursor, selection and mouse state
    // Where each line of `buffer` starts: kept up to date from the widget's edits, made again when
    // the text is replaced from outside (startsGeneration != widgetGeneration).
    std::vector<int> lineStarts;
    int startsGeneration = -1;
    int cursorLine = 1, cursorColumn = 1;
    int jumpToLine = 0;     // > 0: scroll there (and put the cursor on it when jumpFocus)
    bool jumpFocus = true;  // of the pending jump only (set again after it)
    int cursorOffset = 0;
    int pendingCursor = -1; // byte offset the widget moves the cursor to next frame
    int pendingSelectEnd = -1; // with pendingCursor: select [pendingCursor, pendingSelectEnd)
    int selectionBegin = 0, selectionEnd = 0; // the widget's selection (bytes, ordered) in the last frame
    int refocusOffset = -1; // give the widget the keyboard back with the cursor here
    int lastCursorLine = 0;
    bool editing = false;   // the text widget was active in the last frame
    syntax::SyntaxCache syntax; // the colours of `buffer`, re-lexed where it changed
    double cursorMovedAt = 0; // steady seconds: the cursor blinks from then on
    int lastCursorOffset = -1;
    float lastScrollY = 0;  // the code's scroll at the end of the last frame
    std::array<float, 4> rulerRect{}; // the overview ruler on screen (x0, y0, x1, y1), for tests
    // Where line 1, column 1 was drawn on screen (x, y), the line height and a character's width, in
    // the last frame, for tests.
    std::array<float, 4> textGeometry{};
    // The text of the gutter's tooltip in the last frame (empty: none shown), for tests. Where the
    // markers and the Compile log's lines were drawn is in uiProbe() ("marker:LINE", "log:I").
    std::string gutterTooltip;
    CompletionState completion;
    // The hover over the code: the identifier under the mouse ([hoverBegin, hoverEnd), -1: none),
    // since when (steady seconds; its text shows after a short rest), and the text shown in the
    // last frame (empty: none), for tests.
    int hoverBegin = -1, hoverEnd = -1;
    double hoverSince = 0;
    std::string hoverText;
    // The widest line in columns: in full when the text was replaced from outside the widget (at
    // widestGeneration), kept up by the lines each edit touched since (it may stay wider than the
    // text after a line is shortened, until the next replacement).
    int widest = 0;
    int widestGeneration = -1;
};

// The find and replace bar (Ctrl+F, Ctrl+H) over the active tab, and go to line (Ctrl+G).
struct FindState {
    bool open = false;
    bool replace = false;    // the replace row is shown
    bool focusField = false; // give the find field the keyboard next frame
    bool fieldWasActive = false; // the find field had the keyboard in the last frame
    std::string needle, replacement;
    bool matchCase = false, wholeWord = false;
    int current = -1; // index into matches of the one shown
    std::vector<text::Match> matches; // in the tab's buffer, in order
    // What `matches` were found in: the tab, its document revision and size, the needle and options.
    const void* matchesOf = nullptr;
    std::uint64_t matchesRevision = 0;
    std::size_t matchesSize = 0;
    std::string matchesNeedle;
    bool matchesCase = false, matchesWord = false;
    std::string message; // "3 replaced"
    bool gotoOpen = false;
    int gotoLine = 1;
};

struct EditorState {
    std::vector<std::unique_ptr<EditorTab>> tabs;
    int selectTab = -1; // > = 0: the tab bar selects it next frame
    int activeTab = 0;

    // What the open project's teaching stage runs (App::frame sets it for the kernel picker): its
    // file and kernel; empty without a project.
    std::filesystem::path runningFile;
    std::string runningKernel;
    // What the running kernel's parameters are bound to, by name ("buffer a", "parameter alpha"),
    // and the open project's parameters and resources as completion offers them (App::frame sets
    // both; empty without a project).
    std::map<std::string, std::string> runningBindings;
    std::vector<syntax::CompletionItem> projectNames;

    rtc::CompileOptions options;     // for every build of the session
    bool archFromDevice = false;     // the target is the running device's (no picker)
    bool buildOnPause = true;
    bool syntaxColours = true; // off: the source in one colour, drawn by the text widget itself
    static constexpr float kMinZoom = 0.5f, kMaxZoom = 3.f;
    float zoom = 1.f;          // the source font's scale (kMinZoom to kMaxZoom)
    // The window's frame limit in seconds (0: none): a frame running longer asks the user to wait or
    // stop it. The supervising shell reads it from the state the worker sends (--frame-limit sets it).
    float frameLimitSeconds = 2.f;
    // Device printf's buffer as chosen (--printf-buffer, the Options popup), bytes; 0: the driver's
    // default. ConsoleState::printfBuffer is what the driver has.
    std::size_t printfBuffer = 0;
    // The driver's size before any choice, as it said at the start (App::startDeviceOutput); 0:
    // unknown (no CUDA). CUDA documents 1 MiB; driver 580 on an H200 said 8.25 MiB.
    std::size_t driverPrintfBuffer = 0;
    static constexpr std::size_t kDocumentedPrintfBuffer = std::size_t(1) << 20;
    static constexpr std::size_t kMaxPrintfBuffer = std::size_t(4) << 30;    // what the popup and the file take
    double pauseSeconds = 0.35;
    // Text fields of the options UI (parsed into `options` when applied).
    std::string definesText, includesText;
    std::string openPathText;

    ImFont* monoFont = nullptr; // the source font (DejaVu Sans Mono when installed)
    std::vector<ImFont*> monoSizes; // the same at every size loaded (zoom picks one; nulls skipped)
    FindState findBar;

    EditorTab* find(const std::filesystem::path& path)
    {
        return const_cast<EditorTab*>(std::as_const(*this).find(path));
    }
    const EditorTab* find(const std::filesystem::path& path) const
    {
        for (const auto& t : tabs)
            if (t->doc.path() == path)
                return t.get();
        return nullptr;
    }
};

// What a conflict's user chose.
enum class ConflictChoice { ReloadFromDisk, KeepMine, SaveMine };

} // namespace ks::app
