// The CUDA samples' simpleGL: a width x height grid of vertices moved by a sine wave, written into a
// GL vertex buffer every frame.
extern "C" __global__ void simple_vbo_kernel(float4* pos, int width, int height, float time)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    float u = x / (float)width;
    float v = y / (float)height;
    u = u * 2.0f - 1.0f;
    v = v * 2.0f - 1.0f;
    const float freq = 4.0f;
    const float w = sinf(u * freq + time) * cosf(v * freq + time) * 0.5f;
    pos[y * width + x] = make_float4(u, w, v, 1.0f);
}
