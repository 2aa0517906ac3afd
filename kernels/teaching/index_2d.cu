// 2-D indexing: one thread per pixel of a width x height image, blocks tile the image.
// The guard returns early for the threads of the last blocks that hang over the edge.
extern "C" __global__ void gradient_2d(float* out, int width, int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    out[y * width + x] = (float)x / (float)width + (float)y / (float)height;
}

// The same into an RGBA8 image through a surface (x is in bytes for surf2Dwrite).
extern "C" __global__ void gradient_2d_surface(cudaSurfaceObject_t out, int width, int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    const unsigned char r = (unsigned char)(255 * x / (width > 1 ? width - 1 : 1));
    const unsigned char g = (unsigned char)(255 * y / (height > 1 ? height - 1 : 1));
    surf2Dwrite(make_uchar4(r, g, 128, 255), out, x * (int)sizeof(uchar4), y);
}
