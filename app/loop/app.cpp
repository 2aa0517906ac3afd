#include "app.hpp"
#include "ks/proc/output_capture.hpp" // App owns one (m_deviceOutput)

#include "cli/kernel_project.hpp"
#include "ks/core/error.hpp"
#include "panels/panels.hpp"
#include "loop/teach_support.hpp"

#include <algorithm>
#include <filesystem>

namespace ks::app {

void LogBuffer::add(log::Level level, std::string_view text)
{
    std::lock_guard lock(mutex);
    if (lines.size() == 500)
        lines.pop_front();
    lines.push_back({level, std::string(text)});
}

App::App(const AppOptions& options, std::filesystem::path dataRoot, std::string glDescription, UiFonts fonts)
    : m_options(options), m_startPaused(options.paused), m_fonts(fonts)
{
    AppState& s = m_state;
    m_previousSink = log::setSink([this](log::Level level, std::string_view text) {
        m_state.log.add(level, text);
        if (level >= log::Level::Warning)
            std::fprintf(stderr, "kernelscope %s: %.*s\n", std::string(log::levelName(level)).c_str(),
                         int(text.size()), text.data());
    });
    s.dataRoot = std::move(dataRoot);
    s.glDescription = std::move(glDescription);
    s.glInfo = gl::contextInfo();
    s.system = cuda::querySystem();

    // The compile target when no device is there to ask: --arch, else Hopper.
    std::string arch = options.check.arch.empty() ? std::string("sm_90") : options.check.arch;
    if (s.system.cudaAvailable) {
        if (options.device >= int(s.system.devices.size())) {
            log::error("--device " + std::to_string(options.device) + " does not exist; there are " +
                       std::to_string(s.system.devices.size()) + " CUDA devices");
        } else {
            try {
                s.cuda.emplace(options.device);
                s.stream = cuda::Stream(cuda::Stream::Create{});
                s.system.devices[std::size_t(options.device)] = cuda::queryDevice(options.device); // with free memory
                arch = s.system.devices[std::size_t(options.device)].archName();
                s.glCudaDevices = cuda::glDeviceOrdinals();
            } catch (const Error& e) {
                log::error(std::string("CUDA initialisation failed: ") + e.what());
                s.system.cudaAvailable = false;
                s.system.unavailableReason = e.what();
                s.cuda.reset();
            }
        }
    } else {
        log::warning(s.system.unavailableReason);
    }

    startDeviceOutput();

    // The live-kernel loop: compiles on the service's worker, files watched, unsaved edits kept.
    s.compileCache.emplace(rtc::CompileCache::defaultDirectory());
    s.compiler.emplace(*s.compileCache);
    try {
        s.watcher.emplace();
    } catch (const Error& e) {
        log::warning(std::string("files edited by other programs will not be reloaded: ") + e.what());
    }
    s.recovery.emplace(options.recoveryDir.empty() ? project::RecoveryStore::defaultDirectory() : options.recoveryDir);
    EditorState& ed = s.editor;
    ed.monoFont = fonts.mono;
    ed.monoSizes = {fonts.mono, fonts.monoLarge};
    ed.monoSizes.insert(ed.monoSizes.end(), fonts.monoZoom.begin(), fonts.monoZoom.end());
    ed.options.arch = arch;
    ed.options.fastCompile = rtc::parseFastCompile(options.check.fastCompile).value_or(rtc::FastCompile::Off);
    ed.archFromDevice = s.cuda.has_value();
    ed.frameLimitSeconds = float(options.frameLimit);
    for (const auto& file : options.editFiles)
        openDocument(file);
    s.arch = arch;
    s.project.recent = loadRecentProjects();
    if (options.keepSettings)
        loadUserSettings();
    TeachState& t = s.teach;
    if (!options.layout.empty()) {
        t.layout = options.layout == "classroom" ? Layout::Classroom : Layout::Standard;
        t.layoutGeneration = t.layout == Layout::Classroom ? 1 : 0; // overrides positions saved by ImGui
    }
    t.overlayMode = options.overlayMode;
    t.overlayOpacity = options.overlayOpacity;
    t.timelineRequested = options.timeline;
    t.pinnedXY = options.inspect;
    t.inspectWanted = options.inspect.has_value(); // a recording of who wrote each element, overlay or not
    if (options.tour > 0) { // drawTour clamps the step to the steps there are
        s.menu.tour.open = true;
        s.menu.tour.step = options.tour - 1;
    }
    // --kernel: the project inferred from it (prepareKernelProject has checked that there is one),
    // with its bindings kept for the Arguments panel.
    // Else the default demo, which is a kernel's project like any other.
    const bool opened = !options.kernelSpec.empty()
                            ? openKernel(pipeline::splitKernelSpec(options.kernelSpec).first, inferOptions(options),
                                         KernelChange::Open)
                        : !options.project.empty() ? openProject(options.project)
                                                   : openDefaultProject();
    if (opened && !options.stageName.empty()) {
        const pipeline::Pipeline& p = s.project.session->pipeline();
        for (std::size_t i = 0; i < p.stageCount(); ++i)
            if (p.stage(i).desc().name == options.stageName)
                t.stage = int(i);
        if (t.stage < 0)
            log::error("--stage: the project has no stage \"" + options.stageName + "\"");
    }
}

App::~App()
{
    keepUserSettings(true);
    log::setSink(std::move(m_previousSink));
}

void App::applyCommands(double now)
{
    Commands& c = m_state.commands;
    if (c.findFault)
        findFault();
    if (c.dismissFault) {
        std::error_code ec;
        if (m_state.fault && !m_state.fault->searchDir.empty())
            std::filesystem::remove_all(m_state.fault->searchDir, ec);
        m_state.fault.reset();
        for (auto& tab : m_state.editor.tabs) {
            tab->faultNote.clear();
            tab->faultSearch = FaultSearchState::Unavailable;
            tab->faultFinding.clear();
            tab->faultMark.reset();
        }
    }
    applyProjectCommands(c.project);
    applyDrop(); // what no panel took
    applyTeachCommands(c.teach);
    applyEditorCommands(now);
    c = {};
}

std::string App::statusLine() const
{
    const AppState& s = m_state;
    std::string line;
    if (const cuda::DeviceInfo* d = s.device())
        line = "CUDA: " + d->name + " (" + d->archName() + ")";
    else
        line = "CUDA unavailable: " + s.system.unavailableReason;
    if (s.project.session) {
        const pipeline::Pipeline& p = s.project.session->pipeline();
        line += "  |  project: " + p.project().name + " (frame " + std::to_string(p.frameIndex()) +
                (p.paused() ? ", paused" : "") + (p.error().empty() ? ")" : "): " + p.error());
        if (!s.cuda) { // nothing runs: say at least whether the kernels compile
            int kernels = 0, built = 0;
            for (std::size_t i = 0; i < p.stageCount(); ++i)
                if (const auto* k = dynamic_cast<const pipeline::KernelStage*>(&p.stage(i))) {
                    ++kernels;
                    built += k->lastBuild() && k->lastBuild()->ok;
                }
            if (kernels > 0)
                line += "; kernels built: " + std::to_string(built) + " of " + std::to_string(kernels);
        }
    } else {
        line += "  |  no project: File > Open kernel... or Open project...";
    }
    char fps[64];
    std::snprintf(fps, sizeof fps, "  |  %.1f fps", double(s.fps));
    if (s.fault) {
        // "paused" only while the project is: a project the user has run again since is not.
        const bool paused = s.project.session && s.project.session->pipeline().paused();
        return "GPU process replaced after " + s.fault->summary + "; your work was restored" +
               (paused ? ", paused" : "") + (s.fault->restored.empty() ? std::string() : " " + s.fault->restored) +
               "  |  " + line + fps;
    }
    return line + fps;
}

double App::lastInteropUs() const
{
    const std::vector<float>& us = m_state.project.history.interopUs;
    return us.empty() ? -1.0 : double(us.back());
}

void App::frame(float timeSeconds, float deltaSeconds)
{
    AppState& s = m_state;
    m_retiredSession.reset(); // the last frame, which showed it, has been rendered
    m_retiredProbe.reset();
    ++s.frameIndex;
    s.lastFrameMs = double(deltaSeconds) * 1000.0;
    // Smooth the frame time, not the rate: a single very short frame must not spike the fps.
    if (deltaSeconds > 0) {
        s.smoothedFrameMs = s.smoothedFrameMs == 0 ? s.lastFrameMs : s.smoothedFrameMs * 0.9 + s.lastFrameMs * 0.1;
        s.fps = float(1000.0 / s.smoothedFrameMs);
    }

    // Frame boundary: files changed by other programs, builds due after a typing pause, and
    // finished builds (a good one is swapped into its project stage here, before it launches).
    pollFiles();
    fireTypingPauses(double(timeSeconds));
    pollBuilds();
    updateListings();
    takeFaultSearch();

    teachBeforeFrame();
    projectFrame();

    const bool classroom = s.teach.layout == Layout::Classroom;
    ImFont* uiFont = classroom && m_fonts.uiLarge ? m_fonts.uiLarge : m_fonts.ui;
    s.editor.monoFont = classroom && m_fonts.monoLarge ? m_fonts.monoLarge : m_fonts.mono;
    if (uiFont)
        ImGui::PushFont(uiFont);
    drawMenuBar(s, s.commands);
    // Each panel in its place, unless the user hid it (View menu). Some layouts leave a panel out
    // (placePanel false): those draw only where they say so. The Console comes with the first
    // device output.
    auto shown = [&](const char* name) { return s.menu.hiddenPanels.count(name) == 0; };
    const bool console = shown(kConsolePanel) && (!s.console.lines.empty() || s.console.dropped > 0);
    const PanelLayout layout{ImGui::GetIO().DisplaySize, s.teach.layout, s.project.session != nullptr,
                             s.teach.layoutGeneration, s.menu.height, s.project.kernel.has_value(), console};
    s.editor.runningFile = runningKernelFile();
    s.editor.runningKernel.clear();
    if (const int stage = teachStage(s); s.project.session && stage >= 0)
        s.editor.runningKernel = s.project.session->pipeline().stage(std::size_t(stage)).desc().kernel;
    editorProjectFacts();
    if (shown(kEditorPanel)) {
        placePanel(kEditorPanel, layout);
        drawEditorPanel(s.editor, s.commands);
    }
    if (s.project.session) {
        if (shown(kProjectPanel) && placePanel(kProjectPanel, layout))
            drawProjectPanel(s, s.commands);
        if (s.project.kernel && shown(kArgumentsPanel)) {
            placePanel(kArgumentsPanel, layout);
            drawArgumentsPanel(s, s.commands);
        }
        if (shown(kViewsPanel)) {
            placePanel(kViewsPanel, layout);
            drawViewsPanel(s, s.commands);
        } else {
            s.project.viewSizes.assign(s.project.session->viewCount(), {16, 16}); // hidden views render small
        }
        if (shown(kLaunchPanel)) {
            placePanel(kLaunchPanel, layout);
            drawStageLaunchPanel(s, s.commands);
        }
        if (shown(kOverlayPanel)) {
            placePanel(kOverlayPanel, layout);
            drawOverlayPanel(s, s.commands);
        }
        if (shown(kTimelinePanel)) {
            placePanel(kTimelinePanel, layout);
            drawTimelinePanel(s, s.commands);
        }
    } else if (shown(kViewsPanel)) {
        placePanel(kViewsPanel, layout); // no project (it failed to open, or was closed): how to open one
        drawNoProjectPanel(s, s.commands);
    }
    if (shown(kDevicePanel) && placePanel(kDevicePanel, layout))
        drawDevicePanel(s);
    if (shown(kTimingsPanel) && placePanel(kTimingsPanel, layout))
        drawTimingsPanel(s);
    if (shown(kCompileLogPanel)) {
        placePanel(kCompileLogPanel, layout);
        drawCompileLogPanel(s, s.commands);
    }
    if (console) {
        placePanel(kConsolePanel, layout);
        drawConsolePanel(s);
    }
    drawListingWindow(s, s.commands);
    drawRecordWindow(s, *this);
    std::string status = statusLine();
    if (s.record.running)
        status = "REC " + std::to_string(s.record.written) + " frames  |  " + status;
    if (s.frameIndex < s.record.shotNoteUntil)
        status = s.record.shotNote + "  |  " + status;
    drawStatusBar(s, status, s.commands);
    drawTour(s); // after the panels: it outlines and raises one of them
    if (uiFont)
        ImGui::PopFont();
    uiProbe().recordClipped(); // every window has ended
    applyCommands(double(timeSeconds));
    keepUserSettings();
}

UiFonts loadFonts(const AppOptions& options)
{
    ImGuiIO& io = ImGui::GetIO();
    auto firstExisting = [](std::initializer_list<const char*> candidates) {
        for (const char* candidate : candidates) {
            std::error_code ec;
            if (std::filesystem::exists(candidate, ec))
                return std::filesystem::path(candidate);
        }
        return std::filesystem::path();
    };
    // Latin-1 plus the punctuation, arrows, shapes and check marks the panels use (… ← ● ▲ ✔ ✖).
    static constexpr ImWchar kRanges[] = {0x0020, 0x00FF, 0x2000, 0x206F, 0x2190, 0x21FF,
                                          0x2500, 0x25FF, 0x2700, 0x27BF, 0};
    UiFonts fonts;
    // "--font none": ImGui's built-in font throughout (what a machine without DejaVu gets).
    const bool builtIn = options.font == "none";
    std::filesystem::path font = builtIn ? std::filesystem::path() : options.font;
    if (font.empty() && !builtIn)
        font = firstExisting({"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf"});
    auto trueType = [&](const std::filesystem::path& file, float pixels) -> ImFont* {
        std::error_code ec;
        return !file.empty() && std::filesystem::exists(file, ec)
                   ? io.Fonts->AddFontFromFileTTF(file.c_str(), pixels, nullptr, kRanges)
                   : nullptr;
    };
    // ImGui's built-in font (ProggyClean, Latin-1; crisp at 13 px): where no TrueType font loads.
    // The panels' symbols fall back to ASCII with it (theme::symbol).
    constexpr float kBuiltInPixels = 13.f;
    // Rasterised at the UI scale (HiDPI): sharp glyphs, not a small atlas stretched.
    const float scale = options.uiScale > 0 ? options.uiScale : 1.f;
    const float fontSize = options.fontSize * scale, monoSize = (options.fontSize - 1.f) * scale;
    const float builtInPixels = kBuiltInPixels * scale;
    auto builtInFont = [&](float pixels) {
        ImFontConfig config;
        config.SizePixels = pixels;
        return io.Fonts->AddFontDefault(&config);
    };
    auto either = [&](const std::filesystem::path& file, float pixels, float fallbackPixels) {
        ImFont* f = trueType(file, pixels);
        return f ? f : builtInFont(fallbackPixels);
    };
    // The UI font first: ImGui's default is the first in the atlas.
    fonts.ui = trueType(font, fontSize);
    if (!fonts.ui && !options.font.empty() && !builtIn)
        log::warning("cannot load font " + options.font.string() + "; using ImGui's built-in font");
    if (!fonts.ui)
        fonts.ui = builtInFont(builtInPixels);
    const std::filesystem::path mono = builtIn ? std::filesystem::path() : firstExisting(
        {"/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", "/usr/share/fonts/TTF/DejaVuSansMono.ttf"});
    fonts.mono = either(mono, monoSize, builtInPixels);
    // The classroom layout's fonts: half as large again, readable from the back of a room.
    constexpr float kClassroomScale = 1.5f;
    fonts.uiLarge = either(font, fontSize * kClassroomScale, builtInPixels * kClassroomScale);
    fonts.monoLarge = either(mono, monoSize * kClassroomScale, builtInPixels * kClassroomScale);
    for (const float zoom : {2.f, 3.f})
        fonts.monoZoom.push_back(either(mono, monoSize * zoom, builtInPixels * zoom));
    return fonts;
}

void applyStyle(float uiScale)
{
    ImGui::StyleColorsDark();
    ImGuiStyle& style = ImGui::GetStyle();
    style.WindowRounding = 4.f;
    style.FrameRounding = 3.f;
    style.GrabRounding = 3.f;
    style.WindowBorderSize = 1.f;
    style.WindowPadding = ImVec2(8, 8);
    style.ItemSpacing = ImVec2(8, 5);
    ImVec4* c = style.Colors;
    c[ImGuiCol_WindowBg] = ImVec4(0.09f, 0.10f, 0.12f, 1.f);
    c[ImGuiCol_TitleBg] = ImVec4(0.12f, 0.16f, 0.20f, 1.f);
    c[ImGuiCol_TitleBgActive] = ImVec4(0.16f, 0.30f, 0.26f, 1.f);
    c[ImGuiCol_Header] = ImVec4(0.18f, 0.32f, 0.28f, 1.f);
    c[ImGuiCol_HeaderHovered] = ImVec4(0.24f, 0.44f, 0.36f, 1.f);
    c[ImGuiCol_PlotLines] = ImVec4(0.46f, 0.85f, 0.35f, 1.f);
    c[ImGuiCol_PlotHistogram] = ImVec4(0.46f, 0.85f, 0.35f, 1.f);
    if (uiScale > 0 && uiScale != 1.f)
        style.ScaleAllSizes(uiScale);
}

} // namespace ks::app
