// On a GPU host: kernelscope --headless --kernel FILE.cu --arg ... --dump ..., one run per data
// format (.npy, PNG into a buffer and into a texture, raw, generated; the decoders of the other
// image formats are the unit tests'), each output compared with a host computation from the
// same inputs; and the saved project's round trip (--save-project, --validate, --project) giving
// byte-identical dumps.
#include "ks/core/paths.hpp"
#include "ks/io/data_source.hpp"
#include "ks/io/image.hpp"
#include "ks/io/npy.hpp"

#include "test_support.hpp"

#include <stb_image_write.h>

#include <cmath>
#include <cstring>
#include <fstream>

namespace fs = std::filesystem;
using ks::test::runApp;

namespace {

class KernelCli : public ::testing::Test {
protected:
    void SetUp() override
    {
        KS_REQUIRE_CUDA();
        KS_REQUIRE_APP_BINARY();
    }
    fs::path tutorial(const std::string& file) const { return ks::test::sourceDir() / "kernels" / "tutorials" / file; }
    // Runs `kernel` headless for one frame with `args`; fails the test on a non-zero exit.
    void run(const std::string& kernel, std::vector<std::string> args)
    {
        std::vector<std::string> all = {"--headless", "--kernel", kernel, "--frames", "1", "--size", "320x240"};
        all.insert(all.end(), args.begin(), args.end());
        const ks::test::AppRun r = runApp(all, m_dir.path());
        ASSERT_EQ(r.code, 0) << r.output;
        m_output = r.output;
    }
    fs::path at(const std::string& name) const { return m_dir.path() / name; }
    ks::test::TempDir m_dir;
    std::string m_output;
};

std::vector<float> floats(const ks::io::HostArray& a)
{
    std::vector<float> v(a.bytes.size() / 4);
    std::memcpy(v.data(), a.bytes.data(), v.size() * 4);
    return v;
}

} // namespace

TEST_F(KernelCli, NpyInputsAndOutput)
{
    const auto a = ks::test::randomFloats(5000, 11), b = ks::test::randomFloats(5000, 12);
    ks::io::writeNpy(at("a.npy"), "<f4", {5000}, a.data(), a.size() * 4);
    ks::io::writeNpy(at("b.npy"), "<f4", {5000}, b.data(), b.size() * 4);
    run(tutorial("vector_add.cu").string(),
        {"--arg", "A=" + at("a.npy").string(), "--arg", "B=" + at("b.npy").string(), "--dump", "C=" + at("c.npy").string()});
    EXPECT_NE(m_output.find("numElements: the element count of A (by its name)"), std::string::npos) << m_output;
    const auto c = floats(ks::io::readNpy(at("c.npy")));
    ASSERT_EQ(c.size(), 5000u);
    for (std::size_t i = 0; i < c.size(); ++i)
        ASSERT_EQ(c[i], a[i] + b[i]) << i;
}

TEST_F(KernelCli, PngImagesIntoAGrayBufferAndATextureAndAPngDump)
{
    ks::io::Rgba8Image photo;
    photo.width = 64, photo.height = 48;
    for (int y = 0; y < 48; ++y)
        for (int x = 0; x < 64; ++x)
            for (int c = 0; c < 4; ++c)
                photo.pixels.push_back(std::uint8_t(c == 3 ? 255 : ((x * 7 + y * 13) * (c + 1)) % 256));
    ks::io::writePng(at("photo.png"), photo);
    run(tutorial("sobel.cu").string(),
        {"--arg", "in=" + at("photo.png").string(), "--dump", "out=" + at("edges.png").string(), "--dump",
         "in=" + at("gray.npy").string()});
    // The input as the app read it (gray, by stb's weights), and the edges written as a PNG.
    const ks::io::HostArray gray = ks::io::readNpy(at("gray.npy"));
    ks::io::ImageOptions one;
    one.channels = 1;
    EXPECT_EQ(gray.bytes, ks::io::readImage(at("photo.png"), one).bytes);
    const ks::io::Rgba8Image edges = ks::io::readPng(at("edges.png"));
    ASSERT_EQ(edges.width, 64);
    ASSERT_EQ(edges.height, 48);
    auto in = [&](int x, int y) { return int(gray.bytes[std::size_t(y * 64 + x)]); };
    for (int y = 1; y < 47; ++y)
        for (int x = 1; x < 63; ++x) {
            const int gx = -in(x - 1, y - 1) - 2 * in(x - 1, y) - in(x - 1, y + 1) + in(x + 1, y - 1) +
                           2 * in(x + 1, y) + in(x + 1, y + 1);
            const int gy = -in(x - 1, y - 1) - 2 * in(x, y - 1) - in(x + 1, y - 1) + in(x - 1, y + 1) +
                           2 * in(x, y + 1) + in(x + 1, y + 1);
            ASSERT_EQ(int(edges.pixels[std::size_t(y * 64 + x) * 4]), std::min(255, std::abs(gx) + std::abs(gy)))
                << x << "," << y;
        }
    // The photo into an RGBA texture: the sampled luminance follows its pixels.
    run(tutorial("texture_sample.cu").string(),
        {"--arg", "tex=" + at("photo.png").string(), "--dump", "luminance=" + at("lum.npy").string()});
    const auto lum = floats(ks::io::readNpy(at("lum.npy")));
    ASSERT_EQ(lum.size(), 64u * 48u);
    for (std::size_t i = 0; i < lum.size(); ++i) {
        const float want =
            (0.299f * photo.pixels[4 * i] + 0.587f * photo.pixels[4 * i + 1] + 0.114f * photo.pixels[4 * i + 2]) / 255.f;
        ASSERT_NEAR(lum[i], want, 2e-3f) << i;
    }
}

