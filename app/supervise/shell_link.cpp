#include "supervise/shell_link.hpp"

#include "cli/options.hpp"

#include "ks/core/log.hpp"

#include <algorithm>
#include <cstdio>
#include <thread>

namespace ks::app {

namespace {

double msSince(ShellLink::Clock::time_point t)
{
    return std::chrono::duration<double, std::milli>(ShellLink::Clock::now() - t).count();
}

std::string seconds(double ms)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f s", ms / 1000.0);
    return text;
}

std::string stageText(const std::string& stage, const std::string& kernel, const std::string& file)
{
    if (stage.empty())
        return "";
    return "stage \"" + stage + "\"" +
           (kernel.empty() ? std::string() : " (kernel " + kernel + " in " + std::filesystem::path(file).filename().string() + ")");
}

} // namespace

std::filesystem::path workerExecutable()
{
    std::error_code ec;
    std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path("kernelscope") : self;
}

ShellLink::ShellLink(Config config) : m_config(std::move(config))
{
    start();
}

ShellLink::Config ShellLink::windowConfig(const AppOptions& options, std::filesystem::path executable)
{
    Config c;
    c.executable = std::move(executable);
    // --record and --record-every go to the first worker alone: one recording per run, which a
    // new GPU process does not start again over the file the first one finished. So does --tour: a
    // replacing GPU process does not open the tour again.
    for (std::size_t i = 0; i < options.rawArgs.size(); ++i) {
        const std::string& a = options.rawArgs[i];
        const bool record = a == "--record" || a == "--record-every";
        if (record || a.rfind("--record=", 0) == 0 || a.rfind("--record-every=", 0) == 0 || a == "--tour" ||
            a.rfind("--tour=", 0) == 0) {
            c.firstArgs.push_back(a);
            if (record && i + 1 < options.rawArgs.size())
                c.firstArgs.push_back(options.rawArgs[++i]);
        } else {
            c.args.push_back(a);
        }
    }
    const bool scaleGiven = std::any_of(options.rawArgs.begin(), options.rawArgs.end(),
                                        [](const std::string& a) { return a.rfind("--ui-scale", 0) == 0; });
    if (options.uiScale > 0 && !scaleGiven) // the window's monitor's, which the worker cannot ask
        c.args.insert(c.args.end(), {"--ui-scale", std::to_string(options.uiScale)});
    c.args.insert(c.args.end(), {"--worker", "window"});
    c.frameLimitMs = options.frameLimit * 1000.0;
    return c;
}

ShellLink::~ShellLink()
{
    quit();
}

void ShellLink::start()
{
    auto [mine, theirs] = proc::Channel::pair();
    proc::SpawnSpec spec;
    spec.executable = m_config.executable;
    spec.args = m_config.args;
    if (m_starts++ == 0)
        spec.args.insert(spec.args.end(), m_config.firstArgs.begin(), m_config.firstArgs.end());
    spec.channelFd = theirs.fd();
    m_process = proc::ChildProcess::spawn(spec);
    m_channel = std::move(mine); // `theirs` closes here: the child has its own copy
    m_hello.reset();
    m_heartbeat.reset();
    m_notice.reset();
    m_requests.clear();
    m_gpuFrames.reset();
    m_framed = false;
    m_waitUntilMs = 0;
    m_startedAt = m_lastMessage = Clock::now();
    m_dialog = Dialog::Starting;
    m_dialogText = m_restarts == 0 ? "Starting the GPU process..."
                                   : "Replacing the GPU process: " + (m_history.empty() ? std::string() : m_history.back().summary);
}

bool ShellLink::readyForFrame() const noexcept
{
    // More than two in flight would need more slots than the frame memories have (protocol.hpp).
    return m_hello && int(m_requests.size()) < std::clamp(m_config.framesInFlight, 1, 2) && m_dialog != Dialog::GaveUp;
}

bool ShellLink::send(const nlohmann::json& body, const std::vector<int>& fds)
{
    try {
        m_channel.send(body, fds);
        return true;
    } catch (const proc::ChannelError& e) {
        died(std::string("closed the connection (") + e.what() + ")");
        return false;
    }
}

void ShellLink::requestFrame(const supervise::FrameRequest& request)
{
    if (send(supervise::encode(request)))
        m_requests.push_back(Clock::now());
}

