#pragma once
// The application: one owner of all state, members declared in construction order so that C++
// tears them down in reverse (demo and GL objects before the CUDA context; the GL context itself
// belongs to the platform, which outlives the App).
//
// Thread: everything here runs on the thread whose GL context is current.

#include "app_state.hpp"
#include "options.hpp"

#include <imgui.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ks::app {

class App {
public:
    // The platform's GL context must be current; `glDescription` says what it is.
    App(const AppOptions& options, std::filesystem::path dataRoot, std::string glDescription);
    ~App();
    App(const App&) = delete;
    App& operator=(const App&) = delete;

    // One frame: CUDA work, then the UI. Call between ImGui::NewFrame() and ImGui::Render().
    void frame(float timeSeconds, float deltaSeconds);

    const AppState& state() const noexcept { return m_state; }
    std::string statusLine() const;

private:
    void applyCommands();
    // The frame pipeline: open/save/close projects, run the open project's frame.
    void applyProjectCommands(ProjectCommands& commands);
    bool openProject(const std::filesystem::path& file);
    void projectFrame();

    AppOptions m_options;
    AppState m_state;
    log::Sink m_previousSink;
};

// Recently opened projects ($XDG_CONFIG_HOME/kernelscope/recent_projects), newest first.
std::vector<std::filesystem::path> loadRecentProjects();

// Loads the UI font (options.font, else DejaVu Sans if installed, else ImGui's built-in font).
void loadFonts(const AppOptions& options);
// Colours and spacing of Kernelscope's UI.
void applyStyle();

} // namespace ks::app
