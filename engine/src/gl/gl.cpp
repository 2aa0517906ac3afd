#include "ks/gl/gl.hpp"

#include "ks/core/error.hpp"

#include <string_view>

#if defined(__SANITIZE_ADDRESS__)
#define KS_LEAK_CHECKED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KS_LEAK_CHECKED 1
#endif
#endif
#ifdef KS_LEAK_CHECKED
#include <dlfcn.h>
#include <link.h>
#endif

namespace ks::gl {

#ifdef KS_LEAK_CHECKED
// AddressSanitizer builds only: every library loaded now (the GL driver among them) stays loaded
// until exit. Mesa unloads its DRI driver when the display is terminated; LeakSanitizer then finds
// the driver's still-live allocations reachable from nowhere, in a module it can neither name nor
// suppress. Kept loaded, they are reachable from the driver's globals and nothing is reported.
static void keepLoadedLibrariesLoaded()
{
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void*) -> int {
            if (info->dlpi_name && *info->dlpi_name)
                (void)dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
            return 0;
        },
        nullptr);
}
#endif

std::string loadFunctions(ProcLoader loader)
{
#ifdef KS_LEAK_CHECKED
    keepLoadedLibrariesLoaded();
#endif
    int version = gladLoadGL(reinterpret_cast<GLADloadfunc>(loader));
    if (version == 0)
        throw Error(ErrorDomain::Gl, "gladLoadGL", 0, "", "could not load OpenGL entry points from the current context");
    int major = GLAD_VERSION_MAJOR(version), minor = GLAD_VERSION_MINOR(version);
    if (major < 4 || (major == 4 && minor < 5))
        throw Error(ErrorDomain::Gl, "gladLoadGL", version, "",
                    "OpenGL 4.5 core is required, the context offers " + std::to_string(major) + "." +
                        std::to_string(minor));
    const GLubyte* v = glGetString(GL_VERSION);
    return v ? reinterpret_cast<const char*>(v) : "";
}

std::string errorName(unsigned error)
{
    switch (error) {
    case GL_NO_ERROR: return "GL_NO_ERROR";
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    case GL_STACK_UNDERFLOW: return "GL_STACK_UNDERFLOW";
    case GL_STACK_OVERFLOW: return "GL_STACK_OVERFLOW";
    }
    return "GL error " + std::to_string(error);
}

namespace {
std::string describe(unsigned e)
{
    switch (e) {
    case GL_INVALID_ENUM: return "an enum argument is out of range";
    case GL_INVALID_VALUE: return "a numeric argument is out of range";
    case GL_INVALID_OPERATION: return "the operation is not allowed in the current state";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "the framebuffer object is not complete";
    case GL_OUT_OF_MEMORY: return "there is not enough memory left to execute the command";
    }
    return "";
}
} // namespace

void check(const char* call, std::source_location where)
{
    GLenum first = glGetError();
    if (first == GL_NO_ERROR)
        return;
    clearErrors(); // so that the next check does not report this call's leftovers
    std::string_view name(call);
    if (auto paren = name.find('('); paren != std::string_view::npos)
        name = name.substr(0, paren);
    throw Error(ErrorDomain::Gl, std::string(name), first, errorName(first), describe(first), where);
}

void clearErrors()
{
    for (int i = 0; i < 16 && glGetError() != GL_NO_ERROR; ++i) {
    }
}

ContextInfo contextInfo()
{
    auto str = [](GLenum e) {
        const GLubyte* s = glGetString(e);
        return s ? std::string(reinterpret_cast<const char*>(s)) : std::string();
    };
    return {str(GL_VENDOR), str(GL_RENDERER), str(GL_VERSION), str(GL_SHADING_LANGUAGE_VERSION)};
}

} // namespace ks::gl
