#include "ks/array/struct_type.hpp"

#include "ks/core/error.hpp"
#include "ks/syntax/type_layout.hpp"

#include <cctype>

namespace ks::array {

std::shared_ptr<const StructType> StructType::vector(std::string_view name)
{
    // Vector types end in their component count; knownTypeLayout also knows scalars and pointers.
    const bool counted = !name.empty() && name.back() >= '1' && name.back() <= '4';
    const std::optional<syntax::TypeLayout> layout =
        counted && name.find_first_of("* ") == std::string_view::npos ? syntax::knownTypeLayout(name) : std::nullopt;
    if (!layout)
        throwUsage("ks::array::StructType::vector",
                   "'" + std::string(name) + "' is not one of CUDA's vector types (float3, int2, double4, uchar4, ...)");
    auto t = std::make_shared<StructType>();
    t->name = std::string(name);
    t->size = layout->size;
    t->align = layout->align;
    return t;
}

std::shared_ptr<const StructType> StructType::record(std::string name, std::string preamble)
{
    std::string why;
    const std::optional<syntax::RecordLayout> layout = syntax::findRecordLayout(preamble, name, &why);
    if (!layout)
        throwUsage("ks::array::StructType::record", "cannot lay out struct '" + name + "' from the preamble: " + why);
    auto t = std::make_shared<StructType>();
    t->name = std::move(name);
    t->size = layout->layout.size;
    t->align = layout->layout.align;
    t->preamble = std::move(preamble);
    return t;
}

} // namespace ks::array
