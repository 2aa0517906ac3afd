#include "version.hpp"

#include "ks/core/log.hpp"
#include "ks/cuda/driver.hpp"
#include "ks/gl/egl_context.hpp"
#include "ks/gl/gl.hpp"

#include <GLFW/glfw3.h>
#include <cuda.h>
#include <imgui.h>
#include <nvrtc.h>

#include <exception>

namespace ks::app {

namespace {

// 13000 -> "13.0"
std::string cudaVersion(int v)
{
    return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

std::string glVersion()
{
    // The context's own messages ("headless GL: ...") would only repeat what this line says.
    const log::Sink before = log::setSink([](log::Level, std::string_view) {});
    struct Restore {
        log::Sink sink;
        ~Restore() { log::setSink(std::move(sink)); }
    } restore{before};
    try {
        gl::EglContext egl{gl::EglOptions{}};
        const auto text = [](GLenum name) {
            const auto* s = reinterpret_cast<const char*>(glGetString(name));
            return std::string(s ? s : "?");
        };
        return text(GL_VERSION) + " (" + text(GL_RENDERER) + "; headless EGL: " + egl.description() + ")";
    } catch (const std::exception& e) {
        return std::string("unavailable (") + e.what() + ")";
    }
}

} // namespace

std::string versionText()
{
    return versionText(glVersion());
}

std::string versionText(const std::string& gl)
{
    std::string out = std::string("kernelscope ") + KS_VERSION + " (commit " + kGitCommit + ")\n";
    out += "CUDA toolkit (built with): " + cudaVersion(CUDA_VERSION) + "\n";
    const cuda::DriverStatus& driver = cuda::driverStatus();
    if (driver.driverVersion > 0)
        out += "CUDA driver: " + cudaVersion(driver.driverVersion) + ", " + std::to_string(driver.deviceCount) +
               " device(s)" + (driver.available ? "" : " (" + driver.reason + ")") + "\n";
    else
        out += "CUDA driver: " +
               (driver.reason.rfind("CUDA driver ", 0) == 0 ? driver.reason.substr(12) : driver.reason) + "\n";
    int major = 0, minor = 0;
    nvrtcVersion(&major, &minor);
    out += "NVRTC: " + std::to_string(major) + "." + std::to_string(minor) + "\n";
    out += "OpenGL: " + gl + "\n";
    out += std::string("Dear ImGui: ") + IMGUI_VERSION + "\n";
    out += std::string("GLFW: ") + glfwGetVersionString();
    return out;
}

} // namespace ks::app
