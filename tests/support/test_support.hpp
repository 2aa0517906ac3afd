#pragma once
// Fixtures that acquire the hardware a test needs, or skip with the reason when it is missing.
// A test never passes vacuously: no device means GTEST_SKIP() with driverStatus().reason.

#include "ks/core/error.hpp"
#include "ks/cuda/context.hpp"
#include "ks/cuda/driver.hpp"
#include "ks/cuda/stream.hpp"
#include "ks/gl/egl_context.hpp"
#include "ks/io/image.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace ks::test {

std::filesystem::path sourceDir();    // the repository root
std::filesystem::path referenceDir(); // tests/reference
// The app binary for tests that run it: $KS_KERNELSCOPE, else ../app/kernelscope beside this test
// executable.
std::filesystem::path appBinary();

// A run of the app binary (appBinary()) with `args`, its stdout and stderr together in `output`,
// ended after `limit` (code -1, "(did not end within the limit)"). `dir` holds output.txt.
struct AppRun {
    int code = -1;
    bool signaled = false;
    std::string output;
    double seconds = 0;
};
AppRun runApp(const std::vector<std::string>& args, const std::filesystem::path& dir,
              std::chrono::seconds limit = std::chrono::seconds(120));

// How many descriptors this process has open (/proc/self/fd), and how many child processes it has
// (running or not yet reaped): what a test compares before and after to find leaks.
int openDescriptors();
int childProcesses();

// Points XDG_CONFIG_HOME and XDG_STATE_HOME at a folder of this test process, so that runs of the
// whole app (recent projects, unsaved-edit recovery) never touch the user's own. Call first in main.
void isolateUserFolders();

// Compares `shot` with the GPU golden image `name`.png in $KS_GPU_REFERENCE_DIR (default
// tests/reference/gpu): at most 1% of pixels may differ by more than 8 per channel. With
// KS_UPDATE_REFERENCES=1 it writes the reference instead and skips; a missing reference skips.
void expectMatchesGpuReference(const ks::io::Rgba8Image& shot, const std::string& name);

// Skips the current test when CUDA is unavailable, printing why.
#define KS_REQUIRE_CUDA()                                                                                  \
    do {                                                                                                   \
        if (!::ks::cuda::driverStatus().available)                                                         \
            GTEST_SKIP() << "no CUDA device: " << ::ks::cuda::driverStatus().reason;                       \
    } while (0)

// Skips the current test when the app binary (appBinary()) is not there, saying where it looked.
#define KS_REQUIRE_APP_BINARY()                                                                            \
    do {                                                                                                   \
        if (!std::filesystem::exists(::ks::test::appBinary()))                                             \
            GTEST_SKIP() << "no app binary at " << ::ks::test::appBinary() << " (set KS_KERNELSCOPE)";     \
    } while (0)

// A CUDA device: the primary context of device 0, current, and a stream.
class CudaTest : public ::testing::Test {
protected:
    void SetUp() override;
    std::optional<cuda::PrimaryContext> m_context;
    cuda::Stream m_stream;
};

// A headless GL 4.5 context (Mesa's software device where there is no GPU).
class GlTest : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;
    gl::EglContext m_egl;
};

// CUDA and a GL context on the same GPU (the EGL device that is CUDA device 0).
class InteropTest : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;
    gl::EglContext m_egl;
    std::optional<cuda::PrimaryContext> m_context;
    cuda::Stream m_stream;
};

// Sets environment variable `name` to `value` until it dies, then puts back what was there before
// (or unsets it): a test that ends early, by a failed ASSERT, leaves the next tests as they were.
class ScopedEnv {
public:
    ScopedEnv(std::string name, const std::string& value);
    ~ScopedEnv();
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    std::string m_name;
    std::optional<std::string> m_before;
};

// A fresh folder under the system's temp folder, removed with everything in it when it dies.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const noexcept { return m_path; }
    // Writes `text` to path()/name (creating folders) and returns the full path.
    std::filesystem::path write(const std::string& name, const std::string& text) const;

private:
    std::filesystem::path m_path;
};

// Writes `text` to `path` with ordinary open/write/close (as a plain editor save would).
void writeFile(const std::filesystem::path& path, const std::string& text);

// kernels/thread_colors.cu, and the edits of it the live-kernel tests make.
std::string demoKernelSource();
// Red and blue swapped in both kernels: a visible change with an exact host reference.
std::string demoKernelRedBlueSwapped();
// The ';' ending the first `const unsigned y = ...` dropped: NVRTC reports "expected a ';'" on the
// next line; `causeLine` (1-based) receives the line that lost it.
std::string demoKernelMissingSemicolon(int* causeLine = nullptr);

// Random floats from a fixed seed: never test on zeros.
std::vector<float> randomFloats(std::size_t n, unsigned seed, float lo = -1.f, float hi = 1.f);
// "[v0, v1, ...]" with every float exact (%.9g): initial contents for projects written in tests.
std::string jsonNumbers(const std::vector<float>& values);

// The text of the ks::Error that `f` throws (without the source location), so that a test can
// assert what the message says; a failure when it throws nothing.
template <class F>
std::string errorText(F&& f)
{
    try {
        f();
    } catch (const ks::Error& e) {
        return e.text();
    }
    ADD_FAILURE() << "no ks::Error was thrown";
    return {};
}

} // namespace ks::test
