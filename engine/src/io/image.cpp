#include "ks/io/image.hpp"

#include "ks/core/atomic_file.hpp"
#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"

#include <stb_image.h>
#include <stb_image_write.h>

#include <cerrno>
#include <cstdlib>
#include <climits>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

namespace ks::io {

void writePng(const std::filesystem::path& path, const Rgba8Image& image)
{
    if (image.width <= 0 || image.height <= 0 || image.pixels.size() != std::size_t(image.width) * image.height * 4)
        throwUsage("writePng", "image of " + std::to_string(image.width) + "x" + std::to_string(image.height) +
                                   " has " + std::to_string(image.pixels.size()) + " bytes");
    // Encoded in memory, then written and renamed into place (paths::writeFileAtomically): every
    // write is checked (stbi_write_png to a file ignores a failed fwrite, so a full disk left a
    // truncated PNG that was reported written) and a failed write leaves no partial file.
    std::string bytes;
    const auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data), std::size_t(size));
    };
    if (!stbi_write_png_to_func(append, &bytes, image.width, image.height, 4, image.pixels.data(), image.width * 4))
        throw Error(ErrorDomain::System, "stbi_write_png_to_func", 0, "", path.string() + ": cannot encode the PNG");
    paths::writeFileAtomically(path, bytes);
}

Rgba8Image readPng(const std::filesystem::path& path)
{
    int w = 0, h = 0, n = 0;
    unsigned char* data = stbi_load(path.c_str(), &w, &h, &n, 4);
    if (!data)
        throw Error(ErrorDomain::System, "stbi_load", 0, "", path.string() + ": " + stbi_failure_reason());
    Rgba8Image img;
    img.width = w;
    img.height = h;
    img.pixels.assign(data, data + std::size_t(w) * h * 4);
    stbi_image_free(data);
    return img;
}

namespace {

constexpr const char* kDecodable = "stb_image reads PNG, JPEG, BMP, TGA, GIF, PSD, HDR, PIC and PNM";

ImageInfo infoOf(int w, int h, int n, bool is16, bool hdr)
{
    return {w, h, n, hdr ? Dtype::float32() : is16 ? Dtype::uint16() : Dtype::uint8()};
}

[[noreturn]] void notAnImage(const std::filesystem::path& path)
{
    throwUsage("readImage", path.string() + " is not an image stb_image reads (" + stbi_failure_reason() + "; " +
                                kDecodable + ")");
}

// stb_image accepts a header of 0 pixels (an HDR file saying "+X 0"); such an image has nothing to
// bind, and an empty array would reach memcpy with a null pointer.
void refuseEmpty(const std::filesystem::path& path, int w, int h)
{
    if (w <= 0 || h <= 0)
        throwUsage("readImage", path.string() + ": the header says " + std::to_string(w) + "x" + std::to_string(h) +
                                    " pixels; an image needs at least one");
}

} // namespace

ImageInfo probeImage(const std::filesystem::path& path)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) // fopen on a FIFO could block
        (void)paths::readFile(path, 0);             // throws the reason: missing, a directory, a FIFO, ...
    const std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!f)
        throw Error(ErrorDomain::System, "fopen", errno, "", path.string() + ": " + std::strerror(errno));
    int w = 0, h = 0, n = 0;
    if (!stbi_info_from_file(f.get(), &w, &h, &n))
        notAnImage(path);
    refuseEmpty(path, w, h);
    return infoOf(w, h, n, stbi_is_16_bit_from_file(f.get()) != 0, stbi_is_hdr_from_file(f.get()) != 0);
}

HostArray readImage(const std::filesystem::path& path, const ImageOptions& options)
{
    if (options.channels < 0 || options.channels > 4)
        throwUsage("readImage", "ImageOptions::channels is " + std::to_string(options.channels) + "; 0 to 4 are");
    const std::string file = paths::readFile(path, INT_MAX);
    const auto* bytes = reinterpret_cast<const stbi_uc*>(file.data());
    const int length = int(file.size());
    int w = 0, h = 0, n = 0;
    if (!stbi_info_from_memory(bytes, length, &w, &h, &n))
        notAnImage(path);
    refuseEmpty(path, w, h);
    const ImageInfo info = infoOf(w, h, n, stbi_is_16_bit_from_memory(bytes, length) != 0,
                                  stbi_is_hdr_from_memory(bytes, length) != 0);
    const int channels = options.channels ? options.channels : info.channels;
    const std::uint64_t rowBytes = std::uint64_t(w) * std::uint64_t(channels) * info.dtype.size;
    if (std::uint64_t(h) * rowBytes > options.maxBytes)
        throwUsage("readImage", path.string() + " is " + std::to_string(w) + "x" + std::to_string(h) + "x" +
                                    std::to_string(channels) + " " + std::string(info.dtype.name()) + ", " +
                                    std::to_string(std::uint64_t(h) * rowBytes) + " bytes decoded; the limit is " +
                                    std::to_string(options.maxBytes));

    int dw = 0, dh = 0, dn = 0;
    void* pixels = info.dtype == Dtype::float32()  ? static_cast<void*>(stbi_loadf_from_memory(bytes, length, &dw, &dh, &dn, channels))
                   : info.dtype == Dtype::uint16() ? static_cast<void*>(stbi_load_16_from_memory(bytes, length, &dw, &dh, &dn, channels))
                                                   : static_cast<void*>(stbi_load_from_memory(bytes, length, &dw, &dh, &dn, channels));
    if (!pixels)
        throwUsage("readImage", path.string() + ": cannot decode the image: " + stbi_failure_reason());
    const std::unique_ptr<void, void (*)(void*)> owner(pixels, &stbi_image_free);
    if (dw != w || dh != h)
        throwUsage("readImage", path.string() + ": the header says " + std::to_string(w) + "x" + std::to_string(h) +
                                    ", the decoder made " + std::to_string(dw) + "x" + std::to_string(dh));

    HostArray out{info.dtype, {h, w}, std::vector<std::uint8_t>(std::size_t(h) * rowBytes)};
    if (channels > 1)
        out.shape.push_back(channels);
    const auto* src = static_cast<const std::uint8_t*>(pixels);
    for (int y = 0; y < h; ++y) {
        const int from = options.flipVertically ? h - 1 - y : y;
        std::memcpy(out.bytes.data() + std::size_t(y) * rowBytes, src + std::size_t(from) * rowBytes, rowBytes);
    }
    return out;
}

CompareResult compare(const Rgba8Image& a, const Rgba8Image& b, int epsilon)
{
    CompareResult r;
    r.sameSize = a.width == b.width && a.height == b.height && a.pixels.size() == b.pixels.size();
    if (!r.sameSize)
        return r;
    r.total = std::size_t(a.width) * a.height;
    for (std::size_t p = 0; p < r.total; ++p) {
        int worst = 0;
        for (int c = 0; c < 4; ++c)
            worst = std::max(worst, std::abs(int(a.pixels[p * 4 + c]) - int(b.pixels[p * 4 + c])));
        r.maxDifference = std::max(r.maxDifference, worst);
        if (worst > epsilon)
            ++r.mismatched;
    }
    return r;
}

} // namespace ks::io
