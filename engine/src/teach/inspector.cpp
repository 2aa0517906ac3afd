#include "ks/teach/inspector.hpp"

#include "ks/core/error.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace ks::teach {
namespace {

std::string dim3Text(const cuda::Dim3& d)
{
    return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + ")";
}

template <class T>
double load(const unsigned char* p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return double(v);
}

} // namespace

InspectedElement inspectElement(std::span<const WhoRecord> records, std::size_t element,
                                const cuda::LaunchConfig& launch, std::size_t width)
{
    if (element >= records.size())
        throwUsage("teach::inspectElement", "element " + std::to_string(element) + " is outside the " +
                                                std::to_string(records.size()) + " recorded elements");
    InspectedElement e;
    e.element = element;
    const std::size_t w = width > 1 ? width : 0;
    e.x = w ? static_cast<long long>(element % w) : static_cast<long long>(element);
    e.y = w ? static_cast<long long>(element / w) : 0;
    const std::string where =
        w ? "(" + std::to_string(e.x) + ", " + std::to_string(e.y) + ")" : "[" + std::to_string(element) + "]";
    const WhoRecord& r = records[element];
    if (r.writeCount == 0) {
        e.summary = where + " was not written by any thread of this launch";
        return e;
    }
    e.writer = writerOf(r, launch);
    const Writer& t = *e.writer;
    e.summary = where + " written by block " + dim3Text(t.blockIdx) + " thread " + dim3Text(t.threadIdx) +
                ": global thread " + std::to_string(t.globalThread) + ", warp " + std::to_string(t.warp) + " lane " +
                std::to_string(t.lane) + ", SM " + std::to_string(t.sm) + ", block started #" +
                std::to_string(t.blockOrder);
    if (t.writeCount > 1)
        e.summary += "; written " + std::to_string(t.writeCount) + " times (the last recorded writer is shown)";
    return e;
}

std::size_t scalarSize(ScalarKind k)
{
    switch (k) {
    case ScalarKind::I8:
    case ScalarKind::U8: return 1;
    case ScalarKind::I16:
    case ScalarKind::U16: return 2;
    case ScalarKind::I32:
    case ScalarKind::U32:
    case ScalarKind::F32: return 4;
    case ScalarKind::I64:
    case ScalarKind::U64:
    case ScalarKind::F64: return 8;
    }
    return 0;
}

std::string formatElement(const void* bytes, ScalarKind scalar, unsigned components, std::vector<double>* values)
{
    const auto* p = static_cast<const unsigned char*>(bytes);
    std::string out = components > 1 ? "(" : "";
    for (unsigned c = 0; c < components; ++c, p += scalarSize(scalar)) {
        double v = 0;
        char buf[64];
        switch (scalar) {
        case ScalarKind::I8: v = load<std::int8_t>(p); break;
        case ScalarKind::U8: v = load<std::uint8_t>(p); break;
        case ScalarKind::I16: v = load<std::int16_t>(p); break;
        case ScalarKind::U16: v = load<std::uint16_t>(p); break;
        case ScalarKind::I32: v = load<std::int32_t>(p); break;
        case ScalarKind::U32: v = load<std::uint32_t>(p); break;
        case ScalarKind::I64: v = load<std::int64_t>(p); break;
        case ScalarKind::U64: v = load<std::uint64_t>(p); break;
        case ScalarKind::F32: v = load<float>(p); break;
        case ScalarKind::F64: v = load<double>(p); break;
        }
        if (scalar == ScalarKind::I64) {
            std::int64_t i;
            std::memcpy(&i, p, sizeof i);
            std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(i));
        } else if (scalar == ScalarKind::U64) {
            std::uint64_t u;
            std::memcpy(&u, p, sizeof u);
            std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(u));
        } else if (scalar == ScalarKind::F32) {
            std::snprintf(buf, sizeof buf, "%.9g", v);
        } else if (scalar == ScalarKind::F64) {
            std::snprintf(buf, sizeof buf, "%.17g", v);
        } else {
            std::snprintf(buf, sizeof buf, "%.0f", v);
        }
        if (values)
            values->push_back(v);
        out += (c ? ", " : "") + std::string(buf);
    }
    return components > 1 ? out + ")" : out;
}

std::vector<ResourceValue> readElement(std::span<const ResourceView> resources, std::size_t element, CUstream stream)
{
    std::vector<ResourceValue> values(resources.size());
    std::vector<std::vector<unsigned char>> bytes(resources.size());
    for (std::size_t i = 0; i < resources.size(); ++i) {
        const ResourceView& r = resources[i];
        ResourceValue& v = values[i];
        v.name = r.name;
        if (element >= r.count) {
            v.text = "no element " + std::to_string(element) + " (" + std::to_string(r.count) + " elements)";
            continue;
        }
        const std::size_t size = r.elementBytes();
        bytes[i].resize(size);
        if (r.pointer) {
            KS_CU(cuMemcpyDtoHAsync, bytes[i].data(), r.pointer + element * size, size, stream);
        } else if (r.array) {
            const std::size_t w = r.width ? r.width : r.count;
            CUDA_MEMCPY2D copy{};
            copy.srcMemoryType = CU_MEMORYTYPE_ARRAY;
            copy.srcArray = r.array;
            copy.srcXInBytes = (element % w) * size;
            copy.srcY = element / w;
            copy.dstMemoryType = CU_MEMORYTYPE_HOST;
            copy.dstHost = bytes[i].data();
            copy.dstPitch = size;
            copy.WidthInBytes = size;
            copy.Height = 1;
            KS_CU(cuMemcpy2DAsync, &copy, stream);
        } else {
            v.text = "no device memory bound";
            bytes[i].clear();
            continue;
        }
        v.ok = true;
    }
    KS_CU(cuStreamSynchronize, stream);
    for (std::size_t i = 0; i < resources.size(); ++i)
        if (values[i].ok)
            values[i].text = formatElement(bytes[i].data(), resources[i].scalar, resources[i].components,
                                           &values[i].components);
    return values;
}

} // namespace ks::teach
