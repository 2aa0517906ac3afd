#pragma once
// Surface objects (kernel writes into a CUDA array, e.g. a mapped GL texture) and texture objects
// (filtered reads). Valid only while the array they view exists (for a mapped GL texture: while
// it is mapped). Array: a 2-D CUDA array owned by CUDA (surface load/store allowed), with copies
// from and to host and device memory (through cuda::copy2D, memory.hpp).

#include "ks/core/unique_handle.hpp"
#include "ks/cuda/driver.hpp"

#include <cstddef>

namespace ks::cuda {

struct SurfaceTraits {
    using Handle = CUsurfObject;
    static constexpr Handle empty() { return 0; }
    static void destroy(Handle h) noexcept;
};

class SurfaceObject {
public:
    SurfaceObject() noexcept = default;
    explicit SurfaceObject(CUarray array);
    CUsurfObject get() const noexcept { return m_handle.get(); }
    bool empty() const noexcept { return m_handle.empty(); }

private:
    UniqueHandle<SurfaceTraits> m_handle;
};

struct ArrayTraits {
    using Handle = CUarray;
    static constexpr Handle empty() { return nullptr; }
    static void destroy(Handle h) noexcept;
};

// Bytes of one channel of `format` (CU_AD_FORMAT_FLOAT: 4); 0 for a format this layer does not know.
std::size_t arrayFormatBytes(CUarray_format format) noexcept;

class Array {
public:
    Array() noexcept = default;
    // A width x height array of `channels` (1, 2 or 4) elements of `format`, usable by surfaces.
    Array(int width, int height, CUarray_format format, unsigned channels);
    CUarray get() const noexcept { return m_handle.get(); }
    bool empty() const noexcept { return m_handle.empty(); }
    int width() const noexcept { return m_width; }
    int height() const noexcept { return m_height; }
    // Bytes of one row: width x channels x the format's size.
    std::size_t rowBytes() const noexcept { return m_rowBytes; }

    // Whole-array copies (cuMemcpy2D; they return when done). Host rows are `hostPitch` bytes apart
    // (0: packed, rowBytes()); device memory's rows `pitch` bytes apart.
    void upload(const void* host, std::size_t hostPitch = 0);
    void download(void* host, std::size_t hostPitch = 0) const;
    void copyFromDevice(CUdeviceptr device, std::size_t pitch);
    void copyToDevice(CUdeviceptr device, std::size_t pitch) const;

private:
    UniqueHandle<ArrayTraits> m_handle;
    int m_width = 0;
    int m_height = 0;
    std::size_t m_rowBytes = 0;
};

struct TextureTraits {
    using Handle = CUtexObject;
    static constexpr Handle empty() { return 0; }
    static void destroy(Handle h) noexcept;
};

class TextureObject {
public:
    struct Options {
        bool linearFilter = true;
        bool normalizedCoords = false;
        bool readAsFloat = false; // integer formats read as [0,1] floats
        CUaddress_mode address = CU_TR_ADDRESS_MODE_CLAMP;
    };
    TextureObject() noexcept = default;
    TextureObject(CUarray array, const Options& options);
    CUtexObject get() const noexcept { return m_handle.get(); }
    bool empty() const noexcept { return m_handle.empty(); }

private:
    UniqueHandle<TextureTraits> m_handle;
};

} // namespace ks::cuda
