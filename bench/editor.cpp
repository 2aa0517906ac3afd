// The kernel editor's cost per frame with syntax colours, on a 2,000-line CUDA file, on the CPU (no
// GPU, no GL: ImGui builds its draw lists; rendering them is the GPU's work and not counted).
//   typing:   a character typed into line 1,000 every frame (one line re-lexed per frame)
//   comment:  "/*" typed at the top and taken back (half the frames re-lex every line)
//   idle:     the cursor blinking in an unchanged file
//   completion: words typed into line 1,000 a character a frame ("atomicA", "__shfl_", ...), each
//             followed by a space, so that the completion list opens, is ranked again for every
//             character and closes (the file's words read beforehand, as the app reads them when
//             it opens a file and at each typing pause; that read is timed on its own)
// each with the colours on and off (off: the text in one colour, what the colours add to; until
// stop 31 "off" was ImGui's own text widget, which the editor used then).
// Also the lexer alone: all 2,000 lines from scratch, and one changed line through the cache.
// Prints a table (median, 99th percentile and worst frame, ms) and writes --json FILE.
//   build/bench/ks_bench_editor [--frames 600] [--lines 2000] [--json out.json]
#include "app.hpp"
#include "bench_support.hpp"
#include "editor/editor_state.hpp"
#include "ks/core/paths.hpp"
#include "ks/core/atomic_file.hpp"
#include "ks/syntax/completion.hpp"
#include "ks/syntax/highlight.hpp"
#include "cli/options.hpp"
#include "panels/panels.hpp"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// A 2,000-line file of real-looking kernels: the shipped demo kernel repeated, renamed each time.
std::string bigSource(const std::string& demo, int lines)
{
    std::string out;
    int n = 0, copy = 0;
    while (n < lines) {
        std::string k = demo;
        for (const char* name : {"thread_colors_surface", "thread_colors_buffer"})
            for (auto at = k.find(name); at != std::string::npos; at = k.find(name, at + 1))
                k.insert(at + std::strlen(name), "_" + std::to_string(copy));
        for (char c : k) {
            if (n >= lines)
                break;
            out += c;
            n += c == '\n';
        }
        ++copy;
    }
    return out;
}

struct Stats {
    double median, p99, worst;
};

Stats stats(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v[std::min(v.size() - 1, v.size() * 99 / 100)], v.back()};
}

} // namespace

