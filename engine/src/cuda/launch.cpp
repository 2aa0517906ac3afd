#include "ks/cuda/launch.hpp"

#include "ks/core/error.hpp"

#include <algorithm>

namespace ks::cuda {

namespace {
constexpr std::size_t kStorageAlign = 64;
} // namespace

std::string describeArgumentType(std::size_t size, const char* knownName)
{
    return knownName ? std::string(knownName) : std::to_string(size) + "-byte value";
}

void ArgumentPack::pushBytes(const void* value, std::size_t size, std::size_t align, std::string type)
{
    if (align == 0 || (align & (align - 1)) != 0 || align > kStorageAlign)
        throwUsage("ArgumentPack::push", "argument alignment " + std::to_string(align) + " is not supported");
    auto block = std::make_unique<Chunk[]>((std::max<std::size_t>(size, 1) + sizeof(Chunk) - 1) / sizeof(Chunk));
    std::memcpy(block[0].bytes, value, size);
    m_pointers.push_back(block[0].bytes);
    PackedArgument a;
    a.size = size;
    a.align = align;
    a.offset = (m_parameterBytes + align - 1) / align * align;
    a.type = std::move(type);
    m_parameterBytes = a.offset + size;
    m_arguments.push_back(std::move(a));
    m_storage.push_back(std::move(block));
}

std::optional<std::vector<ParameterSlot>> parameterLayout(const Function& function)
{
#if CUDA_VERSION >= 12040
    const DriverApi& api = driver();
    if (!api.cuFuncGetParamInfo || function.empty())
        return std::nullopt;
    std::vector<ParameterSlot> slots;
    for (std::size_t i = 0;; ++i) {
        std::size_t offset = 0, size = 0;
        const CUresult r = api.cuFuncGetParamInfo(function.get(), i, &offset, &size);
        if (r == CUDA_ERROR_INVALID_VALUE)
            break; // past the last parameter
        check(r, "cuFuncGetParamInfo");
        slots.push_back({offset, size});
    }
    return slots;
#else
    (void)function;
    return std::nullopt;
#endif
}

std::optional<std::string> checkArguments(const std::string& name, const std::vector<ParameterSlot>& layout,
                                          const std::vector<PackedArgument>& arguments)
{
    auto sizes = [](auto const& list) {
        std::string s;
        for (std::size_t i = 0; i < list.size(); ++i)
            s += (i ? ", " : "") + std::to_string(list[i].size);
        return s;
    };
    if (layout.size() != arguments.size())
        return "kernel '" + name + "' takes " + std::to_string(layout.size()) + " parameter" +
               (layout.size() == 1 ? "" : "s") + " (" + sizes(layout) + " bytes), " + std::to_string(arguments.size()) +
               " argument" + (arguments.size() == 1 ? " was" : "s were") + " given (" + sizes(arguments) + " bytes)";
    for (std::size_t i = 0; i < layout.size(); ++i)
        if (layout[i].size != arguments[i].size)
            return "kernel '" + name + "': argument " + std::to_string(i + 1) + " is " +
                   std::to_string(arguments[i].size) + " bytes (" + arguments[i].type + ") but parameter " +
                   std::to_string(i + 1) + " is " + std::to_string(layout[i].size) + " bytes";
    return std::nullopt;
}

void throwArgumentMismatch(const std::string& why)
{
    throwUsage("cuda::launch", why);
}

namespace detail {

CUdeviceptr Staging::stage(const void* host, void* hostOut, std::size_t bytes, bool upload)
{
    Copy c;
    c.device = DeviceMemory(bytes);
    c.hostOut = hostOut;
    c.bytes = bytes;
    if (upload && bytes)
        c.device.upload(host, bytes);
    const CUdeviceptr p = c.device.get();
    copies.push_back(std::move(c));
    return p;
}

void Staging::copyBack(CUstream stream)
{
    KS_CU(cuStreamSynchronize, stream);
    for (Copy& c : copies)
        if (c.hostOut && c.bytes)
            c.device.download(c.hostOut, c.bytes);
}

void launchPacked(const Function& f, const LaunchConfig& config, CUstream stream, ArgumentPack& pack, Staging& staging)
{
    if (f.empty())
        throwUsage("cuda::launch", "launch of an empty function handle");
    if (auto layout = parameterLayout(f))
        if (auto why = checkArguments(f.name(), *layout, pack.arguments()))
            throwUsage("cuda::launch", *why + "; nothing was launched");
    f.launch(config, stream, pack.pointers());
    // In/Out/InOut make the launch synchronous, as in PyCUDA: the device buffers die here.
    if (!staging.empty())
        staging.copyBack(stream);
}

} // namespace detail
} // namespace ks::cuda
