#pragma once
// Launching kernels the way PyCUDA users know it:
//
//     auto f = module.function("multiply_them");
//     ks::cuda::launch(f, {.grid = {1}, .block = {400}}, stream,
//                      ks::cuda::out(dest), ks::cuda::in(a), ks::cuda::in(b));
//
// Arguments may be device pointers (CUdeviceptr, T*, DeviceMemory), scalars of every CUDA scalar
// type, vector types (float3, int2, double4_16a, ...) and other trivially copyable structs, and
// host arrays wrapped as In / Out / InOut: those are copied to a fresh device buffer before the
// launch and back after it, and the launch is then synchronous (it waits for the kernel), as in
// PyCUDA. Without them a launch is asynchronous on `stream`.
//
// Before launching, the arguments are checked against the kernel's parameter layout from the
// driver (cuFuncGetParamInfo, CUDA 12.4+ drivers): count and size each, with a message naming the
// kernel, the parameter and both sizes. The launch configuration is checked against the device's
// and the kernel's limits (cuda::validateLaunch). Both refusals are ks::Error (domain Usage) and
// nothing is launched.
//
// `Prepared<Args...>` fixes the argument types once (PyCUDA's prepare("PiF") / prepared_call):
// the layout check happens at prepare time, and each launch only copies the values into a fixed
// buffer: no allocation, no driver query.
//
// Threading: like the rest of ks::cuda, call with the kernel's context current.

#include "ks/cuda/memory.hpp"
#include "ks/cuda/module.hpp"

#include <vector_types.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace ks::cuda {

// ---- Host arrays around a launch ------------------------------------------------------------

template <class T>
struct In {
    std::span<const T> host;
};
template <class T>
struct Out {
    std::span<T> host;
};
template <class T>
struct InOut {
    std::span<T> host;
};

template <class C>
auto in(const C& c) { return In<std::remove_cv_t<std::remove_reference_t<decltype(*std::data(c))>>>{std::span(std::data(c), std::size(c))}; }
template <class C>
auto out(C& c) { return Out<std::remove_reference_t<decltype(*std::data(c))>>{std::span(std::data(c), std::size(c))}; }
template <class C>
auto inOut(C& c) { return InOut<std::remove_reference_t<decltype(*std::data(c))>>{std::span(std::data(c), std::size(c))}; }

// ---- The packed argument list -----------------------------------------------------------------

struct PackedArgument {
    std::size_t size = 0;
    std::size_t align = 0;
    std::size_t offset = 0; // where the CUDA ABI puts it in the parameter buffer
    std::string type;       // "float", "float3", "pointer", "16-byte value"
};

// Argument values laid out as the driver's `kernelParams` array wants them: one pointer per
// argument, each to a copy of the value aligned for its type. Pure host code.
class ArgumentPack {
public:
    ArgumentPack() = default;
    ArgumentPack(const ArgumentPack&) = delete;
    ArgumentPack& operator=(const ArgumentPack&) = delete;

    template <class T>
    void push(const T& value)
    {
        static_assert(std::is_trivially_copyable_v<T>, "kernel arguments must be trivially copyable");
        pushBytes(&value, sizeof(T), alignof(T), typeName<T>());
    }
    void pushBytes(const void* value, std::size_t size, std::size_t align, std::string type);

    void** pointers() noexcept { return m_pointers.data(); }
    std::size_t count() const noexcept { return m_arguments.size(); }
    const std::vector<PackedArgument>& arguments() const noexcept { return m_arguments; }
    // Bytes of the parameter buffer (the ABI's packing: each argument at its alignment).
    std::size_t parameterBytes() const noexcept { return m_parameterBytes; }

    template <class T>
    static std::string typeName();

private:
    struct alignas(64) Chunk {
        std::byte bytes[64];
    };
    std::vector<std::unique_ptr<Chunk[]>> m_storage; // one block per value, so pointers stay put
    std::vector<void*> m_pointers;
    std::vector<PackedArgument> m_arguments;
    std::size_t m_parameterBytes = 0;
};

std::string describeArgumentType(std::size_t size, const char* knownName);

template <class T>
std::string ArgumentPack::typeName()
{
    if constexpr (std::is_pointer_v<T>)
        return "pointer";
#define KS_ARG_NAME(type)                                                                                  \
    else if constexpr (std::is_same_v<T, type>) return #type;
    KS_ARG_NAME(bool)
    KS_ARG_NAME(char) KS_ARG_NAME(signed char) KS_ARG_NAME(unsigned char) KS_ARG_NAME(short)
    KS_ARG_NAME(unsigned short) KS_ARG_NAME(int) KS_ARG_NAME(unsigned int) KS_ARG_NAME(long)
    KS_ARG_NAME(unsigned long) KS_ARG_NAME(long long) KS_ARG_NAME(unsigned long long) KS_ARG_NAME(float)
    KS_ARG_NAME(double) KS_ARG_NAME(char2) KS_ARG_NAME(char3) KS_ARG_NAME(char4) KS_ARG_NAME(uchar2)
    KS_ARG_NAME(uchar3) KS_ARG_NAME(uchar4) KS_ARG_NAME(short2) KS_ARG_NAME(short3) KS_ARG_NAME(short4)
    KS_ARG_NAME(ushort2) KS_ARG_NAME(ushort3) KS_ARG_NAME(ushort4) KS_ARG_NAME(int1) KS_ARG_NAME(int2)
    KS_ARG_NAME(int3) KS_ARG_NAME(int4) KS_ARG_NAME(uint2) KS_ARG_NAME(uint3) KS_ARG_NAME(uint4)
    KS_ARG_NAME(longlong2) KS_ARG_NAME(ulonglong2) KS_ARG_NAME(float1) KS_ARG_NAME(float2) KS_ARG_NAME(float3)
    KS_ARG_NAME(float4) KS_ARG_NAME(double1) KS_ARG_NAME(double2) KS_ARG_NAME(double3)
    KS_ARG_NAME(double4_16a) KS_ARG_NAME(double4_32a) KS_ARG_NAME(longlong4_16a)
#undef KS_ARG_NAME
    else return describeArgumentType(sizeof(T), nullptr);
}

