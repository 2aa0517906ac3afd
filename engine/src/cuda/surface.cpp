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

void ArrayTraits::destroy(CUarray h) noexcept
{
    KS_CU_NOTHROW(cuArrayDestroy, h);
}

Array::Array(int width, int height, CUarray_format format, unsigned channels)
{
    CUDA_ARRAY3D_DESCRIPTOR d{};
    d.Width = std::size_t(width);
    d.Height = std::size_t(height);
    d.Format = format;
    d.NumChannels = channels;
    d.Flags = CUDA_ARRAY3D_SURFACE_LDST;
    CUarray a = nullptr;
    KS_CU(cuArray3DCreate, &a, &d);
    m_handle.reset(a);
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
