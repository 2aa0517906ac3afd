#include "ks/teach/checked_extents.hpp"

namespace ks::teach {

CheckedBindings checkedBindings(const project::StageDesc& stage, const std::vector<syntax::ParamKind>& checkedKinds,
                                const ResourceLookup& find)
{
    using Kind = project::ArgBinding::Kind;
    CheckedBindings b;
    b.extents.assign(checkedKinds.size(), CheckedExtent{kExtentUnchecked, kExtentUnchecked});
    b.resources.assign(checkedKinds.size(), std::string());
    for (std::size_t i = 0; i < checkedKinds.size() && i < stage.args.size(); ++i) {
        const project::ArgBinding& arg = stage.args[i];
        if (checkedKinds[i] == syntax::ParamKind::Value)
            continue;
        const bool bindsResource = arg.kind == Kind::Resource || arg.kind == Kind::Surface || arg.kind == Kind::Texture;
        const project::ResourceDesc* r = bindsResource ? find(arg.name) : nullptr;
        if (!r)
            continue;
        if (checkedKinds[i] == syntax::ParamKind::Pointer && !r->isTexture()) {
            b.extents[i] = {static_cast<unsigned long long>(r->bytes()), 0};
            b.resources[i] = r->name;
        } else if (checkedKinds[i] == syntax::ParamKind::Surface && r->isTexture() && arg.kind != Kind::Texture) {
            b.extents[i] = {static_cast<unsigned long long>(r->width), static_cast<unsigned long long>(r->height)};
            b.resources[i] = r->name;
        }
    }
    return b;
}

} // namespace ks::teach
