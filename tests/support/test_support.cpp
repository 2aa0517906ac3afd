#include "test_support.hpp"

#include "ks/core/error.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace ks::test {

std::filesystem::path sourceDir()
{
    // Test binaries may be carried to another machine whose checkout lives elsewhere.
    if (const char* dir = std::getenv("KS_SOURCE_DIR"); dir && *dir)
        return dir;
    return KS_TEST_SOURCE_DIR;
}

std::filesystem::path referenceDir()
{
    return sourceDir() / "tests" / "reference";
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
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out)
        throw std::runtime_error("cannot write " + p.string());
    return p;
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

std::vector<float> randomFloats(std::size_t n, unsigned seed, float lo, float hi)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(n);
    for (float& x : v)
        x = dist(rng);
    return v;
}

} // namespace ks::test
