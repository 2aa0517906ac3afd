// Images as typed data (ks/io/image.hpp: probeImage, readImage): PNG in every channel count at 8
// and 16 bits, BMP, JPEG and HDR, the channel and flip options, and the messages for files that are
// not images. The files are written here: by stb_image_write, and 16-bit PNGs byte by byte.
#include "ks/io/image.hpp"

#include "ks/core/paths.hpp"

#include "test_support.hpp"

#include <stb_image_write.h>

#include <gtest/gtest.h>

#include <array>

using ks::io::Dtype;
using ks::io::HostArray;
using ks::test::errorText;

namespace {

std::uint32_t crc32(std::string_view bytes)
{
    std::uint32_t c = 0xFFFFFFFFu;
    for (unsigned char b : bytes) {
        c ^= b;
        for (int k = 0; k < 8; ++k)
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
}

void putBigEndian(std::string& out, std::uint32_t v, int bytes = 4)
{
    for (int b = bytes - 1; b >= 0; --b)
        out += char((v >> (8 * b)) & 0xFF);
}

// A PNG of 16-bit samples (big-endian, as PNG stores them), colour type from the channel count,
// filter 0 on every row, the zlib stream made of stored (uncompressed) blocks.
std::string png16(int width, int height, int channels, const std::vector<std::uint16_t>& samples)
{
    std::string raw;
    for (int y = 0; y < height; ++y) {
        raw += char(0); // filter: none
        for (int i = 0; i < width * channels; ++i)
            putBigEndian(raw, samples[std::size_t(y * width * channels + i)], 2);
    }
    std::string z = "\x78\x01";
    for (std::size_t at = 0; at < raw.size() || at == 0; at += 65535) {
        const std::size_t n = std::min<std::size_t>(65535, raw.size() - at);
        z += char(at + n == raw.size() ? 1 : 0);
        z += char(n & 0xFF), z += char(n >> 8), z += char(~n & 0xFF), z += char((~n >> 8) & 0xFF);
        z += raw.substr(at, n);
    }
    std::uint32_t a = 1, b = 0;
    for (unsigned char c : raw)
        a = (a + c) % 65521, b = (b + a) % 65521;
    putBigEndian(z, (b << 16) | a);

    auto chunk = [](std::string& out, const char* type, const std::string& data) {
        putBigEndian(out, std::uint32_t(data.size()));
        const std::string body = type + data;
        out += body;
        putBigEndian(out, crc32(body));
    };
    static constexpr std::array<char, 5> kColourType = {0, 0, 4, 2, 6}; // gray, gray+alpha, RGB, RGBA
    std::string ihdr;
    putBigEndian(ihdr, std::uint32_t(width));
    putBigEndian(ihdr, std::uint32_t(height));
    ihdr += char(16);
    ihdr += kColourType[std::size_t(channels)];
    ihdr += std::string(3, '\0'); // deflate, adaptive filters, no interlace
    std::string png("\x89PNG\r\n\x1a\n", 8);
    chunk(png, "IHDR", ihdr);
    chunk(png, "IDAT", z);
    chunk(png, "IEND", "");
    return png;
}

std::vector<std::uint8_t> pattern(int width, int height, int channels)
{
    std::vector<std::uint8_t> p(std::size_t(width * height * channels));
    for (std::size_t i = 0; i < p.size(); ++i)
        p[i] = std::uint8_t(i * 29 + 7);
    return p;
}

} // namespace

TEST(ImageRead, PngOfEachChannelCountIsUint8)
{
    ks::test::TempDir dir;
    const int w = 5, h = 3;
    for (int n = 1; n <= 4; ++n) {
        SCOPED_TRACE(n);
        const auto pixels = pattern(w, h, n);
        const auto path = dir.path() / ("c" + std::to_string(n) + ".png");
        ASSERT_TRUE(stbi_write_png(path.c_str(), w, h, n, pixels.data(), w * n));
        const ks::io::ImageInfo info = ks::io::probeImage(path);
        EXPECT_EQ(info.width, w);
        EXPECT_EQ(info.height, h);
        EXPECT_EQ(info.channels, n);
        EXPECT_EQ(info.bits(), 8);
        const HostArray a = ks::io::readImage(path);
        EXPECT_EQ(a.dtype, Dtype::uint8());
        EXPECT_EQ(a.shape, n == 1 ? (std::vector<std::int64_t>{h, w}) : (std::vector<std::int64_t>{h, w, n}));
        EXPECT_EQ(a.bytes, pixels);
    }
}

TEST(ImageRead, ChannelsAreForcedAndRowsFlippedOnRequest)
{
    ks::test::TempDir dir;
    const int w = 4, h = 3;
    std::vector<std::uint8_t> gray(std::size_t(w * h));
    for (std::size_t i = 0; i < gray.size(); ++i)
        gray[i] = std::uint8_t(20 * i + 1);
    const auto path = dir.path() / "gray.png";
    ASSERT_TRUE(stbi_write_png(path.c_str(), w, h, 1, gray.data(), w));

    const HostArray rgba = ks::io::readImage(path, {.channels = 4});
    ASSERT_EQ(rgba.shape, (std::vector<std::int64_t>{h, w, 4}));
    for (std::size_t i = 0; i < gray.size(); ++i) {
        EXPECT_EQ(rgba.at<std::uint8_t>(4 * i), gray[i]);
        EXPECT_EQ(rgba.at<std::uint8_t>(4 * i + 2), gray[i]);
        EXPECT_EQ(rgba.at<std::uint8_t>(4 * i + 3), 255);
    }
    const HostArray flipped = ks::io::readImage(path, {.flipVertically = true});
    ASSERT_EQ(flipped.shape, (std::vector<std::int64_t>{h, w}));
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            EXPECT_EQ(flipped.at<std::uint8_t>(std::size_t(y * w + x)), gray[std::size_t((h - 1 - y) * w + x)]);

    // RGB with equal channels to gray: stb_image's luma of a gray pixel is the pixel.
    std::vector<std::uint8_t> rgb;
    for (std::uint8_t g : gray)
        rgb.insert(rgb.end(), {g, g, g});
    const auto rgbPath = dir.path() / "rgb.png";
    ASSERT_TRUE(stbi_write_png(rgbPath.c_str(), w, h, 3, rgb.data(), w * 3));
    EXPECT_EQ(ks::io::readImage(rgbPath, {.channels = 1}).bytes, gray);
}

TEST(ImageRead, SixteenBitPngIsUint16)
{
    ks::test::TempDir dir;
    const int w = 3, h = 2;
    for (int n : {1, 2, 3, 4}) {
        SCOPED_TRACE(n);
        std::vector<std::uint16_t> samples(std::size_t(w * h * n));
        for (std::size_t i = 0; i < samples.size(); ++i)
            samples[i] = std::uint16_t(i * 4099 + 300); // high and low bytes both vary
        const auto path = dir.write("d" + std::to_string(n) + ".png", png16(w, h, n, samples));
        const ks::io::ImageInfo info = ks::io::probeImage(path);
        EXPECT_EQ(info.bits(), 16);
        EXPECT_EQ(info.dtype, Dtype::uint16());
        EXPECT_EQ(info.channels, n);
        const HostArray a = ks::io::readImage(path);
        EXPECT_EQ(a.dtype, Dtype::uint16());
        EXPECT_EQ(a.shape, n == 1 ? (std::vector<std::int64_t>{h, w}) : (std::vector<std::int64_t>{h, w, n}));
        for (std::size_t i = 0; i < samples.size(); ++i)
            EXPECT_EQ(a.at<std::uint16_t>(i), samples[i]) << i;
    }
    // The RGBA8 reader of screenshots still gives 8 bits of the same file.
    const std::vector<std::uint16_t> one{0xABCD, 0x1234, 0x0000, 0xFFFF};
    const auto path = dir.write("rgba16.png", png16(1, 1, 4, one));
    EXPECT_EQ(ks::io::readPng(path).pixels, (std::vector<std::uint8_t>{0xAB, 0x12, 0x00, 0xFF}));
}

TEST(ImageRead, BmpJpegAndHdr)
{
    ks::test::TempDir dir;
    const int w = 8, h = 4;
    const auto pixels = pattern(w, h, 3);
    const auto bmp = dir.path() / "a.bmp";
    ASSERT_TRUE(stbi_write_bmp(bmp.c_str(), w, h, 3, pixels.data()));
    const HostArray fromBmp = ks::io::readImage(bmp);
    EXPECT_EQ(fromBmp.shape, (std::vector<std::int64_t>{h, w, 3}));
    EXPECT_EQ(fromBmp.bytes, pixels);

    // JPEG is lossy: a flat colour comes back within a step or two.
    std::vector<std::uint8_t> flat(std::size_t(16 * 16 * 3));
    for (std::size_t i = 0; i < flat.size(); ++i)
        flat[i] = std::array<std::uint8_t, 3>{200, 100, 50}[i % 3];
    const auto jpg = dir.path() / "a.jpg";
    ASSERT_TRUE(stbi_write_jpg(jpg.c_str(), 16, 16, 3, flat.data(), 100));
    EXPECT_EQ(ks::io::probeImage(jpg).bits(), 8);
    const HostArray fromJpg = ks::io::readImage(jpg);
    ASSERT_EQ(fromJpg.shape, (std::vector<std::int64_t>{16, 16, 3}));
    for (std::size_t i = 0; i < flat.size(); ++i)
        EXPECT_NEAR(int(fromJpg.at<std::uint8_t>(i)), int(flat[i]), 2) << i;

    // HDR: RGBE keeps 8 bits of mantissa, so these values come back exactly.
    std::vector<float> hdr(std::size_t(w * h * 3));
    for (std::size_t i = 0; i < hdr.size(); ++i)
        hdr[i] = std::array<float, 4>{0.5f, 1.f, 3.f, 96.f}[i % 4];
    const auto hdrPath = dir.path() / "a.hdr";
    ASSERT_TRUE(stbi_write_hdr(hdrPath.c_str(), w, h, 3, hdr.data()));
    const ks::io::ImageInfo info = ks::io::probeImage(hdrPath);
    EXPECT_EQ(info.dtype, Dtype::float32());
    EXPECT_EQ(info.bits(), 32);
    const HostArray fromHdr = ks::io::readImage(hdrPath);
    EXPECT_EQ(fromHdr.dtype, Dtype::float32());
    ASSERT_EQ(fromHdr.shape, (std::vector<std::int64_t>{h, w, 3}));
    for (std::size_t i = 0; i < hdr.size(); ++i)
        EXPECT_EQ(fromHdr.at<float>(i), hdr[i]) << i;
}

TEST(ImageRead, FilesThatAreNoImagesSayWhy)
{
    ks::test::TempDir dir;
    const auto text = dir.write("notes.png", "hello, not a picture");
    const std::string stbList = "stb_image reads PNG, JPEG, BMP, TGA, GIF, PSD, HDR, PIC and PNM)";
    EXPECT_EQ(errorText([&] { (void)ks::io::readImage(text); }),
              text.string() + " is not an image stb_image reads (unknown image type; " + stbList);
    EXPECT_EQ(errorText([&] { (void)ks::io::probeImage(text); }),
              text.string() + " is not an image stb_image reads (unknown image type; " + stbList);

    const auto pixels = pattern(64, 64, 3);
    const auto good = dir.path() / "good.png";
    ASSERT_TRUE(stbi_write_png(good.c_str(), 64, 64, 3, pixels.data(), 64 * 3));
    const std::string bytes = ks::paths::readFile(good, 1 << 20);
    const auto cut = dir.write("cut.png", bytes.substr(0, bytes.size() / 2));
    EXPECT_EQ(ks::io::probeImage(cut).width, 64); // the header is whole
    const std::string truncated = errorText([&] { (void)ks::io::readImage(cut); });
    EXPECT_EQ(truncated.find(cut.string() + ": cannot decode the image: "), 0u) << truncated;

    EXPECT_EQ(errorText([&] { (void)ks::io::readImage(good, {.maxBytes = 1000}); }),
              good.string() + " is 64x64x3 uint8, 12288 bytes decoded; the limit is 1000");
    EXPECT_EQ(errorText([&] { (void)ks::io::readImage(good, {.channels = 5}); }),
              "ImageOptions::channels is 5; 0 to 4 are");
    const std::string missing = errorText([&] { (void)ks::io::probeImage(dir.path() / "none.png"); });
    EXPECT_NE(missing.find("none.png: No such file or directory"), std::string::npos) << missing;
    const std::string folder = errorText([&] { (void)ks::io::readImage(dir.path()); });
    EXPECT_NE(folder.find("is a directory"), std::string::npos) << folder;

    // stb_image takes an HDR header of 0 pixels across (a fuzz finding): nothing to bind.
    const auto empty = dir.write("empty.hdr", std::string("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 0\n") +
                                                  std::string(8, '\0'));
    EXPECT_EQ(errorText([&] { (void)ks::io::readImage(empty); }),
              empty.string() + ": the header says 0x1 pixels; an image needs at least one");
    EXPECT_EQ(errorText([&] { (void)ks::io::probeImage(empty); }),
              empty.string() + ": the header says 0x1 pixels; an image needs at least one");
}
