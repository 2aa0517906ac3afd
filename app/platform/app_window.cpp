#include "platform/app_window.hpp"

#include "cli/options.hpp"
#include "ks/core/atomic_file.hpp"
#include "ks/core/error.hpp"
#include "ks/core/log.hpp"
#include "ks/core/paths.hpp"

#include <GLFW/glfw3.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

namespace ks::app {

namespace fs = std::filesystem;

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(WindowPlacement, x, y, width, height, maximized)

namespace {

fs::path placementFile()
{
    const fs::path folder = paths::userFolder(paths::UserFolder::Config);
    return folder.empty() ? fs::path() : folder / "window.json";
}

} // namespace

std::string glfwErrorText()
{
    const char* text = nullptr;
    int code = glfwGetError(&text);
    return text ? std::string(text) + " (GLFW error " + std::to_string(code) + ")" : "unknown GLFW error";
}

std::optional<WindowPlacement> loadWindowPlacement()
{
    const fs::path file = placementFile();
    std::error_code ec;
    if (file.empty() || !fs::exists(file, ec))
        return std::nullopt;
    try {
        const WindowPlacement p = nlohmann::json::parse(paths::readTextFile(file)).get<WindowPlacement>();
        if (p.width < 1 || p.height < 1 || p.width > kMaxImageSide || p.height > kMaxImageSide)
            throw Error(ErrorDomain::Usage, "window.json", 0, "", "a size outside 1 to 16384");
        return p;
    } catch (const std::exception& e) {
        log::warning("the window's saved place in " + file.string() + " is not used: " + e.what());
        return std::nullopt;
    }
}

void saveWindowPlacement(const WindowPlacement& placement)
{
    const fs::path file = placementFile();
    if (file.empty())
        return;
    try {
        std::error_code ec;
        fs::create_directories(file.parent_path(), ec);
        paths::writeFileAtomically(file, nlohmann::json(placement).dump());
    } catch (const Error& e) {
        log::warning(std::string("cannot keep the window's place: ") + e.what());
    }
}

AppWindow::AppWindow(const AppOptions& options) : m_keepPlacement(options.keepSettings)
{
    const std::optional<WindowPlacement> saved = options.keepSettings ? loadWindowPlacement() : std::nullopt;
    const bool useSaved = saved && !options.sizeGiven;
    if (!glfwInit())
        throw Error(ErrorDomain::System, "glfwInit", 0, "", glfwErrorText());
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    // --size and the default are at 100%: grown on a scaled monitor. A saved size is as it was.
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, useSaved ? GLFW_FALSE : GLFW_TRUE);
    glfwWindowHint(GLFW_MAXIMIZED, useSaved && saved->maximized ? GLFW_TRUE : GLFW_FALSE);
    m_handle = glfwCreateWindow(useSaved ? saved->width : options.width, useSaved ? saved->height : options.height,
                                "Kernelscope", nullptr, nullptr);
    if (!m_handle) {
        const std::string why = glfwErrorText();
        glfwTerminate();
        throw Error(ErrorDomain::Gl, "glfwCreateWindow", 0, "",
                    "cannot open a window with an OpenGL 4.5 core context: " + why + " (try --headless)");
    }
    // A place only on a monitor that is still there (a laptop's external screen may be gone).
    if (useSaved && !saved->maximized) {
        int count = 0;
        GLFWmonitor** monitors = glfwGetMonitors(&count);
        for (int i = 0; i < count; ++i) {
            int mx = 0, my = 0, mw = 0, mh = 0;
            glfwGetMonitorWorkarea(monitors[i], &mx, &my, &mw, &mh);
            if (saved->x >= mx && saved->y >= my && saved->x < mx + mw && saved->y < my + mh) {
                glfwSetWindowPos(m_handle, saved->x, saved->y);
                break;
            }
        }
    }
    glfwMakeContextCurrent(m_handle);
    glfwSwapInterval(1);
}

float AppWindow::uiScale(const AppOptions& options) const
{
    if (options.uiScale > 0)
        return options.uiScale;
    float x = 1.f, y = 1.f;
    glfwGetWindowContentScale(m_handle, &x, &y);
    const float scale = std::clamp(std::isfinite(x) ? x : 1.f, 0.5f, 4.f);
    if (scale != 1.f) {
        char text[96];
        std::snprintf(text, sizeof text, "UI scale %.2f: the screen's content scale (--ui-scale sets another)", double(scale));
        log::info(text);
    }
    return scale;
}

AppWindow::~AppWindow()
{
    if (m_keepPlacement) {
        WindowPlacement p;
        p.maximized = glfwGetWindowAttrib(m_handle, GLFW_MAXIMIZED) == GLFW_TRUE;
        glfwGetWindowPos(m_handle, &p.x, &p.y);
        glfwGetWindowSize(m_handle, &p.width, &p.height);
        if (p.width > 0 && p.height > 0)
            saveWindowPlacement(p);
    }
    glfwDestroyWindow(m_handle);
    glfwTerminate();
}

} // namespace ks::app
