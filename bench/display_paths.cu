// ks_bench_display_paths: ways to write a 1920x1080 image with CUDA and show it with GL, each timed
// as a steady loop (N frames queued, total wall time / N), headless on the EGL device platform.
// It answers where a frame's time goes on a data-centre GPU whose graphics pipe is small: the CUDA
// side (map, kernel, unmap of a registered texture or buffer), the GL side (clear, a full-screen
// quad, a blit, a copy, a compute pass) and their combinations.
//   ks_bench_display_paths [--frames N] [--json FILE]
#include "ks/core/error.hpp"
#include "ks/cuda/context.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/driver.hpp"
#include "ks/cuda/graphics_resource.hpp"
#include "ks/cuda/memory.hpp"
#include "ks/cuda/stream.hpp"
#include "ks/cuda/surface.hpp"
#include "ks/gl/egl_context.hpp"
#include "ks/gl/objects.hpp"

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

        using F = cuda::RegisterFlags;
        cuda::GraphicsResource texReg =
            cuda::GraphicsResource::registerImage(image.name(), GL_TEXTURE_2D, F::SurfaceLoadStore | F::WriteDiscard);
        cuda::GraphicsResource bufReg = cuda::GraphicsResource::registerBuffer(pixels.name(), F::WriteDiscard);
        cuda::DeviceMemory plain(std::size_t(kWidth) * kHeight * 4);

        // The CUDA side variants.
        std::optional<cuda::SurfaceObject> surface;
        CUarray surfaceArray = nullptr;
        auto cudaTexture = [&](int f) {
            cuda::ScopedMap m({&texReg}, stream);
            CUarray a = m.array(0);
            if (a != surfaceArray)
                surface.emplace(a), surfaceArray = a;
            writeSurface<<<kGrid, kBlock, 0, stream>>>(surface->get(), kWidth, kHeight, f * 0.01f);
        };
        auto cudaBuffer = [&](int f) {
            cuda::ScopedMap m({&bufReg}, stream);
            writeLinear<<<kGrid, kBlock, 0, stream>>>(m.pointer<uchar4>(0), kWidth, kHeight, f * 0.01f);
        };
        auto cudaPlain = [&](int f) {
            writeLinear<<<kGrid, kBlock, 0, stream>>>(reinterpret_cast<uchar4*>(plain.get()), kWidth, kHeight,
                                                      f * 0.01f);
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
             [&](int) { cuda::ScopedMap m({&texReg}, stream); }},
            {"CUDA: map + unmap texture, then stream sync",
             [&](int) { { cuda::ScopedMap m({&texReg}, stream); } KS_CU(cuStreamSynchronize, stream); }},
            {"CUDA: map + unmap texture, then glFinish",
             [&](int) { { cuda::ScopedMap m({&texReg}, stream); } glFinish(); }},
        };
        for (const Variant& v : variants) {
            const double ms = steadyMs(frames, stream, v.body);
            gl::check(v.name);
            std::printf("  %-62s %8.4f ms/frame\n", v.name, ms);
            json["rows"].push_back({{"name", v.name}, {"ms_per_frame", ms}});
        }
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
