#pragma once
// Panels: each a function over the state it shows, pushing commands for what it wants changed.

#include "app_state.hpp"

namespace ks::app {

void drawViewportPanel(AppState& state, Commands& commands);
void drawDevicePanel(const AppState& state);
void drawCompileLogPanel(AppState& state, Commands& commands);
void drawEditorPanel(EditorState& editor, Commands& commands);
void drawTimingsPanel(const AppState& state);
void drawLaunchPanel(AppState& state, Commands& commands);
// The frame pipeline's panels (shown when a project is open). The opener is a row drawn into the
// current window (the Launch panel's first row while no project is open).
void drawProjectPanel(AppState& state, Commands& commands);
void drawProjectOpener(AppState& state, Commands& commands);
void drawViewsPanel(AppState& state, Commands& commands);

void drawStatusBar(const AppState& state, const std::string& statusLine);

// Lays out the panels for a display of `size` (first use only; the user may move them after).
void setDefaultLayout(const char* panel, float displayWidth, float displayHeight);

} // namespace ks::app
