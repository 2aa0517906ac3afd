#include "ks/io/data_source.hpp"

#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/io/npy.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>

namespace ks::io {

namespace {

constexpr std::string_view kForms =
    "expected FILE.npy, an image (FILE.png .jpg .jpeg .bmp .tga .gif .psd .hdr .pic .pnm .ppm .pgm), "
    "FILE:DTYPE:D0xD1[x...] (raw elements, e.g. a.raw:f4:480x640), zeros, ones, range, random[:SEED], "
    "normal[:SEED] or a number";

constexpr std::array<std::pair<std::string_view, DataKind>, 5> kKeywords = {{
    {"zeros", DataKind::Zeros},
    {"ones", DataKind::Ones},
    {"range", DataKind::Range},
    {"random", DataKind::Random},
    {"normal", DataKind::Normal},
}};

constexpr std::array<std::string_view, 12> kImageExtensions = {".png", ".jpg", ".jpeg", ".bmp", ".tga", ".gif",
                                                               ".psd", ".hdr", ".pic", ".pnm", ".ppm", ".pgm"};

[[noreturn]] void refuse(std::string_view text, const std::string& why)
{
    throwUsage("parseDataSpec", "'" + std::string(text.substr(0, 200)) + "' is not a data spec: " + why);
}

bool endsWithNoCase(std::string_view text, std::string_view suffix)
{
    if (text.size() < suffix.size())
        return false;
    return std::equal(suffix.begin(), suffix.end(), text.end() - std::ptrdiff_t(suffix.size()),
                      [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); });
}

// The whole of `text` as a decimal number of type T; nullopt otherwise.
template <class T>
std::optional<T> wholeNumber(std::string_view text)
{
    T v{};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty())
        return std::nullopt;
    return v;
}

std::vector<std::int64_t> readShape(std::string_view spec, std::string_view text)
{
    std::vector<std::int64_t> shape;
    std::size_t begin = 0;
    for (;;) {
        const std::size_t x = text.find('x', begin);
        const std::string_view field = text.substr(begin, x == std::string_view::npos ? x : x - begin);
        const auto d = wholeNumber<std::int64_t>(field);
        if (!d || *d < 0 || *d > (std::int64_t(1) << 48))
            refuse(spec, "the shape '" + std::string(text.substr(0, 60)) +
                             "' is not D0xD1[x...] with each D a whole number (e.g. 480x640x4)");
        shape.push_back(*d);
        if (shape.size() > 32)
            refuse(spec, "the shape has more than 32 dimensions");
        if (x == std::string_view::npos)
            return shape;
        begin = x + 1;
    }
}

// SplitMix64 (Steele, Lea, Flood 2014; Vigna's reference splitmix64.c): each output is a fixed
// function of the seed and the index, the same everywhere.
class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : m_state(seed) {}
    std::uint64_t next() noexcept
    {
        std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, 1) with `bits` of precision (the significand of the target type), exact in it.
    double uniform(int bits = 53) noexcept { return std::ldexp(double(next() >> (64 - bits)), -bits); }

private:
    std::uint64_t m_state;
};

int significandBits(Dtype t) noexcept { return t.size == 2 ? 11 : t.size == 4 ? 24 : 53; }

} // namespace

