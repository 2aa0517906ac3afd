// Sobel edge magnitude of a gray image.
__global__ void sobel(const unsigned char* in, unsigned char* out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1) {
        if (x < width && y < height) out[y * width + x] = 0;
        return;
    }
    int gx = -in[(y - 1) * width + x - 1] - 2 * in[y * width + x - 1] - in[(y + 1) * width + x - 1]
             + in[(y - 1) * width + x + 1] + 2 * in[y * width + x + 1] + in[(y + 1) * width + x + 1];
    int gy = -in[(y - 1) * width + x - 1] - 2 * in[(y - 1) * width + x] - in[(y - 1) * width + x + 1]
             + in[(y + 1) * width + x - 1] + 2 * in[(y + 1) * width + x] + in[(y + 1) * width + x + 1];
    int m = abs(gx) + abs(gy);
    out[y * width + x] = (unsigned char)(m > 255 ? 255 : m);
}
