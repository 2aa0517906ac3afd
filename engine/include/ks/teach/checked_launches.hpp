#pragma once
// The engine's own generated kernels through their checked variants: an array::LaunchInterposer
// that, for every launch of a generated kernel (elementwise, map, reduction, scan, ...), builds the
// kernel's checked variant once (instrument.hpp, VariantKind::Checked: every access through a
// pointer parameter bounds-checked) and launches it in the kernel's place, with each pointer's
// extent taken from the allocation it points into (cuMemGetAddressRange: the runtime allocates
// each array on its own when it has an interposer). The checked variant does the kernel's work, so
// results stay right; each launch waits for its record (slow: for checking, not for timing).
//
// Findings are kept, not thrown: a test runs a workload and then asks for zero findings. Accesses
// the variant cannot see (raw pointers made from a parameter; docs/hardening.md lists them for the
// engine's kernels) are not checked. Needs the current context of the runtime it serves.
#include "ks/array/runtime.hpp"
#include "ks/rtc/compiler.hpp"

#include <ks_device/records.cuh>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ks::teach {

class CheckedLaunches final : public array::LaunchInterposer {
public:
    // `options`: how the variants compile (the include path must reach kernels/include, where
    // ks_device/checked.cuh is); an empty arch is the current device's sm_XY.
    explicit CheckedLaunches(rtc::CompileOptions options);
    ~CheckedLaunches() override;

    void launch(const array::GeneratedLaunch& kernel, const cuda::LaunchConfig& config, CUstream stream,
                void** params) override;

    struct Finding {
        std::string kernel; // entry point
        std::string text;   // describeCheckedRun's sentence
        CheckedRecord record;
    };
    const std::vector<Finding>& findings() const noexcept { return m_findings; }
    // Launches by entry point; their pointer arguments: checked, null (not checked; a kernel may
    // take an optional pointer, such as a reduction's mirror) and outside any device allocation
    // (not checked: host memory, or memory the driver cannot place).
    struct Count {
        unsigned launches = 0;
        unsigned pointerArguments = 0;
        unsigned nullPointers = 0;
        unsigned unknownPointers = 0;
        std::vector<std::string> parameterNames; // the kernel's, in order ("" where unnamed)
    };
    const std::map<std::string, Count>& counts() const noexcept { return m_counts; }
    // For tests of the checks themselves: called with each launch's entry point and extents (one
    // per parameter, kExtentUnchecked where not checked) before it runs, and may narrow them.
    std::function<void(const std::string& entry, std::vector<CheckedExtent>& extents)> adjustExtents;

private:
    struct Variant;
    const Variant& variant(const array::GeneratedLaunch& kernel);
    rtc::CompileOptions m_options;
    std::map<std::string, std::unique_ptr<Variant>> m_variants; // by file name, entry and source
    std::vector<Finding> m_findings;
    std::map<std::string, Count> m_counts;
};

} // namespace ks::teach