DataSpec parseDataSpec(std::string_view text)
{
    constexpr std::string_view kConvert = ":convert";
    if (text.size() > kConvert.size() && text.substr(text.size() - kConvert.size()) == kConvert) {
        DataSpec spec = parseDataSpec(text.substr(0, text.size() - kConvert.size()));
        if (spec.kind != DataKind::Npy && spec.kind != DataKind::Image && spec.kind != DataKind::Raw)
            refuse(text, "only files convert (FILE.npy:convert, an image, FILE:DTYPE:SHAPE:convert); generated "
                         "data is made in the target's type");
        if (spec.convert)
            refuse(text, "\":convert\" is given twice");
        spec.convert = true;
        return spec;
    }
    DataSpec spec;
    if (text.empty())
        refuse(text, "it is empty; " + std::string(kForms));
    for (const auto& [word, kind] : kKeywords) {
        if (text == word) {
            spec.kind = kind;
            return spec;
        }
        if (text.size() > word.size() && text.substr(0, word.size()) == word && text[word.size()] == ':') {
            if (kind != DataKind::Random && kind != DataKind::Normal)
                refuse(text, std::string(word) + " takes no argument");
            const auto seed = wholeNumber<std::uint64_t>(text.substr(word.size() + 1));
            if (!seed)
                refuse(text, "expected " + std::string(word) + ":SEED, SEED a whole number from 0 to 2^64-1");
            spec.kind = kind;
            spec.seed = *seed;
            return spec;
        }
    }
    if (const auto number = wholeNumber<double>(text)) {
        spec.kind = DataKind::Number;
        spec.number = *number;
        return spec;
    }
    if (endsWithNoCase(text, ".npy")) {
        spec.kind = DataKind::Npy;
        spec.path = std::string(text);
        return spec;
    }
    for (std::string_view ext : kImageExtensions)
        if (endsWithNoCase(text, ext)) {
            spec.kind = DataKind::Image;
            spec.path = std::string(text);
            return spec;
        }
    const std::size_t shapeColon = text.rfind(':');
    const std::size_t dtypeColon = shapeColon == 0 || shapeColon == std::string_view::npos
                                       ? std::string_view::npos
                                       : text.rfind(':', shapeColon - 1);
    if (shapeColon == std::string_view::npos)
        refuse(text, std::string(kForms));
    if (dtypeColon == std::string_view::npos || dtypeColon == 0)
        refuse(text, "a raw file is FILE:DTYPE:D0xD1[x...] (e.g. a.raw:f4:480x640); " + std::string(kForms));
    const std::string_view dtype = text.substr(dtypeColon + 1, shapeColon - dtypeColon - 1);
    const auto parsed = parseDtype(dtype, &spec.order);
    if (!parsed)
        refuse(text, "'" + std::string(dtype.substr(0, 60)) +
                         "' is not a dtype of raw data (float32 or f4, float64 or f8, float16, int8..int64, "
                         "uint8..uint64 (u1..u8), bool, or the C names float, double, int, uchar, ...)");
    spec.kind = DataKind::Raw;
    spec.dtype = *parsed;
    spec.shape = readShape(text, text.substr(shapeColon + 1));
    spec.path = std::string(text.substr(0, dtypeColon));
    return spec;
}

std::string formatDataSpec(const DataSpec& spec)
{
    if (spec.convert) {
        DataSpec plain = spec;
        plain.convert = false;
        return formatDataSpec(plain) + ":convert";
    }
    switch (spec.kind) {
    case DataKind::Npy:
    case DataKind::Image: return spec.path.string();
    case DataKind::Raw: {
        std::string dtype = spec.dtype.descr();
        if (spec.order == ByteOrder::Big && spec.dtype.size > 1)
            dtype[0] = '>';
        std::string s = spec.path.string() + ":" + dtype + ":";
        for (std::size_t i = 0; i < spec.shape.size(); ++i)
            s += (i ? "x" : "") + std::to_string(spec.shape[i]);
        return s;
    }
    case DataKind::Random:
    case DataKind::Normal:
        return std::string(spec.kind == DataKind::Random ? "random" : "normal") +
               (spec.seed ? ":" + std::to_string(spec.seed) : "");
    case DataKind::Number: {
        std::array<char, 64> buffer{};
        const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), spec.number);
        return std::string(buffer.data(), result.ptr);
    }
    default:
        for (const auto& [word, kind] : kKeywords)
            if (kind == spec.kind)
                return std::string(word);
        return "?";
    }
}

HostArray loadData(const DataSpec& spec, const LoadOptions& options)
{
    switch (spec.kind) {
    case DataKind::Npy: return readNpy(spec.path);
    case DataKind::Image: return readImage(spec.path, options.image);
    case DataKind::Raw: return readRaw(spec.path, spec.dtype, spec.shape, spec.order);
    default: return generate(spec.kind, options.dtype, options.shape, spec.seed, spec.number);
    }
}

HostArray readRaw(const std::filesystem::path& path, Dtype dtype, const std::vector<std::int64_t>& shape,
                  ByteOrder order)
{
    const std::optional<std::uint64_t> expected = byteCount(dtype, shape);
    if (!expected || *expected > kMaxDataFileBytes)
        throwUsage("readRaw", path.string() + ": the shape " + shapeText(shape) + " of " + std::string(dtype.name()) +
                                  " is too large");
    const std::string file = paths::readFile(path, kMaxDataFileBytes);
    if (file.size() != *expected)
        throwUsage("readRaw", path.string() + " holds " + std::to_string(file.size()) + " bytes; " + shapeText(shape) +
                                  " " + std::string(dtype.name()) + " is " + std::to_string(*expected) + " bytes");
    HostArray a{dtype, shape, std::vector<std::uint8_t>(file.begin(), file.end())};
    if (order == ByteOrder::Big)
        swapByteOrder(a);
    return a;
}

