#pragma once
// The supervision tests' stand-in worker (fake_worker.cpp).
#include <string>

namespace ks::test {

// Runs the fake worker on this process's inherited channel; returns its exit status.
int runFakeWorker(std::string mode, int framesBeforeTrouble);

} // namespace ks::test
