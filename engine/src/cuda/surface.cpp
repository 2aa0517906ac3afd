#include "ks/cuda/surface.hpp"

#include "ks/core/error.hpp"
#include "ks/cuda/memory.hpp"

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

std::size_t arrayFormatBytes(CUarray_format format) noexcept
{
    switch (format) {
    case CU_AD_FORMAT_UNSIGNED_INT8:
    case CU_AD_FORMAT_SIGNED_INT8:
        return 1;
    case CU_AD_FORMAT_UNSIGNED_INT16:
    case CU_AD_FORMAT_SIGNED_INT16:
    case CU_AD_FORMAT_HALF:
        return 2;
    case CU_AD_FORMAT_UNSIGNED_INT32:
    case CU_AD_FORMAT_SIGNED_INT32:
    case CU_AD_FORMAT_FLOAT:
        return 4;
    default:
        return 0;
    }
}

Array::Array(int width, int height, CUarray_format format, unsigned channels)
    : m_width(width), m_height(height), m_rowBytes(std::size_t(width) * channels * arrayFormatBytes(format))
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

namespace {

void requireRows(const Array& a, const char* function)
{
    if (!a.empty() && a.rowBytes() == 0)
        throwUsage(function, "the array's format has no element size this layer knows; it cannot be copied");
}

} // namespace

void Array::upload(const void* host, std::size_t hostPitch)
{
    requireRows(*this, "cuda::Array::upload");
    copy2D(CopyEnd2D::cudaArray(get()), CopyEnd2D::hostMemory(host, hostPitch ? hostPitch : m_rowBytes), m_rowBytes,
           std::size_t(m_height));
}

void Array::download(void* host, std::size_t hostPitch) const
{
    requireRows(*this, "cuda::Array::download");
    copy2D(CopyEnd2D::hostMemory(host, hostPitch ? hostPitch : m_rowBytes), CopyEnd2D::cudaArray(get()), m_rowBytes,
           std::size_t(m_height));
}

void Array::copyFromDevice(CUdeviceptr device, std::size_t pitch)
{
    requireRows(*this, "cuda::Array::copyFromDevice");
    copy2D(CopyEnd2D::cudaArray(get()), CopyEnd2D::deviceMemory(device, pitch), m_rowBytes, std::size_t(m_height));
}

void Array::copyToDevice(CUdeviceptr device, std::size_t pitch) const
{
    requireRows(*this, "cuda::Array::copyToDevice");
    copy2D(CopyEnd2D::deviceMemory(device, pitch), CopyEnd2D::cudaArray(get()), m_rowBytes, std::size_t(m_height));
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
