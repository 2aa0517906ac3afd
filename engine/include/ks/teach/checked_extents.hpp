#pragma once
// What the checked variant of a kernel stage ("find the fault", VariantKind::Checked) is told about
// each parameter, from the stage's bindings in the project: a pointer bound to a buffer gets the
// buffer's size in bytes, a surface bound to a texture its width and height in texels. Everything
// else is not checked (kExtentUnchecked). Pure: no device, no GL.

#include "ks/project/project.hpp"
#include "ks/syntax/kernel_signature.hpp"

#include <ks_device/records.cuh>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::teach {

struct CheckedBindings {
    std::vector<CheckedExtent> extents; // one per parameter of the kernel, by index
    std::vector<std::string> resources; // the resource each checked parameter is bound to; "" where none
};

// The resource called `name` as it is now (a texture that follows a view has its current size);
// null when there is none.
using ResourceLookup = std::function<const project::ResourceDesc*(std::string_view name)>;

// `checkedKinds`: InstrumentedKernel::checkedKinds of the stage's checked variant (one per
// parameter). A parameter with no binding, or bound to something that is not a resource of the
// matching kind (a buffer for a pointer, a texture for a surface), is not checked.
CheckedBindings checkedBindings(const project::StageDesc& stage, const std::vector<syntax::ParamKind>& checkedKinds,
                                const ResourceLookup& find);

} // namespace ks::teach