void ShellLink::handle(proc::Message& message, std::optional<Frame>& frame)
{
    const std::string type = message.type();
    std::string error;
    auto malformed = [&] { died("sent a malformed message: " + error); };
    if (type == supervise::Hello::kType) {
        auto hello = supervise::decode<supervise::Hello>(message.body, &error);
        if (!hello || message.fds.size() != 1 || hello->frameBytes < 2 * hello->slotBytes) {
            if (error.empty())
                error = "a \"hello\" message without its frame memory";
            return malformed();
        }
        try {
            m_frames = proc::SharedMemory::adopt(std::move(message.fds[0]), hello->frameBytes);
        } catch (const proc::ChannelError& e) {
            error = e.what();
            return malformed();
        }
        m_hello = std::move(*hello);
        if (m_config.shellGl && !send(supervise::encode(*m_config.shellGl)))
            return;
        if (m_pendingRestore) {
            if (!send(supervise::encode(*m_pendingRestore),
                      m_pendingRestore->kept ? proc::descriptors(m_keptFds) : std::vector<int>()))
                return;
            m_pendingRestore.reset();
        }
        if (m_dialog == Dialog::Starting && m_restarts == 0)
            m_dialog = Dialog::None;
        m_status = m_hello->device;
    } else if (type == supervise::Heartbeat::kType) {
        if (auto hb = supervise::decode<supervise::Heartbeat>(message.body, &error))
            m_heartbeat = std::move(*hb);
        else
            return malformed();
    } else if (type == supervise::StateUpdate::kType) {
        if (auto s = supervise::decode<supervise::StateUpdate>(message.body, &error)) {
            m_kept = std::move(s->state);
            m_haveKept = true;
            if (m_kept.frameLimit >= 0) // the user changed it in the editor's options
                m_config.frameLimitMs = m_kept.frameLimit * 1000.0;
        } else
            return malformed();
    } else if (type == supervise::FaultNotice::kType) {
        if (auto n = supervise::decode<supervise::FaultNotice>(message.body, &error))
            m_notice = std::move(*n);
        else
            return malformed();
    } else if (type == supervise::KeptMemory::kType) {
        auto k = supervise::decode<supervise::KeptMemory>(message.body, &error);
        if (!k)
            return malformed();
        const std::size_t slots = k->layout.slotBytes > 0 ? 2 : 0;
        if (message.fds.size() != slots) {
            error = "a \"kept-memory\" message carries " + std::to_string(message.fds.size()) +
                    " descriptors where it needs " + std::to_string(slots);
            return malformed();
        }
        // The previous worker's slots are let go only now: a worker that dies before saying where
        // it keeps its own leaves the last ones to restore from.
        m_keptFds = std::move(message.fds);
        m_keptMemory = slots ? std::optional<supervise::KeptMemory>(std::move(*k)) : std::nullopt;
    } else if (type == supervise::FrameMemory::kType) {
        auto fm = supervise::decode<supervise::FrameMemory>(message.body, &error);
        if (!fm)
            return malformed();
        const std::size_t fds = std::size_t(supervise::kGpuFrameSlots) + (fm->width > 0 ? 1 : 0);
        if (message.fds.size() != fds || fm->slotBytes == 0 || (fm->width > 0 && fm->probeBytes == 0)) {
            error = "a \"frame-memory\" message with " + std::to_string(message.fds.size()) +
                    " descriptors and slots of " + std::to_string(fm->slotBytes) + " bytes";
            return malformed();
        }
        if (fm->width < 0 || fm->height < 0 || (fm->width > 0) != (fm->height > 0)) {
            error = "a \"frame-memory\" message for frames of " + std::to_string(fm->width) + "x" +
                    std::to_string(fm->height);
            return malformed();
        }
        // Else sent before the worker heard that this shell cannot read it.
        if (!m_gpuRefused && !(fm->width > 0 && m_texturesRefused))
            m_gpuFrames = GpuFrameMemory{++m_gpuSerial, fm->slotBytes, std::move(message.fds), fm->width, fm->height,
                                         fm->probeBytes};
    } else if (type == supervise::ClipboardSet::kType) {
        if (auto c = supervise::decode<supervise::ClipboardSet>(message.body, &error))
            m_clipboard = std::move(c->text);
        else
            return malformed();
    } else if (type == supervise::FrameDone::kType) {
        auto done = supervise::decode<supervise::FrameDone>(message.body, &error);
        if (!done)
            return malformed();
        const std::uint64_t bytes = std::uint64_t(std::max(0, done->width)) * std::uint64_t(std::max(0, done->height)) * 4;
        // A frame in GPU memory sent before the worker heard that this shell cannot read it is taken
        // off the requests and not shown; one in GPU memory never announced is malformed.
        const bool dropped = done->gpu && (m_gpuRefused || m_texturesRefused) && !m_gpuFrames;
        std::uint64_t slotBytes = m_hello->slotBytes;
        if (done->gpu)
            slotBytes = dropped ? bytes : m_gpuFrames ? m_gpuFrames->slotBytes : 0;
        const bool sizeDiffers = done->gpu && !dropped && m_gpuFrames && m_gpuFrames->width > 0 &&
                                 (done->width != m_gpuFrames->width || done->height != m_gpuFrames->height);
        if (done->slot < 0 || done->slot >= (done->gpu ? supervise::kGpuFrameSlots : 2) || done->width <= 0 ||
            done->height <= 0 || bytes > slotBytes || sizeDiffers) {
            error = "a frame outside its frame memory";
            return malformed();
        }
        if (!m_requests.empty())
            m_requests.pop_front();
        if (dropped)
            return; // sent before the worker heard that this shell cannot read it
        m_framed = true;
        m_failedStarts = 0;
        m_waitUntilMs = 0;
        if (m_dialog == Dialog::Starting || m_dialog == Dialog::FrameTooLong)
            m_dialog = Dialog::None;
        m_status = done->status;
        Frame f;
        f.width = done->width;
        f.height = done->height;
        if (done->gpu)
            f.gpuMemory = m_gpuFrames->serial;
        else
            f.pixels = static_cast<const std::uint8_t*>(m_frames.data()) + std::size_t(done->slot) * m_hello->slotBytes;
        f.slot = done->slot;
        f.sha256 = std::move(done->sha256);
        f.appFrame = done->appFrame;
        f.workerMs = done->workerMs;
        f.interopUs = done->interopUs;
        f.kernelBuild = done->kernelBuild;
        frame = std::move(f);
    }
    // Other types: a newer worker's messages this shell does not know, ignored.
}

