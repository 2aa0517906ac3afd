// Data specs (ks/io/data_source.hpp): the command-line forms, what each loads or generates, raw
// files, and the messages for specs and files that do not fit.
#include "ks/io/data_source.hpp"

#include "ks/io/npy.hpp"
#include "ks/pipeline/resources.hpp"

#include "test_support.hpp"

#include <stb_image_write.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using ks::io::DataKind;
using ks::io::DataSpec;
using ks::io::Dtype;
using ks::io::HostArray;
using ks::test::errorText;

TEST(DataSpec, ReadsEveryForm)
{
    EXPECT_EQ(ks::io::parseDataSpec("a.npy"), (DataSpec{.kind = DataKind::Npy, .path = "a.npy"}));
    EXPECT_EQ(ks::io::parseDataSpec("dir/B.NPY").kind, DataKind::Npy);
    for (const char* image : {"p.png", "p.jpg", "p.JPEG", "p.bmp", "p.hdr", "p.tga", "p.gif", "p.pgm"})
        EXPECT_EQ(ks::io::parseDataSpec(image), (DataSpec{.kind = DataKind::Image, .path = image})) << image;
    EXPECT_EQ(ks::io::parseDataSpec("d/x.raw:f4:480x640"),
              (DataSpec{.kind = DataKind::Raw, .path = "d/x.raw", .dtype = Dtype::float32(), .shape = {480, 640}}));
    EXPECT_EQ(ks::io::parseDataSpec("a:b.bin:uchar:2x3x4"),
              (DataSpec{.kind = DataKind::Raw, .path = "a:b.bin", .dtype = Dtype::uint8(), .shape = {2, 3, 4}}));
    EXPECT_EQ(ks::io::parseDataSpec("x.raw:>u2:7"),
              (DataSpec{.kind = DataKind::Raw, .path = "x.raw", .dtype = Dtype::uint16(),
                        .order = ks::io::ByteOrder::Big, .shape = {7}}));
    EXPECT_EQ(ks::io::parseDataSpec("zeros").kind, DataKind::Zeros);
    EXPECT_EQ(ks::io::parseDataSpec("ones").kind, DataKind::Ones);
    EXPECT_EQ(ks::io::parseDataSpec("range").kind, DataKind::Range);
    EXPECT_EQ(ks::io::parseDataSpec("random"), (DataSpec{.kind = DataKind::Random, .seed = 0}));
    EXPECT_EQ(ks::io::parseDataSpec("random:42"), (DataSpec{.kind = DataKind::Random, .seed = 42}));
    EXPECT_EQ(ks::io::parseDataSpec("normal:18446744073709551615"),
              (DataSpec{.kind = DataKind::Normal, .seed = 18446744073709551615ull}));
    EXPECT_EQ(ks::io::parseDataSpec("2.5"), (DataSpec{.kind = DataKind::Number, .number = 2.5}));
    EXPECT_EQ(ks::io::parseDataSpec("-1e3"), (DataSpec{.kind = DataKind::Number, .number = -1000}));
    EXPECT_TRUE(std::isnan(ks::io::parseDataSpec("nan").number));
    EXPECT_EQ(ks::io::parseDataSpec("zeros.npy").kind, DataKind::Npy);
}

TEST(DataSpec, FormatsBackToItself)
{
    for (const char* text : {"a.npy", "p.png", "d/x.raw:<f4:480x640", "x.raw:>u2:7", "y.raw:|u1:0", "zeros", "ones",
                             "range", "random", "random:42", "normal:7", "2.5", "-1000", "0.1", "a.npy:convert", "p.png:convert",
                             "x.raw:<f8:3:convert"}) {
        EXPECT_EQ(ks::io::formatDataSpec(ks::io::parseDataSpec(text)), text);
    }
    EXPECT_EQ(ks::io::formatDataSpec(ks::io::parseDataSpec("x.raw:float:2x3")), "x.raw:<f4:2x3");
}

