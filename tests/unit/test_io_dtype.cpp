// ks::io's element types and host arrays (ks/io/dtype.hpp, ks/io/host_array.hpp): the spellings
// users type, numpy descrs, the element check before data fills a buffer, explicit conversions.
#include "ks/io/host_array.hpp"

#include "test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using ks::io::Dtype;
using ks::io::HostArray;
using ks::test::errorText;

namespace {

template <class T>
HostArray arrayOf(Dtype dtype, std::vector<T> values)
{
    HostArray a{dtype, {std::int64_t(values.size())}, std::vector<std::uint8_t>(values.size() * sizeof(T))};
    std::memcpy(a.bytes.data(), values.data(), a.bytes.size());
    return a;
}

template <class T>
std::vector<T> valuesOf(const HostArray& a)
{
    std::vector<T> out;
    for (std::size_t i = 0; i < a.bytes.size() / sizeof(T); ++i)
        out.push_back(a.at<T>(i));
    return out;
}

} // namespace

TEST(IoDtype, ReadsNumpyAndCudaSpellings)
{
    const std::pair<const char*, Dtype> cases[] = {
        {"float32", Dtype::float32()}, {"f4", Dtype::float32()},       {"float", Dtype::float32()},
        {"<f4", Dtype::float32()},     {"float64", Dtype::float64()}, {"f8", Dtype::float64()},
        {"double", Dtype::float64()},  {"float16", Dtype::float16()}, {"half", Dtype::float16()},
        {"uint8", Dtype::uint8()},     {"u1", Dtype::uint8()},        {"uchar", Dtype::uint8()},
        {"|u1", Dtype::uint8()},       {"unsigned char", Dtype::uint8()}, {"int8", Dtype::int8()},
        {"char", Dtype::int8()},       {"int32", Dtype::int32()},     {"i4", Dtype::int32()},
        {"int", Dtype::int32()},       {"uint16", Dtype::uint16()},   {"u2", Dtype::uint16()},
        {"ushort", Dtype::uint16()},   {"short", Dtype::int16()},     {"int64", Dtype::int64()},
        {"long long", Dtype::int64()}, {"u8", Dtype::uint64()},       {"uint64", Dtype::uint64()},
        {"unsigned int", Dtype::uint32()}, {"uint", Dtype::uint32()}, {"bool", Dtype::boolean()},
        {"|b1", Dtype::boolean()},     {"?", Dtype::boolean()},       {"Unsigned  Int", Dtype::uint32()},
    };
    for (const auto& [text, want] : cases) {
        const auto got = ks::io::parseDtype(text);
        ASSERT_TRUE(got.has_value()) << text;
        EXPECT_EQ(*got, want) << text;
    }
    for (const char* bad : {"", "float128", "complex64", "<c8", "f3", "i16", "floaty", "<U8", "|O"})
        EXPECT_FALSE(ks::io::parseDtype(bad).has_value()) << bad;
}

TEST(IoDtype, DescrAndNameReadBack)
{
    EXPECT_EQ(Dtype::float32().descr(), "<f4");
    EXPECT_EQ(Dtype::uint8().descr(), "|u1");
    EXPECT_EQ(Dtype::boolean().descr(), "|b1");
    EXPECT_EQ(Dtype::int64().descr(), "<i8");
    EXPECT_EQ(Dtype::float16().name(), "float16");
    EXPECT_EQ(Dtype::uint16().name(), "uint16");
    for (const Dtype d : ks::io::kAllDtypes) {
        EXPECT_EQ(ks::io::parseDtype(d.descr()), d) << d.descr();
        EXPECT_EQ(ks::io::parseDtype(d.name()), d) << d.name();
    }
}

TEST(IoDtype, BigEndianOnlyWhenTheCallerAsksForTheOrder)
{
    EXPECT_FALSE(ks::io::parseDtype(">f4").has_value());
    ks::io::ByteOrder order = ks::io::ByteOrder::Little;
    EXPECT_EQ(ks::io::parseDtype(">i2", &order), Dtype::int16());
    EXPECT_EQ(order, ks::io::ByteOrder::Big);
    EXPECT_EQ(ks::io::parseDtype(">u1", &order), Dtype::uint8());
    EXPECT_EQ(order, ks::io::ByteOrder::Little); // one byte has no order
    EXPECT_EQ(ks::io::parseDtype("float", &order), Dtype::float32());
    EXPECT_EQ(order, ks::io::ByteOrder::Little);
}

