// Device printf in the Console panel. CUDA's driver writes a kernel's printf output to the
// process's standard output when it flushes its printf buffer: at the next launch, at a
// synchronisation, at a module load. A window's GPU process captures its standard output
// (proc::OutputCapture) and reads it after each stage: a kernel stage whose running build calls
// printf (Stage::printsFromDevice) is waited for first, so that its lines are in and can be named
// by frame and stage. What comes between stages (a kernel not waited for) is shown with its frame
// alone. A headless run of the whole app captures too; a headless project run does not: the output
// goes to standard output as it always did.
#include "app.hpp"

#include "ks/core/error.hpp"
#include "ks/core/log.hpp"
#include "ks/cuda/context.hpp"
#include "ks/pipeline/pipeline.hpp"
#include "ks/proc/output_capture.hpp"

#include <string_view>

namespace ks::app {

void ConsoleState::add(std::int64_t frame, const std::string& stage, std::string_view text)
{
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        if (end == std::string_view::npos) {
            partial.append(text);
            if (partial.size() > 4096) { // a line that never ends is shown in pieces
                lines.push_back({frame, stage, std::move(partial)});
                partial.clear();
            }
            break;
        }
        partial.append(text.substr(0, end));
        lines.push_back({frame, stage, std::move(partial)});
        partial.clear();
        text.remove_prefix(end + 1);
    }
    while (lines.size() > kMaxLines) {
        lines.pop_front();
        ++dropped;
    }
}

void App::startDeviceOutput()
{
    ConsoleState& c = m_state.console;
    if (m_state.cuda) {
        try {
            c.printfBuffer = cuda::contextLimit(cuda::ContextLimit::PrintfFifoSize);
            m_state.editor.driverPrintfBuffer = c.printfBuffer;
        } catch (const Error& e) {
            log::warning(std::string("device printf's buffer: ") + e.what());
        }
    }
    if (m_options.printfBuffer > 0)
        setPrintfBuffer(m_options.printfBuffer);
    if (!m_options.captureDeviceOutput)
        return;
    try {
        m_deviceOutput = std::make_unique<proc::OutputCapture>(1);
        c.capturing = true;
    } catch (const Error& e) {
        log::warning(std::string("device printf goes to standard output only: ") + e.what());
    }
}

void App::setPrintfBuffer(std::size_t bytes)
{
    ConsoleState& c = m_state.console;
    m_state.editor.printfBuffer = bytes;
    c.bufferNote.clear();
    if (!m_state.cuda || bytes == c.printfBuffer)
        return;
    try {
        cuda::setContextLimit(cuda::ContextLimit::PrintfFifoSize, bytes);
        c.printfBuffer = cuda::contextLimit(cuda::ContextLimit::PrintfFifoSize);
        return;
    } catch (const Error& e) {
        // The driver takes a new size only until a kernel that prints has run in the context. A
        // refusal before any has (a size the driver will not take) is not helped by a new process:
        // asking for one then would replace process after process.
        if (m_options.workerMode == "window" && m_printfKernelRan) {
            supervise::FaultNotice n;
            n.kind = "restart";
            n.summary = "giving device printf a " + cuda::formatBytes(bytes) + " buffer (the driver takes a new size "
                        "only in a new CUDA context once a kernel that prints has run)";
            m_restartRequest = std::move(n);
            c.bufferNote = cuda::formatBytes(bytes) + " from the next frame on (a new GPU process)";
        } else {
            c.bufferNote = cuda::formatBytes(bytes) +
                           (m_printfKernelRan ? " at the next start (the driver keeps the size once a kernel that "
                                                "prints has run): "
                                              : " refused by the driver: ") +
                           e.what();
            log::warning("device printf's buffer: " + c.bufferNote);
        }
    }
}

void App::takeDeviceOutput(std::int64_t frame, std::optional<std::size_t> stage)
{
    if (!m_deviceOutput)
        return;
    std::string stageName;
    if (stage && m_state.project.session) {
        const pipeline::Stage& st = m_state.project.session->pipeline().stage(*stage);
        if (!st.printsFromDevice())
            return; // its output, if any, comes with the next read
        m_printfKernelRan = true;
        // The stages run on the app's stream (PipelineOptions::stream); waiting flushes the buffer.
        m_state.stream.synchronize();
        stageName = st.desc().name;
    }
    proc::OutputCapture::Drained d = m_deviceOutput->drain();
    ConsoleState& c = m_state.console;
    if (d.droppedBytes > 0)
        c.add(frame, stageName, "[" + std::to_string(d.droppedBytes) + " bytes of output dropped: more than the console keeps]\n");
    c.add(frame, stageName, d.text);
}

} // namespace ks::app