TEST(DataSpec, RefusalsSayWhichFormWasExpected)
{
    const std::string forms =
        "expected FILE.npy, an image (FILE.png .jpg .jpeg .bmp .tga .gif .psd .hdr .pic .pnm .ppm .pgm), "
        "FILE:DTYPE:D0xD1[x...] (raw elements, e.g. a.raw:f4:480x640), zeros, ones, range, random[:SEED], "
        "normal[:SEED] or a number";
    auto refusal = [](const char* text) { return errorText([&] { (void)ks::io::parseDataSpec(text); }); };
    EXPECT_EQ(refusal(""), "'' is not a data spec: it is empty; " + forms);
    EXPECT_EQ(refusal("notes.txt"), "'notes.txt' is not a data spec: " + forms);
    EXPECT_EQ(refusal("a.raw:f4"),
              "'a.raw:f4' is not a data spec: a raw file is FILE:DTYPE:D0xD1[x...] (e.g. a.raw:f4:480x640); " + forms);
    EXPECT_EQ(refusal("a.raw:f5:3"),
              "'a.raw:f5:3' is not a data spec: 'f5' is not a dtype of raw data (float32 or f4, float64 or f8, "
              "float16, int8..int64, uint8..uint64 (u1..u8), bool, or the C names float, double, int, uchar, ...)");
    EXPECT_EQ(refusal("a.raw:f4:3xx4"), "'a.raw:f4:3xx4' is not a data spec: the shape '3xx4' is not D0xD1[x...] "
                                        "with each D a whole number (e.g. 480x640x4)");
    EXPECT_EQ(refusal("a.raw:f4:-3"), "'a.raw:f4:-3' is not a data spec: the shape '-3' is not D0xD1[x...] "
                                      "with each D a whole number (e.g. 480x640x4)");
    EXPECT_EQ(refusal(":f4:3"),
              "':f4:3' is not a data spec: a raw file is FILE:DTYPE:D0xD1[x...] (e.g. a.raw:f4:480x640); " + forms);
    EXPECT_EQ(refusal("zeros:3"), "'zeros:3' is not a data spec: zeros takes no argument");
    EXPECT_EQ(refusal("random:x"),
              "'random:x' is not a data spec: expected random:SEED, SEED a whole number from 0 to 2^64-1");
    EXPECT_EQ(refusal("normal:-1"),
              "'normal:-1' is not a data spec: expected normal:SEED, SEED a whole number from 0 to 2^64-1");
}

TEST(DataSource, RawFilesAreCheckedAgainstTheirShape)
{
    ks::test::TempDir dir;
    const std::vector<float> values{1.f, 2.5f, -3.f, 4.f, 5.f, 6.f};
    const auto path =
        dir.write("v.raw", std::string(reinterpret_cast<const char*>(values.data()), values.size() * 4));
    const HostArray a = ks::io::readRaw(path, Dtype::float32(), {2, 3});
    EXPECT_EQ(a.shape, (std::vector<std::int64_t>{2, 3}));
    for (std::size_t i = 0; i < values.size(); ++i)
        EXPECT_EQ(a.at<float>(i), values[i]);
    EXPECT_EQ(errorText([&] { (void)ks::io::readRaw(path, Dtype::float32(), {64, 64}); }),
              path.string() + " holds 24 bytes; (64, 64) float32 is 16384 bytes");

    const auto big = dir.write("b.raw", std::string("\x12\x34\xAB\xCD", 4));
    const HostArray be = ks::io::loadData(ks::io::parseDataSpec(big.string() + ":>u2:2"));
    EXPECT_EQ(be.at<std::uint16_t>(0), 0x1234);
    EXPECT_EQ(be.at<std::uint16_t>(1), 0xABCD);
    const HostArray le = ks::io::loadData(ks::io::parseDataSpec(big.string() + ":u2:2"));
    EXPECT_EQ(le.at<std::uint16_t>(0), 0x3412);
}

TEST(DataSource, LoadsFilesBySpec)
{
    ks::test::TempDir dir;
    const HostArray stored{Dtype::int32(), {2}, {1, 0, 0, 0, 0xFE, 0xFF, 0xFF, 0xFF}};
    ks::io::writeNpy(dir.path() / "a.npy", stored);
    const HostArray fromNpy = ks::io::loadData(ks::io::parseDataSpec((dir.path() / "a.npy").string()));
    EXPECT_EQ(fromNpy.at<std::int32_t>(0), 1);
    EXPECT_EQ(fromNpy.at<std::int32_t>(1), -2);

    const std::uint8_t rgb[6] = {10, 20, 30, 40, 50, 60};
    const auto png = dir.path() / "p.png";
    ASSERT_TRUE(stbi_write_png(png.c_str(), 2, 1, 3, rgb, 6));
    ks::io::LoadOptions options;
    options.image.channels = 4;
    const HostArray fromPng = ks::io::loadData(ks::io::parseDataSpec(png.string()), options);
    EXPECT_EQ(fromPng.shape, (std::vector<std::int64_t>{1, 2, 4}));
    EXPECT_EQ(fromPng.bytes, (std::vector<std::uint8_t>{10, 20, 30, 255, 40, 50, 60, 255}));
}

