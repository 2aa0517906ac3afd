// CUDA arrays on a device: copies from and to host and device memory, and PyCUDA's 2-D texture
// tests (test_2d_texture, test_multiple_2d_textures, test_multichannel_2d_texture) with texture
// objects, since CUDA 12 removed the texture references PyCUDA binds.
#include "ks/cuda/launch.hpp"
#include "ks/cuda/memory.hpp"
#include "ks/cuda/surface.hpp"

#include "driver_test_support.hpp"

#include <cmath>
#include <limits>
#include <vector>

using ks::test::CudaTest;
using namespace ks;

namespace {

cuda::TextureObject pointTexture(const cuda::Array& array)
{
    cuda::TextureObject::Options o;
    o.linearFilter = false; // integer coordinates read texels exactly, as PyCUDA's default texref
    return cuda::TextureObject(array.get(), o);
}

} // namespace

TEST_F(CudaTest, ArrayCopiesFromAndToHostAndDeviceMemory)
{
    const int width = 33, height = 17;
    cuda::Array array(width, height, CU_AD_FORMAT_FLOAT, 2);
    EXPECT_EQ(array.rowBytes(), std::size_t(width) * 2 * sizeof(float));
    const std::vector<float> host = test::randomFloats(std::size_t(width) * height * 2, 5);
    array.upload(host.data());
    std::vector<float> back(host.size(), std::numeric_limits<float>::quiet_NaN());
    array.download(back.data());
    EXPECT_EQ(back, host);

    // Array -> pitched device memory -> a second array -> host rows with padding.
    cuda::PitchedDeviceMemory pitched(array.rowBytes(), std::size_t(height));
    array.copyToDevice(pitched.get(), pitched.pitch());
    cuda::Array second(width, height, CU_AD_FORMAT_FLOAT, 2);
    second.copyFromDevice(pitched.get(), pitched.pitch());
    const std::size_t paddedFloats = std::size_t(width) * 2 + 6;
    std::vector<float> padded(paddedFloats * height, -1.f);
    second.download(padded.data(), paddedFloats * sizeof(float));
    for (int y = 0; y < height; ++y)
        for (std::size_t x = 0; x < paddedFloats; ++x) {
            const float want = x < std::size_t(width) * 2 ? host[std::size_t(y) * width * 2 + x] : -1.f;
            ASSERT_EQ(padded[std::size_t(y) * paddedFloats + x], want) << x << " " << y;
        }
}

// PyCUDA test_driver.py: test_2d_texture.
TEST_F(CudaTest, PyCudaDriver_test_2d_texture)
{
    cuda::Module module = test::loadForDevice(R"(
extern "C" __global__ void copy_texture(float *dest, cudaTextureObject_t mtx_tex)
{
  int row = threadIdx.x;
  int col = threadIdx.y;
  int w = blockDim.y;
  dest[row*w+col] = tex2D<float>(mtx_tex, row, col);
}
)");
    const cuda::Function copyTexture = module.function("copy_texture");
    const int rows = 3, cols = 4;                                                // shape (3, 4)
    const std::vector<float> a = test::randomFloats(rows * cols, 21, -2.f, 2.f); // C order
    // matrix_to_texref(a, order="F"): an array `rows` wide and `cols` high, a in F order.
    std::vector<float> aF(a.size());
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            aF[std::size_t(c * rows + r)] = a[std::size_t(r * cols + c)];
    cuda::Array array(rows, cols, CU_AD_FORMAT_FLOAT, 1);
    array.upload(aF.data());
    const cuda::TextureObject tex = pointTexture(array);
    std::vector<float> dest(a.size(), 0.f);
    cuda::launch(copyTexture, {{1, 1, 1}, {unsigned(rows), unsigned(cols), 1}, 0}, m_stream.get(), cuda::out(dest),
                 tex.get());
    EXPECT_EQ(dest, a); // la.norm(dest - a) == 0
}

