#include "ks/gl/egl_context.hpp"

#include "ks/core/error.hpp"
#include "ks/core/log.hpp"
#include "ks/gl/gl.hpp"

#include <glad/egl.h>

#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

namespace ks::gl {
namespace {

[[noreturn]] void fail(const char* call, const std::string& what, std::source_location where = std::source_location::current())
{
    EGLint e = eglGetError ? eglGetError() : 0;
    char name[32];
    std::snprintf(name, sizeof name, "EGL error 0x%04x", unsigned(e));
    const char* known = nullptr;
    switch (e) {
    case EGL_NOT_INITIALIZED: known = "EGL_NOT_INITIALIZED"; break;
    case EGL_BAD_ACCESS: known = "EGL_BAD_ACCESS"; break;
    case EGL_BAD_ALLOC: known = "EGL_BAD_ALLOC"; break;
    case EGL_BAD_ATTRIBUTE: known = "EGL_BAD_ATTRIBUTE"; break;
    case EGL_BAD_CONFIG: known = "EGL_BAD_CONFIG"; break;
    case EGL_BAD_CONTEXT: known = "EGL_BAD_CONTEXT"; break;
    case EGL_BAD_DISPLAY: known = "EGL_BAD_DISPLAY"; break;
    case EGL_BAD_MATCH: known = "EGL_BAD_MATCH"; break;
    case EGL_BAD_PARAMETER: known = "EGL_BAD_PARAMETER"; break;
    default: break;
    }
    throw Error(ErrorDomain::Egl, call, e, known ? known : name, what, where);
}

bool hasExtension(const char* list, std::string_view ext)
{
    if (!list)
        return false;
    std::string_view all(list);
    std::size_t pos = 0;
    while ((pos = all.find(ext, pos)) != std::string_view::npos) {
        const bool startOk = pos == 0 || all[pos - 1] == ' ';
        const bool endOk = pos + ext.size() == all.size() || all[pos + ext.size()] == ' ';
        if (startOk && endOk)
            return true;
        pos += ext.size();
    }
    return false;
}

void* eglProc(const char* name)
{
    return reinterpret_cast<void*>(eglGetProcAddress(name));
}

} // namespace

struct EglContext::State {
    EGLDisplay display = EGL_NO_DISPLAY;
    EGLContext context = EGL_NO_CONTEXT;
    std::string description;
    int cudaOrdinal = -1;

    ~State()
    {
        if (display == EGL_NO_DISPLAY)
            return;
        eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        if (context != EGL_NO_CONTEXT)
            eglDestroyContext(display, context);
        eglTerminate(display);
    }
};

EglContext::EglContext() noexcept = default;
EglContext::~EglContext() = default;
EglContext::EglContext(EglContext&&) noexcept = default;
EglContext& EglContext::operator=(EglContext&&) noexcept = default;

EglContext::EglContext(const EglOptions& options) : m_state(std::make_unique<State>())
{
    if (!gladLoaderLoadEGL(EGL_NO_DISPLAY))
        throw Error(ErrorDomain::Egl, "gladLoaderLoadEGL", 0, "",
                    "libEGL.so.1 could not be loaded (install libegl1 and a GL driver: Mesa or NVIDIA's)");
    State& s = *m_state;

    // Choose an EGL device: the one that is the requested CUDA device, else any CUDA device, else
    // Mesa's software device, else the first. KS_EGL_DEVICE=N forces device N.
    if (eglQueryDevicesEXT && eglGetPlatformDisplayEXT) {
        EGLint count = 0;
        eglQueryDevicesEXT(0, nullptr, &count);
        std::vector<EGLDeviceEXT> devices(std::size_t(count > 0 ? count : 0));
        if (count > 0)
            eglQueryDevicesEXT(count, devices.data(), &count);
        int chosen = -1, anyCuda = -1, software = -1;
        std::vector<int> cudaOrdinals(devices.size(), -1);
        for (std::size_t i = 0; i < devices.size(); ++i) {
            const char* ext = eglQueryDeviceStringEXT(devices[i], EGL_EXTENSIONS);
            if (hasExtension(ext, "EGL_NV_device_cuda")) {
                EGLAttrib ordinal = -1;
                if (eglQueryDeviceAttribEXT(devices[i], EGL_CUDA_DEVICE_NV, &ordinal))
                    cudaOrdinals[i] = int(ordinal);
                if (anyCuda < 0)
                    anyCuda = int(i);
                if (options.cudaOrdinal >= 0 && cudaOrdinals[i] == options.cudaOrdinal && chosen < 0)
                    chosen = int(i);
            }
            if (hasExtension(ext, "EGL_MESA_device_software") && software < 0)
                software = int(i);
        }
        if (const char* force = std::getenv("KS_EGL_DEVICE"); force && *force) {
            int n = std::atoi(force);
            if (n >= 0 && n < int(devices.size()))
                chosen = n;
        }
        if (chosen < 0)
            chosen = anyCuda >= 0 ? anyCuda : software >= 0 ? software : devices.empty() ? -1 : 0;
        if (chosen >= 0) {
            s.display = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[std::size_t(chosen)], nullptr);
            s.cudaOrdinal = cudaOrdinals[std::size_t(chosen)];
            s.description = s.cudaOrdinal >= 0 ? "NVIDIA EGL device (CUDA device " + std::to_string(s.cudaOrdinal) + ")"
                            : chosen == software ? std::string("Mesa software EGL device")
                                                 : "EGL device " + std::to_string(chosen);
        }
    }
    if (s.display == EGL_NO_DISPLAY && eglGetPlatformDisplayEXT) {
        s.display = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
        s.description = "Mesa surfaceless platform";
    }
    if (s.display == EGL_NO_DISPLAY)
        fail("eglGetPlatformDisplayEXT", "no EGL device or surfaceless platform is available");

