#pragma once
// PyCUDA-style kernel argument lists ("float a, const float *x, int n") read into parameters, and
// the values for one launch packed the way cuLaunchKernel wants them.

#include "ks/array/device_array.hpp"
#include "ks/array/dtype.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ks::array {

struct KernelParameter {
    std::string declaration; // as written, trimmed: "const float *__restrict__ x"
    std::string name;        // "x"
    std::string type;        // everything but the name: "const float *__restrict__"
    bool pointer = false;    // declared with '*' (device memory); else passed by value
    // The type without qualifiers: the pointee for pointers ("float"), else the value's type.
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

// One value passed to a generated kernel: an array (its element 0's address goes to a pointer
// parameter), a raw device pointer, or a host scalar (converted to a by-value parameter's type).
class KernelArgument {
public:
    enum class Kind { Array, Pointer, Scalar };

    KernelArgument(const DeviceArray& array) : m_kind(Kind::Array), m_array(array) {}
    KernelArgument(Scalar value) : m_kind(Kind::Scalar), m_scalar(value) {}
    template <class T>
        requires std::is_arithmetic_v<T>
    KernelArgument(T value) : m_kind(Kind::Scalar), m_scalar(Scalar(value))
    {
    }
    static KernelArgument pointer(CUdeviceptr p)
    {
        KernelArgument a{Scalar(0)};
        a.m_kind = Kind::Pointer;
        a.m_pointer = p;
        return a;
    }

    Kind kind() const noexcept { return m_kind; }
    const DeviceArray& array() const noexcept { return m_array; }
    const Scalar& scalar() const noexcept { return m_scalar; }
    CUdeviceptr address() const noexcept { return m_kind == Kind::Array ? m_array.data() : m_pointer; }

private:
    Kind m_kind;
    DeviceArray m_array;
    Scalar m_scalar{0};
    CUdeviceptr m_pointer = 0;
};

// Appends `values` for `params` to `out`: arrays and pointers to pointer parameters (an array's
// dtype must match the pointee when the pointee names a dtype), scalars converted to a by-value
// parameter's type (which must name a dtype). Throws ks::Error (Usage) naming `caller`, the
// parameter and the mismatch.
void packArguments(const std::vector<KernelParameter>& params, std::span<const KernelArgument> values,
                   KernelArgs& out, const char* caller);

} // namespace ks::array
