#pragma once
// GL objects registered with CUDA, and scoped mapping.
//
// Register once (registration is expensive), map every frame. All resources of a frame are mapped
// with one cuGraphicsMapResources call and unmapped with one cuGraphicsUnmapResources call:
//
//     ks::interop::ScopedMap map({&texResource, &bufResource}, stream);
//     CUarray level0 = map.array(0);
//     float* p = map.pointer<float>(1);
//     // ... launches on `stream` ...
//     // unmapped when `map` dies
//
// The GL context that owns the objects must be current on the calling thread for register,
// unregister, map and unmap; so must the CUDA context.

#include "ks/core/unique_handle.hpp"
#include "ks/cuda/driver.hpp"

#include <cstddef>
#include <initializer_list>
#include <vector>

namespace ks::interop {

enum class RegisterFlags : unsigned {
    None = CU_GRAPHICS_REGISTER_FLAGS_NONE,
    ReadOnly = CU_GRAPHICS_REGISTER_FLAGS_READ_ONLY,
    WriteDiscard = CU_GRAPHICS_REGISTER_FLAGS_WRITE_DISCARD,
    SurfaceLoadStore = CU_GRAPHICS_REGISTER_FLAGS_SURFACE_LDST,
    TextureGather = CU_GRAPHICS_REGISTER_FLAGS_TEXTURE_GATHER,
};
inline RegisterFlags operator|(RegisterFlags a, RegisterFlags b)
{
    return RegisterFlags(unsigned(a) | unsigned(b));
}

struct GraphicsResourceTraits {
    using Handle = CUgraphicsResource;
    static constexpr Handle empty() { return nullptr; }
    static void destroy(Handle h) noexcept;
};

class GraphicsResource {
public:
    enum class Kind { None, Buffer, Image };
    GraphicsResource() noexcept = default;

    // `glBuffer` is a GL buffer name.
    static GraphicsResource registerBuffer(unsigned glBuffer, RegisterFlags flags);
    // `glTexture` is a GL texture name, `glTarget` e.g. GL_TEXTURE_2D.
    static GraphicsResource registerImage(unsigned glTexture, unsigned glTarget, RegisterFlags flags);

    CUgraphicsResource get() const noexcept { return m_handle.get(); }
    bool empty() const noexcept { return m_handle.empty(); }
    Kind kind() const noexcept { return m_kind; }
    RegisterFlags flags() const noexcept { return m_flags; }

private:
    UniqueHandle<GraphicsResourceTraits> m_handle;
    Kind m_kind = Kind::None;
    RegisterFlags m_flags = RegisterFlags::None;
};

// Maps a set of resources for the lifetime of the object, in one call; unmaps them in one call.
// Work that uses the mapped memory must be queued on `stream` (or finished) before it dies.
class ScopedMap {
public:
    ScopedMap() noexcept = default;
    ScopedMap(std::initializer_list<const GraphicsResource*> resources, CUstream stream);
    ScopedMap(const std::vector<const GraphicsResource*>& resources, CUstream stream);
    ~ScopedMap();
    ScopedMap(const ScopedMap&) = delete;
    ScopedMap& operator=(const ScopedMap&) = delete;
    ScopedMap(ScopedMap&& other) noexcept;
    ScopedMap& operator=(ScopedMap&& other) noexcept;

    bool empty() const noexcept { return m_handles.empty(); }
    std::size_t size() const noexcept { return m_handles.size(); }

    // Device pointer of mapped buffer `i`, and its size in bytes.
    CUdeviceptr pointer(std::size_t i, std::size_t* bytes = nullptr) const;
    template <class T>
    T* pointer(std::size_t i) const { return reinterpret_cast<T*>(pointer(i)); }
    // CUDA array of mapped image `i` (mip level 0, layer 0 by default).
    CUarray array(std::size_t i, unsigned layer = 0, unsigned mipLevel = 0) const;

    // Unmaps now (the destructor does the same); afterwards the object is empty.
    void unmap();

private:
    void mapAll();

    std::vector<CUgraphicsResource> m_handles;
    CUstream m_stream = nullptr;
};

} // namespace ks::interop
