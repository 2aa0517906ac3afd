#pragma once
// The app's desktop window (GLFW, an OpenGL 4.5 core context), for the supervised shell and for
// --no-supervise runs alike. It opens where and as large as it was when the last window run
// closed (settings folder: window.json), unless --size says otherwise, and records that when it
// closes; headless runs, tests and --no-settings neither read nor write it.

#include <optional>
#include <string>

struct GLFWwindow;

namespace ks::app {

struct AppOptions;

std::string glfwErrorText(); // GLFW's last error, with its code

// Where the window was: its position and size in screen coordinates, and whether it was maximised.
struct WindowPlacement {
    int x = 0, y = 0, width = 0, height = 0;
    bool maximized = false;
};
std::optional<WindowPlacement> loadWindowPlacement(); // none saved, or unreadable (a warning says so)
void saveWindowPlacement(const WindowPlacement& placement);

// Initialises GLFW and opens the window with its context current and vsync on; throws ks::Error
// (suggesting --headless) when either fails. The destructor saves the placement (keepSettings),
// destroys the window and terminates GLFW.
class AppWindow {
public:
    explicit AppWindow(const AppOptions& options);
    ~AppWindow();
    AppWindow(const AppWindow&) = delete;
    AppWindow& operator=(const AppWindow&) = delete;
    GLFWwindow* handle() const noexcept { return m_handle; }
    // --ui-scale, else the monitor's content scale (2 on a 200% screen), within 0.5 to 4.
    float uiScale(const AppOptions& options) const;

private:
    GLFWwindow* m_handle = nullptr;
    bool m_keepPlacement = false;
};

} // namespace ks::app
