// ks_bench_display_paths: ways to write a 1920x1080 image with CUDA and show it with GL, each timed
// as a steady loop (N frames queued, total wall time / N), headless on the EGL device platform.
// It answers where a frame's time goes on a data-centre GPU whose graphics pipe is small: the CUDA
// side (map, kernel, unmap of a registered texture or buffer), the GL side (clear, a full-screen
// quad, a blit, a copy, a compute pass), their combinations, and what ordering the two costs:
// host waits either way, none, and memory CUDA shares with GL without registration (a ring of
// buffers ordered by the host), which is what the pipeline's "interop": "shared" textures use.
//   ks_bench_display_paths [--frames N] [--json FILE]
#include "ks/core/error.hpp"
#include "ks/cuda/context.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/driver.hpp"
#include "ks/cuda/event.hpp"
#include "ks/cuda/exported_memory.hpp"
#include "ks/cuda/memory.hpp"
#include "ks/cuda/stream.hpp"
#include "ks/cuda/surface.hpp"
#include "ks/gl/egl_context.hpp"
#include "ks/gl/objects.hpp"
#include "ks/interop/gl_shared_memory.hpp"
#include "ks/interop/graphics_resource.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>

using namespace ks;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kWidth = 1920, kHeight = 1080;

__global__ void writeSurface(cudaSurfaceObject_t s, int width, int height, float t)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height)
        surf2Dwrite(make_uchar4(x ^ y, (int)(t * 255) & 255, blockIdx.x * 16, 255), s, x * 4, y);
}

__global__ void writeLinear(uchar4* p, int width, int height, float t)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height)
        p[y * width + x] = make_uchar4(x ^ y, (int)(t * 255) & 255, blockIdx.x * 16, 255);
}

const dim3 kBlock(16, 16), kGrid((kWidth + 15) / 16, (kHeight + 15) / 16);

const char* kQuadVs = R"(#version 450 core
out vec2 v_uv;
void main() {
    vec2 c = vec2(gl_VertexID & 1, gl_VertexID >> 1);
    v_uv = vec2(c.x, 1.0 - c.y);
    gl_Position = vec4(c * 2.0 - 1.0, 0.0, 1.0);
})";
const char* kQuadFs = R"(#version 450 core
uniform sampler2D u_image;
in vec2 v_uv;
out vec4 o_color;
void main() { o_color = vec4(texture(u_image, v_uv).rgb, 1.0); })";
const char* kTexelFetchFs = R"(#version 450 core
uniform sampler2D u_image;
out vec4 o_color;
void main() { o_color = vec4(texelFetch(u_image, ivec2(gl_FragCoord.xy), 0).rgb, 1.0); })";
const char* kSsboFs = R"(#version 450 core
layout(std430, binding = 0) readonly buffer Data { uint words[]; };
out vec4 o_color;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    o_color = vec4(unpackUnorm4x8(words[(1079 - p.y) * 1920 + p.x]).rgb, 1.0);
})";
const char* kCopyCs = R"(#version 450 core
layout(local_size_x = 16, local_size_y = 16) in;
layout(rgba8, binding = 0) uniform readonly image2D u_src;
layout(rgba8, binding = 1) uniform writeonly image2D u_dst;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x < 1920 && p.y < 1080)
        imageStore(u_dst, p, vec4(imageLoad(u_src, ivec2(p.x, 1079 - p.y)).rgb, 1.0));
})";

const char* kCopySsboCs = R"(#version 450 core
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) readonly buffer Data { uint words[]; };
layout(rgba8, binding = 1) uniform writeonly image2D u_dst;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x < 1920 && p.y < 1080)
        imageStore(u_dst, p, vec4(unpackUnorm4x8(words[(1079 - p.y) * 1920 + p.x]).rgb, 1.0));
})";

