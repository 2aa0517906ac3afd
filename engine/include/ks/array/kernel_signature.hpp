#pragma once
// PyCUDA-style kernel argument lists ("float a, const float *x, int n") read into parameters, and
// the values for one launch packed the way cuLaunchKernel wants them.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace ks::array {

struct KernelParameter {
    std::string declaration; // as written, trimmed: "const float *__restrict__ x"
    std::string name;        // "x"
    std::string type;        // everything but the name: "const float *__restrict__"
    bool pointer = false;    // declared with '*' (device memory); else passed by value
    // For pointers: the pointee without qualifiers ("float"); empty for by-value parameters.
    std::string elementType;
};

// Splits a comma-separated C parameter list. Each parameter needs a type and a name; `T *x` is a
// pointer, `T x` a value; templates and arrays are not allowed. Throws ks::Error (Usage) naming the
// bad parameter ("parameter 2 'float' has no name").
std::vector<KernelParameter> parseKernelParameters(std::string_view arguments);

// "float a, float *x" -> "a, x": the names, comma-separated, for calls in generated code.
std::string parameterNames(const std::vector<KernelParameter>& params);

// Kernel parameter values for one launch: each value copied into aligned storage that lives as long
// as the KernelArgs, and pointers to them for cuLaunchKernel's kernelParams.
class KernelArgs {
public:
    KernelArgs() = default;
    KernelArgs(const KernelArgs&) = delete;
    KernelArgs& operator=(const KernelArgs&) = delete;

    template <class T>
    KernelArgs& add(const T& value)
    {
        return addBytes(&value, sizeof(T), alignof(T));
    }
    KernelArgs& addBytes(const void* data, std::size_t size, std::size_t align);

    std::size_t count() const noexcept { return m_offsets.size(); }
    // Valid until the next add.
    void** params();

private:
    std::vector<std::uint64_t> m_storage; // 8-byte aligned; larger alignments are padded to
    std::vector<std::size_t> m_offsets;   // byte offsets into m_storage
    std::vector<void*> m_pointers;
};

} // namespace ks::array