// PyCUDA test_driver.py: test_multiple_2d_textures.
TEST_F(CudaTest, PyCudaDriver_test_multiple_2d_textures)
{
    cuda::Module module = test::loadForDevice(R"(
extern "C" __global__ void copy_texture(float *dest, cudaTextureObject_t mtx_tex, cudaTextureObject_t mtx2_tex)
{
  int row = threadIdx.x;
  int col = threadIdx.y;
  int w = blockDim.y;
  dest[row*w+col] =
      tex2D<float>(mtx_tex, row, col)
      +
      tex2D<float>(mtx2_tex, row, col);
}
)");
    const cuda::Function copyTexture = module.function("copy_texture");
    const int rows = 3, cols = 4;
    const std::vector<float> a = test::randomFloats(rows * cols, 22, -2.f, 2.f);
    const std::vector<float> b = test::randomFloats(rows * cols, 23, -2.f, 2.f);
    auto fOrder = [&](const std::vector<float>& m) {
        std::vector<float> f(m.size());
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c)
                f[std::size_t(c * rows + r)] = m[std::size_t(r * cols + c)];
        return f;
    };
    cuda::Array arrayA(rows, cols, CU_AD_FORMAT_FLOAT, 1), arrayB(rows, cols, CU_AD_FORMAT_FLOAT, 1);
    arrayA.upload(fOrder(a).data());
    arrayB.upload(fOrder(b).data());
    const cuda::TextureObject texA = pointTexture(arrayA), texB = pointTexture(arrayB);
    std::vector<float> dest(a.size(), 0.f);
    cuda::launch(copyTexture, {{1, 1, 1}, {unsigned(rows), unsigned(cols), 1}, 0}, m_stream.get(), cuda::out(dest),
                 texA.get(), texB.get());
    double norm = 0;
    for (std::size_t i = 0; i < dest.size(); ++i)
        norm += double(dest[i] - a[i] - b[i]) * double(dest[i] - a[i] - b[i]);
    EXPECT_LT(std::sqrt(norm), 1e-6); // la.norm(dest - a - b) < 1e-6
}

// PyCUDA test_driver.py: test_multichannel_2d_texture.
TEST_F(CudaTest, PyCudaDriver_test_multichannel_2d_texture)
{
    cuda::Module module = test::loadForDevice(R"(
#define CHANNELS 4
extern "C" __global__ void copy_texture(float *dest, cudaTextureObject_t mtx_tex)
{
  int row = threadIdx.x;
  int col = threadIdx.y;
  int w = blockDim.y;
  float4 texval = tex2D<float4>(mtx_tex, row, col);
  dest[(row*w+col)*CHANNELS + 0] = texval.x;
  dest[(row*w+col)*CHANNELS + 1] = texval.y;
  dest[(row*w+col)*CHANNELS + 2] = texval.z;
  dest[(row*w+col)*CHANNELS + 3] = texval.w;
}
)");
    const cuda::Function copyTexture = module.function("copy_texture");
    const int rows = 5, cols = 6, channels = 4; // shape (5, 6), 4 channels
    // a: (channels, rows, cols) in F order, which is texels of `channels` interleaved, `rows` wide.
    const std::vector<float> aF = test::randomFloats(std::size_t(channels * rows * cols), 24, -2.f, 2.f);
    auto aAt = [&](int ch, int r, int c) { return aF[std::size_t(ch + channels * (r + rows * c))]; };
    cuda::Array array(rows, cols, CU_AD_FORMAT_FLOAT, unsigned(channels));
    array.upload(aF.data());
    const cuda::TextureObject tex = pointTexture(array);
    std::vector<float> dest(aF.size(), 0.f);
    cuda::launch(copyTexture, {{1, 1, 1}, {unsigned(rows), unsigned(cols), 1}, 0}, m_stream.get(), cuda::out(dest),
                 tex.get());
    // reshaped_a = a.transpose(1, 2, 0): dest[row, col, ch] == a[ch, row, col], exactly.
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            for (int ch = 0; ch < channels; ++ch)
                ASSERT_EQ(dest[std::size_t((r * cols + c) * channels + ch)], aAt(ch, r, c))
                    << r << " " << c << " " << ch;
}
