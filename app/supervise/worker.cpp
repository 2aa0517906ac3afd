// kernelscope --worker window: the App, headless, for a supervising shell. It renders the whole
// window offscreen each time the shell asks, into frame memory the shell reads (GPU memory both GL
// contexts import when they share a device, else CPU memory both map), and reports what its GPU is
// doing from a second thread, so a kernel that never ends is seen and named while this process's
// main thread waits for it (docs/architecture.md, "Processes").
#include "platform/platforms.hpp"
#include "platform/watchdog.hpp"
#include "app.hpp"
#include "supervise/frame_layout.hpp"
#include "supervise/protocol.hpp"

#include "ks/core/error.hpp"
#include "ks/core/log.hpp"
#include "ks/core/sha256.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/gl/memory_object.hpp"
#include "ks/gl/objects.hpp"
#include "ks/interop/gl_shared_memory.hpp"
#include "ks/proc/child_process.hpp"
#include "ks/proc/shared_memory.hpp"

#include <GLFW/glfw3.h> // key codes only: the shell forwards GLFW's events as they came
#include <imgui.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <unistd.h>

namespace ks::app {

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kMaxSide = 8192; // frame memory slots hold up to 8192 x 8192 RGBA8 (pages are touched as used)

// ImGui 1.86 reads keys from io.KeysDown indexed by the platform's codes: the shell's GLFW codes.
void mapKeys(ImGuiIO& io)
{
    const std::pair<ImGuiKey, int> keys[] = {
        {ImGuiKey_Tab, GLFW_KEY_TAB},         {ImGuiKey_LeftArrow, GLFW_KEY_LEFT},
        {ImGuiKey_RightArrow, GLFW_KEY_RIGHT}, {ImGuiKey_UpArrow, GLFW_KEY_UP},
        {ImGuiKey_DownArrow, GLFW_KEY_DOWN},  {ImGuiKey_PageUp, GLFW_KEY_PAGE_UP},
        {ImGuiKey_PageDown, GLFW_KEY_PAGE_DOWN}, {ImGuiKey_Home, GLFW_KEY_HOME},
        {ImGuiKey_End, GLFW_KEY_END},         {ImGuiKey_Insert, GLFW_KEY_INSERT},
        {ImGuiKey_Delete, GLFW_KEY_DELETE},   {ImGuiKey_Backspace, GLFW_KEY_BACKSPACE},
        {ImGuiKey_Space, GLFW_KEY_SPACE},     {ImGuiKey_Enter, GLFW_KEY_ENTER},
        {ImGuiKey_Escape, GLFW_KEY_ESCAPE},   {ImGuiKey_KeyPadEnter, GLFW_KEY_KP_ENTER},
        {ImGuiKey_A, GLFW_KEY_A},             {ImGuiKey_C, GLFW_KEY_C},
        {ImGuiKey_V, GLFW_KEY_V},             {ImGuiKey_X, GLFW_KEY_X},
        {ImGuiKey_Y, GLFW_KEY_Y},             {ImGuiKey_Z, GLFW_KEY_Z},
    };
    for (const auto& [key, code] : keys)
        io.KeyMap[key] = code;
}

void applyInput(ImGuiIO& io, App& app, const std::vector<supervise::InputEvent>& events)
{
    for (const supervise::InputEvent& e : events) {
        if (e.kind == "key" && e.a >= 0 && e.a < int(IM_ARRAYSIZE(io.KeysDown))) {
            io.KeysDown[e.a] = e.b != GLFW_RELEASE;
            io.KeyCtrl = io.KeysDown[GLFW_KEY_LEFT_CONTROL] || io.KeysDown[GLFW_KEY_RIGHT_CONTROL];
            io.KeyShift = io.KeysDown[GLFW_KEY_LEFT_SHIFT] || io.KeysDown[GLFW_KEY_RIGHT_SHIFT];
            io.KeyAlt = io.KeysDown[GLFW_KEY_LEFT_ALT] || io.KeysDown[GLFW_KEY_RIGHT_ALT];
            io.KeySuper = io.KeysDown[GLFW_KEY_LEFT_SUPER] || io.KeysDown[GLFW_KEY_RIGHT_SUPER];
        } else if (e.kind == "char" && e.a > 0) {
            io.AddInputCharacter(unsigned(e.a));
        } else if (e.kind == "pos") {
            io.MousePos = ImVec2(float(e.x), float(e.y));
        } else if (e.kind == "button" && e.a >= 0 && e.a < int(IM_ARRAYSIZE(io.MouseDown))) {
            io.MouseDown[e.a] = e.b == GLFW_PRESS;
        } else if (e.kind == "scroll") {
            io.MouseWheelH += float(e.x);
            io.MouseWheel += float(e.y);
        } else if (e.kind == "focus") {
            io.AddFocusEvent(e.a != 0);
        } else if (e.kind == "drop") {
            app.dropFiles({e.paths.begin(), e.paths.end()}, float(e.x), float(e.y));
        }
    }
}

// The main thread's activity, read by the reporter thread.
struct Activity {
    std::atomic<bool> busy{false};
    std::atomic<long long> since{0}; // Clock ticks
};

// Sends a Heartbeat every 100 ms: whether the main thread is in a frame, and where the GPU is.
class Reporter {
public:
    Reporter(proc::Channel& channel, const App& app, const Activity& activity)
        : m_channel(channel), m_app(app), m_activity(activity), m_thread([this] { run(); })
    {
    }
    ~Reporter()
    {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_wake.notify_all();
        m_thread.join();
    }

private:
    void run()
    {
        std::unique_lock lock(m_mutex);
        while (!m_wake.wait_for(lock, std::chrono::milliseconds(100), [this] { return m_stop; })) {
            supervise::Heartbeat hb;
            hb.busy = m_activity.busy.load();
            if (hb.busy)
                hb.busyMs = std::chrono::duration<double, std::milli>(
                                Clock::now() - Clock::time_point(Clock::duration(m_activity.since.load())))
                                .count();
            if (const auto p = m_app.frameProgress()) {
                hb.pipelineFrame = p->frame;
                hb.gpuFrameMs = p->runningMs;
                hb.stage = p->stageName;
                hb.kernel = p->kernel;
                hb.file = p->file.string();
            }
            try {
                m_channel.send(supervise::encode(hb));
            } catch (const proc::ChannelError&) {
                return; // the shell is gone; the main thread finds out on its next receive
            }
        }
    }
    proc::Channel& m_channel;
    const App& m_app;
    const Activity& m_activity;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stop = false;
    std::thread m_thread; // last: started once the members above exist
};

std::string g_clipboard; // what the shell last sent; ImGui's clipboard callbacks read it

// Tells the shell where the project's resources are kept (the two slots' descriptors go with the
// message) when that changed since `sentId` (0: nothing kept).
void sendKeptMemory(proc::Channel& channel, const App& app, const std::string& projectPath, std::uint64_t& sentId)
{
    const pipeline::KeptContents* kept = app.keptContents();
    const std::uint64_t id = kept ? kept->id() : 0;
    if (id == sentId)
        return;
    supervise::KeptMemory message;
    std::vector<proc::UniqueFd> fds;
    if (kept) {
        message.projectPath = projectPath;
        message.layout = kept->layout();
        try {
            for (int k = 0; k < pipeline::KeptContents::kSlots; ++k)
                fds.emplace_back(kept->exportDescriptor(k));
        } catch (const Error& e) {
            log::warning(std::string("resource contents cannot be kept for a restart: ") + e.what());
            message = {};
            fds.clear();
        }
    }
    channel.send(supervise::encode(message), proc::descriptors(fds));
    sentId = id;
}

// Frames through GPU memory (protocol.hpp, FrameMemory): three slots of CUDA's exported memory that
// this process's GL imports and the shell's GL imports too. Where the shell takes them, frames are
// rendered in place, into a texture on the slot (frame_layout.hpp); else the window is read into the
// slot as into a buffer. A frame is announced once GL has finished writing it (its fence), so the
// next frame's CPU work overlaps the last one's GPU work as in the window's own process.
class GpuFrames {
public:
    // Whether the shell's GL, as it describes itself, can import what this process's GL writes.
    void offer(const supervise::ShellGl& shell, const std::function<void(const std::string&)>& step)
    {
        if (!shell.refused.empty())
            return off(shell.refused);
        if (!shell.refusedTextures.empty())
            return noTextures(shell.refusedTextures);
        static const std::optional<gl::MemoryIdentity> mine = gl::memoryIdentity();
        std::string why;
        if (!mine)
            why = "this process's GL lacks GL_EXT_memory_object_fd";
        else if (!gl::sameMemoryDomain(*mine, {shell.devices, shell.driver}))
            why = "the window's GL runs on another device or driver";
        else
            why = interop::glSharedMemoryUnsupported();
        m_on = why.empty();
        m_inPlace = m_on && shell.textures;
        step(!m_on ? "frames through CPU memory: " + why
                   : m_inPlace ? "frames rendered in place in GPU memory" : "frames read into GPU memory");
    }
    bool on() const noexcept { return m_on; }
    bool inPlace() const noexcept { return m_on && m_inPlace; }
    // Back to CPU memory for good; the slots are let go (the shell holds its own imports of them).
    void off(const std::string& why)
    {
        log::warning("frames go to the window through CPU memory: " + why);
        m_on = false;
        drop();
    }
    // Frames read into buffers from now on (the shell cannot use frames rendered in place).
    void noTextures(const std::string& why)
    {
        log::warning("frames are read into GPU memory rather than rendered there: " + why);
        m_inPlace = false;
        drop();
    }

