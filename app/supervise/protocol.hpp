#pragma once
// The messages between the window's shell and its GPU worker (docs/architecture.md, "Processes").
// Each is a struct with an nlohmann schema (NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT: a
// missing field takes its default, a field of the wrong type is a parse error), sent as a JSON
// object whose "type" names it. Descriptors travel beside a message (SCM_RIGHTS), never in it.
//
//   worker -> shell: Hello (+ frame memory fd), FrameDone, Heartbeat, StateUpdate, FaultNotice, ClipboardSet,
//                    KeptMemory (+ two fds of CUDA exported memory), FrameMemory (+ three fds of the same)
//   shell -> worker: ShellGl (after hello, when the shell's GL imports memory), Restore (first, after a
//                    restart; + the kept memory's fds), FrameRequest, Quit

#include "ks/pipeline/infer.hpp"
#include "ks/pipeline/kept_layout.hpp"
#include "editor/text_history.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// std::optional as JSON: null when empty (nlohmann 3.11.2 has no serializer of its own for it).
namespace nlohmann {
template <class T>
struct adl_serializer<std::optional<T>> {
    static void to_json(json& j, const std::optional<T>& o)
    {
        if (o)
            j = *o;
        else
            j = nullptr;
    }
    static void from_json(const json& j, std::optional<T>& o)
    {
        if (j.is_null())
            o.reset();
        else
            o = j.get<T>();
    }
};
} // namespace nlohmann

namespace ks::pipeline { // found by argument-dependent lookup
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(KeptEntry, name, offset, bytes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(KeptLayout, slotBytes, entries)
} // namespace ks::pipeline

namespace ks::pipeline { // found by argument-dependent lookup
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(InferOptions, kernel, args, shapes, grid, block, size, defaultCount,
                                                defaultSize)
} // namespace ks::pipeline

namespace ks::app { // found by argument-dependent lookup
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TextHistory::Delta, keepFront, keepBack, middle, cursor)
} // namespace ks::app