TEST_F(KernelCli, RawFilesAndGeneratedData)
{
    const auto x = ks::test::randomFloats(3000, 5);
    {
        std::ofstream out(at("x.raw"), std::ios::binary);
        out.write(reinterpret_cast<const char*>(x.data()), std::streamsize(x.size() * 4));
    }
    run(tutorial("vector_add.cu").string(), {"--arg", "A=" + at("x.raw").string() + ":float32:3000", "--arg", "B=range",
                                             "--dump", "C=" + at("c.npy").string()});
    auto c = floats(ks::io::readNpy(at("c.npy")));
    ASSERT_EQ(c.size(), 3000u);
    for (std::size_t i = 0; i < c.size(); ++i)
        ASSERT_EQ(c[i], x[i] + float(i)) << i;
    // Generated: ones and normal numbers with a seed, as the host makes them.
    run(tutorial("vector_add.cu").string(), {"--shape", "A=700", "--arg", "A=ones", "--arg", "B=normal:9", "--dump",
                                             "C=" + at("c2.npy").string()});
    c = floats(ks::io::readNpy(at("c2.npy")));
    const auto normal = floats(ks::io::generate(ks::io::DataKind::Normal, ks::io::Dtype::float32(), {700}, 9));
    ASSERT_EQ(c.size(), 700u);
    for (std::size_t i = 0; i < c.size(); ++i)
        ASSERT_EQ(c[i], 1.f + normal[i]) << i;
}

TEST_F(KernelCli, SavedProjectValidatesAndReplaysByteForByte)
{
    const auto a = ks::test::randomFloats(4096, 21);
    ks::io::writeNpy(at("a.npy"), "<f4", {4096}, a.data(), a.size() * 4);
    const std::vector<std::string> args = {"--arg", "A=" + at("a.npy").string(), "--arg", "B=random:4"};
    std::vector<std::string> save = {"--kernel", tutorial("vector_add.cu").string(), "--save-project",
                                     at("va.json").string()};
    save.insert(save.end(), args.begin(), args.end());
    ks::test::AppRun r = runApp(save, m_dir.path());
    ASSERT_EQ(r.code, 0) << r.output;
    r = runApp({"--validate", at("va.json").string()}, m_dir.path());
    ASSERT_EQ(r.code, 0) << r.output;
    std::vector<std::string> inferred = args;
    inferred.insert(inferred.end(), {"--dump", "C=" + at("inferred.npy").string()});
    run(tutorial("vector_add.cu").string(), inferred);
    r = runApp({"--headless", "--project", at("va.json").string(), "--frames", "1", "--size", "320x240", "--dump",
                "C=" + at("saved.npy").string()},
               m_dir.path());
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_EQ(ks::paths::readFile(at("inferred.npy"), 1 << 24), ks::paths::readFile(at("saved.npy"), 1 << 24));
}

TEST_F(KernelCli, BadInputIsAClearMessageAndNoRun)
{
    {
        std::ofstream(at("broken.npy")) << "\x93NUMPY\x01";
    }
    ks::test::AppRun r = runApp({"--headless", "--kernel", tutorial("vector_add.cu").string(), "--arg",
                                 "A=" + at("broken.npy").string(), "--frames", "1"},
                                m_dir.path());
    EXPECT_EQ(r.code, 1) << r.output;
    EXPECT_NE(r.output.find("is truncated"), std::string::npos) << r.output;
    r = runApp({"--headless", "--kernel", tutorial("vector_add.cu").string(), "--arg", "Z=zeros", "--frames", "1"},
               m_dir.path());
    EXPECT_EQ(r.code, 1) << r.output;
    EXPECT_NE(r.output.find("its parameters are A, B, C, numElements"), std::string::npos) << r.output;
    // A shape beyond the device's memory is refused before anything is allocated, naming the sizes.
    r = runApp({"--headless", "--kernel", tutorial("vector_add.cu").string(), "--shape", "A=400000000000", "--frames",
                "1"},
               m_dir.path());
    EXPECT_NE(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("free"), std::string::npos) << r.output;
}

