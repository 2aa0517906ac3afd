// The Mandelbrot set into an RGBA image.
__global__ void mandelbrot(uchar4* img, int width, int height, float scale, int maxIter)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    float cr = (x - width * 0.6f) / (height * 0.4f) * scale;
    float ci = (y - height * 0.5f) / (height * 0.4f) * scale;
    float zr = 0.0f, zi = 0.0f;
    int i = 0;
    for (; i < maxIter && zr * zr + zi * zi < 4.0f; ++i) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
    }
    unsigned char v = (unsigned char)(255 * i / maxIter);
    img[y * width + x] = make_uchar4(v, v / 2, 255 - v, 255);
}
