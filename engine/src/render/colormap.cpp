#include "ks/render/colormap.hpp"

#include <algorithm>
#include <cmath>

namespace ks::render {
namespace {

struct Stop {
    float t, r, g, b;
};

struct Map {
    std::string_view name;
    std::vector<Stop> stops;
};

const std::vector<Map>& maps()
{
    static const std::vector<Map> kMaps{
        {"viridis",
         {{0.f, .267f, .005f, .329f},
          {.125f, .283f, .141f, .458f},
          {.25f, .254f, .265f, .530f},
          {.375f, .207f, .372f, .553f},
          {.5f, .164f, .471f, .558f},
          {.625f, .128f, .567f, .551f},
          {.75f, .135f, .659f, .518f},
          {.875f, .369f, .789f, .383f},
          {1.f, .993f, .906f, .144f}}},
        {"magma",
         {{0.f, .001f, .000f, .014f},
          {.25f, .232f, .059f, .437f},
          {.5f, .550f, .161f, .506f},
          {.75f, .868f, .288f, .409f},
          {1.f, .987f, .991f, .750f}}},
        {"inferno",
         {{0.f, .001f, .000f, .014f},
          {.25f, .258f, .039f, .406f},
          {.5f, .578f, .148f, .404f},
          {.75f, .865f, .317f, .226f},
          {1.f, .988f, .998f, .645f}}},
        {"plasma",
         {{0.f, .050f, .030f, .528f},
          {.25f, .494f, .012f, .658f},
          {.5f, .798f, .280f, .470f},
          {.75f, .973f, .585f, .254f},
          {1.f, .940f, .975f, .131f}}},
        {"gray", {{0.f, 0.f, 0.f, 0.f}, {1.f, 1.f, 1.f, 1.f}}},
        {"coolwarm", {{0.f, .230f, .299f, .754f}, {.5f, .865f, .865f, .865f}, {1.f, .706f, .016f, .150f}}},
        {"turbo",
         {{0.f, .190f, .072f, .232f},
          {.125f, .255f, .408f, .884f},
          {.25f, .157f, .735f, .924f},
          {.375f, .196f, .930f, .616f},
          {.5f, .640f, .990f, .236f},
          {.625f, .937f, .835f, .232f},
          {.75f, .983f, .498f, .137f},
          {.875f, .843f, .192f, .020f},
          {1.f, .480f, .016f, .011f}}},
    };
    return kMaps;
}

} // namespace

const std::vector<std::string_view>& colormapNames()
{
    static const std::vector<std::string_view> kNames = [] {
        std::vector<std::string_view> n;
        for (const Map& m : maps())
            n.push_back(m.name);
        return n;
    }();
    return kNames;
}

bool isColormap(std::string_view name)
{
    for (const Map& m : maps())
        if (m.name == name)
            return true;
    return false;
}

std::array<float, 3> colormap(std::string_view name, float t)
{
    const Map* map = &maps()[4]; // gray
    for (const Map& m : maps())
        if (m.name == name)
            map = &m;
    t = std::isnan(t) ? 0.f : std::clamp(t, 0.f, 1.f);
    const auto& s = map->stops;
    for (std::size_t i = 1; i < s.size(); ++i) {
        if (t <= s[i].t) {
            const float f = (t - s[i - 1].t) / (s[i].t - s[i - 1].t);
            return {s[i - 1].r + f * (s[i].r - s[i - 1].r), s[i - 1].g + f * (s[i].g - s[i - 1].g),
                    s[i - 1].b + f * (s[i].b - s[i - 1].b)};
        }
    }
    return {s.back().r, s.back().g, s.back().b};
}

std::vector<std::uint8_t> colormapTexels(std::string_view name, int n)
{
    std::vector<std::uint8_t> out(std::size_t(n) * 4);
    for (int i = 0; i < n; ++i) {
        const auto c = colormap(name, n > 1 ? float(i) / float(n - 1) : 0.f);
        for (int k = 0; k < 3; ++k)
            out[std::size_t(i) * 4 + std::size_t(k)] = std::uint8_t(std::lround(c[std::size_t(k)] * 255.f));
        out[std::size_t(i) * 4 + 3] = 255;
    }
    return out;
}

float normalizeValue(float v, float lo, float hi, float scale)
{
    if (hi == lo)
        return 0.5f;
    const float t = (v * scale - lo) / (hi - lo);
    return std::isnan(t) ? 0.f : std::clamp(t, 0.f, 1.f);
}

} // namespace ks::render
