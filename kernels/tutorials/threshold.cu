// A mask of the values above a level, extern "C", with a bool flag.
extern "C" __global__ void threshold(const float* in, unsigned char* mask, float level, bool invert, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        mask[i] = ((in[i] > level) != invert) ? 255 : 0;
}
