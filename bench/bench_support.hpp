#pragma once
// Small helpers the benchmarks share (each bench/<name>.cpp is its own executable).
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace ks::bench {

// The median of the samples (the upper one of an even count); -1 when there are none.
inline double median(std::vector<double> v)
{
    if (v.empty())
        return -1;
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
    return v[v.size() / 2];
}

// A number with three decimals, for a row's note.
inline std::string fixed(double v)
{
    char b[32];
    std::snprintf(b, sizeof b, "%.3f", v);
    return b;
}

// The demo kernel with red and blue swapped: a change every pixel shows.
inline std::string swapRedBlue(std::string s)
{
    const std::string from = "make_uchar4(c.r, c.g, c.b, c.a)", to = "make_uchar4(c.b, c.g, c.r, c.a)";
    for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

// Edit `i` of a run tagged `nonce` of the demo kernel `original`: its colours swapped on even edits,
// plus a small kernel whose constant is unique to the edit and the run, so that no cache
// (Kernelscope's memory or disk cache, or NVRTC's own in the driver) can answer: a real compile.
inline std::string editedDemoKernel(const std::string& original, int i, const std::string& nonce)
{
    return (i % 2 == 0 ? swapRedBlue(original) : original) + "\n// edit " + std::to_string(i) + " of run " + nonce +
           "\nextern \"C\" __global__ void ks_edit_marker(float* p)\n{\n    if (p)\n        p[threadIdx.x] = " +
           std::to_string(i) + ".5f + " + std::to_string(std::hash<std::string>{}(nonce) % 1000003) + ".0f;\n}\n";
}

} // namespace ks::bench
