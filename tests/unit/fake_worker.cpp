// A stand-in for the app's GPU worker, for the supervision tests (test_supervise_shell_link.cpp): the unit
// test executable runs it when started as `ks_unit_tests --fake-worker MODE N`. It speaks the real
// protocol (ks/proc channel, app/supervise/protocol.hpp) and misbehaves as MODE says after N
// frames, so the shell's handling of each way a worker can end is tested without a GPU.
//
//   good       answers every frame
//   exit       exits with status 5
//   kill       kills itself (SIGKILL), as the kernel's OOM killer would
//   silent     stops sending anything (no frames, no heartbeats) and sleeps
//   truncated  sends half a message and exits
//   garbage    sends bytes without the protocol's magic
//   notjson    sends a well-framed body that is not JSON
//   badfield   sends a "frame-done" whose width is a string
//   fault      sends a fault notice (as the worker does after a sticky CUDA error) and exits 3
//   restart    asks to be replaced, as the worker does for a printf buffer its context can no longer
//              take: its state (with an 8 MiB printf buffer chosen), a notice of kind "restart",
//              exit status 5; restored with that buffer, it answers every frame
//   slow       starts the frame and never finishes it, heartbeating (a kernel that never ends)
//   limitoff   as slow, after saying (in its state) that the user set the frame limit to 0: off
//   nohello    exits with status 7 before saying hello
//   kept       says where it keeps resource contents (two memfds standing for CUDA's exported
//              memory, holding "slot 0 of PID" and "slot 1 of PID"), then kills itself
//   keptbad    says so, after N frames, with one descriptor where two belong
//   gpuframes  answers a "shell-gl" by sending "frame-memory" (three memfds standing for the GPU
//              memory both GL contexts import) and frames with `gpu` set, each slot's memory
//              holding the frame's number; after a refusal, frames in the CPU memory again. It
//              echoes each "shell-gl" as a clipboard message "shell-gl <driver>|<refused>".
//   badframemem  as gpuframes, but its "frame-memory" carries two descriptors
//   inplace    as gpuframes, for a shell that takes frames rendered in place: its "frame-memory"
//              has the frames' size and a fourth memfd (the probe's); after "shell-gl" with `refusedTextures`, frame memory without
//              a size (frames read into buffers). It echoes "shell-gl <driver>|<refused>|<textures
//              0 or 1>|<refusedTextures>".
//   inplacebadsize  as inplace, but its frames are not the size its "frame-memory" says
//
// After a Restore it sends a ClipboardSet "restored <fault kind>|<summary>|<projectPath>", which the
// tests read back through ShellLink::takeClipboard(); with a printf buffer chosen in the state it
// adds "|printf <bytes>"; with kept memory it adds "|kept <slotBytes>
// <entry names>|<the text at the start of each descriptor's memory>". Every frame's pixels are the
// frame's number.
#include "fake_worker.hpp"

#include "supervise/protocol.hpp"

#include "ks/proc/child_process.hpp"
#include "ks/proc/shared_memory.hpp"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <unistd.h>

