#include "ks/teach/fault_report.hpp"

#include <cstdio>

namespace ks::teach {
namespace {

std::string elements(unsigned long long n)
{
    return std::to_string(n) + (n == 1 ? " element" : " elements");
}

std::string hex(unsigned long long v)
{
    char b[24];
    std::snprintf(b, sizeof b, "0x%llx", v);
    return b;
}

std::string_view verb(unsigned access)
{
    switch (access) {
    case kCheckedRead: return "read";
    case kCheckedWrite: return "wrote";
    case kCheckedUpdate: return "updated";
    default: return "accessed";
    }
}

std::string_view misalignedVerb(unsigned access)
{
    switch (access) {
    case kCheckedRead: return "made a misaligned read of ";
    case kCheckedWrite: return "made a misaligned write to ";
    case kCheckedUpdate: return "made a misaligned update of ";
    default: return "made a misaligned access to ";
    }
}

std::string dim3Text(unsigned x, unsigned y, unsigned z)
{
    char b[40];
    std::snprintf(b, sizeof b, "(%u,%u,%u)", x, y, z);
    return b;
}

// "out[1028], 4 elements past the end of out (1024 elements)"
std::string pointerProblem(const CheckedFault& f, const std::string& name)
{
    const std::string access = name + "[" + std::to_string(f.element) + "]";
    const unsigned size = f.elementSize ? f.elementSize : 1;
    if (f.problem & kCheckedOutOfRange) {
        if (f.byteOffset < 0)
            return access + ", " + elements(static_cast<unsigned long long>(-f.element)) + " before the start of " + name;
        const unsigned long long count = f.extent / size;
        std::string extent = elements(count);
        if (f.extent % size)
            extent = std::to_string(f.extent) + " bytes, " + std::to_string(count) + " whole elements";
        const unsigned long long past = static_cast<unsigned long long>(f.element) - count;
        const std::string where = past == 0 ? "just past the end" : elements(past) + " past the end";
        return access + ", " + where + " of " + name + " (" + extent + ")";
    }
    // Offsets from the base are whole elements, so only the base itself can be misaligned.
    return access + " (address " + hex(f.address) + ", not a multiple of " + std::to_string(f.alignment) +
           ", the alignment of its " + std::to_string(size) + "-byte elements)";
}

// "surface img at (640, 3), x past its width 640"
std::string surfaceProblem(const CheckedFault& f, const std::string& name)
{
    std::string s = "surface " + name + " at (" + std::to_string(f.element) + ", " + std::to_string(f.y) + ")";
    std::string why;
    auto add = [&why](const std::string& w) { why += (why.empty() ? "" : " and ") + w; };
    if (f.byteOffset < 0)
        add("x before its first column");
    else if (f.extent != kExtentUnchecked && static_cast<unsigned long long>(f.element) >= f.extent)
        add("x past its width " + std::to_string(f.extent));
    if (f.y < 0)
        add("y before its first row");
    else if (f.height != kExtentUnchecked && static_cast<unsigned long long>(f.y) >= f.height)
        add("y past its height " + std::to_string(f.height));
    return why.empty() ? s : s + ", " + why;
}

} // namespace

std::string describeFault(const CheckedFault& f, std::string_view paramName)
{
    const std::string name(paramName);
    std::string s = "thread " + dim3Text(f.threadX, f.threadY, f.threadZ) + " of block " +
                    dim3Text(f.blockX, f.blockY, f.blockZ) + " ";
    if (f.resource == kCheckedPointer && !(f.problem & kCheckedOutOfRange))
        s += misalignedVerb(f.access);
    else
        s += std::string(verb(f.access)) + " ";
    s += f.resource == kCheckedSurface ? surfaceProblem(f, name) : pointerProblem(f, name);
    if (f.line)
        s += ", at line " + std::to_string(f.line);
    return s;
}

std::string checkedParameterName(unsigned param, const syntax::KernelSignature& kernel, VariantKind variant,
                                 bool* instrumentation)
{
    const std::vector<std::string> own = ownCheckedParameters(variant);
    const bool theirs = param >= kernel.params.size() && param - kernel.params.size() < own.size();
    if (instrumentation)
        *instrumentation = theirs;
    return param < kernel.params.size() ? kernel.params[param].name : theirs ? own[param - kernel.params.size()] : "";
}

std::string describeCheckedRun(const CheckedRecord& record, const syntax::KernelSignature& kernel, VariantKind variant)
{
    if (!record.claimed)
        return "no access was out of bounds or misaligned";
    const unsigned p = record.first.param;
    bool instrumentation = false;
    std::string name = checkedParameterName(p, kernel, variant, &instrumentation);
    if (name.empty())
        name = "parameter " + std::to_string(p + 1);
    CheckedFault f = record.first;
    if (instrumentation)
        f.line = 0; // a line of the generated wrapper, not of the user's file
    std::string s = describeFault(f, name);
    if (instrumentation)
        s += ", in Kernelscope's instrumentation of the kernel, not in its code";
    if (record.failures > 1)
        s += " (and " + std::to_string(record.failures - 1) + " more refused " +
             (record.failures == 2 ? "access" : "accesses") + " in this launch)";
    return s;
}

} // namespace ks::teach
