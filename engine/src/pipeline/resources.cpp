#include "ks/pipeline/resources.hpp"

#include "ks/core/error.hpp"
#include "ks/core/log.hpp"
#include "ks/cuda/driver.hpp"
#include "ks/cuda/event.hpp"
#include "ks/cuda/memory.hpp"
#include "ks/interop/gl_shared_memory.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>

namespace ks::pipeline {

using project::ArgBinding;
using project::ResourceDesc;
using project::ScalarType;
using project::StageKind;
using project::TextureFormat;

// A shared texture's CUDA side: the array kernels use, and kSlots copies of it in memory GL can
// read, each with the CUDA event after its copy and the GL fence after GL's copy out of it.
struct Resource::Mirror {
    static constexpr int kSlots = 3;
    cuda::Array array;
    std::array<interop::GlSharedBuffer, kSlots> slots;
    std::array<cuda::Event, kSlots> copied;
    std::array<GLsync, kSlots> readByGl{};
    std::array<std::int64_t, kSlots> version{}; // the copy each slot holds (0: none)
    int next = 0;                               // the slot the next copy goes to
    int newest = -1;                            // the slot of the newest copy
    std::int64_t queued = 0;                    // copies queued so far
    std::int64_t published = 0;                 // the copy the GL texture holds (0: its initial zeros)