DataHeader probeData(const DataSpec& spec)
{
    switch (spec.kind) {
    case DataKind::Npy: {
        const NpyInfo info = probeNpy(spec.path);
        return {info.dtype, info.shape, false};
    }
    case DataKind::Image: {
        const ImageInfo info = probeImage(spec.path);
        std::vector<std::int64_t> shape{info.height, info.width};
        if (info.channels > 1)
            shape.push_back(info.channels);
        return {info.dtype, shape, true};
    }
    case DataKind::Raw: {
        const std::optional<std::uint64_t> expected = byteCount(spec.dtype, spec.shape);
        std::error_code ec;
        const std::uint64_t size = std::filesystem::file_size(spec.path, ec);
        if (ec)
            paths::readFile(spec.path, 1); // says why it cannot be read
        if (!expected || size != *expected)
            throwUsage("readRaw", spec.path.string() + " holds " + std::to_string(size) + " bytes; " +
                                      shapeText(spec.shape) + " " + std::string(spec.dtype.name()) + " is " +
                                      (expected ? std::to_string(*expected) + " bytes" : std::string("too large")));
        return {spec.dtype, spec.shape, false};
    }
    default: break;
    }
    throwUsage("probeData", "'" + formatDataSpec(spec) + "' is generated data: it takes the shape of what it fills");
}

HostArray generate(DataKind kind, Dtype dtype, const std::vector<std::int64_t>& shape, std::uint64_t seed,
                   double number)
{
    const std::optional<std::uint64_t> bytes = byteCount(dtype, shape);
    if (!bytes || *bytes > kMaxDataFileBytes)
        throwUsage("generate", "generated data of shape " + shapeText(shape) + " " + std::string(dtype.name()) +
                                   " is larger than " + std::to_string(kMaxDataFileBytes) + " bytes");
    HostArray a{dtype, shape, std::vector<std::uint8_t>(std::size_t(*bytes))};
    const std::size_t count = a.bytes.size() / dtype.size;
    std::uint8_t* out = a.bytes.data();
    switch (kind) {
    case DataKind::Zeros: break;
    case DataKind::Ones:
    case DataKind::Number:
        for (std::size_t i = 0; i < count; ++i)
            storeValue(kind == DataKind::Ones ? 1.0 : number, dtype, out + i * dtype.size);
        break;
    case DataKind::Range:
        for (std::size_t i = 0; i < count; ++i)
            storeValue(double(i), dtype, out + i * dtype.size);
        break;
    case DataKind::Random: {
        SplitMix64 rng(seed);
        for (std::size_t i = 0; i < count; ++i) {
            std::uint8_t* at = out + i * dtype.size;
            if (dtype.kind == DtypeKind::Float)
                storeValue(rng.uniform(significandBits(dtype)), dtype, at);
            else if (dtype.kind == DtypeKind::Bool)
                *at = std::uint8_t(rng.next() >> 63);
            else { // the whole range of the integer type: its low bytes of 64 uniform bits
                const std::uint64_t bits = rng.next();
                for (std::size_t b = 0; b < dtype.size; ++b)
                    at[b] = std::uint8_t(bits >> (8 * b));
            }
        }
        break;
    }
    case DataKind::Normal: {
        if (dtype.kind != DtypeKind::Float)
            throwUsage("generate", "normal makes floating-point data (float16, float32, float64); the target is " +
                                       std::string(dtype.name()));
        SplitMix64 rng(seed);
        for (std::size_t i = 0; i < count; i += 2) {
            double u, v, s;
            do {
                u = rng.uniform() * 2.0 - 1.0; // exact: a power-of-two scale and a subtraction in range
                v = rng.uniform() * 2.0 - 1.0;
                s = std::fma(u, u, v * v); // spelled out so that no compiler contracts it differently
            } while (s >= 1.0 || s == 0.0);
            const double m = std::sqrt(-2.0 * std::log(s) / s);
            storeValue(u * m, dtype, out + i * dtype.size);
            if (i + 1 < count)
                storeValue(v * m, dtype, out + (i + 1) * dtype.size);
        }
        break;
    }
    default:
        throwUsage("generate", "the data of a file (npy, image, raw) is read by loadData, not generated");
    }
    return a;
}

} // namespace ks::io
