// What happens with too few blocks.
// scale_once: one element per thread. Launch fewer threads than elements and the rest are never
// written (the "who wrote it" overlay leaves them uncovered).
extern "C" __global__ void scale_once(float* data, float factor, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] *= factor;
}

// scale_grid_stride: each thread strides over the array by the grid's size, so any grid covers it;
// with too few blocks it is still correct but only a few SMs work (see the block timeline).
extern "C" __global__ void scale_grid_stride(float* data, float factor, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        data[i] *= factor;
}