TEST(IoDtype, UnsupportedDtypesAreNamed)
{
    EXPECT_EQ(ks::io::unsupportedDtypeReason("<c8"), "complex64 ('<c8') is not supported");
    EXPECT_EQ(ks::io::unsupportedDtypeReason("<c16"), "complex128 ('<c16') is not supported");
    EXPECT_EQ(ks::io::unsupportedDtypeReason("<U8"), "strings ('<U8') are not supported");
    EXPECT_EQ(ks::io::unsupportedDtypeReason("|S5"), "byte strings ('|S5') are not supported");
    EXPECT_EQ(ks::io::unsupportedDtypeReason("|O"), "Python objects ('|O') are not supported");
    EXPECT_EQ(ks::io::unsupportedDtypeReason("<f16"), "float128 ('<f16') is not supported");
    EXPECT_EQ(ks::io::unsupportedDtypeReason("<M8[ns]"), "dates and times ('<M8[ns]') are not supported");
    EXPECT_EQ(ks::io::unsupportedDtypeReason("[('x', '<f4')]"),
              "a structured dtype [('x', '<f4')] is not supported");
    EXPECT_EQ(ks::io::unsupportedDtypeReason("zz"), "'zz' is not a numpy dtype");
    EXPECT_EQ(ks::io::unsupportedDtypeReason(">f8"), "");
}

TEST(IoHostArray, ShapesCountsAndDescriptions)
{
    EXPECT_EQ(ks::io::shapeText({1000, 3}), "(1000, 3)");
    EXPECT_EQ(ks::io::shapeText({5}), "(5,)");
    EXPECT_EQ(ks::io::shapeText({}), "()");
    EXPECT_EQ(ks::io::byteCount(Dtype::float32(), {1000, 3}), 12000u);
    EXPECT_EQ(ks::io::byteCount(Dtype::float64(), {}), 8u);
    EXPECT_EQ(ks::io::byteCount(Dtype::uint8(), {0, 5}), 0u);
    EXPECT_FALSE(ks::io::byteCount(Dtype::float32(), {-1}).has_value());
    EXPECT_FALSE(ks::io::byteCount(Dtype::float64(), {std::int64_t(1) << 40, std::int64_t(1) << 30}).has_value());
    const HostArray a{Dtype::float64(), {1000}, std::vector<std::uint8_t>(8000)};
    EXPECT_EQ(a.describe(), "float64 (1000,)");
    EXPECT_EQ(a.elementCount(), 1000);
    EXPECT_EQ(errorText([&] { (void)a.at<float>(0); }), "an element of float64 (1000,) is 8 bytes, not 4");
    EXPECT_EQ(errorText([&] { (void)a.at<double>(1000); }), "element 1000 of float64 (1000,) is out of range");
}

TEST(IoHostArray, RequireElementAcceptsTheSameTypeOnly)
{
    const HostArray f64{Dtype::float64(), {1000}, std::vector<std::uint8_t>(8000)};
    EXPECT_EQ(errorText([&] { ks::io::requireElement(f64, "a.npy", Dtype::float32(), 1); }),
              "a.npy holds float64 (1000,), the buffer is float32 (add \":convert\" to the data, a.npy:convert, to convert its values)");
    EXPECT_NO_THROW(ks::io::requireElement(f64, "a.npy", Dtype::float64(), 1));

    const HostArray rgba{Dtype::uint8(), {4, 5, 4}, std::vector<std::uint8_t>(80)};
    EXPECT_NO_THROW(ks::io::requireElement(rgba, "p.png", Dtype::uint8(), 4, "texture 'albedo'"));
    EXPECT_NO_THROW(ks::io::requireElement(rgba, "p.png", Dtype::uint8(), 1, "texture 'albedo'"));
    EXPECT_EQ(errorText([&] { ks::io::requireElement(rgba, "p.png", Dtype::uint8(), 3, "texture 'albedo'"); }),
              "p.png holds uint8 (4, 5, 4), texture 'albedo' is uint8 x 3: the last dimension must be 3");
    EXPECT_EQ(errorText([&] { ks::io::requireElement(rgba, "p.png", Dtype::float32(), 4); }),
              "p.png holds uint8 (4, 5, 4), the buffer is float32 x 4 (add \":convert\" to the data, p.png:convert, to convert its values)");
    EXPECT_EQ(errorText([&] { ks::io::requireElement(rgba, "p.png", Dtype::uint8(), 5); }),
              "the buffer has 5 components; an element has 1 to 4");
}

