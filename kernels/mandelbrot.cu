// The Mandelbrot set into a texture (through a surface object), coloured by a smooth escape count.
extern "C" __global__ void mandelbrot(cudaSurfaceObject_t out, int width, int height, float2 center, float scale,
                                      int maxIter, float time)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    const float aspect = (float)width / (float)height;
    const float cr = center.x + (2.0f * x / width - 1.0f) * scale * aspect;
    const float ci = center.y - (2.0f * y / height - 1.0f) * scale;
    float zr = 0.0f, zi = 0.0f;
    int i = 0;
    for (; i < maxIter && zr * zr + zi * zi < 256.0f; ++i) {
        const float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
    }
    uchar4 c = make_uchar4(0, 0, 0, 255);
    if (i < maxIter) {
        const float s = i + 1.0f - log2f(log2f(zr * zr + zi * zi) * 0.5f);
        const float k = 0.08f * s + 0.3f * time;
        c.x = (unsigned char)(127.5f + 127.5f * __cosf(k));
        c.y = (unsigned char)(127.5f + 127.5f * __cosf(k + 2.1f));
        c.z = (unsigned char)(127.5f + 127.5f * __cosf(k + 4.2f));
    }
    surf2Dwrite(c, out, x * sizeof(uchar4), y);
}