// ---- The driver's view of a kernel's parameters -------------------------------------------

struct ParameterSlot {
    std::size_t offset = 0;
    std::size_t size = 0;
};
// The kernel's parameter layout from cuFuncGetParamInfo; nullopt when the driver lacks it.
std::optional<std::vector<ParameterSlot>> parameterLayout(const Function& function);

// Why `arguments` do not fit `layout` of kernel `name` (count, then each size); nullopt if they do.
std::optional<std::string> checkArguments(const std::string& name, const std::vector<ParameterSlot>& layout,
                                          const std::vector<PackedArgument>& arguments);

// ---- Launching ----------------------------------------------------------------------------

namespace detail {

// Device buffers for In/Out/InOut during one launch.
struct Staging {
    struct Copy {
        DeviceMemory device;
        void* hostOut = nullptr; // where to copy back; null for In
        std::size_t bytes = 0;
    };
    std::vector<Copy> copies;
    CUdeviceptr stage(const void* host, void* hostOut, std::size_t bytes, bool upload);
    bool empty() const noexcept { return copies.empty(); }
    // Waits for `stream` (the kernel reads and writes the buffers), then copies Out/InOut back.
    void copyBack(CUstream stream);
};

template <class T>
void pushArgument(ArgumentPack& pack, Staging&, const T& value)
{
    pack.push(value);
}
inline void pushArgument(ArgumentPack& pack, Staging&, const DeviceMemory& m)
{
    pack.push(m.get());
}
template <class T>
void pushArgument(ArgumentPack& pack, Staging& s, const In<T>& a)
{
    pack.push(s.stage(a.host.data(), nullptr, a.host.size_bytes(), true));
}
template <class T>
void pushArgument(ArgumentPack& pack, Staging& s, const Out<T>& a)
{
    pack.push(s.stage(nullptr, a.host.data(), a.host.size_bytes(), false));
}
template <class T>
void pushArgument(ArgumentPack& pack, Staging& s, const InOut<T>& a)
{
    pack.push(s.stage(a.host.data(), a.host.data(), a.host.size_bytes(), true));
}

// Validates (layout, then limits), launches, and for host arrays waits and copies back.
void launchPacked(const Function& f, const LaunchConfig& config, CUstream stream, ArgumentPack& pack, Staging& staging);

} // namespace detail

template <class... Args>
void launch(const Function& f, const LaunchConfig& config, CUstream stream, const Args&... args)
{
    ArgumentPack pack;
    detail::Staging staging;
    (detail::pushArgument(pack, staging, args), ...);
    detail::launchPacked(f, config, stream, pack, staging);
}

// Fixed argument types: the check against the driver's layout runs once, here.
template <class... Args>
class Prepared {
    static_assert((std::is_trivially_copyable_v<Args> && ...), "prepared arguments must be trivially copyable");

public:
    // Throws ks::Error (Usage) when Args do not fit the kernel's parameters.
    explicit Prepared(const Function& f) : m_function(&f)
    {
        ArgumentPack pack;
        (pack.push(Args{}), ...);
        if (auto layout = parameterLayout(f))
            if (auto why = checkArguments(f.name(), *layout, pack.arguments()))
                throwMismatch(*why);
        setPointers(std::index_sequence_for<Args...>{});
    }
    Prepared(const Prepared&) = delete;
    Prepared& operator=(const Prepared&) = delete;

    // Copies the values and launches (asynchronously on `stream`).
    void launch(const LaunchConfig& config, CUstream stream, const Args&... args)
    {
        m_values = std::tuple<Args...>(args...);
        m_function->launch(config, stream, m_pointers.data());
    }

private:
    [[noreturn]] static void throwMismatch(const std::string& why);
    template <std::size_t... I>
    void setPointers(std::index_sequence<I...>)
    {
        m_pointers = {const_cast<void*>(static_cast<const void*>(&std::get<I>(m_values)))...};
    }
    const Function* m_function;
    std::tuple<Args...> m_values{};
    std::array<void*, sizeof...(Args) == 0 ? 1 : sizeof...(Args)> m_pointers{};
};

[[noreturn]] void throwArgumentMismatch(const std::string& why);

template <class... Args>
void Prepared<Args...>::throwMismatch(const std::string& why)
{
    throwArgumentMismatch(why);
}

template <class... Args>
Prepared<Args...> prepare(const Function& f)
{
    return Prepared<Args...>(f);
}

} // namespace ks::cuda
