// kernelscope: live CUDA experiments on OpenGL.
#include "cli/check_command.hpp"
#include "cli/kernel_project.hpp"
#include "cli/options.hpp"
#include "platform/mesa_cache_guard.hpp"
#include "platform/platforms.hpp"

#include "ks/core/error.hpp"

#include <cstdio>
#include <exception>

int main(int argc, char** argv)
{
    const ks::app::ParseOutcome parsed = ks::app::parseOptions(argc, argv);
    if (!parsed.options)
        return parsed.exitCode;
    ks::app::AppOptions options = *parsed.options;
    if (options.check.requested()) // before any window, GL or CUDA context
        return ks::app::runCheckCommands(options.check);
    try {
        if (const auto exit = ks::app::prepareKernelProject(options)) // --kernel: the project it makes
            return *exit;
        if (options.headlessBecauseNoDisplay && options.validate.empty())
            std::printf("kernelscope: no display (DISPLAY and WAYLAND_DISPLAY are unset): rendering headless\n");
        if (!options.validate.empty())
            return ks::app::runValidate(options);
        ks::app::guardMesaShaderCache(); // before the first GL context
        if (options.headless && !options.project.empty() && !options.ui)
            return ks::app::runProjectHeadless(options);
        if (!options.workerMode.empty())
            return ks::app::runWorker(options);
        if (options.headless)
            return ks::app::runHeadless(options);
        return options.noSupervise ? ks::app::runWindowed(options) : ks::app::runSupervisedWindow(options);
    } catch (const ks::Error& e) {
        std::fprintf(stderr, "kernelscope: error: %s\n", e.what());
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "kernelscope: error: %s\n", e.what());
        return 1;
    }
}