    EGLint major = 0, minor = 0;
    if (!eglInitialize(s.display, &major, &minor)) {
        s.display = EGL_NO_DISPLAY;
        fail("eglInitialize", "could not initialise the EGL display of " + s.description);
    }
    gladLoaderLoadEGL(s.display); // now with the display's extensions
    if (!eglBindAPI(EGL_OPENGL_API))
        fail("eglBindAPI", "the EGL display does not offer desktop OpenGL");

    // The device platform has no windows: ask for pbuffer-capable configs, and fall back to
    // EGL_KHR_no_config_context where a driver offers no config at all.
    const EGLint configAttribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                    EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint configs = 0;
    if (!eglChooseConfig(s.display, configAttribs, &config, 1, &configs) || configs == 0) {
        if (!GLAD_EGL_KHR_no_config_context)
            fail("eglChooseConfig", "no RGBA8 OpenGL config on " + s.description);
        config = EGL_NO_CONFIG_KHR;
    }

    const EGLint contextAttribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                                     EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                     EGL_CONTEXT_OPENGL_DEBUG, options.debugContext ? EGL_TRUE : EGL_FALSE,
                                     EGL_NONE};
    s.context = eglCreateContext(s.display, config, EGL_NO_CONTEXT, contextAttribs);
    if (s.context == EGL_NO_CONTEXT)
        fail("eglCreateContext", "could not create an OpenGL 4.5 core context on " + s.description);
    makeCurrent();
    loadFunctions(&eglProc);
    const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    if (renderer)
        s.description += std::string(", ") + renderer;
    log::info("headless GL: " + s.description + ", EGL " + std::to_string(major) + "." + std::to_string(minor));
}

bool EglContext::empty() const noexcept
{
    return !m_state || m_state->context == EGL_NO_CONTEXT;
}

void EglContext::makeCurrent() const
{
    if (empty())
        throwUsage("EglContext::makeCurrent", "the context is empty");
    if (!eglMakeCurrent(m_state->display, EGL_NO_SURFACE, EGL_NO_SURFACE, m_state->context))
        fail("eglMakeCurrent", "could not make the headless context current (surfaceless contexts need "
                               "EGL_KHR_surfaceless_context)");
}

const std::string& EglContext::description() const noexcept
{
    static const std::string none;
    return m_state ? m_state->description : none;
}

int EglContext::cudaOrdinal() const noexcept
{
    return m_state ? m_state->cudaOrdinal : -1;
}

} // namespace ks::gl
