#pragma once
// The two platforms the same App and ImGui frame draw into.

#include "options.hpp"

namespace ks::app {

// Offscreen on EGL's device platform; renders options.frames frames, writes options.screenshot.
// Returns the process exit status.
int runHeadless(const AppOptions& options);

// A GLFW window with a GL 4.5 core context, until the user closes it.
int runWindowed(const AppOptions& options);

} // namespace ks::app
