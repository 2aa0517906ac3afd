#include "ks/interop/graphics_resource.hpp"

#include "ks/core/error.hpp"

#include <string>
#include <utility>

namespace ks::interop {

void GraphicsResourceTraits::destroy(CUgraphicsResource h) noexcept
{
    KS_CU_NOTHROW(cuGraphicsUnregisterResource, h);
}

GraphicsResource GraphicsResource::registerBuffer(unsigned glBuffer, RegisterFlags flags)
{
    CUgraphicsResource r = nullptr;
    KS_CU(cuGraphicsGLRegisterBuffer, &r, glBuffer, unsigned(flags));
    GraphicsResource g;
    g.m_handle.reset(r);
    g.m_kind = Kind::Buffer;
    g.m_flags = flags;
    return g;
}

GraphicsResource GraphicsResource::registerImage(unsigned glTexture, unsigned glTarget, RegisterFlags flags)
{
    CUgraphicsResource r = nullptr;
    KS_CU(cuGraphicsGLRegisterImage, &r, glTexture, glTarget, unsigned(flags));
    GraphicsResource g;
    g.m_handle.reset(r);
    g.m_kind = Kind::Image;
    g.m_flags = flags;
    return g;
}

ScopedMap::ScopedMap(std::initializer_list<const GraphicsResource*> resources, CUstream stream)
    : ScopedMap(std::vector<const GraphicsResource*>(resources), stream)
{
}

ScopedMap::ScopedMap(const std::vector<const GraphicsResource*>& resources, CUstream stream) : m_stream(stream)
{
    m_handles.reserve(resources.size());
    for (const GraphicsResource* r : resources) {
        if (!r || r->empty())
            throwUsage("ScopedMap", "cannot map an empty graphics resource");
        m_handles.push_back(r->get());
    }
    mapAll();
}

void ScopedMap::mapAll()
{
    if (m_handles.empty())
        return;
    try {
        KS_CU(cuGraphicsMapResources, unsigned(m_handles.size()), m_handles.data(), m_stream);
    } catch (...) {
        m_handles.clear();
        throw;
    }
}

ScopedMap::~ScopedMap()
{
    if (m_handles.empty())
        return;
    KS_CU_NOTHROW(cuGraphicsUnmapResources, unsigned(m_handles.size()), m_handles.data(), m_stream);
}

ScopedMap::ScopedMap(ScopedMap&& o) noexcept : m_handles(std::move(o.m_handles)), m_stream(o.m_stream)
{
    o.m_handles.clear();
}

ScopedMap& ScopedMap::operator=(ScopedMap&& o) noexcept
{
    if (this != &o) {
        if (!m_handles.empty())
            KS_CU_NOTHROW(cuGraphicsUnmapResources, unsigned(m_handles.size()), m_handles.data(), m_stream);
        m_handles = std::move(o.m_handles);
        m_stream = o.m_stream;
        o.m_handles.clear();
    }
    return *this;
}

void ScopedMap::unmap()
{
    if (m_handles.empty())
        return;
    std::vector<CUgraphicsResource> handles = std::move(m_handles);
    m_handles.clear();
    KS_CU(cuGraphicsUnmapResources, unsigned(handles.size()), handles.data(), m_stream);
}

CUdeviceptr ScopedMap::pointer(std::size_t i, std::size_t* bytes) const
{
    if (i >= m_handles.size())
        throwUsage("ScopedMap::pointer", "index " + std::to_string(i) + " out of range");
    CUdeviceptr p = 0;
    std::size_t size = 0;
    KS_CU(cuGraphicsResourceGetMappedPointer, &p, &size, m_handles[i]);
    if (bytes)
        *bytes = size;
    return p;
}

CUarray ScopedMap::array(std::size_t i, unsigned layer, unsigned mipLevel) const
{
    if (i >= m_handles.size())
        throwUsage("ScopedMap::array", "index " + std::to_string(i) + " out of range");
    CUarray a = nullptr;
    KS_CU(cuGraphicsSubResourceGetMappedArray, &a, m_handles[i], layer, mipLevel);
    return a;
}

} // namespace ks::interop
