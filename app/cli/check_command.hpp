#pragma once
// The --check / --clear-cache commands: no window, no GL, no CUDA context.

#include "cli/options.hpp"

namespace ks::app {

// Runs the commands `options.check` asks for, prints their output and returns the exit status
// (0 ok, 1 compile errors, 2 bad usage or a cache that could not be cleared).
int runCheckCommands(const CheckOptions& options);

} // namespace ks::app