    // Frames rendered in place: the target for the next frame, of exactly width x height, and its
    // slot. New textures (and memory, when they do not fit) are announced to the shell first, after
    // the frames still pending in the old ones (`flush`).
    std::pair<const gl::Framebuffer*, int> nextTarget(int width, int height, proc::Channel& channel,
                                                      const std::function<void()>& flush)
    {
        if (m_targets[0].empty() || m_targets[0].width() != width || m_targets[0].height() != height) {
            flush();
            for (gl::Framebuffer& t : m_targets)
                t = gl::Framebuffer(); // before the memory under them
            const std::size_t bytes = supervise::textureSlotBytes(width, height);
            if (m_memory[0].empty() || m_memory[0].size() < bytes) {
                for (interop::GlSharedMemory& m : m_memory)
                    m = interop::GlSharedMemory();
                for (interop::GlSharedMemory& m : m_memory)
                    m = interop::GlSharedMemory(bytes);
            }
            if (m_probe.empty()) {
                m_probe = interop::GlSharedMemory(supervise::kProbeBytes);
                supervise::writeProbe(m_probe.memoryObject());
            }
            for (int k = 0; k < supervise::kGpuFrameSlots; ++k)
                m_targets[k] = gl::Framebuffer(
                    gl::Texture2D::onMemory(m_memory[k].memoryObject(), 0, width, height, GL_RGBA8));
            gl::finishPolled(); // the probe is written before the shell reads it
            announce(width, height, channel);
        }
        const int slot = take();
        return {&m_targets[slot], slot};
    }

