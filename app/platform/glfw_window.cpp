#include "platform/platforms.hpp"
#include "platform/app_window.hpp"
#include "platform/mesa_cache_guard.hpp"
#include "platform/recorder.hpp"

#include "app.hpp"
#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/gl/gl.hpp"
#include "ks/gl/objects.hpp"
#include "ks/io/image.hpp"

#include <filesystem>

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace ks::app {

namespace {

struct ImGuiGlfw {
    ImGuiGlfw(GLFWwindow* window, const AppOptions& options)
    {
        IMGUI_CHECKVERSION();
        ImGui::CreateContext();
        ImGui::GetIO().IniFilename = nullptr;
        fonts = loadFonts(options);
        applyStyle(options.uiScale);
        ImGui_ImplGlfw_InitForOpenGL(window, true);
        ImGui_ImplOpenGL3_Init("#version 450 core");
    }
    UiFonts fonts;
    ~ImGuiGlfw()
    {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
    }
};

// Files dropped on the window since the last frame, and where the pointer was.
struct Drop {
    std::vector<std::filesystem::path> paths;
    double x = 0, y = 0;
};
std::vector<Drop> g_drops;

void onDrop(GLFWwindow* window, int count, const char** paths)
{
    Drop d{{paths, paths + count}};
    glfwGetCursorPos(window, &d.x, &d.y);
    g_drops.push_back(std::move(d));
}

void* glfwProc(const char* name)
{
    return reinterpret_cast<void*>(glfwGetProcAddress(name));
}

} // namespace

int runWindowed(const AppOptions& given)
{
    const std::filesystem::path dataRoot = paths::dataRoot(given.dataDir);
    AppWindow window(given);
    AppOptions options = given;
    options.uiScale = window.uiScale(given);
    gl::loadFunctions(&glfwProc);
    allocateMesaShaderCacheIndex();
    ImGuiGlfw imgui(window.handle(), options);
    glfwSetDropCallback(window.handle(), onDrop); // ImGui's backend sets no drop callback
    int major = 0, minor = 0, rev = 0;
    glfwGetVersion(&major, &minor, &rev);
    App app(options, dataRoot,
            "GLFW " + std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(rev) + " window",
            imgui.fonts);

    double last = glfwGetTime();
    const double start = last;
    int frame = 0;
    AppRecording recording; // the Record window's
    // --record: the whole window, every --record-every-th frame, as a headless run records; the
    // video's rate is 1 / --time-step, whatever rate the window draws at.
    FrameRecorder commandLineRecording(options.record, options.recordEvery, double(options.timeStep));
    while (!glfwWindowShouldClose(window.handle())) {
        glfwPollEvents();
        for (Drop& d : std::exchange(g_drops, {}))
            app.dropFiles(std::move(d.paths), float(d.x), float(d.y));
        const double now = glfwGetTime();
        const float dt = float(now - last);
        last = now;
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        // A run of a given length shows finished builds in its last frame (as headless does).
        if (options.framesGiven && frame + 1 == options.frames)
            app.settleBuilds(std::chrono::seconds(60));
        app.frame(float(now - start), dt);
        ImGui::Render();
        int fbw = 0, fbh = 0;
        glfwGetFramebufferSize(window.handle(), &fbw, &fbh);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, fbw, fbh);
        glClearColor(0.05f, 0.05f, 0.06f, 1.f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        auto capture = [&] {
            glReadBuffer(GL_BACK);
            return io::Rgba8Image{fbw, fbh, gl::readPixelsTopDown(0, 0, fbw, fbh)};
        };
        ++frame;
        recording.afterFrame(app, capture);
        commandLineRecording.frameDone(frame, capture);
        const bool lastFrame = options.framesGiven && frame >= options.frames;
        if (lastFrame && !options.screenshot.empty()) {
            glReadBuffer(GL_BACK);
            io::writePng(options.screenshot, {fbw, fbh, gl::readPixelsTopDown(0, 0, fbw, fbh)});
            std::printf("kernelscope: wrote screenshot %s (%dx%d window, after %d frames)\n",
                        std::filesystem::absolute(options.screenshot).c_str(), fbw, fbh, frame);
        }
        glfwSwapBuffers(window.handle());
        if (lastFrame)
            break;
    }
    commandLineRecording.finish();
    commandLineRecording.report();
    return 0;
}

} // namespace ks::app
