// A transpose that takes its sizes, as course notes write it.
__global__ void transpose(float *out, const float *in, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height)
        out[x * height + y] = in[y * width + x];
}
