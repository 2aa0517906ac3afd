#pragma once
// Launch arithmetic shared by the launch panel and App: which stage the teaching panels look at,
// the data a launch covers, whether the device accepts a launch, and the resources' values at an
// inspected element.

#include "app_state.hpp"

#include "ks/teach/launch_analysis.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace ks::app {

// The kernel stage the teaching panels look at (the selection, else the first kernel stage), or
// -1 when the open project has none.
int teachStage(const AppState& s);
std::vector<int> kernelStages(const pipeline::Pipeline& p);

LaunchEdit launchEditOf(const project::StageDesc& d);
cuda::LaunchConfig launchConfigOf(const AppState& s, int stage, const LaunchEdit& e);
// The data the launch is meant to cover, in elements per axis: the covered resource, else the
// kernel's first output bound to a resource, else the threads launched.
cuda::Dim3 dataExtent(const AppState& s, int stage, const LaunchEdit& e);
// The grid that covers dataExtent with e's block.
std::array<int, 3> gridFor(const AppState& s, int stage, const LaunchEdit& e);
// A block of `threads` threads shaped like `current` (1-D stays 1-D; 2-D gets 32 wide rows).
std::array<int, 3> suggestedBlockShape(unsigned threads, const std::array<int, 3>& current);

// The full analysis of `e` against the device (refusal, coverage, occupancy, waves); nullopt
// without a device or a loaded kernel.
std::optional<teach::LaunchReport> analyzeEdit(const AppState& s, int stage, const LaunchEdit& e);
// "" when the device accepts `e` (or there is no device to ask), else the refusal naming the limit.
std::string launchRefusal(const AppState& s, int stage, const LaunchEdit& e);

// Every resource laid out like the recorded output (width x height elements) read at `element`
// through GL; resources of another shape say so.
std::vector<InspectedValue> inspectValues(const pipeline::ResourceSet& resources, std::size_t element, int width,
                                          int height);

} // namespace ks::app
