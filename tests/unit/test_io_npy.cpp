// The .npy reader (ks/io/npy.hpp): every format version, dtype, byte order and memory order numpy
// writes, what the writer writes read back, and a message naming the file for each broken file.
#include "ks/io/npy.hpp"

#include "test_support.hpp"

#include <gtest/gtest.h>

#include <numeric>

using ks::io::Dtype;
using ks::io::HostArray;
using ks::test::errorText;

namespace {

// An .npy file as numpy writes it: magic, version, header length (2 bytes for 1.0, 4 otherwise),
// the dict padded with spaces to a multiple of 64 and a newline, then `data`.
std::string npyFile(int major, const std::string& dict, const std::string& data)
{
    const std::size_t lengthBytes = major == 1 ? 2 : 4;
    std::string header = dict;
    const std::size_t unpadded = 8 + lengthBytes + header.size() + 1;
    header.append((64 - unpadded % 64) % 64, ' ');
    header += '\n';
    std::string out("\x93NUMPY", 6);
    out += char(major);
    out += char(0);
    for (std::size_t b = 0; b < lengthBytes; ++b)
        out += char((header.size() >> (8 * b)) & 0xFF);
    return out + header + data;
}

template <class T>
std::string bytesOf(const std::vector<T>& values)
{
    return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

std::string bigEndian(std::string bytes, std::size_t size)
{
    for (std::size_t i = 0; i < bytes.size(); i += size)
        std::reverse(bytes.begin() + std::ptrdiff_t(i), bytes.begin() + std::ptrdiff_t(i + size));
    return bytes;
}

HostArray parse(const std::string& file) { return ks::io::parseNpy(file, "a.npy"); }

} // namespace

TEST(NpyRead, ReadsBackWhatTheWriterWritesForEveryDtype)
{
    ks::test::TempDir dir;
    for (const Dtype d : ks::io::kAllDtypes) {
        SCOPED_TRACE(d.descr());
        HostArray a{d, {3, 5}, std::vector<std::uint8_t>(15 * d.size)};
        for (std::size_t i = 0; i < a.bytes.size(); ++i)
            a.bytes[i] = std::uint8_t(d.kind == ks::io::DtypeKind::Bool ? i % 2 : 37 * i + 11);
        const auto path = dir.path() / (std::string(d.name()) + ".npy");
        ks::io::writeNpy(path, a);
        const HostArray back = ks::io::readNpy(path);
        EXPECT_EQ(back.dtype, d);
        EXPECT_EQ(back.shape, a.shape);
        EXPECT_EQ(back.bytes, a.bytes);
    }
    // A scalar and an empty array.
    ks::io::writeNpy(dir.path() / "s.npy", HostArray{Dtype::float64(), {}, std::vector<std::uint8_t>(8, 0x40)});
    EXPECT_EQ(ks::io::readNpy(dir.path() / "s.npy").shape, std::vector<std::int64_t>{});
    EXPECT_EQ(ks::io::readNpy(dir.path() / "s.npy").bytes.size(), 8u);
    ks::io::writeNpy(dir.path() / "e.npy", HostArray{Dtype::int16(), {0, 4}, {}});
    EXPECT_EQ(ks::io::readNpy(dir.path() / "e.npy").shape, (std::vector<std::int64_t>{0, 4}));
}

TEST(NpyRead, Versions2And3HaveFourByteHeaderLengths)
{
    const std::vector<float> values{1.5f, -2.f, 3.25f};
    for (int major : {1, 2, 3}) {
        SCOPED_TRACE(major);
        const HostArray a =
            parse(npyFile(major, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", bytesOf(values)));
        EXPECT_EQ(a.dtype, Dtype::float32());
        EXPECT_EQ(a.shape, std::vector<std::int64_t>{3});
        EXPECT_EQ(a.at<float>(0), 1.5f);
        EXPECT_EQ(a.at<float>(1), -2.f);
        EXPECT_EQ(a.at<float>(2), 3.25f);
    }
    // Double quotes, another key order, no trailing comma, Python 2's long dimensions.
    const HostArray b = parse(npyFile(1, "{\"shape\": (1L, 3L), \"fortran_order\": False, \"descr\": \"<f4\"}",
                                      bytesOf(values)));
    EXPECT_EQ(b.shape, (std::vector<std::int64_t>{1, 3}));
    EXPECT_EQ(b.at<float>(2), 3.25f);
}

TEST(NpyRead, BigEndianDataBecomesLittleEndian)
{
    const std::vector<std::int32_t> i32{1, -2, 0x01020304};
    HostArray a = parse(npyFile(1, "{'descr': '>i4', 'fortran_order': False, 'shape': (3,), }",
                                bigEndian(bytesOf(i32), 4)));
    EXPECT_EQ(a.dtype, Dtype::int32());
    EXPECT_EQ(a.at<std::int32_t>(0), 1);
    EXPECT_EQ(a.at<std::int32_t>(1), -2);
    EXPECT_EQ(a.at<std::int32_t>(2), 0x01020304);

    const std::vector<double> f64{0.1, -1e300};
    a = parse(npyFile(1, "{'descr': '>f8', 'fortran_order': False, 'shape': (2,), }", bigEndian(bytesOf(f64), 8)));
    EXPECT_EQ(a.at<double>(0), 0.1);
    EXPECT_EQ(a.at<double>(1), -1e300);

    const std::vector<std::uint16_t> u16{0x1234, 0xFF00};
    a = parse(npyFile(1, "{'descr': '>u2', 'fortran_order': False, 'shape': (2,), }", bigEndian(bytesOf(u16), 2)));
    EXPECT_EQ(a.at<std::uint16_t>(0), 0x1234);
    EXPECT_EQ(a.at<std::uint16_t>(1), 0xFF00);
}

TEST(NpyRead, FortranOrderIsTransposedToCOrder)
{
    // np.asfortranarray([[0, 1, 2], [3, 4, 5]]) stores its columns one after the other.
    const std::vector<std::int16_t> f2{0, 3, 1, 4, 2, 5};
    HostArray a =
        parse(npyFile(1, "{'descr': '<i2', 'fortran_order': True, 'shape': (2, 3), }", bytesOf(f2)));
    EXPECT_EQ(a.shape, (std::vector<std::int64_t>{2, 3}));
    for (std::size_t i = 0; i < 6; ++i)
        EXPECT_EQ(a.at<std::int16_t>(i), std::int16_t(i));

    // Three dimensions, big-endian too: element (i, j, k) of shape (2, 3, 4) holds its C index.
    std::vector<std::uint32_t> f3(24);
    for (std::uint32_t f = 0; f < 24; ++f)
        f3[f] = (f % 2) * 12 + (f / 2 % 3) * 4 + f / 6;
    a = parse(npyFile(2, "{'descr': '>u4', 'fortran_order': True, 'shape': (2, 3, 4), }", bigEndian(bytesOf(f3), 4)));
    for (std::size_t i = 0; i < 24; ++i)
        EXPECT_EQ(a.at<std::uint32_t>(i), i);
}

TEST(NpyRead, BrokenFilesSayWhatIsWrong)
{
    const std::string data(12000, '\0');
    EXPECT_EQ(errorText([] { parse("PK\x03\x04 not numpy"); }),
              "a.npy is not a NumPy .npy file: it does not start with \\x93NUMPY");
    EXPECT_EQ(errorText([] { parse(std::string("\x93NUMPY\x01", 7)); }),
              "a.npy is truncated: it ends before the format version");
    EXPECT_EQ(errorText([] { parse(std::string("\x93NUMPY\x04\x00\x10\x00", 10)); }),
              "a.npy: .npy format version 4.0 is not supported (1.0, 2.0 and 3.0 are)");
    const std::string full = npyFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1000, 3), }", data);
    EXPECT_EQ(errorText([&] { parse(full.substr(0, 50)); }),
              "a.npy is truncated: its header is 118 bytes, the file ends 40 bytes into it");
    EXPECT_EQ(errorText([&] { parse(full.substr(0, 128 + 40)); }),
              "a.npy holds 40 bytes of data, its header says (1000, 3) <f4 = 12000 bytes");
    EXPECT_EQ(errorText([&] { parse(full + "xy"); }),
              "a.npy holds 12002 bytes of data, its header says (1000, 3) <f4 = 12000 bytes");
    EXPECT_NO_THROW(parse(full));
    // The path names the file when it is read from disk.
    ks::test::TempDir dir;
    const auto path = dir.write("short.npy", full.substr(0, 128 + 4));
    EXPECT_EQ(errorText([&] { (void)ks::io::readNpy(path); }),
              path.string() + " holds 4 bytes of data, its header says (1000, 3) <f4 = 12000 bytes");
    const std::string missing = errorText([&] { (void)ks::io::readNpy(dir.path() / "missing.npy"); });
    EXPECT_NE(missing.find("missing.npy: No such file or directory"), std::string::npos) << missing;
}

TEST(NpyRead, UnsupportedDtypesAreNamed)
{
    auto dtypeError = [](const std::string& descr) {
        return errorText([&] {
            parse(npyFile(1, "{'descr': " + descr + ", 'fortran_order': False, 'shape': (2,), }", std::string(64, 'x')));
        });
    };
    const std::string supported =
        " (supported: bool, int8 to int64, uint8 to uint64, float16, float32, float64)";
    EXPECT_EQ(dtypeError("'<c8'"), "a.npy holds complex64 ('<c8') is not supported" + supported);
    EXPECT_EQ(dtypeError("'|O'"), "a.npy holds Python objects ('|O') are not supported" + supported);
    EXPECT_EQ(dtypeError("'<U5'"), "a.npy holds strings ('<U5') are not supported" + supported);
    EXPECT_EQ(dtypeError("'|S3'"), "a.npy holds byte strings ('|S3') are not supported" + supported);
    EXPECT_EQ(dtypeError("[('x', '<f4'), ('y', '<i4')]"),
              "a.npy holds a structured dtype [('x', '<f4'), ('y', '<i4')] is not supported");
}

TEST(NpyRead, MalformedHeadersSayWhere)
{
    auto headerError = [](const std::string& dict) { return errorText([&] { parse(npyFile(1, dict, "")); }); };
    const std::string noShape = headerError("{'descr': '<f4', 'fortran_order': False}");
    EXPECT_EQ(noShape.find("a.npy: malformed .npy header at character"), 0u) << noShape;
    EXPECT_NE(noShape.find("the header has no 'shape'; the header is {'descr': '<f4', 'fortran_order': False}"),
              std::string::npos)
        << noShape;
    const std::string badBool = headerError("{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}");
    EXPECT_NE(badBool.find("at character 34: expected True or False for 'fortran_order'"), std::string::npos)
        << badBool;
    EXPECT_NE(headerError("{'descr': '<f4', 'fortran_order': False, 'shape': (2, -3)}")
                  .find("expected a dimension (a whole number) in 'shape'"),
              std::string::npos);
    EXPECT_NE(headerError("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'extra': 1}")
                  .find("unexpected key 'extra'"),
              std::string::npos);
    EXPECT_NE(headerError("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}")
                  .find("unexpected key 'descr'"),
              std::string::npos);
    EXPECT_NE(headerError("['descr']").find("expected '{' to start the header dict"), std::string::npos);
    EXPECT_NE(headerError("{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} junk")
                  .find("text after the header dict"),
              std::string::npos);
    EXPECT_NE(headerError("{'descr: '<f4'}").find("expected ':' after the key 'descr: '"), std::string::npos);
}
