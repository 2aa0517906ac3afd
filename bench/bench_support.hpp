#pragma once
// Small helpers the benchmarks share (each bench/<name>.cpp is its own executable).
#include <algorithm>
#include <cstddef>
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

} // namespace ks::bench
