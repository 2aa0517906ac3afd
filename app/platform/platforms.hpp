#pragma once
// The two platforms the same App and ImGui frame draw into.

#include "options.hpp"

namespace ks::app {

// Offscreen on EGL's device platform; renders options.frames frames, writes options.screenshot.
// Returns the process exit status.
int runHeadless(const AppOptions& options);

// A GLFW window with a GL 4.5 core context, until the user closes it.
int runWindowed(const AppOptions& options);

// --headless --project P: runs the project for options.frames frames without a window and writes
// the screenshot (its views side by side), dumps and timings asked for. Returns the exit status:
// 0, or 1 with a message on stderr when anything failed.
int runProjectHeadless(const AppOptions& options);

// --validate P: checks the project (no GPU needed), prints FILE:LINE:COL: error: message per
// problem; returns 1 when there were any, else 0.
int runValidate(const AppOptions& options);

} // namespace ks::app
