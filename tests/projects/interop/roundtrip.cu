// Kernels of the interop round-trip tests: every register flag the pipeline derives is exercised.
extern "C" __global__ void buffers(const float* in, float* out, float* inout, int n, float k)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    out[i] = in[i] * k;     // out: write-discard
    inout[i] += in[i];      // inout: read/write; in: read-only
}

extern "C" __global__ void write_surface(cudaSurfaceObject_t s, int w, int h)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    surf2Dwrite(make_float4(x + 0.25f, y + 0.5f, x * 0.5f - y, 1.0f), s, x * sizeof(float4), y);
}

// Point samples at texel centres of two textures, into a buffer: out[i] = a + b.
extern "C" __global__ void read_textures(cudaTextureObject_t a, cudaTextureObject_t b, float4* out, int w, int h)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    const float4 p = tex2D<float4>(a, x + 0.5f, y + 0.5f);
    const float4 q = tex2D<float4>(b, x + 0.5f, y + 0.5f);
    out[y * w + x] = make_float4(p.x + q.x, p.y + q.y, p.z + q.z, p.w + q.w);
}

// Adds one to every texel of an r32f texture through its surface (read, then write): what a frame
// leaves depends on every frame before it.
extern "C" __global__ void accumulate(cudaSurfaceObject_t s, int w, int h)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    const float v = surf2Dread<float>(s, x * sizeof(float), y);
    surf2Dwrite(v + 1.0f + 0.25f * float((x + y * w) % 8), s, x * sizeof(float), y); // exact in float
}
