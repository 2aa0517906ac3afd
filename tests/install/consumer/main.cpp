// Uses the installed engine the way an outside program would: compiles a good and a broken kernel
// with NVRTC through ks::rtc (no GPU needed) and checks what comes back.
#include <ks/rtc/compiler.hpp>

#include <cstdio>

int main() {
    ks::rtc::CompileOptions options;
    options.arch = "compute_90"; // PTX: any NVRTC can make it
    const std::string good = "extern \"C\" __global__ void scale(float* x, float s, int n) {\n"
                             "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                             "    if (i < n) x[i] *= s;\n"
                             "}\n";
    const auto built = ks::rtc::compile(good, "scale.cu", options);
    if (!built.ok || built.ptx.find(".entry scale") == std::string::npos) {
        std::fprintf(stderr, "consumer: the good kernel did not compile to PTX with its entry:\n%s\n", built.log.c_str());
        return 1;
    }
    const std::string broken = "extern \"C\" __global__ void scale(float* x) {\n"
                               "    x[threadIdx.x] = undeclared;\n"
                               "}\n";
    const auto failed = ks::rtc::compile(broken, "broken.cu", options);
    if (failed.ok || failed.diagnostics.empty() || failed.diagnostics.front().line != 2 ||
        failed.diagnostics.front().file != "broken.cu") {
        std::fprintf(stderr, "consumer: the broken kernel did not fail with a diagnostic at broken.cu:2:\n%s\n",
                     failed.log.c_str());
        return 1;
    }
    std::printf("consumer: NVRTC %s through Kernelscope::engine: %zu bytes of PTX; broken.cu:%d: %s\n",
                ks::rtc::nvrtcVersionString().c_str(), built.ptx.size(), failed.diagnostics.front().line,
                failed.diagnostics.front().message.c_str());
    return 0;
}
