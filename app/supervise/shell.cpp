// The window as a supervising shell (docs/architecture.md, "Processes"): GLFW window, input and
// the screen here; CUDA, the App and every panel in a worker process (worker.cpp) that renders the
// whole window offscreen into shared frame memory. When the worker faults, dies, stops answering,
// or runs a frame past the limit and the user stops it, a new worker is started and given the
// state the shell kept, with what happened.
#include "platform/platforms.hpp"
#include "platform/app_window.hpp"
#include "platform/mesa_cache_guard.hpp"
#include "app.hpp"
#include "supervise/protocol.hpp"
#include "supervise/shell_link.hpp"
#include "supervise/shell_screen.hpp"

#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/gl/gl.hpp"
#include "ks/gl/objects.hpp"
#include "ks/io/image.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <cstdio>
#include <filesystem>

namespace ks::app {

namespace {


// Input since the last frame request, from GLFW's callbacks (ImGui's backend chains to these).
std::vector<supervise::InputEvent> g_input;
bool g_pasteAsked = false;

void onKey(GLFWwindow*, int key, int, int action, int mods)
{
    g_input.push_back({"key", key, action, mods});
    const bool ctrl = mods & GLFW_MOD_CONTROL, shift = mods & GLFW_MOD_SHIFT;
    if (action == GLFW_PRESS && ((ctrl && key == GLFW_KEY_V) || (shift && key == GLFW_KEY_INSERT)))
        g_pasteAsked = true;
}
void onChar(GLFWwindow*, unsigned c)
{
    g_input.push_back({"char", int(c)});
}
void onPos(GLFWwindow*, double x, double y)
{
    g_input.push_back({"pos", 0, 0, 0, x, y});
}
void onButton(GLFWwindow*, int button, int action, int mods)
{
    g_input.push_back({"button", button, action, mods});
}
void onScroll(GLFWwindow*, double x, double y)
{
    g_input.push_back({"scroll", 0, 0, 0, x, y});
}
void onFocus(GLFWwindow*, int focused)
{
    g_input.push_back({"focus", focused});
}
// Files dropped on the window: the worker's App takes them where the pointer is.
void onDrop(GLFWwindow* window, int count, const char** paths)
{
    supervise::InputEvent e{"drop"};
    glfwGetCursorPos(window, &e.x, &e.y);
    e.paths.assign(paths, paths + count);
    g_input.push_back(std::move(e));
}

struct ShellImGui {
    ShellImGui(GLFWwindow* window, const AppOptions& options)
    {
        IMGUI_CHECKVERSION();
        ImGui::CreateContext();
        ImGui::GetIO().IniFilename = nullptr;
        fonts = loadFonts(options);
        applyStyle(options.uiScale);
        ImGui_ImplGlfw_InitForOpenGL(window, true); // chains to the forwarding callbacks set before
        ImGui_ImplOpenGL3_Init("#version 450 core");
    }
    ~ShellImGui()
    {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
    }
    ShellImGui(const ShellImGui&) = delete;
    ShellImGui& operator=(const ShellImGui&) = delete;
    UiFonts fonts;
};

void* glfwProc(const char* name)
{
    return reinterpret_cast<void*>(glfwGetProcAddress(name));
}

// The shell's own dialog over the last frame: a worker starting, replaced, or running a frame past
// the limit. Returns the button pressed (-1: none).
int dialog(const std::string& title, const std::string& text, std::initializer_list<const char*> buttons)
{
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.4f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(std::min(640.f, display.x - 20.f), 0));
    ImGui::Begin(title.c_str(), nullptr,
                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize);
    ImGui::PushTextWrapPos(0.f);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    int pressed = -1, i = 0;
    for (const char* b : buttons) {
        if (i)
            ImGui::SameLine();
        if (ImGui::Button(b))
            pressed = i;
        ++i;
    }
    ImGui::End();
    return pressed;
}

} // namespace