int main(int argc, char** argv)
{
    int frames = 600, lines = 2000;
    std::string json;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--frames"))
            frames = std::max(10, std::atoi(argv[i + 1]));
        else if (!std::strcmp(argv[i], "--lines"))
            lines = std::max(10, std::atoi(argv[i + 1]));
        else if (!std::strcmp(argv[i], "--json"))
            json = argv[i + 1];
    }
    namespace fs = std::filesystem;
    const fs::path data = ks::paths::dataRoot();
    const std::string demo = ks::paths::readTextFile(data / "kernels" / "thread_colors.cu");
    const std::string source = bigSource(demo, lines);
    const fs::path file = fs::temp_directory_path() / "ks_bench_editor.cu";
    ks::paths::writeFileAtomically(file, source);

    // The lexer alone.
    std::vector<double> full, one, words, candidates;
    for (int r = 0; r < 50; ++r) {
        const auto w0 = Clock::now();
        const std::vector<std::string> read = ks::syntax::identifiersOf(source);
        words.push_back(msSince(w0));
        if (read.empty())
            return 1;
        // The list the completion popup builds when it first opens (and again after the words change).
        const auto c0 = Clock::now();
        const auto list = ks::syntax::completionCandidates({}, read);
        candidates.push_back(msSince(c0));
        if (list.empty())
            return 1;
        ks::syntax::SyntaxCache cache;
        auto t0 = Clock::now();
        cache.update(source);
        full.push_back(msSince(t0));
        std::string edited = source;
        edited.insert(edited.size() / 2, "x");
        t0 = Clock::now();
        cache.update(edited);
        one.push_back(msSince(t0));
    }

    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(1600, 900);
    io.DeltaTime = 1.f / 60.f;
    io.IniFilename = nullptr;
    io.KeyMap[ImGuiKey_Backspace] = 8; // ImGui 1.86: keys are indices into io.KeysDown
    ks::app::AppOptions options;
    const ks::app::UiFonts fonts = ks::app::loadFonts(options);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);

    // One run of the three scenarios, with the syntax colours on or off (off: the text in one
    // colour; the difference is what the colours cost).
    struct Run {
        std::vector<double> typing, comment, idle, completion;
        int listOpenFrames = 0;
        bool inputArrived = false;
    };
    auto scenarios = [&](bool colours) {
        Run r;
        ks::app::EditorState ed;
        ed.monoFont = fonts.mono;
        ed.syntaxColours = colours;
        ed.tabs.push_back(std::make_unique<ks::app::EditorTab>(ks::project::KernelDocument(file)));
        ks::app::EditorTab& tab = *ed.tabs.front();
        // The file's words, read as the app reads them when it opens a file (and at each typing
        // pause, with its kernels): completion only ranks them while typing.
        tab.words = ks::syntax::identifiersOf(tab.buffer);
        tab.wordsRead = true;
        ++tab.wordsGeneration;
        auto frame = [&](auto&& input) {
            const auto t0 = Clock::now();
            io.DeltaTime = 1.f / 60.f;
            input();
            ImGui::NewFrame();
            ImGui::SetNextWindowPos(ImVec2(0, 0));
            ImGui::SetNextWindowSize(ImVec2(700, 880));
            ks::app::Commands commands;
            ks::app::drawEditorPanel(ed, commands);
            ImGui::Render();
            return msSince(t0);
        };
        // Focus the text at line 1,000 and let the layout settle.
        tab.jumpToLine = lines / 2;
        tab.jumpFocus = true;
        for (int i = 0; i < 10; ++i)
            frame([] {});
        if (!tab.editing)
            return r;
        const std::size_t before = tab.buffer.size();
        for (int i = 0; i < frames; ++i)
            r.typing.push_back(frame([&] { io.AddInputCharacter('a' + i % 26); }));
        const bool typed = tab.buffer.size() == before + std::size_t(frames);
        // "/*" typed at the top and taken back: '/', '*', Backspace, Backspace.
        tab.pendingCursor = 0;
        frame([] {});
        for (int i = 0; i < frames; ++i) {
            const int step = i % 4;
            r.comment.push_back(frame([&] {
                if (step == 0)
                    io.AddInputCharacter('/');
                else if (step == 1)
                    io.AddInputCharacter('*');
                else
                    io.KeysDown[io.KeyMap[ImGuiKey_Backspace]] = true;
            }));
            if (step >= 2)
                frame([&] { io.KeysDown[io.KeyMap[ImGuiKey_Backspace]] = false; });
        }
        r.inputArrived = typed && tab.buffer.size() == before + std::size_t(frames);
        // Completion: the list open over most frames, ranked again on each character.
        tab.jumpToLine = lines / 2;
        frame([] {});
        const std::string words = "atomicA __shfl_ threadI blockD __synct make_fl ";
        for (int i = 0; i < frames; ++i) {
            const char ch = words[std::size_t(i) % words.size()];
            r.completion.push_back(frame([&] { io.AddInputCharacter(static_cast<unsigned char>(ch)); }));
            r.listOpenFrames += tab.completion.open;
        }
        for (int i = 0; i < frames; ++i)
            r.idle.push_back(frame([] {}));
        frame([] {}); // let go of the widget before the state dies
        return r;
    };
    const Run plain = scenarios(false);
    const Run coloured = scenarios(true);
    ImGui::DestroyContext();
    std::error_code ec;
    fs::remove(file, ec);
    if (!plain.inputArrived || !coloured.inputArrived) {
        std::fprintf(stderr, "ks_bench_editor: the source widget did not take the typed input\n");
        return 1;
    }

    const Stats f = stats(full), o = stats(one);
    std::printf("editor, %d lines, %d frames each (CPU ms per frame: ImGui NewFrame + editor panel + Render)\n",
                lines, frames);
    std::printf("  %-40s %8s %8s %8s\n", "", "median", "p99", "worst");
    std::string jsonRows;
    for (const auto& [name, run] : {std::pair{"colours", &coloured}, std::pair{"plain", &plain}}) {
        const Stats t = stats(run->typing), c = stats(run->comment), d = stats(run->idle);
        std::printf("  %-40s %8.3f %8.3f %8.3f\n", (std::string(name) + ": typing").c_str(), t.median, t.p99, t.worst);
        std::printf("  %-40s %8.3f %8.3f %8.3f\n", (std::string(name) + ": /* typed and taken back").c_str(), c.median,
                    c.p99, c.worst);
        std::printf("  %-40s %8.3f %8.3f %8.3f\n", (std::string(name) + ": idle").c_str(), d.median, d.p99, d.worst);
        const Stats l = stats(run->completion);
        std::printf("  %-40s %8.3f %8.3f %8.3f   (list open %d of %zu frames)\n",
                    (std::string(name) + ": typing, completion list").c_str(), l.median, l.p99, l.worst,
                    run->listOpenFrames, run->completion.size());
        char buf[640];
        std::snprintf(buf, sizeof buf,
                      " \"%s\": {\"typing\": [%.4f, %.4f, %.4f], \"comment_toggle\": [%.4f, %.4f, %.4f], "
                      "\"idle\": [%.4f, %.4f, %.4f], \"completion\": [%.4f, %.4f, %.4f]},\n",
                      name, t.median, t.p99, t.worst, c.median, c.p99, c.worst, d.median, d.p99, d.worst, l.median,
                      l.p99, l.worst);
        jsonRows += buf;
    }
    std::printf("  %-40s %8.3f %8.3f %8.3f\n", "lexer alone: whole file", f.median, f.p99, f.worst);
    std::printf("  %-40s %8.3f %8.3f %8.3f\n", "lexer alone: one line changed", o.median, o.p99, o.worst);
    const Stats wr = stats(words);
    std::printf("  %-40s %8.3f %8.3f %8.3f\n", "the file's words (at a typing pause)", wr.median, wr.p99, wr.worst);
    const Stats cl = stats(candidates);
    std::printf("  %-40s %8.3f %8.3f %8.3f\n", "completion candidates (first opening)", cl.median, cl.p99, cl.worst);
    if (!json.empty()) {
        char tail[256];
        std::snprintf(tail, sizeof tail,
                      " \"lex_whole_file_ms\": %.4f, \"lex_one_line_ms\": %.4f, \"file_words_ms\": %.4f, "
                      "\"candidates_ms\": %.4f}\n",
                      f.median, o.median, wr.median, cl.median);
        ks::paths::writeFileAtomically(json, "{\"lines\": " + std::to_string(lines) + ", \"frames\": " +
                                                 std::to_string(frames) + ", \"unit\": \"ms [median, p99, worst]\",\n" +
                                                 jsonRows + tail);
    }
    return 0;
}