std::optional<ShellLink::Frame> ShellLink::pump(std::chrono::milliseconds timeout)
{
    std::optional<Frame> frame;
    if (m_dialog == Dialog::GaveUp)
        return frame;
    const auto until = Clock::now() + timeout;
    while (!frame && m_process.started()) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
        std::optional<proc::Message> message;
        try {
            message = m_channel.receive(std::max(std::chrono::milliseconds(0), std::min(left, std::chrono::milliseconds(20))));
        } catch (const proc::ChannelError& e) {
            const bool closed = e.kind() == proc::ChannelError::Kind::Closed;
            died(closed ? std::string("closed the connection") : std::string("sent a broken message: ") + e.what());
            break;
        }
        if (message) {
            m_lastMessage = Clock::now();
            handle(*message, frame);
            continue;
        }
        if (std::optional<proc::ExitStatus> status = m_process.poll()) {
            died(status->describe());
            break;
        }
        if (!m_hello && msSince(m_startedAt) > m_config.startLimitMs) {
            died("did not start within " + seconds(m_config.startLimitMs));
            break;
        }
        if (m_hello && msSince(m_lastMessage) > m_config.silenceLimitMs) {
            died("stopped answering for " + seconds(m_config.silenceLimitMs));
            break;
        }
        // A frame past the limit: the heartbeat says where the GPU is; the user decides.
        if (!m_requests.empty() && m_config.frameLimitMs > 0 && m_dialog != Dialog::FrameTooLong) {
            const double running = frameRunningMs();
            if (running > m_config.frameLimitMs && running > m_waitUntilMs) {
                m_dialog = Dialog::FrameTooLong;
            }
        }
        if (Clock::now() >= until)
            break;
    }
    return frame;
}

std::string ShellLink::dialogText() const
{
    if (m_dialog != Dialog::FrameTooLong)
        return m_dialogText;
    const double running = frameRunningMs();
    std::string text = "The frame has run for " + seconds(running) + ", past the frame limit of " +
                       seconds(m_config.frameLimitMs) + ".";
    if (m_heartbeat && !m_heartbeat->stage.empty())
        text += " Still running: " + stageText(m_heartbeat->stage, m_heartbeat->kernel, m_heartbeat->file) +
                " in frame " + std::to_string(m_heartbeat->pipelineFrame) + ".";
    text += "\nWait, or stop it: the GPU process is replaced and your work (editor text, tabs, project, camera, "
            "layout) comes back, paused.";
    return text;
}

double ShellLink::frameRunningMs() const
{
    // The oldest frame not yet shown; with two in flight it waited for the one before it too, so the
    // heartbeat's time on the GPU's current frame, where known, is the better measure.
    const double requested = m_requests.empty() ? 0.0 : msSince(m_requests.front());
    return std::max(m_heartbeat ? m_heartbeat->gpuFrameMs : 0.0, requested);
}