int runSupervisedWindow(const AppOptions& given)
{
    AppWindow window(given);
    AppOptions options = given;
    options.uiScale = window.uiScale(given); // the GPU process draws the panels at it too
    gl::loadFunctions(&glfwProc);
    allocateMesaShaderCacheIndex();
    glfwSetKeyCallback(window.handle(), onKey);
    glfwSetCharCallback(window.handle(), onChar);
    glfwSetCursorPosCallback(window.handle(), onPos);
    glfwSetMouseButtonCallback(window.handle(), onButton);
    glfwSetScrollCallback(window.handle(), onScroll);
    glfwSetWindowFocusCallback(window.handle(), onFocus);
    glfwSetDropCallback(window.handle(), onDrop);
    ShellImGui imgui(window.handle(), options);

    ShellLink::Config config = ShellLink::windowConfig(options, workerExecutable());
    config.shellGl = ShellScreen::shellGl();
    ShellLink link(std::move(config));
    ShellScreen screen;
    int shown = 0;
    const double start = glfwGetTime();
    double last = start;
    bool quitting = false;
    while (!glfwWindowShouldClose(window.handle()) && !quitting) {
        glfwPollEvents();
        int fbw = 0, fbh = 0;
        glfwGetFramebufferSize(window.handle(), &fbw, &fbh);

        // Ask the worker for a frame with the input so far: at the top when nothing is on its way,
        // and again as soon as a frame arrives, so that the worker renders the next frame while
        // this loop draws and swaps (one frame in flight: the input shown is never more than a
        // frame old).
        auto ask = [&] {
            if (!link.readyForFrame())
                return;
            const double at = glfwGetTime();
            supervise::FrameRequest request;
            request.width = std::max(1, fbw);
            request.height = std::max(1, fbh);
            request.time = at - start;
            request.dt = at - last;
            request.input = std::move(g_input);
            g_input.clear();
            if (g_pasteAsked) {
                const char* text = glfwGetClipboardString(window.handle());
                request.clipboard = text ? std::string(text) : std::string();
                g_pasteAsked = false;
            }
            screen.finishReading(); // the worker writes this frame where an older one was
            link.requestFrame(request);
            last = at;
        };
        if (link.framesInFlight() == 0)
            ask();
        if (const std::optional<ShellLink::Frame> frame = link.pump(std::chrono::milliseconds(50))) {
            shown += screen.take(*frame, link);
            glfwPollEvents(); // input up to now goes with the next request
            ask();
        }
        if (const std::string clip = link.takeClipboard(); !clip.empty())
            glfwSetClipboardString(window.handle(), clip.c_str());

        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        if (imgui.fonts.ui)
            ImGui::PushFont(imgui.fonts.ui);
        switch (link.dialog()) {
        case ShellLink::Dialog::None: break;
        case ShellLink::Dialog::Starting:
            dialog("Kernelscope", link.dialogText(), {});
            break;
        case ShellLink::Dialog::FrameTooLong: {
            const int b = dialog("A frame has not finished", link.dialogText(), {"Wait", "Stop the kernel"});
            if (b == 0)
                link.wait();
            else if (b == 1)
                link.stopAndRestore();
            break;
        }
        case ShellLink::Dialog::GaveUp: {
            const int b = dialog("The GPU process cannot start", link.dialogText(), {"Try again", "Quit"});
            if (b == 0)
                link.retry();
            else if (b == 1)
                quitting = true;
            break;
        }
        }
        if (imgui.fonts.ui)
            ImGui::PopFont();
        ImGui::Render();

        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, fbw, fbh);
        glClearColor(0.05f, 0.05f, 0.06f, 1.f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        screen.blit(fbh); // the worker's frame, pixel for pixel
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        const bool lastFrame = options.framesGiven && shown >= options.frames;
        if (lastFrame && !options.screenshot.empty()) {
            glReadBuffer(GL_BACK);
            io::writePng(options.screenshot, {fbw, fbh, gl::readPixelsTopDown(0, 0, fbw, fbh)});
            std::printf("kernelscope: wrote screenshot %s (%dx%d window, after %d frames of the GPU process)\n",
                        std::filesystem::absolute(options.screenshot).c_str(), fbw, fbh, shown);
        }
        glfwSwapBuffers(window.handle());
        if (lastFrame)
            break;
    }
    link.quit();
    std::printf("kernelscope: %s\n", link.lastStatus().c_str());
    return 0;
}

} // namespace ks::app