namespace ks::test {

namespace sv = ks::app::supervise;

int runFakeWorker(std::string mode, int framesBeforeTrouble)
{
    std::optional<proc::Channel> channel = proc::inheritedChannel();
    if (!channel)
        return 2;
    // Statuses are exited with at once, the channel still open: returning would close it first, and a
    // shell that sees the channel close may kill the process before it exits (status or signal is
    // then a race, which the tests must not depend on).
    if (mode == "nohello")
        std::_Exit(7);
    constexpr int kSide = 16;
    constexpr std::uint64_t kSlot = kSide * kSide * 4;
    proc::SharedMemory frames = proc::SharedMemory::create("ks-fake-frames", 2 * kSlot);
    sv::Hello hello;
    hello.pid = int(::getpid());
    hello.frameBytes = 2 * kSlot;
    hello.slotBytes = kSlot;
    hello.device = "fake worker (" + mode + ")";
    channel->send(sv::encode(hello), {frames.fd()});

    // Two memfds standing for the kept slots; "kept" says where they are at once.
    std::vector<proc::SharedMemory> slots;
    sv::KeptMemory kept;
    if (mode == "kept" || mode == "keptbad") {
        for (int k = 0; k < 2; ++k) {
            slots.push_back(proc::SharedMemory::create("ks-fake-kept", 4096));
            const std::string text = "slot " + std::to_string(k) + " of " + std::to_string(::getpid());
            std::memcpy(slots.back().data(), text.c_str(), text.size() + 1);
        }
        kept.projectPath = "fake.json";
        kept.layout = {4096, {{"positions", 256, 1024}, {"image", 1280, 2048}}};
        if (mode == "kept")
            channel->send(sv::encode(kept), {slots[0].fd(), slots[1].fd()});
    }

    std::vector<proc::SharedMemory> gpuSlots; // the "GPU" frame memory, while the shell takes it
    int served = 0;
    for (;;) {
        std::optional<proc::Message> m = channel->receive(std::chrono::milliseconds(50));
        if (!m)
            continue;
        const std::string type = m->type();
        if (type == sv::Quit::kType)
            return 0;
        if (type == sv::Restore::kType) {
            auto r = sv::decode<sv::Restore>(m->body);
            sv::ClipboardSet c;
            c.text = "restored " + (r && r->fault ? r->fault->kind + "|" + r->fault->summary : std::string("-|-")) + "|" +
                     (r ? r->state.projectPath : std::string());
            if (r && r->state.ui.editor.printfBuffer) {
                c.text += "|printf " + std::to_string(r->state.ui.editor.printfBuffer);
                if (mode == "restart")
                    mode = "good"; // the new process set the size before its first kernel: no more asking
            }
            if (r && r->kept) {
                c.text += "|kept " + std::to_string(r->kept->layout.slotBytes);
                for (const ks::pipeline::KeptEntry& e : r->kept->layout.entries)
                    c.text += " " + e.name;
                c.text += "|";
                for (proc::UniqueFd& fd : m->fds) {
                    const proc::SharedMemory slot = proc::SharedMemory::adopt(std::move(fd));
                    c.text += std::string(static_cast<const char*>(slot.data())) + ";";
                }
            }
            channel->send(sv::encode(c));
            continue;
        }
        if (type == sv::ShellGl::kType) {
            auto g = sv::decode<sv::ShellGl>(m->body);
            const bool inPlace = mode == "inplace" || mode == "inplacebadsize";
            std::string heard = "shell-gl " + (g ? g->driver + "|" + g->refused : "?");
            if (g && inPlace)
                heard += "|" + std::to_string(int(g->textures)) + "|" + g->refusedTextures;
            channel->send(sv::encode(sv::ClipboardSet{heard}));
            gpuSlots.clear();
            if (g && g->refused.empty() && (mode == "gpuframes" || mode == "badframemem" || inPlace)) {
                std::vector<int> fds;
                for (int k = 0; k < sv::kGpuFrameSlots; ++k) {
                    gpuSlots.push_back(proc::SharedMemory::create("ks-fake-gpu-frames", kSlot));
                    fds.push_back(gpuSlots.back().fd());
                }
                if (mode == "badframemem")
                    fds.pop_back();
                sv::FrameMemory memory{kSlot};
                if (inPlace && g->textures && g->refusedTextures.empty()) {
                    memory.width = memory.height = mode == "inplacebadsize" ? kSide / 2 : kSide;
                    gpuSlots.push_back(proc::SharedMemory::create("ks-fake-probe", kSlot)); // stands for the probe
                    fds.push_back(gpuSlots.back().fd());
                    memory.probeBytes = kSlot;
                }
                channel->send(sv::encode(memory), fds);
            }
            continue;
        }
        if (type != sv::FrameRequest::kType)
            continue;
        if (served >= framesBeforeTrouble && mode != "good") {
            if (mode == "exit")
                std::_Exit(5);
            if (mode == "kill" || mode == "kept")
                ::raise(SIGKILL);
            if (mode == "silent")
                for (;;)
                    std::this_thread::sleep_for(std::chrono::seconds(1));
            if (mode == "truncated") {
                const unsigned char header[12] = {'K', 'S', 'M', '1', 100, 0, 0, 0, 0, 0, 0, 0};
                proc::sendRaw(channel->fd(), header, sizeof header);
                proc::sendRaw(channel->fd(), "{\"type\":", 8);
                return 0;
            }
            if (mode == "garbage") {
                proc::sendRaw(channel->fd(), "HELLO WORLD, NOT A MESSAGE", 26);
                for (;;)
                    std::this_thread::sleep_for(std::chrono::seconds(1));
            }
            if (mode == "notjson") {
                const char body[] = "{frame: done";
                unsigned char header[12] = {'K', 'S', 'M', '1', sizeof body - 1, 0, 0, 0, 0, 0, 0, 0};
                proc::sendRaw(channel->fd(), header, sizeof header);
                proc::sendRaw(channel->fd(), body, sizeof body - 1);
                for (;;)
                    std::this_thread::sleep_for(std::chrono::seconds(1));
            }
            if (mode == "keptbad") {
                channel->send(sv::encode(kept), {slots[0].fd()});
                for (;;)
                    std::this_thread::sleep_for(std::chrono::seconds(1));
            }
            if (mode == "badfield") {
                channel->send({{"type", "frame-done"}, {"slot", 0}, {"width", "wide"}, {"height", 4}});
                for (;;)
                    std::this_thread::sleep_for(std::chrono::seconds(1));
            }
            if (mode == "fault") {
                sv::FaultNotice n;
                n.kind = "fault";
                n.frame = served;
                n.stage = "scatter";
                n.kernel = "scatter_points";
                n.file = "kernels/scatter.cu";
                n.error = "cuEventSynchronize CUDA_ERROR_ILLEGAL_ADDRESS (700): an illegal memory access was encountered";
                n.summary = "frame " + std::to_string(served) + ": stage \"scatter\" faulted";
                channel->send(sv::encode(n));
                std::_Exit(3);
            }
            if (mode == "restart") {
                sv::StateUpdate update;
                update.state.projectPath = "printing.json";
                update.state.ui.editor.printfBuffer = std::uint64_t(8) << 20;
                channel->send(sv::encode(update));
                sv::FaultNotice n;
                n.kind = "restart";
                n.summary = "a printf buffer of 8.00 MiB takes a new GPU process";
                channel->send(sv::encode(n));
                std::_Exit(5); // kExitRestart
            }
            if (mode == "slow" || mode == "limitoff") {
                const auto began = std::chrono::steady_clock::now();
                for (;;) {
                    sv::Heartbeat hb;
                    hb.busy = true;
                    hb.pipelineFrame = served;
                    hb.gpuFrameMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
                    hb.busyMs = hb.gpuFrameMs;
                    hb.stage = "spin";
                    hb.kernel = "spin_forever";
                    hb.file = "kernels/spin.cu";
                    channel->send(sv::encode(hb));
                    std::this_thread::sleep_for(std::chrono::milliseconds(20));
                }
            }
        }
        auto request = sv::decode<sv::FrameRequest>(m->body);
        const int slot = served % (gpuSlots.empty() ? 2 : sv::kGpuFrameSlots);
        if (gpuSlots.empty())
            std::memset(static_cast<char*>(frames.data()) + slot * kSlot, served & 0xff, kSlot);
        else
            std::memset(gpuSlots[std::size_t(slot)].data(), served & 0xff, kSlot);
        if (mode == "limitoff") {
            sv::StateUpdate update;
            update.state.frameLimit = 0;
            channel->send(sv::encode(update));
        }
        sv::FrameDone done;
        done.slot = slot;
        done.gpu = !gpuSlots.empty();
        done.width = kSide;
        done.height = kSide;
        done.appFrame = served;
        done.status = "fake frame " + std::to_string(served) + (request ? " of " + std::to_string(request->width) : "");
        channel->send(sv::encode(done));
        ++served;
    }
}

} // namespace ks::test
