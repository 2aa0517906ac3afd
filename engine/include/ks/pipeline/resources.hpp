#pragma once
// A project's resources as GL objects, registered with CUDA once, mapped all together each frame.
//
// Registration flags come from how the project uses each resource (deriveRegisterFlags): a buffer
// CUDA only reads is read-only; one CUDA overwrites completely each frame ("discard") and never
// reads is write-discard (a kernel's non-const `T*` parameter is a write; whether the kernel also
// reads it is the project's word: "discard" says it does not); a texture a kernel writes through a
// surface is surface load/store; one only sampled through texture objects is read-only. A resource
// no stage touches is not registered.
// Buffers with the same flags share one GL buffer (each at an offset aligned for storage bindings
// and 16-byte loads), registered once: a frame's map and unmap calls cost per registration, so 4
// read/write buffers cost what one does. Buffers CUDA never touches share one unregistered GL
// buffer. Storage changes (a viewport-following texture resized) unregister and re-register only
// that texture.
//
// A texture with "interop": "shared" that CUDA uses is not registered: CUDA owns its texels in a
// CUDA array (its `array` and objects always valid), and after each frame queueMirrors() copies
// them into the next of three slots of memory CUDA shares with GL (ks/interop/gl_shared_memory.hpp);
// publish() waits on the host for a slot's copy and copies it into the GL texture with a compute
// pass, bit for bit. Before CUDA copies into a slot again, the host waits for GL's fence on
// it. Nothing is mapped, so such a frame does not pay for ordering CUDA after GL and GL after CUDA
// on the GPU (docs/projects.md). Without GL_EXT_memory_object_fd the texture is mapped instead
// (logged).
//
// Contract: the GL context (and, with CUDA, the CUDA context on the GPU rendering GL) is current on
// the calling thread for every call, construction and destruction included.

