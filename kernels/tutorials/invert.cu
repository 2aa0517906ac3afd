// Inverts an RGBA image in place.
__global__ void invert(uchar4* img, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    uchar4 p = img[y * width + x];
    img[y * width + x] = make_uchar4(255 - p.x, 255 - p.y, 255 - p.z, p.w);
}
