#include "ks/array/kernel_signature.hpp"

#include "ks/core/error.hpp"

// Apart from kernel_signature.cpp: packing needs the array runtime, parsing does not.

namespace ks::array {

void packArguments(const std::vector<KernelParameter>& params, std::span<const KernelArgument> values,
                   KernelArgs& out, const char* caller)
{
    if (params.size() != values.size())
        throwUsage(caller, "expected " + std::to_string(params.size()) + " arguments, got " +
                               std::to_string(values.size()));
    for (std::size_t k = 0; k < params.size(); ++k) {
        const KernelParameter& p = params[k];
        const KernelArgument& v = values[k];
        const std::string which = "argument " + std::to_string(k + 1) + " ('" + p.declaration + "')";
        if (p.pointer) {
            if (v.kind() == KernelArgument::Kind::Scalar)
                throwUsage(caller, which + " is a pointer: pass an array or a device pointer, not " +
                                       v.scalar().toString());
            if (v.kind() == KernelArgument::Kind::Array) {
                const std::optional<DType> want = parseDType(p.elementType);
                if (want && *want != v.array().dtype())
                    throwUsage(caller, which + " wants " + std::string(dtypeName(*want)) + " elements, got a " +
                                           v.array().describe());
            }
            out.add(v.address());
        } else {
            if (v.kind() != KernelArgument::Kind::Scalar)
                throwUsage(caller, which + " is passed by value: pass a scalar, not an array");
            const std::optional<DType> t = parseDType(p.elementType);
            if (!t)
                throwUsage(caller, which + ": by-value parameters must have an arithmetic type");
            unsigned char bytes[16] = {};
            v.scalar().store(*t, bytes);
            out.addBytes(bytes, itemSize(*t), itemSize(*t) > 8 ? 8 : itemSize(*t));
        }
    }
}

} // namespace ks::array
