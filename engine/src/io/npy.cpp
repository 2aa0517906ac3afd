#include "ks/io/npy.hpp"

#include <fstream>

#include "ks/core/atomic_file.hpp"
#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"

#include <algorithm>
#include <fstream>
#include <optional>

namespace ks::io {

namespace {

constexpr std::string_view kMagic("\x93NUMPY", 6);

// The header dict, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }": exactly the
// three keys numpy writes, in any order, Python literal syntax (either quote, trailing commas,
// Python 2's "3L").
struct HeaderReader {
    std::string_view text;
    std::string_view name;
    std::size_t pos = 0;

    [[noreturn]] void fail(const std::string& what) const
    {
        std::string shown;
        for (char c : text.substr(0, 160))
            shown += (c >= 32 && c < 127) ? c : '?';
        throwUsage("readNpy", std::string(name) + ": malformed .npy header at character " + std::to_string(pos) +
                                  ": " + what + "; the header is " + shown + (text.size() > 160 ? "..." : ""));
    }
    void skipSpace()
    {
        while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n' || text[pos] == '\r'))
            ++pos;
    }
    bool accept(char c)
    {
        skipSpace();
        if (pos < text.size() && text[pos] == c) {
            ++pos;
            return true;
        }
        return false;
    }
    void expect(char c, const std::string& where)
    {
        if (!accept(c))
            fail(std::string("expected '") + c + "' " + where);
    }
    std::string string(const char* what)
    {
        skipSpace();
        if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"'))
            fail(std::string("expected a quoted string for ") + what);
        const char quote = text[pos++];
        const std::size_t end = text.find(quote, pos);
        if (end == std::string_view::npos)
            fail(std::string("the string for ") + what + " does not end");
        std::string s(text.substr(pos, end - pos));
        pos = end + 1;
        return s;
    }
    bool boolean()
    {
        skipSpace();
        for (const auto& [word, value] : {std::pair{std::string_view("True"), true}, {std::string_view("False"), false}})
            if (text.substr(pos, word.size()) == word) {
                pos += word.size();
                return value;
            }
        fail("expected True or False for 'fortran_order'");
    }
    std::vector<std::int64_t> shape()
    {
        expect('(', "to start 'shape'");
        std::vector<std::int64_t> dims;
        while (!accept(')')) {
            skipSpace();
            if (pos >= text.size() || text[pos] < '0' || text[pos] > '9')
                fail("expected a dimension (a whole number) in 'shape'");
            std::int64_t d = 0;
            while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
                if (d > (std::int64_t(1) << 56))
                    fail("a dimension in 'shape' is too large");
                d = d * 10 + (text[pos++] - '0');
            }
            accept('L');
            dims.push_back(d);
            if (dims.size() > 32)
                fail("'shape' has more than 32 dimensions");
            if (!accept(',')) {
                expect(')', "after a dimension in 'shape'");
                break;
            }
        }
        return dims;
    }
};

struct Header {
    Dtype dtype;
    ByteOrder order = ByteOrder::Little;
    std::string descr;
    bool fortranOrder = false;
    std::vector<std::int64_t> shape;
};

Header readHeader(std::string_view dict, std::string_view name)
{
    HeaderReader r{dict, name};
    Header h;
    std::optional<std::string> descr;
    std::optional<bool> fortran;
    std::optional<std::vector<std::int64_t>> shape;
    r.expect('{', "to start the header dict");
    while (!r.accept('}')) {
        const std::string key = r.string("a key");
        r.expect(':', "after the key '" + key + "'");
        if (key == "descr" && !descr) {
            r.skipSpace();
            if (r.pos < dict.size() && dict[r.pos] == '[') {
                const std::size_t end = dict.find(']', r.pos);
                throwUsage("readNpy", std::string(name) + " holds " +
                                          unsupportedDtypeReason(dict.substr(r.pos, end == std::string_view::npos
                                                                                        ? std::string_view::npos
                                                                                        : end + 1 - r.pos)));
            }
            descr = r.string("'descr'");
        } else if (key == "fortran_order" && !fortran) {
            fortran = r.boolean();
        } else if (key == "shape" && !shape) {
            shape = r.shape();
        } else {
            r.fail("unexpected key '" + key + "' (a header has 'descr', 'fortran_order' and 'shape', once each)");
        }
        if (!r.accept(',')) {
            r.expect('}', "after a value");
            break;
        }
    }
    r.skipSpace();
    if (r.pos != dict.size())
        r.fail("text after the header dict");
    if (!descr || !fortran || !shape)
        r.fail(std::string("the header has no '") + (!descr ? "descr" : !fortran ? "fortran_order" : "shape") + "'");
    const std::optional<Dtype> dtype = parseDtype(*descr, &h.order);
    if (!dtype)
        throwUsage("readNpy", std::string(name) + " holds " + unsupportedDtypeReason(*descr) +
                                  " (supported: bool, int8 to int64, uint8 to uint64, float16, float32, float64)");
    h.dtype = *dtype;
    h.descr = *descr;
    h.fortranOrder = *fortran;
    h.shape = std::move(*shape);
    return h;
}

// Fortran order (the first index varies fastest) to C order: walks the output in C order, keeping
// the input offset of the current index.
std::vector<std::uint8_t> fortranToC(const std::vector<std::uint8_t>& in, const std::vector<std::int64_t>& shape,
                                     std::size_t size)
{
    std::vector<std::uint8_t> out(in.size());
    const std::size_t count = in.size() / size;
    if (count == 0)
        return out;
    const std::size_t n = shape.size();
    std::vector<std::size_t> stride(n), index(n, 0);
    std::size_t s = 1;
    for (std::size_t k = 0; k < n; ++k) {
        stride[k] = s;
        s *= std::size_t(shape[k]);
    }
    std::size_t from = 0;
    for (std::size_t i = 0; i < count; ++i) {
        std::copy_n(in.begin() + std::ptrdiff_t(from * size), size, out.begin() + std::ptrdiff_t(i * size));
        for (std::size_t k = n; k-- > 0;) {
            if (++index[k] < std::size_t(shape[k])) {
                from += stride[k];
                break;
            }
            from -= stride[k] * (index[k] - 1);
            index[k] = 0;
        }
    }
    return out;
}

} // namespace