    // Frames read into buffers: the slot for the next frame, holding at least `bytes`, and its
    // index. New slots are announced as above.
    std::pair<GLuint, int> next(std::size_t bytes, proc::Channel& channel, const std::function<void()>& flush)
    {
        if (m_slots[0].empty() || m_slots[0].size() < bytes) {
            flush();
            for (interop::GlSharedBuffer& b : m_slots)
                b = interop::GlSharedBuffer();
            for (interop::GlSharedBuffer& b : m_slots)
                b = interop::GlSharedBuffer(bytes);
            announce(0, 0, channel);
        }
        const int slot = take();
        return {m_slots[slot].buffer(), slot};
    }

private:
    void drop()
    {
        for (int k = 0; k < supervise::kGpuFrameSlots; ++k) {
            m_targets[k] = gl::Framebuffer();
            m_memory[k] = interop::GlSharedMemory();
            m_slots[k] = interop::GlSharedBuffer();
        }
        m_probe = interop::GlSharedMemory();
    }
    void announce(int width, int height, proc::Channel& channel)
    {
        std::vector<proc::UniqueFd> fds;
        for (int k = 0; k < supervise::kGpuFrameSlots; ++k)
            fds.emplace_back(width > 0 ? m_memory[k].exportDescriptor() : m_slots[k].exportDescriptor());
        supervise::FrameMemory message{width > 0 ? m_memory[0].size() : m_slots[0].size(), width, height};
        if (width > 0) {
            fds.emplace_back(m_probe.exportDescriptor());
            message.probeBytes = m_probe.size();
        }
        channel.send(supervise::encode(message), proc::descriptors(fds));
    }
    // Slots in turn, across new memory too: the next frame never goes where the shell may still be
    // copying the last one from (protocol.hpp, FrameMemory).
    int take()
    {
        const int slot = m_next;
        m_next = (m_next + 1) % supervise::kGpuFrameSlots;
        return slot;
    }