TEST(DataSource, GeneratesZerosOnesRangeAndNumbers)
{
    ks::io::LoadOptions o{.dtype = Dtype::int16(), .shape = {2, 3}};
    const HostArray zeros = ks::io::loadData(ks::io::parseDataSpec("zeros"), o);
    EXPECT_EQ(zeros.shape, (std::vector<std::int64_t>{2, 3}));
    EXPECT_EQ(zeros.bytes, std::vector<std::uint8_t>(12, 0));
    const HostArray ones = ks::io::loadData(ks::io::parseDataSpec("ones"), o);
    const HostArray range = ks::io::loadData(ks::io::parseDataSpec("range"), o);
    const HostArray number = ks::io::loadData(ks::io::parseDataSpec("-7.9"), o);
    for (std::size_t i = 0; i < 6; ++i) {
        EXPECT_EQ(ones.at<std::int16_t>(i), 1);
        EXPECT_EQ(range.at<std::int16_t>(i), std::int16_t(i));
        EXPECT_EQ(number.at<std::int16_t>(i), -7);
    }
    const HostArray u8 = ks::io::generate(DataKind::Range, Dtype::uint8(), {300});
    EXPECT_EQ(u8.at<std::uint8_t>(255), 255);
    EXPECT_EQ(u8.at<std::uint8_t>(299), 255); // saturated, as conversions are
    EXPECT_EQ(ks::io::generate(DataKind::Number, Dtype::float32(), {}, 0, 0.1).at<float>(0), 0.1f);
    EXPECT_EQ(errorText([] { (void)ks::io::generate(DataKind::Npy, Dtype::float32(), {1}); }),
              "the data of a file (npy, image, raw) is read by loadData, not generated");
    EXPECT_EQ(errorText([] {
                  (void)ks::io::generate(DataKind::Zeros, Dtype::float64(), {std::int64_t(1) << 40, 1 << 20});
              }),
              "generated data of shape (1099511627776, 1048576) float64 is larger than 8589934592 bytes");
}

TEST(DataSource, RandomIsSplitMix64OnEveryPlatform)
{
    // The first outputs of Vigna's splitmix64.c seeded with 1234567.
    const std::uint64_t reference[] = {6457827717110365317ull, 3203168211198807973ull, 9817491932198370423ull};
    const HostArray f64 = ks::io::generate(DataKind::Random, Dtype::float64(), {3}, 1234567);
    const HostArray u64 = ks::io::generate(DataKind::Random, Dtype::uint64(), {3}, 1234567);
    const HostArray f32 = ks::io::generate(DataKind::Random, Dtype::float32(), {3}, 1234567);
    const HostArray u8 = ks::io::generate(DataKind::Random, Dtype::uint8(), {3}, 1234567);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(u64.at<std::uint64_t>(i), reference[i]);
        EXPECT_EQ(f64.at<double>(i), std::ldexp(double(reference[i] >> 11), -53));
        EXPECT_EQ(f32.at<float>(i), std::ldexp(float(reference[i] >> 40), -24));
        EXPECT_EQ(u8.at<std::uint8_t>(i), std::uint8_t(reference[i]));
    }
    // [0, 1) in every float type, the same for a seed and different across seeds.
    for (const Dtype d : {Dtype::float16(), Dtype::float32(), Dtype::float64()}) {
        const HostArray a = ks::io::generate(DataKind::Random, d, {4096}, 9);
        double lo = 1, hi = 0;
        for (std::size_t i = 0; i < 4096; ++i)
            lo = std::min(lo, a.value(i)), hi = std::max(hi, a.value(i));
        EXPECT_GE(lo, 0.0);
        EXPECT_LT(hi, 1.0);
        EXPECT_GT(hi, 0.99);
        EXPECT_EQ(a.bytes, ks::io::generate(DataKind::Random, d, {4096}, 9).bytes);
        EXPECT_NE(a.bytes, ks::io::generate(DataKind::Random, d, {4096}, 10).bytes);
    }
}