std::string npyHeader(const std::string& descr, const std::vector<std::int64_t>& shape)
{
    std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shapeText(shape) + ", }";
    // magic (6) + version (2) + header length (2) + dict + padding + '\n' = multiple of 64.
    const std::size_t unpadded = 10 + dict.size() + 1;
    dict.append((64 - unpadded % 64) % 64, ' ');
    dict += '\n';
    std::string out("\x93NUMPY\x01\x00", 8);
    out += char(dict.size() & 0xFF);
    out += char((dict.size() >> 8) & 0xFF);
    return out + dict;
}

void writeNpy(const std::filesystem::path& path, const std::string& descr, const std::vector<std::int64_t>& shape,
              const void* data, std::size_t bytes)
{
    const std::string header = npyHeader(descr, shape);
    paths::writeFileAtomically(path, {header, std::string_view(static_cast<const char*>(data), bytes)});
}

void writeNpy(const std::filesystem::path& path, const HostArray& array)
{
    writeNpy(path, array.dtype.descr(), array.shape, array.bytes.data(), array.bytes.size());
}

namespace {

// The header of an .npy file whose first bytes are `file` (at least the header, or all of a short
// file): its dtype, order, shape and where the data starts.
struct Parsed {
    Header header;
    std::size_t dataStart = 0;
    std::uint64_t dataBytes = 0;
};

Parsed parseHeader(std::string_view file, std::string_view name)
{
    const std::string file_(name);
    if (file.substr(0, kMagic.size()) != kMagic)
        throwUsage("readNpy", file_ + " is not a NumPy .npy file: it does not start with \\x93NUMPY");
    if (file.size() < 8)
        throwUsage("readNpy", file_ + " is truncated: it ends before the format version");
    const int major = static_cast<unsigned char>(file[6]), minor = static_cast<unsigned char>(file[7]);
    if (major < 1 || major > 3 || minor != 0)
        throwUsage("readNpy", file_ + ": .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
                                  " is not supported (1.0, 2.0 and 3.0 are)");
    const std::size_t lengthBytes = major == 1 ? 2 : 4;
    const std::size_t start = 8 + lengthBytes;
    if (file.size() < start)
        throwUsage("readNpy", file_ + " is truncated: it ends inside the header length");
    std::size_t headerLength = 0;
    for (std::size_t b = 0; b < lengthBytes; ++b)
        headerLength |= std::size_t(static_cast<unsigned char>(file[8 + b])) << (8 * b);
    if (file.size() - start < headerLength)
        throwUsage("readNpy", file_ + " is truncated: its header is " + std::to_string(headerLength) +
                                  " bytes, the file ends " + std::to_string(file.size() - start) + " bytes into it");
    Parsed p;
    p.header = readHeader(file.substr(start, headerLength), name);
    const std::optional<std::uint64_t> expected = byteCount(p.header.dtype, p.header.shape);
    if (!expected)
        throwUsage("readNpy", file_ + ": the shape " + shapeText(p.header.shape) + " in its header is too large");
    p.dataStart = start + headerLength;
    p.dataBytes = *expected;
    return p;
}

void checkDataSize(const Parsed& p, std::uint64_t have, std::string_view name)
{
    if (have != p.dataBytes)
        throwUsage("readNpy", std::string(name) + " holds " + std::to_string(have) + " bytes of data, its header says " +
                                  shapeText(p.header.shape) + " " + p.header.descr + " = " +
                                  std::to_string(p.dataBytes) + " bytes");
}

HostArray finish(const Parsed& p, std::vector<std::uint8_t> bytes)
{
    HostArray a{p.header.dtype, p.header.shape, std::move(bytes)};
    if (p.header.order == ByteOrder::Big && p.header.dtype.size > 1)
        swapByteOrder(a);
    if (p.header.fortranOrder && p.header.shape.size() > 1)
        a.bytes = fortranToC(a.bytes, p.header.shape, p.header.dtype.size);
    return a;
}

// The first bytes of a file: enough for any header a writer makes (numpy pads to 64; a version
// 2.0 header may be up to 4 GiB, which no array needs).
constexpr std::size_t kHeaderBytes = std::size_t(1) << 20;

std::string fileStart(const std::filesystem::path& path, std::uint64_t* size)
{
    std::error_code ec;
    *size = std::filesystem::file_size(path, ec);
    if (ec)
        return paths::readFile(path, kHeaderBytes); // says why it cannot be read
    std::ifstream in(path, std::ios::binary);
    std::string head(std::size_t(std::min<std::uint64_t>(*size, kHeaderBytes)), '\0');
    if (!in.read(head.data(), std::streamsize(head.size())))
        return paths::readFile(path, kHeaderBytes);
    return head;
}

} // namespace

