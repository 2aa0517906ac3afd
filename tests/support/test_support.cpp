#include "test_support.hpp"

#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/proc/child_process.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace ks::test {

std::filesystem::path sourceDir()
{
    // Test binaries may be carried to another machine whose checkout lives elsewhere.
    if (const char* dir = std::getenv("KS_SOURCE_DIR"); dir && *dir)
        return dir;
    return KS_TEST_SOURCE_DIR;
}

std::filesystem::path appBinary()
{
    if (const char* e = std::getenv("KS_KERNELSCOPE"); e && *e)
        return e;
    return std::filesystem::read_symlink("/proc/self/exe").parent_path().parent_path() / "app" / "kernelscope";
}

ScopedEnv::ScopedEnv(std::string name, const std::string& value) : m_name(std::move(name))
{
    if (const char* e = std::getenv(m_name.c_str()))
        m_before = e;
    ::setenv(m_name.c_str(), value.c_str(), 1);
}

ScopedEnv::~ScopedEnv()
{
    if (m_before)
        ::setenv(m_name.c_str(), m_before->c_str(), 1);
    else
        ::unsetenv(m_name.c_str());
}

void isolateUserFolders()
{
    static std::filesystem::path root; // removed when the process exits
    root = std::filesystem::temp_directory_path() / ("ks-tests-" + std::to_string(::getpid()));
    std::atexit([] {
        std::error_code ec;
        std::filesystem::remove_all(root, ec);
    });
    std::filesystem::create_directories(root / "config");
    std::filesystem::create_directories(root / "state");
    ::setenv("XDG_CONFIG_HOME", (root / "config").c_str(), 1);
    ::setenv("XDG_STATE_HOME", (root / "state").c_str(), 1);
}

std::filesystem::path referenceDir()
{
    return sourceDir() / "tests" / "reference";
}

void expectMatchesGpuReference(const ks::io::Rgba8Image& shot, const std::string& name)
{
    namespace fs = std::filesystem;
    const char* dirEnv = std::getenv("KS_GPU_REFERENCE_DIR");
    const fs::path dir = dirEnv && *dirEnv ? fs::path(dirEnv) : referenceDir() / "gpu";
    const fs::path ref = dir / (name + ".png");
    if (const char* update = std::getenv("KS_UPDATE_REFERENCES"); update && *update == '1') {
        fs::create_directories(dir);
        ks::io::writePng(ref, shot);
        GTEST_SKIP() << "wrote reference " << ref;
    }
    if (!fs::exists(ref))
        GTEST_SKIP() << "no GPU reference " << ref << "; run once with KS_UPDATE_REFERENCES=1 on a GPU host";
    const auto c = ks::io::compare(shot, ks::io::readPng(ref), 8);
    EXPECT_TRUE(c.matches(0.01)) << name << ": " << c.mismatched << " of " << c.total << " pixels differ (max "
                                 << c.maxDifference << ")";
}

TempDir::TempDir()
{
    static std::atomic<int> counter{0};
    m_path = std::filesystem::temp_directory_path() /
             ("ks-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(m_path);
    std::filesystem::create_directories(m_path);
}

TempDir::~TempDir()
{
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
}

std::filesystem::path TempDir::write(const std::string& name, const std::string& text) const
{
    const std::filesystem::path p = m_path / name;
    std::filesystem::create_directories(p.parent_path());
    writeFile(p, text);
    return p;
}

int openDescriptors()
{
    int n = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator("/proc/self/fd"))
        ++n;
    return n;
}

int childProcesses()
{
    int n = 0;
    const std::string self = std::to_string(::getpid());
    for (const auto& e : std::filesystem::directory_iterator("/proc")) {
        std::ifstream stat(e.path() / "stat");
        std::string pid, comm, state, parent;
        if (stat >> pid >> comm >> state >> parent && parent == self)
            ++n;
    }
    return n;
}

void CudaTest::SetUp()
{
    KS_REQUIRE_CUDA();
    m_context.emplace(0);
    m_stream = cuda::Stream(cuda::Stream::Create{});
}

void GlTest::SetUp()
{
    try {
        m_egl = gl::EglContext(gl::EglOptions{});
    } catch (const Error& e) {
        GTEST_SKIP() << "no headless GL: " << e.what();
    }
}

void GlTest::TearDown()
{
    m_egl = gl::EglContext();
}

void InteropTest::SetUp()
{
    KS_REQUIRE_CUDA();
    gl::EglOptions options;
    options.cudaOrdinal = 0;
    m_egl = gl::EglContext(options);
    if (m_egl.cudaOrdinal() != 0)
        GTEST_SKIP() << "the EGL device (" << m_egl.description() << ") is not CUDA device 0; interop needs both on one GPU";
    m_context.emplace(0);
    m_stream = cuda::Stream(cuda::Stream::Create{});
}

void InteropTest::TearDown()
{
    m_stream = cuda::Stream();
    m_context.reset();
    m_egl = gl::EglContext();
}

void writeFile(const std::filesystem::path& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush())
        throw std::runtime_error("cannot write " + path.string());
}

std::string demoKernelSource()
{
    return paths::readTextFile(sourceDir() / "kernels" / "thread_colors.cu");
}

std::string demoKernelRedBlueSwapped()
{
    std::string s = demoKernelSource();
    const std::string from = "make_uchar4(c.r, c.g, c.b, c.a)", to = "make_uchar4(c.b, c.g, c.r, c.a)";
    int replaced = 0;
    for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()), ++replaced)
        s.replace(at, from.size(), to);
    if (replaced != 2)
        throw std::runtime_error("kernels/thread_colors.cu changed: update demoKernelRedBlueSwapped()");
    return s;
}

std::string demoKernelMissingSemicolon(int* causeLine)
{
    std::string s = demoKernelSource();
    const std::string statement = "const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;";
    const auto at = s.find(statement);
    if (at == std::string::npos)
        throw std::runtime_error("kernels/thread_colors.cu changed: update demoKernelMissingSemicolon()");
    if (causeLine)
        *causeLine = 1 + int(std::count(s.begin(), s.begin() + std::ptrdiff_t(at), '\n'));
    s.erase(at + statement.size() - 1, 1);
    return s;
}

std::vector<float> randomFloats(std::size_t n, unsigned seed, float lo, float hi)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(n);
    for (float& x : v)
        x = dist(rng);
    return v;
}

std::string jsonNumbers(const std::vector<float>& v)
{
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) {
        char b[32];
        std::snprintf(b, sizeof b, "%s%.9g", i ? ", " : "", double(v[i]));
        s += b;
    }
    return s + "]";
}

AppRun runApp(const std::vector<std::string>& args, const std::filesystem::path& dir, std::chrono::seconds limit)
{
    std::string command = "exec '" + appBinary().string() + "'";
    for (const std::string& a : args)
        command += " '" + a + "'";
    command += " > '" + (dir / "output.txt").string() + "' 2>&1";
    const auto t0 = std::chrono::steady_clock::now();
    proc::ChildProcess child = proc::ChildProcess::spawn({"/bin/sh", {"-c", command}, {}, -1});
    std::optional<proc::ExitStatus> s = child.wait(limit);
    AppRun r;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!s) {
        child.kill();
        r.output = "(did not end within the limit)";
        return r;
    }
    r.code = s->code;
    r.signaled = s->signaled;
    std::ifstream in(dir / "output.txt");
    std::stringstream ss;
    ss << in.rdbuf();
    r.output = ss.str();
    return r;
}


} // namespace ks::test
