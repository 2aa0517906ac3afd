#pragma once
// Surface objects (kernel writes into a CUDA array, e.g. a mapped GL texture) and texture objects
// (filtered reads). Valid only while the array they view exists (for a mapped GL texture: while
// it is mapped). Array: a 2-D CUDA array owned by CUDA (surface load/store allowed).

#include "ks/core/unique_handle.hpp"
#include "ks/cuda/driver.hpp"

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

class Array {
public:
    Array() noexcept = default;
    // A width x height array of `channels` (1, 2 or 4) elements of `format`, usable by surfaces.
    Array(int width, int height, CUarray_format format, unsigned channels);
    CUarray get() const noexcept { return m_handle.get(); }
    bool empty() const noexcept { return m_handle.empty(); }

private:
    UniqueHandle<ArrayTraits> m_handle;
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
