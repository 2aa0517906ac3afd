#include "platforms.hpp"

#include "app.hpp"
#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/cuda/driver.hpp"
#include "ks/gl/egl_context.hpp"
#include "ks/gl/objects.hpp"
#include "ks/image/png.hpp"

#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

namespace ks::app {

namespace {

// ImGui's context and OpenGL3 backend for the lifetime of the object.
struct ImGuiGl {
    explicit ImGuiGl(const AppOptions& options, float width, float height)
    {
        IMGUI_CHECKVERSION();
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr; // deterministic layout: screenshots must not depend on a saved file
        io.DisplaySize = ImVec2(width, height);
        loadFonts(options);
        applyStyle();
        ImGui_ImplOpenGL3_Init("#version 450 core");
    }
    ~ImGuiGl()
    {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui::DestroyContext();
    }
    ImGuiGl(const ImGuiGl&) = delete;
    ImGuiGl& operator=(const ImGuiGl&) = delete;
};

} // namespace

int runHeadless(const AppOptions& options)
{
    const std::filesystem::path dataRoot = paths::dataRoot(options.dataDir);
    gl::EglOptions eglOptions;
    if (cuda::driverStatus().available)
        eglOptions.cudaOrdinal = options.device;
    gl::EglContext context(eglOptions);
    ImGuiGl imgui(options, float(options.width), float(options.height));
    gl::Framebuffer window(options.width, options.height);
    App app(options, dataRoot, context.description());

    using Clock = std::chrono::steady_clock;
    auto last = Clock::now();
    for (int frame = 0; frame < options.frames; ++frame) {
        const auto now = Clock::now();
        const float wall = std::chrono::duration<float>(now - last).count();
        last = now;
        ImGui::GetIO().DeltaTime = options.timeStep;
        ImGui_ImplOpenGL3_NewFrame();
        ImGui::NewFrame();
        app.frame(float(frame) * options.timeStep, frame == 0 ? options.timeStep : wall);
        ImGui::Render();
        window.bind();
        glClearColor(0.05f, 0.05f, 0.06f, 1.f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
    }
    glFinish();
    std::printf("kernelscope: %s\n", app.statusLine().c_str());
    if (!options.screenshot.empty()) {
        image::Rgba8Image shot{options.width, options.height, window.readPixels()};
        image::writePng(options.screenshot, shot);
        std::printf("kernelscope: wrote screenshot %s (%dx%d, after %d frames%s)\n",
                    std::filesystem::absolute(options.screenshot).c_str(), options.width, options.height,
                    options.frames, options.headlessBecauseNoDisplay ? "; no display, so ran headless" : "");
    }
    return 0;
}

} // namespace ks::app