// One allocation seen as a GL texture (GL_EXT_memory_object_fd, GL's own layout for a 1920x1080
// RGBA8 texture) and as a CUDA array imported from the same memory: whether the two layouts agree
// decides whether a texture could be shared without a copy (on the H100 they do not).
class ImportedTexture {
public:
    ImportedTexture()
    {
        const CUmemAllocationProp prop = cuda::exportableProperties();
        std::size_t granularity = 1;
        KS_CU(cuMemGetAllocationGranularity, &granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
        m_bytes = (std::size_t(kWidth) * kHeight * 8 + granularity - 1) / granularity * granularity;
        KS_CU(cuMemCreate, &m_handle, m_bytes, &prop, 0);
        glCreateMemoryObjectsEXT(1, &m_memory);
        glImportMemoryFdEXT(m_memory, m_bytes, GL_HANDLE_TYPE_OPAQUE_FD_EXT, exportFd());
        glCreateTextures(GL_TEXTURE_2D, 1, &m_texture);
        glTextureStorageMem2DEXT(m_texture, 1, GL_RGBA8, kWidth, kHeight, m_memory, 0);
        gl::check("import CUDA memory as a GL texture");
        CUDA_EXTERNAL_MEMORY_HANDLE_DESC d{};
        d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
        d.handle.fd = exportFd();
        d.size = m_bytes;
        KS_CU(cuImportExternalMemory, &m_external, &d);
        CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC ad{};
        ad.arrayDesc.Width = kWidth;
        ad.arrayDesc.Height = kHeight;
        ad.arrayDesc.Format = CU_AD_FORMAT_UNSIGNED_INT8;
        ad.arrayDesc.NumChannels = 4;
        ad.arrayDesc.Flags = CUDA_ARRAY3D_SURFACE_LDST;
        ad.numLevels = 1;
        KS_CU(cuExternalMemoryGetMappedMipmappedArray, &m_mipmapped, m_external, &ad);
        CUarray level = nullptr;
        KS_CU(cuMipmappedArrayGetLevel, &level, m_mipmapped, 0);
        m_surface = cuda::SurfaceObject(level);
    }
    ~ImportedTexture()
    {
        glFinish();
        m_surface = {};
        if (m_mipmapped)
            KS_CU_NOTHROW(cuMipmappedArrayDestroy, m_mipmapped);
        if (m_external)
            KS_CU_NOTHROW(cuDestroyExternalMemory, m_external);
        glDeleteTextures(1, &m_texture);
        glDeleteMemoryObjectsEXT(1, &m_memory);
        if (m_handle)
            KS_CU_NOTHROW(cuMemRelease, m_handle);
    }
    ImportedTexture(const ImportedTexture&) = delete;
    ImportedTexture& operator=(const ImportedTexture&) = delete;
    GLuint texture() const { return m_texture; }
    CUsurfObject surface() const { return m_surface.get(); }

private:
    int exportFd() const
    {
        int fd = -1;
        KS_CU(cuMemExportToShareableHandle, &fd, m_handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
        return fd;
    }
    std::size_t m_bytes = 0;
    CUmemGenericAllocationHandle m_handle = 0;
    GLuint m_memory = 0, m_texture = 0;
    CUexternalMemory m_external = nullptr;
    CUmipmappedArray m_mipmapped = nullptr;
    cuda::SurfaceObject m_surface;
};

double steadyMs(int frames, CUstream stream, const std::function<void(int)>& body)
{
    for (int f = 0; f < 20; ++f)
        body(f);
    glFinish();
    KS_CU(cuStreamSynchronize, stream);
    const auto t0 = Clock::now();
    for (int f = 0; f < frames; ++f)
        body(f);
    glFinish();
    KS_CU(cuStreamSynchronize, stream);
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count() / frames;
}

} // namespace

int main(int argc, char** argv)
{
    int frames = 300;
    std::string jsonPath;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = std::max(20, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--json") && i + 1 < argc)
            jsonPath = argv[++i];
        else {
            std::fprintf(stderr, "usage: %s [--frames N] [--json FILE]\n", argv[0]);
            return 2;
        }
    }
    if (!cuda::driverStatus().available) {
        std::printf("no CUDA device (%s): nothing to measure\n", cuda::driverStatus().reason.c_str());
        return 0;
    }
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    try {
        gl::EglOptions eo;
        eo.cudaOrdinal = 0;
        gl::EglContext egl(eo);
        cuda::PrimaryContext ctx(0);
        cuda::Stream streamOwner(cuda::Stream::Create{});
        const CUstream stream = streamOwner.get();
        std::printf("GL: %s\nCUDA: %s\n", egl.description().c_str(), cuda::queryDevice(0).name.c_str());
        nlohmann::ordered_json json;
        json["device"] = cuda::queryDevice(0).name;

        gl::Texture2D image(kWidth, kHeight, GL_RGBA8, GL_NEAREST);
        gl::Framebuffer target(kWidth, kHeight);
        gl::Buffer pixels(std::size_t(kWidth) * kHeight * 4);
        GLuint imageFbo = 0;
        glCreateFramebuffers(1, &imageFbo);
        glNamedFramebufferTexture(imageFbo, GL_COLOR_ATTACHMENT0, image.name(), 0);
        GLuint vao = 0;
        glCreateVertexArrays(1, &vao);
        const gl::ShaderProgram quadProgram(kQuadVs, kQuadFs, "quad"), fetchProgram(kQuadVs, kTexelFetchFs, "fetch"),
            ssboProgram(kQuadVs, kSsboFs, "ssbo");
        const gl::ShaderProgram copyProgram = gl::ShaderProgram::compute(kCopyCs, "copy");
        const GLuint quad = quadProgram.name(), fetch = fetchProgram.name(), ssbo = ssboProgram.name(),
                     copy = copyProgram.name();
        gl::check("setup");

        using F = interop::RegisterFlags;
        interop::GraphicsResource texReg = interop::GraphicsResource::registerImage(
            image.name(), GL_TEXTURE_2D, F::SurfaceLoadStore | F::WriteDiscard);
        interop::GraphicsResource bufReg = interop::GraphicsResource::registerBuffer(pixels.name(), F::WriteDiscard);
        cuda::DeviceMemory plain(std::size_t(kWidth) * kHeight * 4);
        // A second texture, for frames that alternate between two.
        gl::Texture2D image2(kWidth, kHeight, GL_RGBA8, GL_NEAREST);
        interop::GraphicsResource texReg2 = interop::GraphicsResource::registerImage(
            image2.name(), GL_TEXTURE_2D, F::SurfaceLoadStore | F::WriteDiscard);
        const gl::ShaderProgram copySsboProgram = gl::ShaderProgram::compute(kCopySsboCs, "copy ssbo");

        // The CUDA side variants.
        std::optional<cuda::SurfaceObject> surface;
        CUarray surfaceArray = nullptr;
        auto cudaTexture = [&](int f) {
            interop::ScopedMap m({&texReg}, stream);
            CUarray a = m.array(0);
            if (a != surfaceArray)
                surface.emplace(a), surfaceArray = a;
            writeSurface<<<kGrid, kBlock, 0, stream>>>(surface->get(), kWidth, kHeight, f * 0.01f);
        };
        auto cudaBuffer = [&](int f) {
            interop::ScopedMap m({&bufReg}, stream);
            writeLinear<<<kGrid, kBlock, 0, stream>>>(m.pointer<uchar4>(0), kWidth, kHeight, f * 0.01f);
        };
        auto cudaPlain = [&](int f) {
            writeLinear<<<kGrid, kBlock, 0, stream>>>(reinterpret_cast<uchar4*>(plain.get()), kWidth, kHeight,
                                                      f * 0.01f);
        };
        std::optional<cuda::SurfaceObject> surface2;
        CUarray surfaceArray2 = nullptr;
        auto cudaTexturePingPong = [&](int f) {
            const bool second = f & 1;
            interop::ScopedMap m({second ? &texReg2 : &texReg}, stream);
            CUarray a = m.array(0);
            auto& s = second ? surface2 : surface;
            CUarray& known = second ? surfaceArray2 : surfaceArray;
            if (a != known)
                s.emplace(a), known = a;
            writeSurface<<<kGrid, kBlock, 0, stream>>>(s->get(), kWidth, kHeight, f * 0.01f);
        };
        // The kernel writes plain memory, then a device copy puts it into the mapped texture.
        auto cudaPlainThenCopy = [&](int f) {
            cudaPlain(f);
            interop::ScopedMap m({&texReg}, stream);
            CUDA_MEMCPY2D c{};
            c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
            c.srcDevice = plain.get();
            c.srcPitch = kWidth * 4;
            c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
            c.dstArray = m.array(0);
            c.WidthInBytes = kWidth * 4;
            c.Height = kHeight;
            KS_CU(cuMemcpy2DAsync, &c, stream);
        };
        // The GL side variants.
        auto clearTarget = [&] {
            target.bind();
            glClearColor(0.07f, 0.075f, 0.09f, 1.f);
            glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        };
        auto drawWith = [&](GLuint program) {
            target.bind();
            glBindVertexArray(vao);
            glUseProgram(program);
            glBindTextureUnit(0, image.name());
            glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, pixels.name());
            glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
        };
        auto blit = [&] {
            glBlitNamedFramebuffer(imageFbo, target.name(), 0, 0, kWidth, kHeight, 0, kHeight, kWidth, 0,
                                   GL_COLOR_BUFFER_BIT, GL_NEAREST);
        };
        auto copyImage = [&] {
            glCopyImageSubData(image.name(), GL_TEXTURE_2D, 0, 0, 0, 0, target.color().name(), GL_TEXTURE_2D, 0, 0,
                               0, 0, kWidth, kHeight, 1);
        };
        auto computeCopy = [&] {
            glUseProgram(copy);
            glBindImageTexture(0, image.name(), 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8);
            glBindImageTexture(1, target.color().name(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
            glDispatchCompute((kWidth + 15) / 16, (kHeight + 15) / 16, 1);
            glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT);
        };
        auto computeCopyFrom = [&](const gl::Texture2D& src) {
            glUseProgram(copy);
            glBindImageTexture(0, src.name(), 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8);
            glBindImageTexture(1, target.color().name(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
            glDispatchCompute((kWidth + 15) / 16, (kHeight + 15) / 16, 1);
            glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT);
        };
        auto computeCopySsbo = [&](GLuint buffer) {
            glUseProgram(copySsboProgram.name());
            glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
            glBindImageTexture(1, target.color().name(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
            glDispatchCompute((kWidth + 15) / 16, (kHeight + 15) / 16, 1);
            glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
        };
        auto upload = [&] {
            glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pixels.name());
            glTextureSubImage2D(image.name(), 0, 0, 0, kWidth, kHeight, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
            glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
        };

        struct Variant {
            const char* name;
            std::function<void(int)> body;
        };
        const std::vector<Variant> variants = {
            {"CUDA: kernel into plain device memory (no interop)", cudaPlain},
            {"CUDA: map texture + surface kernel + unmap", cudaTexture},
            {"CUDA: map buffer + linear kernel + unmap", cudaBuffer},
            {"GL: clear colour+depth", [&](int) { clearTarget(); }},
            {"GL: quad sampling the texture (no clear)", [&](int) { drawWith(quad); }},
            {"GL: clear + quad (the raster image view, replaced)", [&](int) { clearTarget(); drawWith(quad); }},
            {"GL: quad with texelFetch", [&](int) { drawWith(fetch); }},
            {"GL: quad reading the buffer (SSBO)", [&](int) { drawWith(ssbo); }},
            {"GL: blit framebuffer", [&](int) { blit(); }},
            {"GL: glCopyImageSubData", [&](int) { copyImage(); }},
            {"GL: compute-shader copy", [&](int) { computeCopy(); }},
            {"GL: PBO upload into the texture", [&](int) { upload(); }},
            {"both: texture + clear + quad (the raster image view)",
             [&](int f) { cudaTexture(f); clearTarget(); drawWith(quad); }},
            {"both: texture + quad", [&](int f) { cudaTexture(f); drawWith(quad); }},
            {"both: texture + blit", [&](int f) { cudaTexture(f); blit(); }},
            {"both: texture + glCopyImageSubData", [&](int f) { cudaTexture(f); copyImage(); }},
            {"both: texture + compute copy", [&](int f) { cudaTexture(f); computeCopy(); }},
            {"both: buffer + quad reading SSBO", [&](int f) { cudaBuffer(f); drawWith(ssbo); }},
            {"both: buffer + PBO upload + quad", [&](int f) { cudaBuffer(f); upload(); drawWith(quad); }},
            {"both: buffer + PBO upload + blit", [&](int f) { cudaBuffer(f); upload(); blit(); }},
            {"both: plain CUDA kernel + GL quad (no interop, no sync)", [&](int f) { cudaPlain(f); drawWith(quad); }},
            {"host-synced: plain kernel, stream sync, compute copy, glFinish",
             [&](int f) { cudaPlain(f); KS_CU(cuStreamSynchronize, stream); computeCopy(); glFinish(); }},
            {"host-synced: texture map/kernel/unmap, stream sync, compute copy, glFinish",
             [&](int f) { cudaTexture(f); KS_CU(cuStreamSynchronize, stream); computeCopy(); glFinish(); }},
            {"CUDA: map + unmap texture only (no kernel)",
             [&](int) { interop::ScopedMap m({&texReg}, stream); }},
            {"CUDA: map + unmap texture, then stream sync",
             [&](int) { { interop::ScopedMap m({&texReg}, stream); } KS_CU(cuStreamSynchronize, stream); }},
            {"CUDA: map + unmap texture, then glFinish",
             [&](int) { { interop::ScopedMap m({&texReg}, stream); } glFinish(); }},
        };
        std::vector<Variant> all = variants;
        all.push_back({"CUDA: plain kernel, then stream sync (no GL)",
                       [&](int f) { cudaPlain(f); KS_CU(cuStreamSynchronize, stream); }});
        all.push_back({"GL: compute copy, then glFinish (no CUDA)", [&](int) { computeCopy(); glFinish(); }});
        all.push_back({"both: plain CUDA kernel + GL compute copy (no interop, no sync)",
                       [&](int f) { cudaPlain(f); computeCopy(); }});
        all.push_back({"both: plain kernel, stream sync, compute copy (no glFinish)",
                       [&](int f) { cudaPlain(f); KS_CU(cuStreamSynchronize, stream); computeCopy(); }});
        all.push_back({"both: plain kernel + compute copy, each pushed every frame (no ordering)",
                       [&](int f) { cudaPlain(f); (void)cuda::driver().cuStreamQuery(stream); computeCopy(); glFlush(); }});
        all.push_back({"CUDA: map + unmap, 2 textures alternating (no kernel)", [&](int f) {
                           interop::ScopedMap m({(f & 1) ? &texReg2 : &texReg}, stream);
                       }});
        all.push_back({"both: 2 textures alternating, map/kernel/unmap + compute copy", [&](int f) {
                           cudaTexturePingPong(f);
                           computeCopyFrom((f & 1) ? image2 : image);
                       }});
        all.push_back({"both: plain kernel + device copy into the mapped texture + compute copy",
                       [&](int f) { cudaPlainThenCopy(f); computeCopy(); }});

        // Memory CUDA shares with GL (ks/interop/gl_shared_memory.hpp): no map/unmap. A ring of R
        // buffers: frame f's CUDA work writes buffer f%R once GL's fence on its last reader (frame
        // f-R) has passed, and GL shows frame f-1 once its CUDA event has passed: ordered by the
        // host, one frame late. "Own texture" is what interop "shared" does: the kernel writes a CUDA
        // array, a copy puts it into the buffer.
        constexpr int kMaxRing = 4;
        std::vector<interop::GlSharedBuffer> sharedBuf;
        std::vector<cuda::Event> written;
        GLsync shown[kMaxRing] = {};
        double waitGlMs = 0, waitCudaMs = 0;
        cuda::Array ownArray;
        cuda::SurfaceObject ownSurface;
        auto resetRing = [&] {
            for (GLsync& s : shown)
                if (s)
                    glDeleteSync(s), s = nullptr;
            waitGlMs = waitCudaMs = 0;
        };
        auto sharedFrame = [&](int f, int ring, bool ownTexture, bool ordered) {
            const int k = f % ring;
            if (shown[k]) {
                const auto t0 = Clock::now();
                if (ordered)
                    glClientWaitSync(shown[k], GL_SYNC_FLUSH_COMMANDS_BIT, 1'000'000'000);
                waitGlMs += std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
                glDeleteSync(shown[k]);
                shown[k] = nullptr;
            }
            if (!ownTexture) {
                writeLinear<<<kGrid, kBlock, 0, stream>>>(reinterpret_cast<uchar4*>(sharedBuf[std::size_t(k)].pointer()),
                                                          kWidth, kHeight, f * 0.01f);
            } else {
                writeSurface<<<kGrid, kBlock, 0, stream>>>(ownSurface.get(), kWidth, kHeight, f * 0.01f);
                CUDA_MEMCPY2D c{};
                c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
                c.srcArray = ownArray.get();
                c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
                c.dstDevice = sharedBuf[std::size_t(k)].pointer();
                c.dstPitch = kWidth * 4;
                c.WidthInBytes = kWidth * 4;
                c.Height = kHeight;
                KS_CU(cuMemcpy2DAsync, &c, stream);
            }
            written[std::size_t(k)].record(stream);
            if (f > 0) {
                const int j = (f - 1) % ring;
                const auto t0 = Clock::now();
                if (ordered)
                    written[std::size_t(j)].synchronize();
                waitCudaMs += std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
                computeCopySsbo(sharedBuf[std::size_t(j)].buffer());
                shown[j] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
                glFlush();
            }
        };
        if (const std::string why = interop::glSharedMemoryUnsupported(); why.empty()) {
            for (int i = 0; i < kMaxRing; ++i) {
                sharedBuf.emplace_back(std::size_t(kWidth) * kHeight * 4);
                written.emplace_back(cuda::Event::Create{});
            }
            ownArray = cuda::Array(kWidth, kHeight, CU_AD_FORMAT_UNSIGNED_INT8, 4);
            ownSurface = cuda::SurfaceObject(ownArray.get());
            try {
                ImportedTexture imported;
                writeSurface<<<kGrid, kBlock, 0, stream>>>(imported.surface(), kWidth, kHeight, 0.5f);
                KS_CU(cuStreamSynchronize, stream);
                std::vector<unsigned char> px(std::size_t(kWidth) * kHeight * 4);
                glGetTextureImage(imported.texture(), 0, GL_RGBA, GL_UNSIGNED_BYTE, GLsizei(px.size()), px.data());
                gl::check("read the imported texture");
                std::size_t bad = 0;
                for (int y = 0; y < kHeight; ++y)
                    for (int x = 0; x < kWidth; ++x) {
                        const unsigned char* p = &px[(std::size_t(y) * kWidth + std::size_t(x)) * 4];
                        bad += p[0] != ((x ^ y) & 255) || p[1] != 127 || p[2] != ((x / 16 * 16) & 255) || p[3] != 255;
                    }
                std::printf("  one allocation as a GL texture and a CUDA array: %zu of %d texels differ between "
                            "CUDA's write and GL's read\n",
                            bad, kWidth * kHeight);
                json["importedTextureTexelsDiffering"] = bad;
            } catch (const Error& e) {
                std::printf("  one allocation as a GL texture and a CUDA array: %s\n", e.what());
            }
            static const std::string names[] = {
                "both: CUDA memory shared with GL (2 buffers, host-ordered) + compute copy",
                "both: CUDA memory shared with GL (3 buffers, host-ordered) + compute copy",
                "both: CUDA memory shared with GL (4 buffers, host-ordered) + compute copy"};
            for (int ring : {2, 3, 4})
                all.push_back({names[ring - 2].c_str(), [&, ring](int f) { sharedFrame(f, ring, false, true); }});
            all.push_back({"both: shared (3 buffers, NOT ordered: a bound) + compute copy",
                           [&](int f) { sharedFrame(f, 3, false, false); }});
            all.push_back({"both: own CUDA texture, copied into shared buffers (3, host-ordered) + compute copy",
                           [&](int f) { sharedFrame(f, 3, true, true); }});
        } else {
            std::printf("  (no shared-memory rows: %s)\n", why.c_str());
        }
        for (const Variant& v : all) {
            resetRing();
            const double ms = steadyMs(frames, stream, v.body);
            gl::check(v.name);
            std::printf("  %-62s %8.4f ms/frame\n", v.name, ms);
            if (waitGlMs + waitCudaMs > 0)
                std::printf("      host waits per frame: GL fence %.4f ms, CUDA event %.4f ms\n",
                            waitGlMs / (frames + 20), waitCudaMs / (frames + 20));
            json["rows"].push_back({{"name", v.name}, {"ms_per_frame", ms}});
        }
        resetRing();
        KS_CU(cuCtxSynchronize);
        glDeleteVertexArrays(1, &vao);
        glDeleteFramebuffers(1, &imageFbo);
        if (!jsonPath.empty())
            std::ofstream(jsonPath) << json.dump(2) << "\n";
    } catch (const Error& e) {
        std::fprintf(stderr, "ks_bench_display_paths: error: %s\n", e.what());
        return 1;
    }
    return 0;
}