    bool m_on = false, m_inPlace = false;
    interop::GlSharedBuffer m_slots[supervise::kGpuFrameSlots];  // frames read into buffers
    interop::GlSharedMemory m_memory[supervise::kGpuFrameSlots]; // frames rendered in place
    interop::GlSharedMemory m_probe;                             // their layout probe
    gl::Framebuffer m_targets[supervise::kGpuFrameSlots];        // on m_memory
    int m_next = 0;
};

// A frame in GPU memory that GL has not finished writing yet.
struct PendingFrame {
    gl::Fence written;
    supervise::FrameDone done;
};

} // namespace

int runWorker(const AppOptions& options)
{
    std::optional<proc::Channel> inherited = proc::inheritedChannel();
    if (!inherited) {
        std::fprintf(stderr, "kernelscope: error: --worker is internal: it runs only under a window's shell\n");
        return 2;
    }
    proc::Channel& channel = *inherited;
    // KS_WORKER_TRACE=1: one line per step on stderr, with milliseconds since the start (diagnosis).
    const bool trace = std::getenv("KS_WORKER_TRACE") != nullptr;
    const auto started = Clock::now();
    auto step = [&](const std::string& what) {
        if (trace)
            std::fprintf(stderr, "kernelscope worker %d: %8.1f ms: %s\n", int(::getpid()),
                         std::chrono::duration<double, std::milli>(Clock::now() - started).count(), what.c_str());
    };
    step("started");
    AppOptions o = options;
    o.headless = true;
    HeadlessSession session(o);
    App& app = session.app();
    // --record in a supervised window: the whole window, as the Record window records it, so that
    // the snapshot knows of it. Only the first worker gets the option (ShellLink::windowConfig): a
    // recording cut by a new GPU process is not started again over its file.
    if (!options.record.empty())
        app.startRecording(options.record.string(), false, options.recordEvery);
    ImGuiIO& io = ImGui::GetIO();
    mapKeys(io);
    io.ClipboardUserData = &channel;
    io.SetClipboardTextFn = [](void* user, const char* text) {
        g_clipboard = text ? text : "";
        try {
            static_cast<proc::Channel*>(user)->send(supervise::encode(supervise::ClipboardSet{g_clipboard}));
        } catch (const proc::ChannelError&) {
        }
    };
    io.GetClipboardTextFn = [](void*) { return g_clipboard.c_str(); };

    const std::size_t slotBytes = std::size_t(kMaxSide) * kMaxSide * 4;
    proc::SharedMemory frames = proc::SharedMemory::create("kernelscope-frames", 2 * slotBytes);
    supervise::Hello hello;
    hello.pid = int(::getpid());
    hello.frameBytes = frames.size();
    hello.slotBytes = slotBytes;
    hello.device = app.statusLine();
    channel.send(supervise::encode(hello), {frames.fd()});
    step("hello sent: " + hello.device);

    Activity activity;
    Reporter reporter(channel, app, activity);
    int slot = 0;
    std::string lastState;
    Clock::time_point lastStateAt{};
    int lastWidth = 0, lastHeight = 0;
    std::uint64_t keptId = 0;
    long long frameCount = 0;
    GpuFrames gpuFrames;
    std::deque<PendingFrame> pending;
    // Announces the pending frames GL has finished (all of them, waiting, with `all`).
    auto sendWritten = [&](bool all) {
        while (!pending.empty() && (all ? pending.front().written.wait(std::chrono::microseconds::max())
                                        : pending.front().written.signaled())) {
            channel.send(supervise::encode(pending.front().done));
            if (trace)
                step("frame " + std::to_string(pending.front().done.appFrame) + " announced (GL has written it)");
            pending.pop_front();
        }
    };
    for (;;) {
        std::optional<proc::Message> m;
        try {
            sendWritten(false);
            if (pending.empty()) {
                m = channel.receive(std::chrono::milliseconds(1000));
            } else if (!(m = channel.receive(std::chrono::microseconds(100)))) {
                continue; // nothing asked within 0.1 ms: look at GL's progress again
            }
        } catch (const proc::ChannelError& e) {
            // The shell closed the connection (it quit or died): nothing to show anything to.
            return 0;
        }
        if (!m)
            continue;
        const std::string type = m->type();
        std::string error;
        if (type == supervise::Quit::kType)
            return 0;
        if (type == supervise::ShellGl::kType) {
            if (auto g = supervise::decode<supervise::ShellGl>(m->body, &error)) {
                session.renderTarget(nullptr); // the slots may go
                gpuFrames.offer(*g, step);
            } else
                log::error(error);
            continue;
        }
        if (type == supervise::Restore::kType) {
            if (auto r = supervise::decode<supervise::Restore>(m->body, &error)) {
                app.restore(*r, proc::descriptors(m->fds));
                step("restored");
            }
            else
                log::error(error);
            continue;
        }
        if (type != supervise::FrameRequest::kType)
            continue; // a newer shell's message this worker does not know: ignored
        auto request = supervise::decode<supervise::FrameRequest>(m->body, &error);
        if (!request) {
            log::error(error);
            continue;
        }
        if (request->clipboard)
            g_clipboard = *request->clipboard;
        const auto t0 = Clock::now();
        session.resize(std::clamp(request->width, 1, kMaxSide), std::clamp(request->height, 1, kMaxSide));
        applyInput(io, app, request->input);
        if (o.framesGiven && frameCount + 1 == o.frames)
            app.settleBuilds(std::chrono::seconds(60)); // a run of a given length shows finished builds
        activity.since = t0.time_since_epoch().count();
        activity.busy = true;
        if (trace)
            step("frame " + std::to_string(frameCount + 1) + " requested");
        // Frames rendered in place go straight into a slot's texture: nothing is read back.
        int inPlaceSlot = -1;
        session.renderTarget(nullptr);
        if (gpuFrames.inPlace()) {
            try {
                const auto [target, gpuSlot] =
                    gpuFrames.nextTarget(session.width(), session.height(), channel, [&] { sendWritten(true); });
                session.renderTarget(target);
                inPlaceSlot = gpuSlot;
            } catch (const Error& e) {
                gpuFrames.noTextures(e.what());
            } catch (const proc::ChannelError&) {
                return 0;
            }
        }
        try {
            session.renderFrameAt(float(request->time), float(request->dt));
        } catch (const Error& e) {
            log::error(std::string("frame failed: ") + e.what());
        }
        activity.busy = false;
        ++frameCount;
        // --record with --frames: the frames the window shows, not the one more it asks for ahead.
        if (!o.record.empty() && o.framesGiven && frameCount >= o.frames)
            app.stopRecording();
        if (trace)
            step("frame " + std::to_string(frameCount) + " done: " + app.statusLine());
        if (const std::optional<supervise::FaultNotice> lost = app.lostContext()) {
            // Nothing CUDA works in this process again: say what happened and end it; the shell
            // starts a new worker with the state it kept (sent after every frame).
            try {
                channel.send(supervise::encode(*lost));
            } catch (const proc::ChannelError&) {
            }
            std::fflush(stderr);
            std::_Exit(kExitFault);
        }
        if (trace)
            step("frame " + std::to_string(frameCount) + " rendered");
        supervise::FrameDone done;
        gl::Fence written; // GL's writing of a frame in GPU memory
        if (request->checksum) {
            std::vector<std::uint8_t> pixels(std::size_t(session.width()) * session.height() * 4);
            session.readPixelsBottomUp(pixels.data());
            done.sha256 = Sha256::hex(
                Sha256::of(std::string_view(reinterpret_cast<const char*>(pixels.data()), pixels.size())));
        }
        std::string inPlaceFailed; // the frame is in its slot but cannot be announced from there
        if (inPlaceSlot >= 0) {
            try {
                written = gl::Fence::insert(); // and flushed: GL starts on the frame now
                done.slot = inPlaceSlot;
                done.gpu = true;
            } catch (const Error& e) {
                inPlaceFailed = e.what();
            }
        } else if (gpuFrames.on()) {
            try {
                const std::size_t bytes = std::size_t(session.width()) * session.height() * 4;
                const auto [buffer, gpuSlot] = gpuFrames.next(bytes, channel, [&] { sendWritten(true); });
                session.readPixelsInto(buffer);
                written = gl::Fence::insert(); // and flushed: GL starts on the frame now
                done.slot = gpuSlot;
                done.gpu = true;
            } catch (const Error& e) {
                gpuFrames.off(e.what());
            } catch (const proc::ChannelError&) {
                return 0;
            }
        }
        if (!done.gpu) {
            session.readPixelsBottomUp(static_cast<std::uint8_t*>(frames.data()) + std::size_t(slot) * slotBytes);
            done.slot = slot;
            slot ^= 1;
        }
        if (!inPlaceFailed.empty()) { // read from its slot above; CPU memory from now on
            session.renderTarget(nullptr);
            gpuFrames.off(inPlaceFailed);
        }
        if (trace)
            step("frame " + std::to_string(frameCount) + " read");
        done.width = session.width();
        done.height = session.height();
        done.appFrame = frameCount;
        done.workerMs = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        done.interopUs = app.lastInteropUs();
        done.status = app.statusLine();
        done.kernelBuild = app.kernelBuilds();
        // The state first: when this frame is on screen, the shell holds what it needs to restore it.
        // What the user changes comes with input (typing, dragging, resizing), and those frames always
        // send it; otherwise (builds landing, files reloaded, the frame count going on) it is sent at
        // most every 100 ms: taking and sending it every frame cost the steady loop measurably more.
        const bool input = !request->input.empty() || request->clipboard || session.width() != lastWidth ||
                           session.height() != lastHeight;
        lastWidth = session.width();
        lastHeight = session.height();
        std::optional<supervise::StateUpdate> update;
        std::string text;
        const bool keptChanged = (app.keptContents() ? app.keptContents()->id() : 0) != keptId; // a new project
        if (input || keptChanged || Clock::now() - lastStateAt >= std::chrono::milliseconds(100)) {
            update = supervise::StateUpdate{app.snapshot()};
            // Text the user typed need not be UTF-8: replaced, not a throw (as the channel sends it).
            text = nlohmann::json(update->state).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            lastStateAt = Clock::now();
            if (trace)
                step("frame " + std::to_string(frameCount) + " state taken");
        }
        try {
            if (update)
                sendKeptMemory(channel, app, update->state.projectPath, keptId);
            if (update && text != lastState) {
                channel.send(supervise::encode(*update));
                lastState = std::move(text);
            }
            if (done.gpu) {
                pending.push_back({std::move(written), std::move(done)});
            } else {
                channel.send(supervise::encode(done));
            }
        } catch (const proc::ChannelError&) {
            return 0;
        }
        if (const std::optional<supervise::FaultNotice>& restart = app.restartRequest()) {
            // A setting only a new CUDA context takes: the state that holds it, then why, then end.
            try {
                channel.send(supervise::encode(supervise::StateUpdate{app.snapshot()}));
                channel.send(supervise::encode(*restart));
            } catch (const proc::ChannelError&) {
            }
            std::fflush(stdout);
            std::fflush(stderr);
            std::_Exit(kExitRestart);
        }
    }
}

} // namespace ks::app