TEST(DataSource, NormalHasMeanZeroAndDeviationOne)
{
    const std::size_t n = 200001; // odd: the last pair's second value is dropped
    const HostArray a = ks::io::generate(DataKind::Normal, Dtype::float64(), {std::int64_t(n)}, 3);
    double sum = 0, squares = 0;
    std::size_t beyond3 = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double v = a.at<double>(i);
        sum += v, squares += v * v;
        beyond3 += std::fabs(v) > 3 ? 1 : 0;
    }
    const double mean = sum / double(n);
    EXPECT_NEAR(mean, 0.0, 0.01);
    EXPECT_NEAR(std::sqrt(squares / double(n) - mean * mean), 1.0, 0.01);
    EXPECT_NEAR(double(beyond3) / double(n), 0.0027, 0.0007); // P(|z| > 3)
    EXPECT_EQ(a.bytes, ks::io::generate(DataKind::Normal, Dtype::float64(), {std::int64_t(n)}, 3).bytes);
    const HostArray f32 = ks::io::generate(DataKind::Normal, Dtype::float32(), {4}, 3);
    for (std::size_t i = 0; i < 4; ++i)
        EXPECT_EQ(f32.at<float>(i), float(a.at<double>(i)));
    EXPECT_EQ(errorText([] { (void)ks::io::generate(DataKind::Normal, Dtype::int32(), {4}, 3); }),
              "normal makes floating-point data (float16, float32, float64); the target is int32");
}

// ":convert" asks for a file's values in the target's element type; without it a type that differs
// is refused, naming both types and the remedy.
TEST(DataSource, ConvertIsAskedForAndNeverSilent)
{
    EXPECT_TRUE(ks::io::parseDataSpec("a.npy:convert").convert);
    EXPECT_FALSE(ks::io::parseDataSpec("a.npy").convert);
    EXPECT_THROW(ks::io::parseDataSpec("zeros:convert"), ks::Error);
    EXPECT_THROW(ks::io::parseDataSpec("a.npy:convert:convert"), ks::Error);

    ks::test::TempDir dir;
    const std::vector<double> values = {1.5, -2.25, 1e10, 3};
    ks::io::writeNpy(dir.path() / "d.npy", "<f8", {4}, values.data(), values.size() * 8);
    ks::project::ResourceDesc r;
    r.name = "a";
    r.element = {ks::project::ScalarType::Float32, 1};
    r.count = 4;
    r.data = ks::io::parseDataSpec((dir.path() / "d.npy").string());
    try {
        (void)ks::pipeline::initialBytes(r);
        ADD_FAILURE() << "float64 data went into a float buffer unasked";
    } catch (const ks::Error& e) {
        EXPECT_NE(e.text().find("holds float64 (4,), buffer \"a\" (float) is float32"), std::string::npos) << e.text();
        EXPECT_NE(e.text().find("d.npy:convert"), std::string::npos) << e.text();
    }
    r.data->convert = true;
    const std::vector<std::uint8_t> bytes = ks::pipeline::initialBytes(r);
    ASSERT_EQ(bytes.size(), 16u);
    float f[4];
    std::memcpy(f, bytes.data(), 16);
    EXPECT_EQ(f[0], 1.5f);
    EXPECT_EQ(f[1], -2.25f);
    EXPECT_EQ(f[2], 1e10f);
    EXPECT_EQ(f[3], 3.f);
    // Into int: truncated toward zero, as numpy's astype does.
    r.element = {ks::project::ScalarType::Int32, 1};
    r.data = ks::io::parseDataSpec((dir.path() / "d.npy").string() + ":convert");
    const std::vector<std::uint8_t> ints = ks::pipeline::initialBytes(r);
    std::int32_t i[4];
    std::memcpy(i, ints.data(), 16);
    EXPECT_EQ(i[0], 1);
    EXPECT_EQ(i[1], -2);
    EXPECT_EQ(i[3], 3);
}
