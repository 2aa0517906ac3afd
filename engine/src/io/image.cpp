#include "ks/io/image.hpp"

#include "ks/core/atomic_file.hpp"
#include "ks/core/error.hpp"

#include <stb_image.h>
#include <stb_image_write.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
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
