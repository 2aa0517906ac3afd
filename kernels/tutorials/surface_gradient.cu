// A surface written by every thread: a moving gradient.
__global__ void gradient(cudaSurfaceObject_t out, int width, int height, float time)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    uchar4 c = make_uchar4((unsigned char)(255 * x / width), (unsigned char)(255 * y / height),
                           (unsigned char)(127.5f + 127.5f * __sinf(time)), 255);
    surf2Dwrite(c, out, x * sizeof(uchar4), y);
}