    void waitForGl(int slot)
    {
        if (!readByGl[slot])
            return;
        while (glClientWaitSync(readByGl[slot], GL_SYNC_FLUSH_COMMANDS_BIT, 1'000'000'000) == GL_TIMEOUT_EXPIRED) {
        }
        glDeleteSync(readByGl[slot]);
        readByGl[slot] = nullptr;
    }
    ~Mirror()
    {
        for (int i = 0; i < kSlots; ++i)
            waitForGl(i);
    }
};

Resource::Resource() = default;

Resource::~Resource()
{
    // The objects may view the mirror's array (declared after them, so destroyed before them).
    surfaceObject = {};
    textureObject = {};
}

namespace {

// Copies a slot (rows of texels, row 0 first, as the CUDA array holds them) into a texture through
// an integer view of its format, so every bit arrives unchanged (no float conversion, no flushing).
std::string mirrorCopySource(TextureFormat f)
{
    const char* format = f == TextureFormat::Rgba8 ? "rgba8ui" : f == TextureFormat::R32F ? "r32ui" : "rgba32ui";
    const char* texel = f == TextureFormat::Rgba8
                            ? "uvec4(words[i] & 255u, (words[i] >> 8) & 255u, (words[i] >> 16) & 255u, words[i] >> 24)"
                        : f == TextureFormat::R32F
                            ? "uvec4(words[i], 0u, 0u, 0u)"
                            : "uvec4(words[4 * i], words[4 * i + 1], words[4 * i + 2], words[4 * i + 3])";
    return std::string("#version 450 core\n"
                       "layout(local_size_x = 16, local_size_y = 16) in;\n"
                       "layout(std430, binding = 0) readonly buffer Texels { uint words[]; };\n"
                       "layout(") +
           format +
           ", binding = 0) uniform writeonly uimage2D u_texture;\n"
           "uniform ivec2 u_size;\n"
           "void main() {\n"
           "    ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
           "    if (p.x >= u_size.x || p.y >= u_size.y) return;\n"
           "    int i = p.y * u_size.x + p.x;\n"
           "    imageStore(u_texture, p, " +
           texel +
           ");\n"
           "}\n";
}

// A shared texture's first contents into its CUDA array (zeros, or its image); returns once written.
void clearArray(CUarray array, const ResourceDesc& d)
{
    const std::size_t row = std::size_t(d.width) * glFormat(d.format).texelBytes;
    const std::vector<std::uint8_t> texels = initialTexels(d);
    CUDA_MEMCPY2D c{};
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = texels.data();
    c.srcPitch = row;
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    c.dstArray = array;
    c.WidthInBytes = row;
    c.Height = std::size_t(d.height);
    KS_CU(cuMemcpy2DAsync, &c, nullptr);
    KS_CU(cuCtxSynchronize);
}

// Device copies of a resource's bytes: a shared texture also has its CUDA array and the slots.
std::size_t deviceCopies(bool shared)
{
    return shared ? 2 + Resource::Mirror::kSlots : 1;
}

GLenum integerImageFormat(TextureFormat f)
{
    return f == TextureFormat::Rgba8 ? GL_RGBA8UI : f == TextureFormat::R32F ? GL_R32UI : GL_RGBA32UI;
}

} // namespace

GlFormat glFormat(TextureFormat f)
{
    switch (f) {
    case TextureFormat::Rgba8: return {GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 4};
    case TextureFormat::R32F: return {GL_R32F, GL_RED, GL_FLOAT, 4};
    case TextureFormat::Rgba32F: return {GL_RGBA32F, GL_RGBA, GL_FLOAT, 16};
    }
    return {GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 4};
}

std::vector<ResourceUse> deriveUses(const project::Project& p, const std::vector<const syntax::KernelSignature*>& signatures)
{
    std::vector<ResourceUse> uses(p.resources.size());
    auto use = [&](const std::string& name) -> ResourceUse* {
        for (std::size_t i = 0; i < p.resources.size(); ++i)
            if (p.resources[i].name == name)
                return &uses[i];
        return nullptr;
    };
    for (std::size_t si = 0; si < p.stages.size(); ++si) {
        const project::StageDesc& s = p.stages[si];
        switch (s.kind) {
        case StageKind::Kernel: {
            const syntax::KernelSignature* sig = si < signatures.size() ? signatures[si] : nullptr;
            for (std::size_t ai = 0; ai < s.args.size(); ++ai) {
                const ArgBinding& a = s.args[ai];
                const syntax::KernelParam* param = sig && ai < sig->params.size() ? &sig->params[ai] : nullptr;
                ResourceUse* u = use(a.name);
                if (!u)
                    continue;
                const bool texture = p.resource(a.name)->isTexture();
                if (a.kind == ArgBinding::Kind::Surface ||
                    (texture && a.kind == ArgBinding::Kind::Resource && param &&
                     param->kind == syntax::ParamKind::Surface))
                    u->surface = true;
                else if (a.kind == ArgBinding::Kind::Texture ||
                         (texture && a.kind == ArgBinding::Kind::Resource && param &&
                          param->kind == syntax::ParamKind::Texture))
                    u->textureRead = true;
                else if (a.kind == ArgBinding::Kind::Resource) {
                    // `const T*` only reads. `T*` writes; whether it also reads is the project's word:
                    // "discard" says the kernel overwrites every element without reading the old ones.
                    // Without a signature assume both: never register read-only or write-discard wrongly.
                    const bool readOnly = param && param->pointeeConst;
                    const bool known = param != nullptr;
                    u->cudaReads = u->cudaReads || readOnly || !known;
                    u->cudaWrites = u->cudaWrites || !readOnly;
                }
            }
            break;
        }
        case StageKind::Random:
            if (ResourceUse* u = use(s.target))
                u->cudaWrites = true;
            break;
        case StageKind::Reduce:
            if (ResourceUse* u = use(s.source))
                u->cudaReads = true;
            if (ResourceUse* u = use(s.into))
                u->cudaWrites = true;
            break;
        case StageKind::Copy:
            if (ResourceUse* u = use(s.from))
                u->cudaReads = true;
            if (ResourceUse* u = use(s.to))
                u->cudaWrites = true;
            break;
        case StageKind::Math: {
            const auto eq = s.expression.find('=');
            if (ResourceUse* u = use(s.target))
                u->cudaWrites = true;
            const std::string rhs = eq == std::string::npos ? "" : s.expression.substr(eq + 1);
            for (std::size_t i = 0; i < rhs.size();) {
                if (std::isalpha(static_cast<unsigned char>(rhs[i])) || rhs[i] == '_') {
                    std::size_t j = i;
                    while (j < rhs.size() && (std::isalnum(static_cast<unsigned char>(rhs[j])) || rhs[j] == '_'))
                        ++j;
                    if (ResourceUse* u = use(rhs.substr(i, j - i)))
                        u->cudaReads = true;
                    i = j;
                } else {
                    ++i;
                }
            }
            break;
        }
        }
    }
    return uses;
}

std::optional<interop::RegisterFlags> deriveRegisterFlags(const ResourceDesc& d, const ResourceUse& u)
{
    using F = interop::RegisterFlags;
    if (!u.any())
        return std::nullopt;
    if (d.isTexture()) {
        if (u.surface)
            return d.discard && !u.textureRead ? F::SurfaceLoadStore | F::WriteDiscard : F::SurfaceLoadStore;
        return u.cudaWrites ? F::None : F::ReadOnly; // copied into, or only sampled
    }
    if (!u.cudaWrites)
        return F::ReadOnly;
    if (d.discard && !u.cudaReads)
        return F::WriteDiscard;
    return F::None;
}

std::string describeFlags(interop::RegisterFlags f)
{
    const unsigned v = unsigned(f);
    std::string out;
    auto add = [&](const char* s) { out += (out.empty() ? "" : " | ") + std::string(s); };
    if (v & unsigned(interop::RegisterFlags::ReadOnly))
        add("read-only");
    if (v & unsigned(interop::RegisterFlags::SurfaceLoadStore))
        add("surface load/store");
    if (v & unsigned(interop::RegisterFlags::WriteDiscard))
        add("write-discard");
    if (v & unsigned(interop::RegisterFlags::TextureGather))
        add("texture gather");
    return out.empty() ? "read/write" : out;
}

ResourceSet::ResourceSet(const project::Project& project, const std::vector<ResourceUse>& uses, bool cuda)
    : m_cuda(cuda)
{
    if (cuda) {
        // Refuse before allocating anything, so whatever runs now keeps running.
        std::size_t total = 0;
        for (const ResourceDesc& d : project.resources)
            total += d.bytes() * deviceCopies(d.isTexture() && d.sharedInterop);
        const cuda::MemoryInfo mem = cuda::memoryInfo();
        if (total > mem.freeBytes) {
            std::string biggest;
            std::size_t most = 0;
            for (const ResourceDesc& d : project.resources)
                if (d.bytes() > most)
                    most = d.bytes(), biggest = d.name;
            throwUsage("ResourceSet", "the project's resources need " + cuda::formatBytes(total) + " but the device has " +
                                          cuda::formatBytes(mem.freeBytes) + " free (of " +
                                          cuda::formatBytes(mem.totalBytes) + "); the largest is \"" + biggest +
                                          "\" with " + cuda::formatBytes(most));
        }
    }
    for (std::size_t i = 0; i < project.resources.size(); ++i) {
        auto r = std::make_unique<Resource>();
        r->desc = project.resources[i];
        if (cuda && i < uses.size()) {
            r->use = uses[i];
            r->flags = deriveRegisterFlags(r->desc, uses[i]);
        }
        if (r->isTexture()) {
            createTexture(*r);
            if (r->flags && r->desc.sharedInterop) {
                if (const std::string why = interop::glSharedMemoryUnsupported(); why.empty())
                    createMirror(*r);
                else
                    log::warning("texture \"" + r->desc.name + "\": \"interop\": \"shared\" is unavailable (" + why +
                              "); it is mapped instead");
            }
            if (r->flags && !r->shared())
                registerTexture(*r);
        }
        m_resources.push_back(std::move(r));
    }
    createBuffers();
    // The map call's handles: each registered shared buffer, then each registered texture.
    for (auto& b : m_shared)
        if (b->flags) {
            m_mapped.push_back({b.get(), nullptr});
            m_handles.push_back(&b->registration);
        }
    for (auto& r : m_resources) {
        if (r->shared())
            m_mirrored.push_back(r.get());
        if (!r->flags || r->shared())
            continue;
        m_registered.push_back(r.get());
        if (r->isTexture()) {
            m_mapped.push_back({nullptr, r.get()});
            m_handles.push_back(&r->registration);
        }
    }
}

ResourceSet::~ResourceSet()
{
    unmapQuietly();
}

void ResourceSet::unmapQuietly() noexcept
{
    try {
        m_map.unmap();
    } catch (const Error& e) {
        if (!cuda::lostContext()) // after a sticky error every call fails: nothing to add
            log::error(std::string("resources: ") + e.what());
    }
}

ResourceSet::ResourceSet(ResourceSet&& o) noexcept
    : m_resources(std::move(o.m_resources)), m_shared(std::move(o.m_shared)), m_registered(std::move(o.m_registered)),
      m_map(std::move(o.m_map)), m_mapped(std::move(o.m_mapped)), m_handles(std::move(o.m_handles)),
      m_costs(o.m_costs), m_cuda(o.m_cuda), m_mirrored(std::move(o.m_mirrored)),
      m_mirrorPrograms(std::move(o.m_mirrorPrograms))
{
}

ResourceSet& ResourceSet::operator=(ResourceSet&& o) noexcept
{
    if (this != &o) {
        unmapQuietly();
        m_map = std::move(o.m_map);
        m_shared = std::move(o.m_shared);
        m_resources = std::move(o.m_resources);
        m_registered = std::move(o.m_registered);
        m_mapped = std::move(o.m_mapped);
        m_handles = std::move(o.m_handles);
        m_costs = o.m_costs;
        m_cuda = o.m_cuda;
        m_mirrored = std::move(o.m_mirrored);
        m_mirrorPrograms = std::move(o.m_mirrorPrograms);
    }
    return *this;
}

void ResourceSet::createTexture(Resource& r)
{
    const ResourceDesc& d = r.desc;
    const GlFormat f = glFormat(d.format);
    r.texture = gl::Texture2D(d.width, d.height, f.internalFormat, GL_NEAREST);
    const std::vector<std::uint8_t> texels = initialTexels(d);
    r.texture.upload(f.format, f.type, texels.data());
}

void ResourceSet::createMirror(Resource& r)
{
    const ResourceDesc& d = r.desc;
    auto m = std::make_unique<Resource::Mirror>();
    const bool rgba8 = d.format == TextureFormat::Rgba8;
    m->array = cuda::Array(d.width, d.height, rgba8 ? CU_AD_FORMAT_UNSIGNED_INT8 : CU_AD_FORMAT_FLOAT,
                           d.format == TextureFormat::R32F ? 1u : 4u);
    for (int i = 0; i < Resource::Mirror::kSlots; ++i) {
        m->slots[std::size_t(i)] = interop::GlSharedBuffer(d.bytes());
        m->copied[std::size_t(i)] = cuda::Event(cuda::Event::Create{});
    }
    clearArray(m->array.get(), d); // the same initial contents as the GL texture
    r.mirror = std::move(m);
    r.array = r.mirror->array.get();
    makeObjects(r);
    ++r.registrations; // counts storage set up for CUDA (tests check re-creation on resize)
}

void ResourceSet::createBuffers()
{
    // Offsets aligned for storage-buffer bindings and at least 256 bytes (CUDA's vector loads and
    // coalescing want 16; 256 keeps every buffer on its own DRAM burst boundary).
    GLint storageAlignment = 0;
    glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &storageAlignment);
    const std::size_t alignment = std::max<std::size_t>(256, std::size_t(std::max(storageAlignment, 1)));
    for (auto& r : m_resources) {
        if (r->isTexture())
            continue;
        auto it = std::find_if(m_shared.begin(), m_shared.end(), [&](const auto& b) { return b->flags == r->flags; });
        if (it == m_shared.end()) {
            m_shared.push_back(std::make_unique<SharedBuffer>());
            m_shared.back()->flags = r->flags;
            it = std::prev(m_shared.end());
        }
        (*it)->members.push_back(r.get());
    }
    for (auto& b : m_shared) {
        std::size_t size = 0;
        for (Resource* r : b->members) {
            r->buffer.offset = size;
            r->buffer.size = r->desc.bytes();
            size += (r->desc.bytes() + alignment - 1) / alignment * alignment;
        }
        b->buffer = gl::Buffer(std::max<std::size_t>(size, 1));
        if (b->flags)
            b->registration = interop::GraphicsResource::registerBuffer(b->buffer.name(), *b->flags);
        // Each member's first contents go straight from where they were read (a 256 MiB .npy is
        // one host copy, not two) into its range of the shared buffer.
        for (Resource* r : b->members) {
            const std::vector<std::uint8_t> init = initialBytes(r->desc);
            write(*b, r->buffer.offset, init.data(), init.size());
        }
        for (Resource* r : b->members) {
            r->buffer.name = b->buffer.name();
            r->registrations += b->flags ? 1 : 0;
        }
    }
}

io::Dtype dtypeOf(ScalarType s)
{
    // The project's table of CUDA scalars already names each one's numpy dtype.
    return *io::parseDtype(project::numpyDescr(s));
}

namespace {

// A buffer's data source, read or made as its element type and shape. An image's channels are
// asked for as the element's components (gray for uchar, RGBA for uchar4), and an 8- or 16-bit
// image in a float buffer is scaled to [0, 1]; anything else must match the element as it is.
std::vector<std::uint8_t> dataBytes(const ResourceDesc& d)
{
    const io::DataSpec& spec = *d.data;
    const io::Dtype want = dtypeOf(d.element.scalar);
    const int components = d.element.components;
    io::LoadOptions o;
    o.dtype = want;
    o.shape = d.shape ? std::vector<std::int64_t>{(*d.shape)[0], (*d.shape)[1]} : std::vector<std::int64_t>{d.count};
    if (components > 1)
        o.shape.push_back(components);
    o.image.channels = components;
    io::HostArray a = io::loadData(spec, o);
    const std::string source = spec.path.empty() ? io::formatDataSpec(spec) : spec.path.filename().string();
    const std::string target = "buffer \"" + d.name + "\" (" + project::cudaTypeName(d.element) + ")";
    if (spec.kind == io::DataKind::Image && a.dtype != want && want.kind == io::DtypeKind::Float)
        a = io::convert(a, want, io::Scale::Normalize);
    else if (spec.convert && a.dtype != want)
        a = io::convert(a, want, io::Scale::Keep); // asked for: FILE:convert
    io::requireElement(a, source, want, components, target);
    if (a.bytes.size() != d.bytes())
        throwUsage("initial data", source + " holds " + std::to_string(a.elementCount()) + " values " +
                                       io::shapeText(a.shape) + "; " + target + " holds " +
                                       std::to_string(d.count * components) + " (" + std::to_string(d.count) +
                                       " elements)");
    return std::move(a.bytes);
}

} // namespace

std::vector<std::uint8_t> initialTexels(const ResourceDesc& d)
{
    std::vector<std::uint8_t> texels;
    if (!d.data || d.data->kind != io::DataKind::Image) {
        texels.assign(d.bytes(), 0);
        return texels;
    }
    io::ImageOptions o;
    o.channels = d.format == TextureFormat::R32F ? 1 : 4;
    io::HostArray a = io::readImage(d.data->path, o);
    const std::string source = d.data->path.filename().string();
    if (a.shape.size() < 2 || a.shape[0] != d.height || a.shape[1] != d.width)
        throwUsage("initial data", source + " is " + std::to_string(a.shape.size() >= 2 ? a.shape[1] : 0) + " x " +
                                       std::to_string(a.shape.empty() ? 0 : a.shape[0]) + "; texture \"" + d.name +
                                       "\" is " + std::to_string(d.width) + " x " + std::to_string(d.height));
    const io::Dtype want = d.format == TextureFormat::Rgba8 ? io::Dtype::uint8() : io::Dtype::float32();
    if (a.dtype != want)
        a = io::convert(a, want, io::Scale::Normalize);
    return std::move(a.bytes);
}

std::vector<std::uint8_t> initialBytes(const ResourceDesc& d)
{
    if (d.data)
        return dataBytes(d);
    const std::size_t bytes = d.bytes();
    std::vector<std::uint8_t> data(bytes, 0);
    if (d.init.empty())
        return data;
    // Initial values converted to the element's scalar type.
    const std::size_t scalars = std::size_t(d.count) * std::size_t(d.element.components);
    const std::size_t ss = scalarSize(d.element.scalar);
    for (std::size_t i = 0; i < scalars; ++i) {
        const double v = d.init.size() == 1 ? d.init[0] : d.init[i];
        std::uint8_t* at = data.data() + i * ss;
        auto put = [&](auto x) { std::memcpy(at, &x, sizeof x); };
        switch (d.element.scalar) {
        case ScalarType::Int8: put(std::int8_t(v)); break;
        case ScalarType::UInt8: put(std::uint8_t(v)); break;
        case ScalarType::Int16: put(std::int16_t(v)); break;
        case ScalarType::UInt16: put(std::uint16_t(v)); break;
        case ScalarType::Int32: put(std::int32_t(v)); break;
        case ScalarType::UInt32: put(std::uint32_t(v)); break;
        case ScalarType::Int64: put(std::int64_t(v)); break;
        case ScalarType::UInt64: put(std::uint64_t(v)); break;
        case ScalarType::Float32: put(float(v)); break;
        case ScalarType::Float64: put(double(v)); break;
        }
    }
    return data;
}

void ResourceSet::resetContents()
{
    if (mapped())
        throwUsage("ResourceSet::resetContents", "cannot reset while the resources are mapped");
    for (auto& r : m_resources) {
        // Same storage (registrations stay valid); initial contents uploaded again.
        if (r->isTexture()) {
            const GlFormat f = glFormat(r->desc.format);
            const std::vector<std::uint8_t> texels = initialTexels(r->desc);
            r->texture.upload(f.format, f.type, texels.data());
            if (Resource::Mirror* m = r->mirror.get()) {
                KS_CU(cuCtxSynchronize); // queued frames may still write the array
                clearArray(m->array.get(), r->desc);
                m->newest = -1; // older copies must not be published over the zeros
                m->published = m->queued;
            }
        } else {
            const std::vector<std::uint8_t> data = initialBytes(r->desc);
            upload(r->desc.name, data.data(), data.size());
        }
    }
}

void ResourceSet::registerTexture(Resource& r)
{
    // Objects made for the old registration's array go first; the next map makes new ones.
    r.surfaceObject = {};
    r.textureObject = {};
    r.objectsArray = nullptr;
    r.registration = {};
    r.registration = interop::GraphicsResource::registerImage(r.texture.name(), GL_TEXTURE_2D, *r.flags);
    ++r.registrations;
}

Resource* ResourceSet::find(std::string_view name)
{
    for (auto& r : m_resources)
        if (r->desc.name == name)
            return r.get();
    return nullptr;
}

const Resource* ResourceSet::find(std::string_view name) const
{
    return const_cast<ResourceSet*>(this)->find(name);
}

int ResourceSet::index(std::string_view name) const
{
    for (std::size_t i = 0; i < m_resources.size(); ++i)
        if (m_resources[i]->desc.name == name)
            return int(i);
    return -1;
}

std::size_t ResourceSet::registeredCount() const
{
    return m_registered.size();
}

std::size_t ResourceSet::sharedCount() const
{
    return m_mirrored.size();
}

std::size_t ResourceSet::registrationCount() const
{
    return m_handles.size();
}

Resource& ResourceSet::buffer(std::string_view name, const char* function)
{
    Resource* r = find(name);
    if (!r)
        throwUsage(function, "no resource \"" + std::string(name) + "\"");
    if (r->isTexture())
        throwUsage(function, "\"" + std::string(name) + "\" is a texture, not a buffer");
    return *r;
}

void ResourceSet::upload(std::string_view name, const void* data, std::size_t bytes)
{
    Resource& r = buffer(name, "ResourceSet::upload");
    if (mapped())
        throwUsage("ResourceSet::upload", "cannot write resources while they are mapped");
    if (bytes != r.buffer.size)
        throwUsage("ResourceSet::upload", "\"" + r.desc.name + "\" holds " + std::to_string(r.buffer.size) +
                                              " bytes, " + std::to_string(bytes) + " given");
    for (auto& b : m_shared)
        if (b->buffer.name() == r.buffer.name)
            write(*b, r.buffer.offset, data, bytes);
}

void ResourceSet::write(SharedBuffer& b, std::size_t offset, const void* data, std::size_t bytes)
{
    if (bytes == 0)
        return;
    if (b.registration.empty()) {
        b.buffer.upload(data, bytes, offset);
        return;
    }
    // Through CUDA where CUDA has the buffer: the bytes are then the same, and compute-sanitizer's
    // initcheck sees them written (a GL write is invisible to it, so every kernel that read a
    // project's first contents was reported as reading uninitialized memory). This one map reads
    // and writes whatever the registration promised; the frames' maps keep its promise.
    const CUgraphicsResource h = b.registration.get();
    const unsigned promised = unsigned(b.registration.flags()) &
                              (CU_GRAPHICS_REGISTER_FLAGS_READ_ONLY | CU_GRAPHICS_REGISTER_FLAGS_WRITE_DISCARD);
    if (promised)
        KS_CU(cuGraphicsResourceSetMapFlags, h, CU_GRAPHICS_MAP_RESOURCE_FLAGS_NONE);
    {
        const interop::ScopedMap map({&b.registration}, nullptr);
        cuda::copyHostToDevice(map.pointer(0) + offset, data, bytes);
    }
    static_assert(CU_GRAPHICS_MAP_RESOURCE_FLAGS_READ_ONLY == CU_GRAPHICS_REGISTER_FLAGS_READ_ONLY &&
                  CU_GRAPHICS_MAP_RESOURCE_FLAGS_WRITE_DISCARD == CU_GRAPHICS_REGISTER_FLAGS_WRITE_DISCARD);
    if (promised)
        KS_CU(cuGraphicsResourceSetMapFlags, h, promised);
}

void ResourceSet::resizeTexture(std::string_view name, int width, int height)
{
    Resource* r = find(name);
    if (!r || !r->isTexture())
        throwUsage("ResourceSet::resizeTexture", "\"" + std::string(name) + "\" is not a texture");
    if (mapped())
        throwUsage("ResourceSet::resizeTexture", "cannot resize while the resources are mapped");
    if (r->desc.width == width && r->desc.height == height)
        return;
    if (width <= 0 || height <= 0)
        throwUsage("ResourceSet::resizeTexture", "size must be positive");
    if (m_cuda) {
        const GlFormat f = glFormat(r->desc.format);
        const std::size_t copies = deviceCopies(r->shared());
        const std::size_t bytes = std::size_t(width) * std::size_t(height) * f.texelBytes * copies;
        const cuda::MemoryInfo mem = cuda::memoryInfo();
        if (bytes > mem.freeBytes + r->desc.bytes() * copies)
            throwUsage("ResourceSet::resizeTexture", "texture \"" + r->desc.name + "\" at " + std::to_string(width) +
                                                         "x" + std::to_string(height) + " needs " +
                                                         cuda::formatBytes(bytes) + " but the device has " +
                                                         cuda::formatBytes(mem.freeBytes) + " free");
    }
    r->surfaceObject = {};
    r->textureObject = {};
    r->objectsArray = nullptr;
    r->registration = {}; // unregister before the texture goes
    const bool shared = r->shared();
    if (shared) {
        KS_CU(cuCtxSynchronize); // queued frames may still use the array and the slots
        r->array = nullptr;
        r->mirror.reset(); // waits for GL's copies out of the slots
    }
    r->desc.width = width;
    r->desc.height = height;
    createTexture(*r);
    if (shared)
        createMirror(*r);
    else if (r->flags)
        registerTexture(*r);
}

double ResourceSet::map(CUstream stream)
{
    m_costs = {};
    if (m_registered.empty())
        return 0;
    using Clock = std::chrono::steady_clock;
    auto us = [](Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::micro>(b - a).count(); };
    const auto t0 = Clock::now();
    m_map = interop::ScopedMap(m_handles, stream);
    const auto t1 = Clock::now();
    m_costs.mapCallUs = us(t0, t1);
    // One query per registration: pointers and arrays may differ on every map, so they are never
    // cached. A shared buffer's members lie at their offsets.
    for (std::size_t i = 0; i < m_mapped.size(); ++i) {
        if (Resource* t = m_mapped[i].texture) {
            t->array = m_map.array(i);
            continue;
        }
        std::size_t bytes = 0;
        const CUdeviceptr base = m_map.pointer(i, &bytes);
        for (Resource* r : m_mapped[i].shared->members) {
            r->pointer = base + r->buffer.offset;
            r->mappedBytes = r->buffer.size;
        }
    }
    const auto t2 = Clock::now();
    m_costs.pointersUs = us(t1, t2);
    for (Resource* r : m_registered)
        if (r->isTexture() && r->array != r->objectsArray)
            m_costs.objectsCreated += makeObjects(*r);
    m_costs.objectsUs = us(t2, Clock::now());
    return m_costs.mapUs();
}

int ResourceSet::makeObjects(Resource& r)
{
    r.surfaceObject = {};
    r.textureObject = {};
    r.objectsArray = nullptr;
    int made = 0;
    if (unsigned(*r.flags) & unsigned(interop::RegisterFlags::SurfaceLoadStore)) {
        r.surfaceObject = cuda::SurfaceObject(r.array);
        ++made;
    }
    // A texture only written through its surface needs no sampler; any other use may sample it.
    if (!r.use.surface || r.use.textureRead || r.use.cudaReads || r.use.cudaWrites) {
        cuda::TextureObject::Options o;
        o.linearFilter = true;
        o.readAsFloat = r.desc.format == TextureFormat::Rgba8;
        o.normalizedCoords = false;
        r.textureObject = cuda::TextureObject(r.array, o);
        ++made;
    }
    r.objectsArray = r.array;
    return made;
}

double ResourceSet::unmap()
{
    if (m_map.empty())
        return 0;
    for (Resource* r : m_registered) {
        r->array = nullptr;
        r->pointer = 0;
        r->mappedBytes = 0;
    }
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    m_map.unmap();
    m_costs.unmapCallUs = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
    return m_costs.unmapCallUs;
}

std::size_t ResourceSet::queueMirrors(CUstream stream)
{
    std::size_t bytes = 0;
    for (Resource* r : m_mirrored) {
        if (!r->use.surface && !r->use.cudaWrites)
            continue; // CUDA only reads it: the texture already holds what the array does
        Resource::Mirror& m = *r->mirror;
        const int k = m.next;
        m.waitForGl(k);
        const std::size_t row = std::size_t(r->desc.width) * glFormat(r->desc.format).texelBytes;
        CUDA_MEMCPY2D c{};
        c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
        c.srcArray = m.array.get();
        c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
        c.dstDevice = m.slots[std::size_t(k)].pointer();
        c.dstPitch = row;
        c.WidthInBytes = row;
        c.Height = std::size_t(r->desc.height);
        KS_CU(cuMemcpy2DAsync, &c, stream);
        m.copied[std::size_t(k)].record(stream);
        m.version[std::size_t(k)] = ++m.queued;
        m.newest = k;
        m.next = (k + 1) % Resource::Mirror::kSlots;
        bytes += r->desc.bytes();
    }
    return bytes;
}

void ResourceSet::publish(Publish which) const
{
    for (const Resource* r : m_mirrored)
        publish(*r, which);
}

void ResourceSet::publish(const Resource& r, Publish which) const
{
    Resource::Mirror& m = *r.mirror;
    if (m.newest < 0 || m.version[std::size_t(m.newest)] <= m.published)
        return;
    int k = m.newest;
    if (which == Publish::Ready && !m.copied[std::size_t(k)].done()) {
        // The newest frame is still running: show the one before it rather than wait (the host
        // waiting for the GPU's newest work is what makes CUDA and GL take turns).
        const int previous = (k + Resource::Mirror::kSlots - 1) % Resource::Mirror::kSlots;
        if (m.version[std::size_t(previous)] != m.version[std::size_t(k)] - 1 ||
            m.version[std::size_t(previous)] <= m.published)
            return;
        k = previous;
    }
    m.copied[std::size_t(k)].synchronize();
    const int f = int(r.desc.format);
    if (m_mirrorPrograms[std::size_t(f)].empty())
        m_mirrorPrograms[std::size_t(f)] =
            gl::ShaderProgram::compute(mirrorCopySource(r.desc.format), "shared texture copy");
    const gl::ShaderProgram& program = m_mirrorPrograms[std::size_t(f)];
    GLint previous = 0;
    glGetIntegerv(GL_CURRENT_PROGRAM, &previous);
    glUseProgram(program.name());
    glProgramUniform2i(program.name(), program.uniform("u_size"), r.desc.width, r.desc.height);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, m.slots[std::size_t(k)].buffer());
    glBindImageTexture(0, r.texture.name(), 0, GL_FALSE, 0, GL_WRITE_ONLY, integerImageFormat(r.desc.format));
    glDispatchCompute(GLuint((r.desc.width + 15) / 16), GLuint((r.desc.height + 15) / 16), 1);
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT |
                    GL_TEXTURE_UPDATE_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT | GL_PIXEL_BUFFER_BARRIER_BIT);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
    glUseProgram(GLuint(previous));
    m.readByGl[std::size_t(k)] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    gl::check("publishing a shared texture");
    m.published = m.version[std::size_t(k)];
}

