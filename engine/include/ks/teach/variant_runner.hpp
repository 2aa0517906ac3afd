#pragma once
// Runs a compiled instrumented variant (ks/teach/instrument.hpp) once and brings its records back:
// allocates and clears the records and counters, appends the variant's parameters to the user's
// arguments, launches (validated against the device's limits) and downloads. Needs the current
// context that loaded the variant's module; throws ks::Error on any failure.

#include "ks/cuda/module.hpp"

#include <ks_device/records.cuh>

#include <cstddef>
#include <optional>
#include <vector>

namespace ks::teach {

// What a checked teaching variant (InstrumentRequest::checked) is checked against.
struct VariantChecks {
    // One per parameter of the user's kernel, as for runCheckedVariant (kExtentUnchecked where not
    // known; the recorded output's extent at its own index).
    std::vector<CheckedExtent> extents;
    // The variant's own records (or blocks) and counters are checked against their allocations in
    // bytes; a test of the checks may narrow them.
    std::optional<unsigned long long> recordsBytes, countersBytes;
};

struct WhoRun {
    std::vector<WhoRecord> records;  // one per element of the recorded output
    unsigned blocksStarted = 0;      // the block order counter after the launch (= blocks launched)
    unsigned droppedWrites = 0;      // recorded writes outside the records
    std::optional<CheckedRecord> checked; // a checked teaching variant's record
};

// `userArguments`: the driver's pointers to each of the user's arguments, in order. `recordCount`:
// the elements of the output (a buffer's count, a surface's width * height); `rowWidth`: a
// surface's width in elements (ignored for buffers). `checks`: given for (and only for) a checked
// teaching variant.
WhoRun runWhoVariant(const cuda::Function& wrapper, const cuda::LaunchConfig& launch,
                     const std::vector<void*>& userArguments, std::size_t recordCount, std::size_t rowWidth,
                     CUstream stream, const VariantChecks* checks = nullptr);

struct TimelineRun {
    std::vector<BlockRecord> blocks; // one per block, by linear block index
    unsigned blocksStarted = 0;
    std::optional<CheckedRecord> checked; // a checked teaching variant's record
};

TimelineRun runTimelineVariant(const cuda::Function& wrapper, const cuda::LaunchConfig& launch,
                               const std::vector<void*>& userArguments, CUstream stream,
                               const VariantChecks* checks = nullptr);

// Runs a checked variant (VariantKind::Checked): `extents` holds one CheckedExtent per parameter of
// the kernel, by index (records.cuh says what each holds; use kExtentUnchecked where the size is not
// known). Returns the launch's record: claimed != 0 when an access was refused, `first` the first of
// them (describeCheckedRun in ks/teach/fault_report.hpp words it). A fault the checks do not cover
// (an access through a raw pointer) still faults, and throws ks::Error.
CheckedRecord runCheckedVariant(const cuda::Function& wrapper, const cuda::LaunchConfig& launch,
                                const std::vector<void*>& userArguments, const std::vector<CheckedExtent>& extents,
                                CUstream stream);

} // namespace ks::teach
