// The colour the default demo gives each pixel, from the coordinates of the thread that wrote it.
// Shared by the demo kernels (compiled by NVRTC) and the tests' host reference (compiled by g++),
// so a test can say exactly which colour a given thread must have produced.
#pragma once

#if defined(__CUDACC__)
#define KS_HD __host__ __device__
#else
#define KS_HD
#include <cmath>
#endif

namespace ks {

struct Rgba8 {
    unsigned char r, g, b, a;
};

KS_HD inline float demoClamp01(float v)
{
    return v < 0.f ? 0.f : (v > 1.f ? 1.f : v);
}

KS_HD inline unsigned char demoToByte(float v)
{
    return (unsigned char)(demoClamp01(v) * 255.f + 0.5f);
}

// sin for the wave. On the device the hardware sine: the precise sinf's range reduction for large
// arguments is most of the demo's code and doubled its compile time (the app recompiles it on
// every edit); the difference to the host's sinf moves a channel by far less than one step.
KS_HD inline float demoSin(float x)
{
#if defined(__CUDA_ARCH__)
    return __sinf(x);
#else
    return sinf(x);
#endif
}

// The hardware's fast division on the device (a reciprocal and a multiply, within 2 ulp here: the
// divisors are small whole numbers), the ordinary one on the host. The precise division's slow
// path for extreme operands made ptxas take about twice as long over the demo.
KS_HD inline float demoDivide(float a, float b)
{
#if defined(__CUDA_ARCH__)
    return __fdividef(a, b);
#else
    return a / b;
#endif
}

// Hue of block (bx, by): neighbouring blocks get clearly different hues (golden-ratio steps).
KS_HD inline void demoBlockHue(unsigned bx, unsigned by, unsigned gridX, float& r, float& g, float& b)
{
    const unsigned linear = by * gridX + bx;
    float h = (float)linear * 0.61803398875f;
    h -= floorf(h);
    // HSV -> RGB with s = 0.65, v = 1, without branches: each channel is a clamped tent over
    // the hue circle (red peaks at 0 and 6, green at 2, blue at 4).
    const float h6 = h * 6.f;
    const float rr = demoClamp01(fabsf(h6 - 3.f) - 1.f);
    const float gg = demoClamp01(2.f - fabsf(h6 - 2.f));
    const float bb = demoClamp01(2.f - fabsf(h6 - 4.f));
    const float s = 0.65f;
    r = 1.f - s + s * rr;
    g = 1.f - s + s * gg;
    b = 1.f - s + s * bb;
}

// The pixel of thread (tx, ty) in block (bx, by) of a grid of gridX blocks across, blocks of
// blockX x blockY threads, at `time` seconds:
// - the block's hue says which block wrote it (blockIdx);
// - brightness rises with threadIdx.x across the block and threadIdx.y down it (threadIdx);
// - thread 0 of each row and column is dark, drawing the block outlines;
// - a wave sweeps across the blocks in launch order, so the picture moves.
KS_HD inline Rgba8 demoThreadColor(unsigned bx, unsigned by, unsigned tx, unsigned ty, unsigned blockX,
                                   unsigned blockY, unsigned gridX, float time)
{
    float r, g, b;
    demoBlockHue(bx, by, gridX, r, g, b);
    const float fx = blockX > 1 ? demoDivide((float)tx, (float)(blockX - 1)) : 0.f;
    const float fy = blockY > 1 ? demoDivide((float)ty, (float)(blockY - 1)) : 0.f;
    float shade = 0.45f + 0.35f * fx + 0.2f * fy;
    const float wave = 0.5f + 0.5f * demoSin(time * 2.0f - (float)(by * gridX + bx) * 0.35f);
    shade *= 0.7f + 0.3f * wave;
    if (tx == 0 || ty == 0)
        shade *= 0.35f;
    Rgba8 c;
    c.r = demoToByte(r * shade);
    c.g = demoToByte(g * shade);
    c.b = demoToByte(b * shade);
    c.a = 255;
    return c;
}

} // namespace ks