TEST(IoConvert, KeepsValuesOrNormalises)
{
    const HostArray u8 = arrayOf<std::uint8_t>(Dtype::uint8(), {0, 128, 255});
    EXPECT_EQ(valuesOf<float>(ks::io::convert(u8, Dtype::float32())), (std::vector<float>{0.f, 128.f, 255.f}));
    EXPECT_EQ(valuesOf<float>(ks::io::convert(u8, Dtype::float32(), ks::io::Scale::Normalize)),
              (std::vector<float>{0.f, float(128.0 / 255.0), 1.f}));
    EXPECT_EQ(valuesOf<std::uint16_t>(ks::io::convert(u8, Dtype::uint16(), ks::io::Scale::Normalize)),
              (std::vector<std::uint16_t>{0, 32896, 65535}));
    const HostArray i8 = arrayOf<std::int8_t>(Dtype::int8(), {-128, -127, 0, 127});
    EXPECT_EQ(valuesOf<double>(ks::io::convert(i8, Dtype::float64(), ks::io::Scale::Normalize)),
              (std::vector<double>{-1.0, -1.0, 0.0, 1.0}));

    const float nan = std::numeric_limits<float>::quiet_NaN();
    const HostArray f32 = arrayOf<float>(Dtype::float32(), {-1.5f, 0.5f, 300.f, nan, 3.9f, -200.f});
    EXPECT_EQ(valuesOf<std::uint8_t>(ks::io::convert(f32, Dtype::uint8())),
              (std::vector<std::uint8_t>{0, 0, 255, 0, 3, 0}));
    EXPECT_EQ(valuesOf<std::int8_t>(ks::io::convert(f32, Dtype::int8())),
              (std::vector<std::int8_t>{-1, 0, 127, 0, 3, -128}));
    EXPECT_EQ(valuesOf<std::uint8_t>(ks::io::convert(f32, Dtype::uint8(), ks::io::Scale::Normalize)),
              (std::vector<std::uint8_t>{0, 128, 255, 0, 255, 0}));
    EXPECT_EQ(valuesOf<bool>(ks::io::convert(f32, Dtype::boolean())),
              (std::vector<bool>{true, true, true, true, true, true}));
    EXPECT_EQ(ks::io::convert(f32, Dtype::uint8()).shape, f32.shape);
}

TEST(IoConvert, WideIntegersStayExactAndSaturate)
{
    const std::int64_t big = (std::int64_t(1) << 53) + 1; // not a double
    const HostArray i64 = arrayOf<std::int64_t>(Dtype::int64(), {big, -5, std::numeric_limits<std::int64_t>::min()});
    EXPECT_EQ(valuesOf<std::uint64_t>(ks::io::convert(i64, Dtype::uint64())),
              (std::vector<std::uint64_t>{std::uint64_t(big), 0, 0}));
    EXPECT_EQ(valuesOf<std::int32_t>(ks::io::convert(i64, Dtype::int32())),
              (std::vector<std::int32_t>{std::numeric_limits<std::int32_t>::max(), -5,
                                         std::numeric_limits<std::int32_t>::min()}));
    const HostArray u64 = arrayOf<std::uint64_t>(Dtype::uint64(), {~std::uint64_t(0), 7});
    EXPECT_EQ(valuesOf<std::int64_t>(ks::io::convert(u64, Dtype::int64())),
              (std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::max(), 7}));
    const HostArray f64 = arrayOf<double>(Dtype::float64(), {1e30, -1e30, 9.3e18});
    EXPECT_EQ(valuesOf<std::int64_t>(ks::io::convert(f64, Dtype::int64())),
              (std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::max(),
                                         std::numeric_limits<std::int64_t>::min(),
                                         std::numeric_limits<std::int64_t>::max()}));
    EXPECT_EQ(valuesOf<std::uint64_t>(ks::io::convert(f64, Dtype::uint64())),
              (std::vector<std::uint64_t>{~std::uint64_t(0), 0, 9300000000000000000ull}));
}

TEST(IoConvert, HalfFloatsRoundToNearestEven)
{
    const HostArray f32 = arrayOf<float>(
        Dtype::float32(), {1.f, 0.5f, -2.f, 65504.f, 65520.f, 1e-8f, std::ldexp(1.f, -24), 1.f / 3.f,
                           1.f + std::ldexp(1.f, -11), 1.f + 3 * std::ldexp(1.f, -11), std::ldexp(1.f, -14)});
    const HostArray f16 = ks::io::convert(f32, Dtype::float16());
    EXPECT_EQ(valuesOf<std::uint16_t>(f16), (std::vector<std::uint16_t>{0x3C00, 0x3800, 0xC000, 0x7BFF, 0x7C00, 0x0000,
                                                                        0x0001, 0x3555, 0x3C00, 0x3C02, 0x0400}));
    const HostArray back = ks::io::convert(f16, Dtype::float32());
    EXPECT_EQ(back.at<float>(0), 1.f);
    EXPECT_EQ(back.at<float>(2), -2.f);
    EXPECT_EQ(back.at<float>(3), 65504.f);
    EXPECT_TRUE(std::isinf(back.at<float>(4)));
    EXPECT_EQ(back.at<float>(6), std::ldexp(1.f, -24));
    EXPECT_EQ(back.at<float>(7), 0.333251953125f);
    EXPECT_EQ(back.value(10), std::ldexp(1.0, -14));
}
