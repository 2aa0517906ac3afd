// A box blur of an RGBA image.
__global__ void boxBlur(const uchar4* in, uchar4* out, int w, int h, int radius)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    int4 sum = make_int4(0, 0, 0, 0);
    int count = 0;
    for (int dy = -radius; dy <= radius; ++dy)
        for (int dx = -radius; dx <= radius; ++dx) {
            int sx = min(max(x + dx, 0), w - 1), sy = min(max(y + dy, 0), h - 1);
            uchar4 p = in[sy * w + sx];
            sum.x += p.x; sum.y += p.y; sum.z += p.z; sum.w += p.w;
            ++count;
        }
    out[y * w + x] = make_uchar4(sum.x / count, sum.y / count, sum.z / count, sum.w / count);
}