NpyInfo probeNpy(const std::filesystem::path& path)
{
    std::uint64_t size = 0;
    const std::string head = fileStart(path, &size);
    const Parsed p = parseHeader(head, path.string());
    checkDataSize(p, size - std::min<std::uint64_t>(size, p.dataStart), path.string());
    return {p.header.dtype, p.header.shape, p.header.fortranOrder};
}

HostArray readNpy(const std::filesystem::path& path)
{
    // The header first, then the data read once, straight into the array.
    std::uint64_t size = 0;
    const std::string head = fileStart(path, &size);
    const Parsed p = parseHeader(head, path.string());
    checkDataSize(p, size - std::min<std::uint64_t>(size, p.dataStart), path.string());
    if (p.dataBytes > kMaxDataFileBytes)
        throwUsage("readNpy", path.string() + " holds " + std::to_string(p.dataBytes) + " bytes of data; at most " +
                                  std::to_string(kMaxDataFileBytes) + " are read");
    std::vector<std::uint8_t> bytes(std::size_t(p.dataBytes));
    std::ifstream in(path, std::ios::binary);
    in.seekg(std::streamoff(p.dataStart));
    if (!in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(bytes.size())))
        throw Error(ErrorDomain::System, "readNpy", 0, "", path.string() + ": the data could not be read");
    return finish(p, std::move(bytes));
}

HostArray parseNpy(std::string_view file, std::string_view name)
{
    const Parsed p = parseHeader(file, name);
    const std::string_view data = file.substr(std::min(file.size(), p.dataStart));
    checkDataSize(p, data.size(), name);
    return finish(p, std::vector<std::uint8_t>(data.begin(), data.end()));
}

} // namespace ks::io
