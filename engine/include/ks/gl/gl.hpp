#pragma once
// The engine's GL entry: glad's generated GL 4.5 core loader, and error checking.
// Every function here needs a current GL context on the calling thread.

#include <glad/gl.h>

#include <source_location>
#include <string>

namespace ks::gl {

using ProcLoader = void* (*)(const char* name);

// Loads GL entry points through `loader` (eglGetProcAddress, glfwGetProcAddress). Throws
// ks::Error when the context is not GL 4.5 core capable. Returns "4.5 (Core Profile) Mesa ...".
std::string loadFunctions(ProcLoader loader);

// Throws ks::Error naming `call` if glGetError reports an error (drains all pending errors).
void check(const char* call, std::source_location where = std::source_location::current());

// Drains GL's pending errors (at most 16: a lost context may report one for ever).
void clearErrors();

// "GL_INVALID_ENUM"
std::string errorName(unsigned error);

struct ContextInfo {
    std::string vendor, renderer, version, glsl;
};
ContextInfo contextInfo();

} // namespace ks::gl

// KS_GL(glTexImage2D(...)): makes the call, then throws naming "glTexImage2D" if it failed.
#define KS_GL(call_expr)                                                                                   \
    do {                                                                                                   \
        call_expr;                                                                                         \
        ::ks::gl::check(#call_expr);                                                                       \
    } while (0)