void ShellLink::refuseGpuFrames(const std::string& why)
{
    log::warning("frames come through CPU memory: " + why);
    m_config.shellGl.reset();
    m_gpuFrames.reset();
    m_gpuRefused = true;
    if (!m_hello)
        return;
    supervise::ShellGl refused;
    refused.refused = why;
    send(supervise::encode(refused));
}

void ShellLink::refuseGpuTextures(const std::string& why)
{
    log::warning("frames are copied into GPU memory rather than rendered there: " + why);
    if (m_config.shellGl)
        m_config.shellGl->textures = false;
    m_gpuFrames.reset();
    m_texturesRefused = true;
    if (!m_hello)
        return;
    supervise::ShellGl refused = m_config.shellGl.value_or(supervise::ShellGl{});
    refused.refusedTextures = why;
    send(supervise::encode(refused));
}

void ShellLink::wait()
{
    if (m_dialog != Dialog::FrameTooLong)
        return;
    const double running = frameRunningMs();
    m_waitUntilMs = running + std::max(0.0, m_config.frameLimitMs);
    m_dialog = Dialog::None;
}

void ShellLink::stopAndRestore()
{
    supervise::FaultNotice n;
    n.kind = "time limit";
    const double running = frameRunningMs();
    if (m_heartbeat) {
        n.frame = m_heartbeat->pipelineFrame;
        n.stage = m_heartbeat->stage;
        n.kernel = m_heartbeat->kernel;
        n.file = m_heartbeat->file;
    }
    n.error = "stopped after " + seconds(running) + " (frame limit " + seconds(m_config.frameLimitMs) + ")";
    const std::string where = stageText(n.stage, n.kernel, n.file);
    n.summary = (n.frame >= 0 ? "frame " + std::to_string(n.frame) + ": " : std::string()) +
                (where.empty() ? "a frame" : where) + " ran past the frame limit and was stopped";
    m_process.kill();
    replace(std::move(n));
}

void ShellLink::died(const std::string& how)
{
    // A worker that closed the connection is usually on its way out: give it a moment to end by
    // itself, so its own exit status is what is reported; one that is silent or broken is killed.
    std::optional<proc::ExitStatus> ended;
    if (how.rfind("closed the connection", 0) == 0)
        ended = m_process.wait(std::chrono::milliseconds(500));
    const proc::ExitStatus status = ended ? *ended : m_process.kill(); // reaps it
    supervise::FaultNotice n;
    if (m_notice) {
        n = *m_notice; // its own account: the sticky error, with frame, stage and kernel
    } else {
        n.kind = how.rfind("stopped answering", 0) == 0 ? "not answering" : "crash";
        n.error = "the GPU process " + how + (how.find("signal") == std::string::npos && how.find("status") == std::string::npos
                                                   ? " (" + status.describe() + ")"
                                                   : std::string());
        n.summary = n.error;
    }
    if (n.kind == "restart")
        log::info("replacing the GPU process: " + n.summary);
    else
        log::warning(n.summary);
    if (!m_framed && ++m_failedStarts >= m_config.maxFailedStarts) {
        m_history.push_back(n);
        m_hello.reset();
        m_channel = proc::Channel();
        m_dialog = Dialog::GaveUp;
        m_dialogText = "The GPU process ended " + std::to_string(m_failedStarts) +
                       " times in a row before showing a frame. The last time: " + n.summary +
                       ". Its messages are in the terminal. Kernelscope can still run without a separate GPU "
                       "process: start it with --no-supervise.";
        m_status = n.summary;
        return;
    }
    replace(std::move(n));
}

void ShellLink::replace(supervise::FaultNotice notice)
{
    m_history.push_back(notice);
    ++m_restarts;
    supervise::Restore r;
    r.state = m_kept;
    r.fault = std::move(notice);
    r.kept = m_keptMemory;
    m_pendingRestore = m_haveKept || r.fault ? std::optional<supervise::Restore>(std::move(r)) : std::nullopt;
    start();
}

void ShellLink::retry()
{
    if (m_dialog != Dialog::GaveUp)
        return;
    m_failedStarts = 0;
    start();
}

void ShellLink::quit()
{
    if (!m_process.started() || m_process.poll())
        return;
    try {
        m_channel.send(supervise::encode(supervise::Quit{}));
    } catch (const proc::ChannelError&) {
    }
    if (!m_process.wait(std::chrono::seconds(2)))
        m_process.kill();
}

std::string ShellLink::takeClipboard()
{
    return std::exchange(m_clipboard, std::string());
}

} // namespace ks::app