// Structs: a saved project keeps a struct's member values; --validate accepts it, and --project
// replays the inferred run's records byte for byte.
TEST_F(KernelCli, StructArgumentsSaveValidateAndReplay)
{
    const std::vector<std::string> args = {"--shape", "particles=5000", "--arg",
                                           R"(step={"dt": 0.5, "gravity": [0, -2, 0], "restitution": 0.5})"};
    std::vector<std::string> save = {"--kernel", tutorial("particles_aos.cu").string(), "--save-project",
                                     at("aos.json").string()};
    save.insert(save.end(), args.begin(), args.end());
    ks::test::AppRun r = runApp(save, m_dir.path());
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("step: a struct by value, dt = 0.5, gravity = (0, -2, 0), restitution = 0.5"), std::string::npos)
        << r.output;
    EXPECT_NE(ks::paths::readTextFile(at("aos.json")).find("\"struct\""), std::string::npos);
    r = runApp({"--validate", at("aos.json").string()}, m_dir.path());
    ASSERT_EQ(r.code, 0) << r.output;
    std::vector<std::string> inferred = {"--headless", "--kernel", tutorial("particles_aos.cu").string(), "--frames", "3",
                                         "--dump", "particles=" + at("inferred.npy").string()};
    inferred.insert(inferred.end(), args.begin(), args.end());
    r = runApp(inferred, m_dir.path());
    ASSERT_EQ(r.code, 0) << r.output;
    r = runApp({"--headless", "--project", at("aos.json").string(), "--frames", "3", "--size", "320x240", "--dump",
                "particles=" + at("saved.npy").string()},
               m_dir.path());
    ASSERT_EQ(r.code, 0) << r.output;
    const auto records = ks::io::readNpy(at("saved.npy"));
    EXPECT_EQ(records.shape, (std::vector<std::int64_t>{5000, 32}));
    EXPECT_EQ(ks::paths::readFile(at("inferred.npy"), 1 << 24), ks::paths::readFile(at("saved.npy"), 1 << 24));
    // Three steps from rest: each particle's mass member counts them.
    float mass = 0;
    std::memcpy(&mass, records.bytes.data() + 24, 4);
    EXPECT_EQ(mass, 3.f);
}

// JPEG, BMP and HDR go in through stb_image as PNG does: an 8-bit picture into a gray uchar
// buffer (sobel), a float picture into a float buffer (relu, in place). What the buffer held is
// what stb decodes from the file.
TEST_F(KernelCli, JpegBmpAndHdrImagesAreReadAsTheyDecode)
{
    const int w = 40, h = 24;
    std::vector<std::uint8_t> rgb(std::size_t(w * h * 3));
    std::vector<float> hdr(std::size_t(w * h * 3));
    for (std::size_t i = 0; i < rgb.size(); ++i) {
        rgb[i] = std::uint8_t((i * 37) % 251);
        hdr[i] = 0.01f + float(i % 97) * 0.5f;
    }
    ASSERT_TRUE(stbi_write_jpg(at("p.jpg").c_str(), w, h, 3, rgb.data(), 90));
    ASSERT_TRUE(stbi_write_bmp(at("p.bmp").c_str(), w, h, 3, rgb.data()));
    ASSERT_TRUE(stbi_write_hdr(at("p.hdr").c_str(), w, h, 3, hdr.data()));
    ks::io::ImageOptions one;
    one.channels = 1;
    for (const char* file : {"p.jpg", "p.bmp"}) {
        const std::string dump = std::string(file) + ".npy";
        run(tutorial("sobel.cu").string(), {"--arg", "in=" + at(file).string(), "--dump", "in=" + at(dump).string()});
        const ks::io::HostArray in = ks::io::readNpy(at(dump));
        EXPECT_EQ(in.shape, (std::vector<std::int64_t>{h, w})) << file;
        EXPECT_EQ(in.bytes, ks::io::readImage(at(file), one).bytes) << file;
    }
    run(tutorial("relu.cu").string(), {"--arg", "x=" + at("p.hdr").string(), "--dump", "x=" + at("hdr.npy").string()});
    const ks::io::HostArray x = ks::io::readNpy(at("hdr.npy"));
    EXPECT_EQ(x.shape, (std::vector<std::int64_t>{h, w}));
    EXPECT_EQ(x.bytes, ks::io::readImage(at("p.hdr"), one).bytes) << "all positive: relu keeps them";
}