#include "ks/cuda/surface.hpp"
#include "ks/gl/objects.hpp"
#include "ks/interop/graphics_resource.hpp"
#include "ks/project/project.hpp"
#include "ks/syntax/kernel_signature.hpp"

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ks::pipeline {

// How the stages use one resource.
struct ResourceUse {
    bool cudaReads = false;   // a const pointer, a reduction or copy source, an operand of array math
    bool cudaWrites = false;  // a non-const pointer, a fill, a copy target, an array-math target
    bool surface = false;     // bound to a cudaSurfaceObject_t
    bool textureRead = false; // bound to a cudaTextureObject_t
    bool any() const { return cudaReads || cudaWrites || surface || textureRead; }
};

// The uses of every resource of `project` (by index), given the signature of each kernel stage's
// kernel (same order as project.stages; null for stages that are not kernels or not found).
std::vector<ResourceUse> deriveUses(const project::Project& project,
                                    const std::vector<const syntax::KernelSignature*>& signatures);

// The register flags for a resource used as `use`; nullopt when CUDA never touches it.
std::optional<interop::RegisterFlags> deriveRegisterFlags(const project::ResourceDesc& desc, const ResourceUse& use);
std::string describeFlags(interop::RegisterFlags flags); // "read-only", "surface load/store | write-discard"

// A typed view of a mapped buffer for this frame. (The random, math and reduce stages take
// ks::array::DeviceArray views of the same pointer: array_stages.hpp.)
struct BufferView {
    CUdeviceptr data = 0;
    project::ValueType element;
    std::int64_t count = 0;
    std::optional<std::array<std::int64_t, 2>> shape; // {height, width}
    std::size_t bytes() const { return std::size_t(count) * element.size(); }
};

// Host costs of the last map and unmap, microseconds.
struct InteropCosts {
    double mapCallUs = 0;    // the one cuGraphicsMapResources call
    double pointersUs = 0;   // cuGraphicsResourceGetMappedPointer / SubResourceGetMappedArray, one per resource
    double objectsUs = 0;    // surface/texture objects re-created because an array changed (0 when cached)
    int objectsCreated = 0;  // how many objects that was
    double unmapCallUs = 0;  // the one cuGraphicsUnmapResources call
    double mapUs() const { return mapCallUs + pointersUs + objectsUs; }
};

struct Resource {
    project::ResourceDesc desc;
    std::optional<interop::RegisterFlags> flags; // registered with these; nullopt: CUDA does not use it
    // A buffer: its bytes in the GL buffer it shares with the other buffers of the same flags
    // (owned by the ResourceSet).
    gl::BufferRange buffer;
    gl::Texture2D texture;
    // A texture's registration. Declared after the texture: unregistered before it is deleted.
    interop::GraphicsResource registration;
    int registrations = 0; // how many times it was registered, or a shared texture's CUDA storage made

    ResourceUse use; // how the stages use it (decides which of the objects below exist)

    // Valid while mapped (between ResourceSet::map and unmap).
    CUdeviceptr pointer = 0;
    std::size_t mappedBytes = 0;
    CUarray array = nullptr;
    // Usable only while mapped. Kept across frames and re-created only when a map returns a
    // different CUarray than the one they were made for (the CUDA docs allow a new array on every
    // map) or the resource is re-registered. A surface object exists where the texture is
    // registered for surface load/store; a texture object unless the only use is a surface.
    cuda::SurfaceObject surfaceObject;
    cuda::TextureObject textureObject;
    CUarray objectsArray = nullptr; // the array the two objects above were made for

    // "interop": "shared" (and CUDA uses it): the CUDA array that holds the texels, the slots of
    // shared memory and their ordering (resources.cpp). Null for every other resource.
    struct Mirror;
    std::unique_ptr<Mirror> mirror;

    Resource();
    ~Resource();
    BufferView view() const { return {pointer, desc.element, desc.count, desc.shape}; }
    bool isTexture() const { return desc.isTexture(); }
    bool shared() const { return mirror != nullptr; }
};

class ResourceSet {
public:
    ResourceSet() = default;
    // Creates every resource's GL storage (with its initial contents) and, when `cuda` is true,
    // registers those with flags. Refuses (ks::Error, Usage) before allocating anything when the
    // total exceeds the device's free memory, saying how much was asked and how much is free.
    ResourceSet(const project::Project& project, const std::vector<ResourceUse>& uses, bool cuda);
    ~ResourceSet();
    ResourceSet(ResourceSet&&) noexcept;
    ResourceSet& operator=(ResourceSet&&) noexcept;

    std::size_t size() const { return m_resources.size(); }
    Resource& operator[](std::size_t i) { return *m_resources[i]; }
    const Resource& operator[](std::size_t i) const { return *m_resources[i]; }
    Resource* find(std::string_view name);
    const Resource* find(std::string_view name) const;
    int index(std::string_view name) const; // -1 when absent

    // New storage for a viewport-following texture (contents lost), re-registered with the same
    // flags. No-op when the size is unchanged. Must not be called while mapped.
    void resizeTexture(std::string_view name, int width, int height);

    // Uploads every resource's initial contents again (restart). Not while mapped.
    void resetContents();

    // Maps every registered resource with one cuGraphicsMapResources call; fills pointers, arrays
    // and (where the array changed) surface/texture objects. Returns the host microseconds of the
    // whole map phase; lastCosts() splits it.
    double map(CUstream stream);
    // Unmaps them with one cuGraphicsUnmapResources call; returns its host microseconds. Surface
    // and texture objects are kept for the next map.
    double unmap();
    // After a frame's stages, on their stream: copies each shared texture's CUDA array into its
    // next slot (waiting first, on the host, for GL to finish with that slot's previous copy).
    // Returns the bytes copied (textures CUDA only reads are not copied).
    std::size_t queueMirrors(CUstream stream);
    // Brings each shared texture's GL texture up to date with one GL compute pass, after waiting
    // on the host for the copy it shows. Newest: the newest queued copy (download() and
    // downloadElement() use this, for the texture they read). Ready: the newest copy if it has
    // finished, else the one before it (one frame late, as drawing does with frames in flight: the
    // host never waits for the GPU's newest work). Cheap when nothing is new.
    enum class Publish { Newest, Ready };
    void publish(Publish which) const;
    const InteropCosts& lastCosts() const noexcept { return m_costs; }
    bool mapped() const { return !m_map.empty(); }
    std::size_t registeredCount() const; // resources registered with CUDA (shared textures are not)
    std::size_t sharedCount() const;     // textures CUDA reaches through "interop": "shared"
    std::size_t registrationCount() const; // CUDA registrations: one per shared buffer, one per texture

    // Replaces a buffer's bytes from `data` (resource size): through CUDA when the buffer is
    // registered, else through GL. Not while mapped.
    void upload(std::string_view name, const void* data, std::size_t bytes);
    // Copies a buffer's bytes (or a texture's texels, rows top to bottom as GL stores them) to the
    // host through GL. Not while mapped.
    std::vector<std::uint8_t> download(std::string_view name) const;
    // The bytes of one element (a buffer's element, a texture's texel at element % width,
    // element / width) through GL, for the pixel inspector. Throws ks::Error (Usage) when
    // `element` is outside the resource. Not while mapped.
    std::vector<std::uint8_t> downloadElement(std::string_view name, std::size_t element) const;

private:
    // Unmaps what is mapped; a failure (a lost context) is logged, never thrown (destructors use it).
    void unmapQuietly() noexcept;
    // One GL buffer holding the buffers of one set of flags, registered once (when flags is set).
    struct SharedBuffer {
        std::optional<interop::RegisterFlags> flags;
        gl::Buffer buffer;
        interop::GraphicsResource registration; // after the buffer: unregistered before it is deleted
        std::vector<Resource*> members;
    };
    // What the i-th handle of the map call is: a shared buffer or a texture.
    struct Mapped {
        SharedBuffer* shared = nullptr;
        Resource* texture = nullptr;
    };
    void createBuffers();
    // `bytes` at `offset` of `b`: a CUDA copy into the mapped buffer when registered, else GL's.
    void write(SharedBuffer& b, std::size_t offset, const void* data, std::size_t bytes);
    void createTexture(Resource& r);
    void registerTexture(Resource& r);
    void createMirror(Resource& r);
    void publish(const Resource& r, Publish which) const; // one shared texture
    int makeObjects(Resource& r); // for r.array; returns how many objects it made
    Resource& buffer(std::string_view name, const char* function); // throws unless a buffer

    std::vector<std::unique_ptr<Resource>> m_resources;
    std::vector<std::unique_ptr<SharedBuffer>> m_shared;
    std::vector<Resource*> m_registered;
    interop::ScopedMap m_map;
    std::vector<Mapped> m_mapped;                          // parallel to m_handles
    std::vector<const interop::GraphicsResource*> m_handles; // for the map call
    InteropCosts m_costs;
    bool m_cuda = false;
    std::vector<Resource*> m_mirrored; // shared textures
    // The compute passes that copy a slot into a texture, per format (made on first use).
    mutable std::array<gl::ShaderProgram, 3> m_mirrorPrograms;
};

// A buffer's initial contents: its data source read or made (ks/io/data_source.hpp), or "init"'s
// numbers converted to its element type, or zeros. Throws ks::Error naming the data and the buffer
// when they do not match (type, components or size).
std::vector<std::uint8_t> initialBytes(const project::ResourceDesc& desc);
// A texture's: its image (converted to the texture's format, scaled to [0, 1] for float formats),
// or zeros. Throws ks::Error when the image's size is not the texture's.
std::vector<std::uint8_t> initialTexels(const project::ResourceDesc& desc);
// The io element type of a CUDA scalar type.
io::Dtype dtypeOf(project::ScalarType s);

// GL internal format / pixel format / type of a texture format.
struct GlFormat {
    unsigned internalFormat, format, type;
    std::size_t texelBytes;
};
GlFormat glFormat(project::TextureFormat f);

} // namespace ks::pipeline
