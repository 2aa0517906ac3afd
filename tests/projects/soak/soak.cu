// The soak project's kernel (bench/soak.cpp edits it every few frames; docs/hardening.md).
// A wave over a 2-D height field, and points riding it.
extern "C" __global__ void soak_step(float* height, float4* points, int cols, int rows, float time)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= cols || y >= rows)
        return;
    const float u = float(x) / float(cols), v = float(y) / float(rows);
    const float h = 0.5f + 0.25f * __sinf(12.f * u + time) * __cosf(9.f * v - 0.7f * time);
    const int i = y * cols + x;
    height[i] = h;
    points[i] = make_float4(2.f * u - 1.f, h - 0.5f, 2.f * v - 1.f, 1.f);
}
