#include "ks/cuda/surface.hpp"

namespace ks::cuda {

void SurfaceTraits::destroy(CUsurfObject h) noexcept
{
    KS_CU_NOTHROW(cuSurfObjectDestroy, h);
}

void TextureTraits::destroy(CUtexObject h) noexcept
{
    KS_CU_NOTHROW(cuTexObjectDestroy, h);
}

SurfaceObject::SurfaceObject(CUarray array)
{
    CUDA_RESOURCE_DESC desc{};
    desc.resType = CU_RESOURCE_TYPE_ARRAY;
    desc.res.array.hArray = array;
    CUsurfObject s = 0;
    KS_CU(cuSurfObjectCreate, &s, &desc);
    m_handle.reset(s);
}

TextureObject::TextureObject(CUarray array, const Options& o)
{
    CUDA_RESOURCE_DESC res{};
    res.resType = CU_RESOURCE_TYPE_ARRAY;
    res.res.array.hArray = array;
    CUDA_TEXTURE_DESC tex{};
    tex.addressMode[0] = tex.addressMode[1] = tex.addressMode[2] = o.address;
    tex.filterMode = o.linearFilter ? CU_TR_FILTER_MODE_LINEAR : CU_TR_FILTER_MODE_POINT;
    tex.flags = (o.normalizedCoords ? CU_TRSF_NORMALIZED_COORDINATES : 0u) | (o.readAsFloat ? 0u : CU_TRSF_READ_AS_INTEGER);
    CUtexObject t = 0;
    KS_CU(cuTexObjectCreate, &t, &res, &tex, nullptr);
    m_handle.reset(t);
}

} // namespace ks::cuda