std::vector<std::uint8_t> ResourceSet::download(std::string_view name) const
{
    const Resource* r = find(name);
    if (!r)
        throwUsage("ResourceSet::download", "no resource \"" + std::string(name) + "\"");
    if (mapped())
        throwUsage("ResourceSet::download", "cannot read resources while they are mapped");
    std::vector<std::uint8_t> out(r->desc.bytes());
    if (r->isTexture()) {
        if (r->shared())
            publish(*r, Publish::Newest);
        const GlFormat f = glFormat(r->desc.format);
        r->texture.download(f.format, f.type, out.data(), out.size());
    } else if (!out.empty()) {
        KS_GL(glGetNamedBufferSubData(r->buffer.name, GLintptr(r->buffer.offset), GLsizeiptr(out.size()), out.data()));
    }
    return out;
}

std::vector<std::uint8_t> ResourceSet::downloadElement(std::string_view name, std::size_t element) const
{
    const Resource* r = find(name);
    if (!r)
        throwUsage("ResourceSet::downloadElement", "no resource \"" + std::string(name) + "\"");
    if (mapped())
        throwUsage("ResourceSet::downloadElement", "cannot read resources while they are mapped");
    if (r->isTexture()) {
        const std::size_t w = std::size_t(r->desc.width), h = std::size_t(r->desc.height);
        if (w == 0 || element >= w * h)
            throwUsage("ResourceSet::downloadElement", "texel " + std::to_string(element) + " is outside \"" +
                                                           r->desc.name + "\" (" + std::to_string(w) + " x " +
                                                           std::to_string(h) + ")");
        if (r->shared())
            publish(*r, Publish::Newest);
        const GlFormat f = glFormat(r->desc.format);
        std::vector<std::uint8_t> out(f.texelBytes);
        glGetTextureSubImage(r->texture.name(), 0, GLint(element % w), GLint(element / w), 0, 1, 1, 1, f.format,
                             f.type, GLsizei(out.size()), out.data());
        gl::check("glGetTextureSubImage");
        return out;
    }
    if (element >= std::size_t(r->desc.count))
        throwUsage("ResourceSet::downloadElement", "element " + std::to_string(element) + " is outside \"" +
                                                       r->desc.name + "\" (" + std::to_string(r->desc.count) +
                                                       " elements)");
    const std::size_t bytes = r->desc.element.size();
    std::vector<std::uint8_t> out(bytes);
    glGetNamedBufferSubData(r->buffer.name, GLintptr(r->buffer.offset + element * bytes), GLsizeiptr(bytes),
                            out.data());
    gl::check("glGetNamedBufferSubData");
    return out;
}

} // namespace ks::pipeline
