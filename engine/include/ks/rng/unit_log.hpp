#pragma once
// The natural logarithm of a uniform sample u in (0, 1], for the Box-Muller normals of the Philox
// fills: the same reduction as any float log (u = m * 2^e with m in [2/3, 4/3), so t = m - 1 is
// exact and log1p(t) keeps full relative accuracy near u = 1), without the tests for zero,
// negative, denormal, infinite and NaN inputs a general logf must make and u never needs.
// log1p(t) = t + t^2 Q(t), Q a degree-8 polynomial fitted by Chebyshev interpolation of
// (log1p(t) - t) / t^2 on [-1/3, 1/3] (|error| < 2.9e-8). Over all 2^32 values of cuRAND's
// u = x * 2^-32 + 2^-33 the result is within 0.93 ulp of the exact logarithm (checked exhaustively
// on the host with the same float operations; tests/unit/test_rng_unit_log.cpp samples it).
// Host and device compile the same operations (fmaf is exact on both), so they give the same bits.
#if defined(__CUDACC__)
#define KS_UNIT_LOG_HD __host__ __device__
#else
#define KS_UNIT_LOG_HD
#endif

#include <cmath>
#include <cstring>

namespace ks::rng {

KS_UNIT_LOG_HD inline float logUnitInterval(float u)
{
    int bits;
    std::memcpy(&bits, &u, sizeof bits);
    const int e = (bits - 0x3f2aaaab) >> 23; // 0x3f2aaaab: 2/3; e is the power of two taken out
    const int mbits = bits - (e << 23);
    float m;
    std::memcpy(&m, &mbits, sizeof m); // u / 2^e, in [2/3, 4/3)
    const float t = m - 1.0f;
    float q = -1.273415209e-01f;
    q = fmaf(q, t, 1.375653882e-01f);
    q = fmaf(q, t, -1.221961747e-01f);
    q = fmaf(q, t, 1.405421826e-01f);
    q = fmaf(q, t, -1.667809407e-01f);
    q = fmaf(q, t, 2.000732208e-01f);
    q = fmaf(q, t, -2.499983871e-01f);
    q = fmaf(q, t, 3.333327141e-01f);
    q = fmaf(q, t, -5.000000036e-01f);
    const float log1pt = fmaf(t * t, q, t);
    // e * ln 2 in two parts: the high part has 12 trailing zero bits, so e * hi is exact.
    const float ef = float(e);
    return fmaf(ef, 0.693145751953125f, fmaf(ef, 1.428606765330187e-06f, log1pt));
}

} // namespace ks::rng

#undef KS_UNIT_LOG_HD
