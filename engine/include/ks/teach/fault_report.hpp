#pragma once
// Words for what the checked variant found ("find the fault", ks/teach/instrument.hpp,
// VariantKind::Checked): the first refused access of a launch as one teaching sentence,
//   thread (5,0,0) of block (3,0,0) wrote out[1028], 4 elements past the end of out (1024
//   elements), at line 12
// Pure functions of the record the device filled (kernels/include/ks_device/records.cuh); no device.

#include "ks/syntax/kernel_signature.hpp"
#include "ks/teach/instrument.hpp"

#include <ks_device/records.cuh>

#include <string>
#include <string_view>

namespace ks::teach {

// The sentence for one refused access of the parameter called `paramName` (a pointer or a
// surface, as fault.resource says). Ends with ", at line N" when the line is known.
std::string describeFault(const CheckedFault& fault, std::string_view paramName);

// The name of parameter `param` of a checked launch of `kernel`: the kernel's own ("" when unnamed),
// or, past them, one of the `variant`'s own pointers (ownCheckedParameters), or "" when neither.
// `instrumentation`, when given, says whether it is one of the variant's own.
std::string checkedParameterName(unsigned param, const syntax::KernelSignature& kernel, VariantKind variant,
                                 bool* instrumentation = nullptr);

// What a checked launch found: "no access was out of bounds or misaligned" when nothing was
// refused, else describeFault of the first, with the kernel's name for the parameter and how many
// more accesses were refused. `variant`: the kind of variant that ran; for a checked teaching
// variant, a refused access of its own pointers (ownCheckedParameters) is named and said to be
// the instrumentation's, not the kernel's.
std::string describeCheckedRun(const CheckedRecord& record, const syntax::KernelSignature& kernel,
                               VariantKind variant = VariantKind::Checked);

} // namespace ks::teach
