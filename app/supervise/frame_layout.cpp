#include "supervise/frame_layout.hpp"

#include "ks/gl/memory_object.hpp"
#include "ks/gl/objects.hpp"

#include <algorithm>
#include <vector>

namespace ks::app::supervise {

namespace {

// Every pixel different from its neighbours in every channel, so a layout that moves any tile,
// row or column shows.
std::vector<std::uint8_t> probePixels()
{
    std::vector<std::uint8_t> p(std::size_t(kProbeSide) * kProbeSide * 4);
    for (int y = 0; y < kProbeSide; ++y)
        for (int x = 0; x < kProbeSide; ++x) {
            const std::uint32_t h = (std::uint32_t(x) * 73856093u) ^ (std::uint32_t(y) * 19349663u) ^ 0x9e3779b9u;
            std::uint8_t* q = &p[(std::size_t(y) * kProbeSide + std::size_t(x)) * 4];
            q[0] = std::uint8_t(x);
            q[1] = std::uint8_t(y);
            q[2] = std::uint8_t(h >> 8);
            q[3] = std::uint8_t(h >> 16);
        }
    return p;
}

std::size_t roundUp(std::size_t n, std::size_t to)
{
    return (n + to - 1) / to * to;
}

} // namespace

std::size_t textureSlotBytes(int width, int height)
{
    return roundUp(std::size_t(width), 64) * roundUp(std::size_t(height), 128) * 4 + (std::size_t(64) << 10);
}

void writeProbe(GLuint memoryObject)
{
    gl::Texture2D probe = gl::Texture2D::onMemory(memoryObject, 0, kProbeSide, kProbeSide, GL_RGBA8);
    const std::vector<std::uint8_t> pixels = probePixels();
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    probe.upload(GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
}

std::string checkProbe(GLuint memoryObject)
{
    gl::Texture2D probe = gl::Texture2D::onMemory(memoryObject, 0, kProbeSide, kProbeSide, GL_RGBA8);
    std::vector<std::uint8_t> seen(std::size_t(kProbeSide) * kProbeSide * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    probe.download(GL_RGBA, GL_UNSIGNED_BYTE, seen.data(), seen.size());
    const std::vector<std::uint8_t> expected = probePixels();
    std::size_t wrong = 0, first = 0;
    for (std::size_t i = 0; i < seen.size(); i += 4)
        if (!std::equal(&seen[i], &seen[i] + 4, &expected[i]) && wrong++ == 0)
            first = i / 4;
    if (wrong == 0)
        return {};
    return std::to_string(wrong) + " of " + std::to_string(kProbeSide * kProbeSide) +
           " probe pixels differ (the first at x " + std::to_string(first % kProbeSide) + ", y " +
           std::to_string(first / kProbeSide) + "): this GL does not see the texture as the worker's GL wrote it";
}

} // namespace ks::app::supervise
