// A texture sampled into a buffer (normalized reads of an RGBA8 texture).
__global__ void sampleTexture(cudaTextureObject_t tex, float* luminance, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    float4 c = tex2D<float4>(tex, x + 0.5f, y + 0.5f);
    luminance[y * width + x] = 0.299f * c.x + 0.587f * c.y + 0.114f * c.z;
}
