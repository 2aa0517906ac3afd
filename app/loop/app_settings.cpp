// The user's settings: what the window keeps between launches and what a new GPU process restores
// (supervise::UiSettings: panel places, layout, hidden panels, the editor's options and colours).
// A window run reads $XDG_CONFIG_HOME/kernelscope/settings.json when it starts and writes it when
// something changed (checked once a second) and when it ends; headless runs and tests keep the
// fixed layout and touch no file (AppOptions::keepSettings).
#include "app.hpp"

#include "ks/core/atomic_file.hpp"
#include "ks/core/error.hpp"
#include "ks/core/log.hpp"
#include "ks/core/paths.hpp"
#include "ks/rtc/compiler.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <imgui.h>

namespace ks::app {

namespace fs = std::filesystem;

fs::path userSettingsFile()
{
    const fs::path folder = paths::userFolder(paths::UserFolder::Config);
    return folder.empty() ? fs::path() : folder / "settings.json";
}

supervise::UiSettings App::uiSettings() const
{
    const AppState& s = m_state;
    supervise::UiSettings ui;
    if (ImGui::GetCurrentContext()) {
        std::size_t size = 0;
        const char* ini = ImGui::SaveIniSettingsToMemory(&size);
        ui.imguiIni.assign(ini, size);
    }
    ui.layout = s.teach.layout == Layout::Classroom ? "classroom" : "standard";
    ui.hiddenPanels.assign(s.menu.hiddenPanels.begin(), s.menu.hiddenPanels.end());
    const EditorState& ed = s.editor;
    supervise::EditorSettings& es = ui.editor;
    es.fastMath = ed.options.fastMath;
    es.debug = ed.options.debug;
    es.fastCompile = rtc::fastCompileName(ed.options.fastCompile);
    es.cppStandard = ed.options.cppStandard;
    es.arch = ed.archFromDevice ? std::string() : ed.options.arch;
    es.defines = ed.definesText;
    es.includes = ed.includesText;
    es.pauseSeconds = ed.pauseSeconds;
    es.buildOnPause = ed.buildOnPause;
    es.syntaxColours = ed.syntaxColours;
    es.zoom = ed.zoom;
    es.printfBuffer = ed.printfBuffer;
    return ui;
}

void App::restoreUiSettings(const supervise::UiSettings& ui, bool fromFile)
{
    AppState& s = m_state;
    if (!ui.imguiIni.empty() && ImGui::GetCurrentContext())
        ImGui::LoadIniSettingsFromMemory(ui.imguiIni.c_str(), ui.imguiIni.size());
    if (!(fromFile && !m_options.layout.empty()) && !ui.layout.empty()) // --layout wins over the file
        s.teach.layout = ui.layout == "classroom" ? Layout::Classroom : Layout::Standard;
    s.menu.hiddenPanels = {ui.hiddenPanels.begin(), ui.hiddenPanels.end()};
    restoreEditorSettings(ui.editor, fromFile);
}

void App::restoreEditorSettings(const supervise::EditorSettings& es, bool fromFile)
{
    EditorState& ed = m_state.editor;
    const std::vector<std::string> before = rtc::buildOptionList(ed.options); // what NVRTC was given
    ed.options.fastMath = es.fastMath;
    ed.options.debug = es.debug;
    ed.options.fastCompile = rtc::parseFastCompile(es.fastCompile).value_or(ed.options.fastCompile);
    ed.options.cppStandard = es.cppStandard.empty() ? ed.options.cppStandard : es.cppStandard;
    if (!es.arch.empty() && !ed.archFromDevice)
        ed.options.arch = es.arch;
    ed.definesText = es.defines;
    ed.includesText = es.includes;
    applyOptionFields();
    ed.pauseSeconds = std::isfinite(es.pauseSeconds) ? std::clamp(es.pauseSeconds, 0.1, 2.0) : ed.pauseSeconds;
    ed.buildOnPause = es.buildOnPause;
    ed.syntaxColours = es.syntaxColours;
    ed.zoom = std::isfinite(es.zoom) ? std::clamp(es.zoom, EditorState::kMinZoom, EditorState::kMaxZoom) : ed.zoom;
    if (es.printfBuffer > 0 && !(fromFile && m_options.printfBuffer > 0)) // --printf-buffer wins over the file
        setPrintfBuffer(std::size_t(std::min<std::uint64_t>(es.printfBuffer, EditorState::kMaxPrintfBuffer)));
    const bool rebuild = rtc::buildOptionList(ed.options) != before;
    for (auto& tab : ed.tabs) { // the files this process opened before it was told (--kernel, --edit)
        tab->debounce.setDelay(ed.pauseSeconds);
        if (rebuild)
            submitBuild(*tab, true);
    }
}

void App::loadUserSettings()
{
    const fs::path file = userSettingsFile();
    std::error_code ec;
    if (file.empty() || !fs::exists(file, ec))
        return;
    try {
        const supervise::UiSettings ui = nlohmann::json::parse(paths::readTextFile(file)).get<supervise::UiSettings>();
        restoreUiSettings(ui, true);
        m_savedSettings = nlohmann::json(ui).dump();
    } catch (const std::exception& e) {
        // Nothing is lost: the unreadable file is kept beside the one written from now on.
        fs::path kept = file;
        kept += ".unreadable";
        fs::rename(file, kept, ec);
        log::warning("settings not restored from " + file.string() + " (" + e.what() + "); the defaults apply" +
                     (ec ? std::string() : ", and the file was kept as " + kept.string()));
    }
}

void App::keepUserSettings(bool now)
{
    if (!m_options.keepSettings)
        return;
    const auto t = std::chrono::steady_clock::now();
    if (!now && t - m_settingsCheckedAt < std::chrono::seconds(1))
        return;
    m_settingsCheckedAt = t;
    const fs::path file = userSettingsFile();
    if (file.empty())
        return;
    std::string text = nlohmann::json(uiSettings()).dump();
    if (text == m_savedSettings)
        return;
    try {
        std::error_code ec;
        fs::create_directories(file.parent_path(), ec);
        paths::writeFileAtomically(file, text);
        m_savedSettings = std::move(text);
        if (ImGui::GetCurrentContext())
            ImGui::GetIO().WantSaveIniSettings = false;
    } catch (const Error& e) {
        if (!std::exchange(m_settingsWarned, true)) // once: the settings live on in this session
            log::warning(std::string("cannot keep the settings: ") + e.what());
    }
}

} // namespace ks::app