namespace ks::app::supervise {

inline constexpr int kProtocolVersion = 1;

// One GLFW input event, forwarded as it came (GLFW's key codes and actions).
struct InputEvent {
    std::string kind; // "key", "char", "pos", "button", "scroll", "focus", "drop"
    int a = 0, b = 0, c = 0; // key: key, action, mods; char: codepoint; button: button, action, mods; focus: focused
    double x = 0, y = 0;     // pos, scroll; drop: where the pointer was
    std::vector<std::string> paths; // drop: the files dropped on the window
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(InputEvent, kind, a, b, c, x, y, paths)

struct FrameRequest {
    static constexpr const char* kType = "frame";
    int width = 0, height = 0;  // the window's framebuffer
    double time = 0, dt = 0;    // seconds since start, since the last frame
    std::vector<InputEvent> input;
    std::optional<std::string> clipboard; // the desktop's clipboard, sent when a paste key was pressed
    bool checksum = false; // FrameDone says the SHA-256 of the pixels the worker rendered (a check of the transport)
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FrameRequest, width, height, time, dt, input, clipboard, checksum)

struct Hello {
    static constexpr const char* kType = "hello";
    int version = kProtocolVersion;
    int pid = 0;
    std::uint64_t frameBytes = 0; // the size of the frame memory (fd 0): two slots of slotBytes
    std::uint64_t slotBytes = 0;
    std::string device;           // what runs CUDA ("NVIDIA H100 80GB HBM3 (sm_90)" or the reason it does not)
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Hello, version, pid, frameBytes, slotBytes, device)

// The worker rendered a frame into slot `slot` of the frame memory: RGBA8, bottom row first. With
// `gpu`, the frame memory is the GPU memory of the last FrameMemory (and GL has finished writing
// it); otherwise the shared CPU memory of Hello (two slots used in turn: the shell has copied a
// frame out of it before it asks for the frame after next).
struct FrameDone {
    static constexpr const char* kType = "frame-done";
    int slot = 0, width = 0, height = 0;
    bool gpu = false;
    std::int64_t appFrame = 0;
    double workerMs = 0; // input to pixels in the worker
    double interopUs = -1; // the newest finished frame's map + unmap, host microseconds (-1: none yet)
    std::string status;  // the status line
    std::uint64_t kernelBuild = 0; // App::kernelBuilds() as of this frame (counts swaps; 0: none)
    std::string sha256;  // of the frame's pixels as the worker read them back, when the request asked
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FrameDone, slot, width, height, gpu, appFrame, workerMs, interopUs,
                                                status, kernelBuild, sha256)

// From the worker's reporter thread, every 100 ms whatever its main thread does.
struct Heartbeat {
    static constexpr const char* kType = "heartbeat";
    bool busy = false;          // the main thread is inside a frame
    double busyMs = 0;          // for how long
    std::int64_t pipelineFrame = -1; // the project frame the GPU is on (-1: none queued)
    double gpuFrameMs = 0;      // how long that frame has been queued
    std::string stage, kernel, file; // its first unfinished stage, when known
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Heartbeat, busy, busyMs, pipelineFrame, gpuFrameMs, stage, kernel, file)

// What the shell keeps to restore after a restart: everything the user had that is not on disk.
struct TabSnapshot {
    std::string path;
    bool modified = false;
    std::string text;   // when modified: the unsaved text
    int cursorLine = 1;
    // The editor's undo and redo steps (TextHistory::Saved: newest first, the first relative to
    // the tab's text, each other one relative to the step before it).
    std::vector<TextHistory::Delta> undo, redo;
    std::uint64_t historyBase = 0; // TextHistory::Saved::base
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TabSnapshot, path, modified, text, cursorLine, undo, redo, historyBase)

// The editor's settings for the session: its Options popup (compile options, typing pause) and the
// Edit and View menus' switches, and the source's zoom.
// Line information is not one of them: every build carries it (App::buildOptions).
struct EditorSettings {
    bool fastMath = false, debug = false;
    std::string fastCompile = "off"; // rtc::fastCompileName
    std::string cppStandard = "c++17";
    std::string arch;                // the target picked without a device; "": the process's own
    std::string defines, includes;   // the popup's fields as typed
    double pauseSeconds = 0.35;
    bool buildOnPause = true, syntaxColours = true;
    float zoom = 1.f;
    std::uint64_t printfBuffer = 0;  // device printf's buffer chosen in the Options popup, bytes; 0: not chosen
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(EditorSettings, fastMath, debug, fastCompile, cppStandard, arch,
                                                defines, includes, pauseSeconds, buildOnPause, syntaxColours,
                                                zoom, printfBuffer)

// A line of device printf output (the Console panel): the frame, and the stage that printed it
// ("" when it came between stages, from a kernel that was not waited for).
struct ConsoleLine {
    std::int64_t frame = 0;
    std::string stage;
    std::string text;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ConsoleLine, frame, stage, text)

// How the user set the window up: what a new GPU process restores, and what a window run keeps in
// $XDG_CONFIG_HOME/kernelscope/settings.json between launches (app/loop/app_settings.cpp).
struct UiSettings {
    std::string imguiIni;     // panel positions and sizes (ImGui's .ini text)
    std::string layout;       // "standard" or "classroom"
    std::vector<std::string> hiddenPanels; // panels the user hid (View menu)
    EditorSettings editor;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(UiSettings, imguiIni, layout, hiddenPanels, editor)

struct AppSnapshot {
    std::vector<TabSnapshot> tabs;
    int activeTab = 0;
    std::string projectPath;
    std::string projectJson;  // the running project with its parameter values and stage order
    // When that project was inferred from a kernel: the kernel's file, its bindings and their undo
    // steps (the Arguments panel's).
    std::string kernelFile;
    pipeline::InferOptions kernelOptions;
    std::vector<pipeline::InferOptions> kernelUndo;
    std::vector<float> camera; // target xyz, distance, yaw, pitch, fov
    std::vector<std::vector<double>> plotZooms; // per view: x0, x1, y0, y1 of a zoomed plot, else none
    std::int64_t pipelineFrame = 0;
    UiSettings ui;
    int teachStage = -1;
    double frameLimit = -1;   // seconds (0: none); -1: not said (the shell keeps its own)
    std::string recording;    // the file or folder being recorded to; "" when not recording
    int tourStep = -1;        // the guided tour's step (0-based); -1: closed
    std::vector<ConsoleLine> console; // the Console panel's newest lines
    std::uint64_t consoleDropped = 0; // lines it dropped
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(AppSnapshot, tabs, activeTab, projectPath,
                                                projectJson, kernelFile, kernelOptions, kernelUndo, camera, plotZooms, pipelineFrame, ui,
                                                teachStage, frameLimit, recording, tourStep, console, consoleDropped)

struct StateUpdate {
    static constexpr const char* kType = "state";
    AppSnapshot state;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(StateUpdate, state)

// What went wrong in the worker, as the next worker shows it.
struct FaultNotice {
    static constexpr const char* kType = "fault";
    std::string kind;     // "fault" (a sticky CUDA error), "time limit" (stopped by the user), "crash", "not answering"
    std::int64_t frame = -1;
    std::string stage, kernel, file;
    std::string error;    // CUDA's error, or how the process ended
    std::string summary;  // one line for the status bar
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FaultNotice, kind, frame, stage, kernel, file, error, summary)

// The project's resources as after the worker's last good frame: two slots of device memory
// (ks/pipeline/kept_contents.hpp) whose descriptors travel with this message (fds 0 and 1). The
// shell holds them, so the memory outlives the worker, and hands them to the next worker with its
// Restore. Sent when the worker's project (and so the layout) changes; layout.slotBytes 0 and no
// fds: the current project keeps nothing.
struct KeptMemory {
    static constexpr const char* kType = "kept-memory";
    std::string projectPath;
    pipeline::KeptLayout layout;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(KeptMemory, projectPath, layout)

struct Restore {
    static constexpr const char* kType = "restore";
    AppSnapshot state;
    std::optional<FaultNotice> fault;
    std::optional<KeptMemory> kept; // with it, the message carries the two slots' fds
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Restore, state, fault, kept)

// The shell's GL, sent after Hello when it imports memory (GL_EXT_memory_object_fd): which devices
// and driver (gl::MemoryIdentity). A worker whose GL names the same then sends its frames through
// GPU memory that both GL contexts import (FrameMemory) instead of the shared CPU memory. Sent again
// with `refused` when the shell could not import that memory: the worker goes back to CPU memory;
// with `refusedTextures` when it could not use frames rendered in place (FrameMemory with a size):
// the worker copies its frames into GPU memory buffers instead.
struct ShellGl {
    static constexpr const char* kType = "shell-gl";
    std::vector<std::string> devices;
    std::string driver;
    bool textures = false; // the shell takes frames rendered in place (FrameMemory with a size)
    std::string refused;
    std::string refusedTextures;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ShellGl, devices, driver, textures, refused, refusedTextures)

// Three slots of GPU memory for frames (CUDA's exported memory, which the worker's GL imports and
// writes), their descriptors with the message (fds 0 to 2). The frames that follow with `gpu` are
// in these, until the next FrameMemory. The worker uses the slots in turn (a frame never goes into
// the slot of the frame before it, across FrameMemory messages too). With at most two frames in
// flight, the shell may still be copying out of the newest frame's slot when it asks for the next
// frame, but must have finished with every older one.
//
// Two layouts (frame_layout.hpp). Without a size (width 0): each slot is a buffer the worker's GL
// reads the frame into (glReadPixels: RGBA8, bottom row first). With a size: each slot holds an
// RGBA8 texture of exactly that size (optimal tiling) at offset 0, which the worker renders the
// frame into, and a fourth descriptor (fd 3, `probeBytes`) holds the layout probe; every frame
// until the next FrameMemory has that size.
inline constexpr int kGpuFrameSlots = 3;
struct FrameMemory {
    static constexpr const char* kType = "frame-memory";
    std::uint64_t slotBytes = 0;
    int width = 0, height = 0;
    std::uint64_t probeBytes = 0; // with a size: the probe's allocation (fd 3)
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FrameMemory, slotBytes, width, height, probeBytes)

struct ClipboardSet {
    static constexpr const char* kType = "clipboard";
    std::string text;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ClipboardSet, text)

struct Quit {
    static constexpr const char* kType = "quit";
    int reserved = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Quit, reserved)

// A message of type T as the JSON body to send.
template <class T>
nlohmann::json encode(const T& message)
{
    nlohmann::json j = message;
    j["type"] = T::kType;
    return j;
}

// The body as a T; nullopt (and `error` set) when a field has the wrong type.
template <class T>
std::optional<T> decode(const nlohmann::json& body, std::string* error = nullptr)
{
    try {
        return body.get<T>();
    } catch (const nlohmann::json::exception& e) {
        if (error)
            *error = std::string("a \"") + T::kType + "\" message is malformed: " + e.what();
        return std::nullopt;
    }
}

} // namespace ks::app::supervise
