// Kernelscope's default demo: every thread colours the pixel it owns by its own coordinates.
// Edit a block size in the app and watch the tiles change: one tile is one block, the gradient
// inside it is threadIdx, the dark lines are thread 0 of each row and column of the block.
#include <ks_device/thread_colors.cuh>

// Writes into a GL texture mapped for this frame, through a surface object.
extern "C" __global__ void thread_colors_surface(cudaSurfaceObject_t out, int width, int height, float time)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= (unsigned)width || y >= (unsigned)height)
        return; // the last blocks hang over the image's edge
    const ks::Rgba8 c =
        ks::demoThreadColor(blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y, blockDim.x, blockDim.y, gridDim.x, time);
    surf2Dwrite(make_uchar4(c.r, c.g, c.b, c.a), out, x * sizeof(uchar4), y);
}

// The same picture into a linear buffer (a GL buffer mapped for this frame), row-major.
extern "C" __global__ void thread_colors_buffer(uchar4* out, int width, int height, float time)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= (unsigned)width || y >= (unsigned)height)
        return;
    const ks::Rgba8 c =
        ks::demoThreadColor(blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y, blockDim.x, blockDim.y, gridDim.x, time);
    out[(size_t)y * width + x] = make_uchar4(c.r, c.g, c.b, c.a);
}
